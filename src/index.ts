// The public API of `task-association`: an explicit list, so that what a host may import is a choice
// and not whatever a folder happens to export. Each area also has a subpath of its own
// (`task-association/config`, `/resolvers`, `/installer`, `/sync`, `/schema`, `/gallery`, `/testing`);
// the helpers those folders use among themselves are exported from neither. Here, besides the areas:
// the database (open one, or wrap the host's mysql2 pool), the errors every area throws (each a
// TaskAssociationError with a stable `code` and, where it has one, a `path`), the values every area
// shares (scope, SEQ_DB, identifiers, the four tables' names) and the four tables as Drizzle code.

export * from './config.js';
export * from './installer.js';
export {
  DatabaseConnectionError,
  DatabaseTimeoutError,
  IdentifierError,
  TaskAssociationError,
} from './model/errors.js';
export { IDENTIFIER_PATTERN, Identifier, parseIdentifier, quoteIdentifier } from './model/identifier.js';
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
// The resolvers the root has always carried, by name: newer ones (the table view's reads) are on
// `task-association/resolvers` only, so the root's list does not grow with every feature.
export {
  type AssociationContext,
  type AssociationHandlerOptions,
  assertSameSiteJson,
  type BranchNode,
  type BranchParent,
  BusyError,
  ConfigurationError,
  ConflictError,
  CrossSiteError,
  compileMetricDefaults,
  createAssociationHandler,
  DEFAULT_LABEL_COLUMNS,
  type DefaultInputs,
  defaultSource,
  type HeaderColumn,
  type Installation,
  InvalidRequestError,
  type LastChange,
  LoadTaskTreeOptions,
  loadTaskSheet,
  loadTaskTree,
  MetricBatch,
  type MetricChange,
  type MetricConflict,
  MetricConflictError,
  type MetricDefaultsResolver,
  MetricEntry,
  type MetricSource,
  type MetricValue,
  NotFoundError,
  type PathStep,
  PayloadTooLargeError,
  type PlannedLevel,
  planTree,
  REQUEST_RETENTION_SECONDS,
  type ReadBranchOptions,
  ReadMetricHistoryOptions,
  ReadOnlyRowError,
  type ReadScreenStartOptions,
  RequestId,
  type ResolvedMetric,
  type ResolvedMetrics,
  readBranch,
  readMetricHistory,
  readScreenStart,
  resolveInstallation,
  resolveMetricDefaults,
  resolveTableNames,
  resolveTreePlan,
  type SavedEntry,
  SaveMetricsOptions,
  type SaveMetricsResult,
  SaveSource,
  type ScreenMetric,
  type ScreenMetricColumn,
  type ScreenMetricSource,
  type ScreenNode,
  type ScreenStart,
  type SearchMatch,
  type SearchResult,
  type SearchTreeOptions,
  saveMetrics,
  searchTree,
  type TaskNode,
  type TaskTree,
  type TreeNode,
  type TreePlan,
  UnsupportedMediaTypeError,
} from './resolvers.js';
export {
  createTables,
  type NewOperGrupoMetricaRow,
  type NewOperGrupoRow,
  type NewOperOperGrupoRow,
  type NewOperRow,
  type OperGrupoMetricaRow,
  type OperGrupoRow,
  type OperOperGrupoRow,
  type OperRow,
  operGrupoMetricaTable,
  operGrupoTable,
  operNOperGrupoTable,
  operTable,
  TABLE_NAME_VARIABLES,
  type Tables,
  tableNamesFromEnv,
} from './schema.js';
export type { Database, ExecuteResult, QueryOptions, SqlExecutor } from './store/driver.js';
export { type OpenOptions, openDatabase, wrapPool } from './store/mysql.js';
export { DEFAULT_DATABASE_TIMEOUT_MS } from './store/timeout.js';
export {
  type DatabaseLocation,
  DEFAULT_DATABASE_URL,
  parseDatabaseUrl,
  resolveDatabaseTimeout,
  resolveDatabaseUrl,
} from './store/url.js';
export * from './sync.js';
