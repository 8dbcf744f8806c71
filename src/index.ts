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
export * from './model/table-names.js';
export * from './resolvers.js';
export * from './schema/index.js';
export type { Database, ExecuteResult, SqlExecutor } from './store/driver.js';
export { type OpenOptions, openDatabase, wrapPool } from './store/mysql.js';
export { DEFAULT_DATABASE_TIMEOUT_MS } from './store/timeout.js';
export {
  DEFAULT_DATABASE_URL,
  parseDatabaseUrl,
  resolveDatabaseTimeout,
  resolveDatabaseUrl,
} from './store/url.js';
export * from './sync.js';
