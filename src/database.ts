// `task-association/database`: opening a database (or wrapping the host's mysql2 pool), where its
// URL and timeout come from, and the errors a database that does not answer throws. Re-exports only.
export { DatabaseConnectionError, DatabaseTimeoutError } from './model/errors.js';
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
