export * from './config/index.js';
export type { Database, ExecuteResult, SqlExecutor } from './db/driver.js';
export { type OpenOptions, openDatabase, wrapPool } from './db/mysql.js';
export { DEFAULT_DATABASE_TIMEOUT_MS } from './db/timeout.js';
export {
  DEFAULT_DATABASE_URL,
  parseDatabaseUrl,
  resolveDatabaseTimeout,
  resolveDatabaseUrl,
} from './db/url.js';
export {
  DatabaseConnectionError,
  DatabaseTimeoutError,
  IdentifierError,
  TaskAssociationError,
} from './errors.js';
export { IDENTIFIER_PATTERN, Identifier, parseIdentifier, quoteIdentifier } from './identifier.js';
export * from './installer/index.js';
export * from './resolvers/index.js';
export * from './schema/index.js';
export { checkScope, formatScope, parseScope, Scope } from './scope.js';
export { SeqDb, SeqDbText } from './seq-db.js';
export * from './sync/index.js';
export * from './table-names.js';
