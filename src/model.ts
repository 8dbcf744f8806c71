// `task-association/model`: the models every area checks its input with (the TREE_VIEW, the
// parameter rows, the link field and menu rows, the install's metrics) and the values they share
// (scope, SEQ_DB, identifiers, the tables' names), with the errors their checks throw. Re-exports only.

export {
  DatabaseConnectionError,
  DatabaseTimeoutError,
  IdentifierError,
  TaskAssociationError,
} from './model/errors.js';
export { IDENTIFIER_PATTERN, Identifier, parseIdentifier, quoteIdentifier } from './model/identifier.js';
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
export { checkScope, formatScope, parseScope, Scope } from './model/scope.js';
export { SeqDb, SeqDbText } from './model/seq-db.js';
export {
  DEFAULT_TABLE_NAMES,
  HOST_TABLES,
  LOGICAL_TABLES,
  type LogicalTable,
  OVERRIDE_PARAMETERS,
  TableNames,
  tableNames,
} from './model/table-names.js';
export {
  Layer,
  Layers,
  parseTreeView,
  TreeView,
  type TreeViewLevel,
  treeViewLevels,
} from './model/tree-view.js';
export { readParameters } from './store/parameters.js';
