export type { Database, ExecuteResult, SqlExecutor } from './db/driver.js';
export { openDatabase, wrapPool } from './db/mysql.js';
export { DEFAULT_DATABASE_URL, parseDatabaseUrl, resolveDatabaseUrl } from './db/url.js';
export { DatabaseConnectionError, IdentifierError, TaskAssociationError } from './errors.js';
export { IDENTIFIER_PATTERN, Identifier, parseIdentifier, quoteIdentifier } from './identifier.js';
