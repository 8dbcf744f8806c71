/**
 * How long (ms) the package waits for a pool connection, and for each statement's answer, unless told
 * otherwise: a database that stops answering (a network partition) costs a request this long, not
 * the minutes TCP takes to give up. Long enough for any statement of the package on a healthy server.
 */
export const DEFAULT_DATABASE_TIMEOUT_MS = 5_000;
