// The public API of `task-association`: the short list of what a host calls (#31), each name a
// choice. Everything else stays on the subpath of its area, each pinned by a test as this list is:
// `task-association/model` (the TREE_VIEW and parameter models, scope, SEQ_DB, identifiers, table
// names), `/database`, `/tree` (the tree, the saves, the screen's reads and its handler),
// `/installer`, `/sync`, `/schema`, `/gallery`, `/testing`.
// Here: the database (open one, or wrap the host's mysql2 pool), the values every area shares, the
// errors a host tells apart (each a TaskAssociationError with a stable `code`), the handler and the
// reads and saves behind it, the four tables as Drizzle code, and the installer's and sync's verbs.

export {
  applyInstallation,
  type InstallationStatus,
  InstallerError,
  type InstallerOptions,
  type InstallPlan,
  installationStatus,
  loadInstallFile,
  parseInstallFile,
  planInstallation,
  type UninstallOptions,
  uninstallInstallation,
  type VerifyResult,
  verifyInstallation,
} from './installer.js';
export {
  DatabaseConnectionError,
  DatabaseTimeoutError,
  TaskAssociationError,
} from './model/errors.js';
export { checkScope, formatScope, parseScope, Scope } from './model/scope.js';
export { SeqDb } from './model/seq-db.js';
export { TableNames, tableNames } from './model/table-names.js';
export {
  ConfigError,
  ConfigurationError,
  formatIssues,
  parseTreeView,
  readParameters,
  TreeView,
} from './model.js';
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
  type Tables,
  tableNamesFromEnv,
} from './schema.js';
export type { Database, ExecuteResult, QueryOptions, SqlExecutor } from './store/driver.js';
export { type OpenOptions, openDatabase, wrapPool } from './store/mysql.js';
export { parseDatabaseUrl, resolveDatabaseUrl } from './store/url.js';
export { planSchemaSync, SchemaSyncError, type SyncOptions, syncSchema } from './sync.js';
export {
  type AssociationContext,
  type AssociationHandlerOptions,
  assertSameSiteJson,
  BusyError,
  ConflictError,
  createAssociationHandler,
  InvalidRequestError,
  type LoadTaskTreeOptions,
  loadTaskSheet,
  loadTaskTree,
  MetricBatch,
  type MetricConflict,
  MetricConflictError,
  MetricEntry,
  type MetricValue,
  NotFoundError,
  ReadOnlyRowError,
  readBranch,
  readMetricHistory,
  readScreenStart,
  type SaveMetricsOptions,
  type SaveMetricsResult,
  saveMetrics,
  searchTree,
  type TaskTree,
} from './tree.js';
