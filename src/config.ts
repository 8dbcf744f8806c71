// Public API of src/config: re-exports only.
export {
  CONFIG_ISSUE_CODES,
  ConfigError,
  ConfigIssue,
  ConfigIssueCode,
  type ConfigResult,
  ConfigurationError,
  formatIssue,
  formatIssues,
  formatIssuesInline,
  type Issue,
} from './model/issues.js';
export { serializeJsonSchema, treeViewJsonSchema } from './model/json-schema.js';
export { locateSyntaxError, parseJsonText } from './model/json-text.js';
export { MAX_LAYERS } from './model/layer-rules.js';
export {
  FIELD_TABLE,
  LINK_FIELD_COLUMNS,
  LINK_FIELD_OPCOES,
  LinkFieldInput,
  type LinkFieldRow,
  linkFieldRow,
} from './model/link-field.js';
export {
  MENU_ENTRIES,
  MENU_TABLE,
  MenuEntryInput,
  type MenuEntryKey,
  MenuPlacements,
  MenuRow,
  MenuRowsInput,
  menuRows,
  REPORT_URL,
} from './model/menu.js';
export {
  DEFAULT_METRICS,
  isReservedMetricColumn,
  METRIC_DEFAULT_TYPES,
  Metric,
  MetricDefault,
  type MetricInput,
  Metrics,
  RESERVED_METRIC_COLUMNS,
} from './model/metrics.js';
export {
  buildLink,
  OpcoesEntry,
  type OpcoesParameter,
  parseOpcoes,
  serializeOpcoes,
} from './model/opcoes.js';
export {
  type InstallationParameters,
  NewParameterRow,
  OVERRIDE_TIPO,
  overrideParameterRows,
  PARAMETERS_TABLE,
  ParameterRow,
  TREE_VIEW_PARAMETER,
  TREE_VIEW_TIPO,
  treeViewParameterRow,
} from './model/parameters.js';
export {
  Layer,
  Layers,
  parseTreeView,
  TreeView,
  type TreeViewLevel,
  treeViewLevels,
} from './model/tree-view.js';
export { readParameters } from './store/parameters.js';
