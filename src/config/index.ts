// Public API of src/config: re-exports only.
export {
  CONFIG_ISSUE_CODES,
  ConfigError,
  ConfigIssue,
  ConfigIssueCode,
  type ConfigResult,
  formatIssues,
  formatIssuesInline,
} from './issues.js';
export { JSON_SCHEMA_LIMITS, serializeJsonSchema, treeViewJsonSchema } from './json-schema.js';
export { locateSyntaxError, parseJsonText } from './json-text.js';
export { conventionalColumn, LAYER_KEY_PATTERN, MAX_LAYERS } from './layer-rules.js';
export {
  FIELD_TABLE,
  LINK_FIELD_COLUMNS,
  LINK_FIELD_OPCOES,
  LinkFieldInput,
  type LinkFieldRow,
  linkFieldRow,
} from './link-field.js';
export {
  MENU_ENTRIES,
  MENU_TABLE,
  MenuEntryInput,
  type MenuEntryKey,
  MenuPlacements,
  MenuRow,
  MenuRowsInput,
  menuRowIdentity,
  menuRows,
  REPORT_URL,
} from './menu.js';
export {
  DEFAULT_METRICS,
  isReservedMetricColumn,
  METRIC_DEFAULT_TYPES,
  Metric,
  MetricDefault,
  type MetricInput,
  Metrics,
  RESERVED_METRIC_COLUMNS,
} from './metrics.js';
export {
  buildLink,
  OpcoesEntry,
  type OpcoesParameter,
  opcoesParameters,
  parseOpcoes,
  serializeOpcoes,
} from './opcoes.js';
export {
  type InstallationParameters,
  NewParameterRow,
  OVERRIDE_TIPO,
  overrideParameterRows,
  PARAMETERS_TABLE,
  ParameterRow,
  readParameterRows,
  readParameters,
  TREE_VIEW_PARAMETER,
  TREE_VIEW_TIPO,
  treeViewParameterRow,
} from './parameters.js';
export {
  Layer,
  Layers,
  parseTreeView,
  TreeView,
  type TreeViewLevel,
  treeViewLevels,
} from './tree-view.js';
