/**
 * How long (ms) the package waits for a pool connection, and for each statement's answer, unless told
 * otherwise: a database that stops answering (a network partition) costs a request this long, not
 * the minutes TCP takes to give up. Long enough for any statement of the package on a healthy server.
 */
export const DEFAULT_DATABASE_TIMEOUT_MS = 5_000;

/** How long a schema change waits for its table's metadata lock (`lock_wait_timeout`), in seconds. */
export const SCHEMA_LOCK_WAIT_SECONDS = 2;

/** How long a schema change's answer is awaited once it runs (a table rebuild), in ms. */
export const SCHEMA_CHANGE_TIMEOUT_MS = 3_600_000;
