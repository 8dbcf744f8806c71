// The public API of `task-association`: an explicit list, so that what a host may import is a choice
// and not whatever a folder happens to export. Each area also has a subpath of its own
// (`task-association/config`, `/resolvers`, `/installer`, `/sync`, `/schema`, `/gallery`, `/testing`);
// the helpers those folders use among themselves are exported from neither.

// The configuration models: TREE_VIEW, metrics, parameter rows, link field, OPCOES, menu rows.
export * from './config.js';
// The installer and the schema sync.
export * from './installer.js';
// Errors: every one a TaskAssociationError with a stable `code` and, where it has one, a `path`.
export {
  DatabaseConnectionError,
  DatabaseTimeoutError,
  IdentifierError,
  TaskAssociationError,
} from './model/errors.js';
// The values every area shares: scope, SEQ_DB, identifiers and the four tables' names.
export { IDENTIFIER_PATTERN, Identifier, parseIdentifier, quoteIdentifier } from './model/identifier.js';
export { InstallerError } from './model/installer-errors.js';
export {
  BusyError,
  ConfigurationError,
  CrossSiteError,
  InvalidRequestError,
  NotFoundError,
  PayloadTooLargeError,
  ReadOnlyRowError,
  UnsupportedMediaTypeError,
} from './model/request-errors.js';
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
// Loading the tree, the defaults, saving metrics, the association screen.
export * from './resolvers.js';
// The four tables as Drizzle code.
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
// The database: open one, or wrap the host's mysql2 pool.
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
