import { EventEmitter } from 'node:events';
import type { Connection as CallbackConnection } from 'mysql2';
import mysql from 'mysql2/promise';
import { z } from 'zod';
import { DatabaseConnectionError, DatabaseTimeoutError, TaskAssociationError } from '../model/errors.js';
import { checkOptions } from '../model/options.js';
import type { Database, ExecuteResult, QueryOptions, SqlExecutor } from './driver.js';
import {
  DEFAULT_DATABASE_TIMEOUT_MS,
  SCHEMA_CHANGE_TIMEOUT_MS,
  SCHEMA_LOCK_WAIT_SECONDS,
} from './timeout.js';
import { hostAndPort, parseDatabaseUrl, redactUrl } from './url.js';

/**
 * How values come back, for every connection this package opens:
 * - DECIMAL stays a string ("12.50"), so no cent is lost to binary floating point;
 * - BIGINT is a number when it fits in 2^53 - 1 and a string beyond (SEQ_DB values never get there);
 * - TIMESTAMP/DATETIME are read and written in UTC.
 */
export const CONNECTION_OPTIONS = {
  decimalNumbers: false,
  supportBigNumbers: true,
  bigNumberStrings: false,
  timezone: 'Z',
  dateStrings: false,
} as const;

/**
 * The value options every statement states itself, whatever pool it runs on: a host's pool from
 * `wrapPool` may read dates in its local time zone, where ours read them in UTC.
 */
const PER_STATEMENT = { timezone: 'Z', supportBigNumbers: true } as const;
type StatementOptions = typeof PER_STATEMENT & { typeCast?: mysql.TypeCast };

/**
 * For a host pool whose settings change how values are read (`decimalNumbers`, `bigNumberStrings`,
 * `dateStrings`, or a `typeCast` of its own): no statement option turns those off, but a statement's
 * own type cast replaces them all. So each statement reads values as our own pools do: DECIMAL as
 * its exact text, BIGINT as a number while exact and as text beyond, dates as `Date` in UTC. Only on
 * such pools: a type cast is a call per value, which the tree loader's rows should not pay.
 */
const AS_OUR_POOLS: StatementOptions = {
  ...PER_STATEMENT,
  typeCast: (field, next) => {
    switch (field.type) {
      case 'NEWDECIMAL':
      case 'DECIMAL':
        return field.string('ascii');
      case 'LONGLONG': {
        // Read by mysql2 (binary rows carry it as 8 bytes, not text), then as our pools keep it.
        const value = next();
        if (typeof value !== 'string') return value;
        const number = Number(value);
        return Number.isSafeInteger(number) ? number : value;
      }
      case 'DATE':
      case 'DATETIME':
      case 'TIMESTAMP': {
        const text = field.string('ascii');
        if (text === null) return null;
        // As our pools read them (timezone 'Z'): the server's wall-clock value, taken as UTC.
        return new Date(`${text.replace(' ', 'T')}${text.length === 10 ? 'T00:00:00' : ''}Z`);
      }
      default:
        return next();
    }
  },
};

/** Pool settings that change how values are read, which {@link AS_OUR_POOLS} undoes per statement. */
function readsValuesItsOwnWay(config: Record<string, unknown> | undefined): boolean {
  if (config === undefined) return false;
  // mysql2 takes any truthy value (`?decimalNumbers=1` in a URI is the string "1").
  return (
    Boolean(config.decimalNumbers) ||
    Boolean(config.bigNumberStrings) ||
    Boolean(config.dateStrings) ||
    typeof config.typeCast === 'function'
  );
}

const OpenOptionsModel = z.strictObject({
  connectionLimit: z.number().int().min(1).max(1000).optional(),
  multipleStatements: z.boolean().optional(),
  timeoutMs: z.number().int().min(1).max(3_600_000).optional(),
});

/**
 * The promise pool of `pool` and what its statements must state: a callback pool (`mysql2`'s own, not
 * `mysql2/promise`) is turned into one, and one that reads values its own way gets {@link AS_OUR_POOLS}.
 */
function promisePool(pool: mysql.Pool): { pool: mysql.Pool; statement: StatementOptions } {
  const candidate = pool as unknown as {
    promise?: () => mysql.Pool;
    pool?: unknown;
    getConnection?: unknown;
  };
  const promised =
    typeof candidate.promise === 'function' && candidate.pool === undefined ? candidate.promise() : pool;
  if (typeof (promised as { getConnection?: unknown }).getConnection !== 'function') {
    throw new TaskAssociationError(
      'INVALID_POOL',
      'wrapPool needs a mysql2 pool (mysql.createPool of mysql2/promise)',
      {
        path: 'pool',
      },
    );
  }
  const config = (
    promised as unknown as { pool?: { config?: { connectionConfig?: Record<string, unknown> } } }
  ).pool?.config?.connectionConfig;
  return { pool: promised, statement: readsValuesItsOwnWay(config) ? AS_OUR_POOLS : PER_STATEMENT };
}

export interface OpenOptions {
  /** Pool size; the CLI needs one or two, a web host more. */
  readonly connectionLimit?: number;
  /** Lets a script run several statements at once (loading a host schema). Off by default. */
  readonly multipleStatements?: boolean;
  /**
   * Longest wait, in ms, for a pool connection and for each statement's answer (default
   * {@link DEFAULT_DATABASE_TIMEOUT_MS}); also bounds opening a new connection. Past it the call
   * fails with a {@link DatabaseTimeoutError} and the connection is destroyed, never reused.
   */
  readonly timeoutMs?: number;
}

/**
 * Opens a pool on `url` and checks that the server answers, so that a wrong host or password fails
 * here with one clear line ({@link DatabaseConnectionError}) instead of at the first query.
 */
export async function openDatabase(
  url: string,
  options: OpenOptions = {},
): Promise<Database & { pool: mysql.Pool }> {
  checkOptions(OpenOptionsModel, options, 'openDatabase');
  const location = parseDatabaseUrl(url);
  const timeoutMs = options.timeoutMs ?? DEFAULT_DATABASE_TIMEOUT_MS;
  const pool = mysql.createPool({
    ...CONNECTION_OPTIONS,
    host: location.host,
    port: location.port,
    user: location.user,
    password: location.password,
    database: location.database,
    connectionLimit: options.connectionLimit ?? 4,
    multipleStatements: options.multipleStatements ?? false,
    // The few statements this package prepares have fixed texts; the server caps prepared statements
    // for all its clients together (max_prepared_stmt_count), so each connection keeps few.
    maxPreparedStatements: 32,
    // Our own bound on taking a connection fires first; this one only ends the abandoned attempt.
    connectTimeout: timeoutMs + 1_000,
  });
  const db = wrapPool(pool, location.database, { timeoutMs });
  try {
    await db.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => undefined);
    if (!(error instanceof DatabaseTimeoutError)) throw connectionError(error, url);
    throw new DatabaseTimeoutError(
      'DATABASE_TIMEOUT',
      `the database at ${hostAndPort(location)} did not answer within ${seconds(timeoutMs)} (${redactUrl(url)})`,
      { cause: error },
    );
  }
  return db;
}

/**
 * Wraps a mysql2 pool the host already has (`mysql.createPool(...)`) in our {@link Database} interface.
 * Every connection taken from the pool and every statement is bounded by `timeoutMs` (see
 * {@link OpenOptions.timeoutMs}).
 */
export function wrapPool(
  given: mysql.Pool,
  schemaName: string,
  options: { readonly timeoutMs?: number } = {},
): Database & { pool: mysql.Pool } {
  checkOptions(OpenOptionsModel.pick({ timeoutMs: true }), options, 'wrapPool');
  const { pool, statement } = promisePool(given);
  const timeoutMs = options.timeoutMs ?? DEFAULT_DATABASE_TIMEOUT_MS;
  const acquire = () => acquireConnection(pool, timeoutMs);
  let closing: Promise<void> | undefined;
  /** One statement on a connection of its own, returned to the pool unless it had to be destroyed. */
  const once = async <T>(run: (executor: SqlExecutor) => Promise<T>): Promise<T> => {
    const connection = await acquire();
    try {
      return await run(boundedExecutor(connection, timeoutMs, statement));
    } finally {
      releaseUnlessDestroyed(connection);
    }
  };
  return {
    pool,
    schemaName,
    query: (sql, params, options) => once((executor) => executor.query(sql, params, options)),
    execute: (sql, params, options) => once((executor) => executor.execute(sql, params, options)),
    async transaction(work, how = {}) {
      const connection = await acquire();
      const tx = boundedExecutor(connection, timeoutMs, statement);
      try {
        await tx.execute(how.causal === true ? CAUSAL_START : 'START TRANSACTION');
        const result = await work(tx);
        await commit(tx, timeoutMs);
        return result;
      } catch (error) {
        // On a destroyed connection this fails at once, and the server rolls back on its own. A
        // ROLLBACK the server refuses (a Galera node cut off from the cluster's majority refuses
        // every statement, 1047) leaves the transaction open with its writes and locks: given back
        // to the pool, the connection's next START TRANSACTION would commit it. It is closed
        // instead, which rolls it back.
        await tx.execute('ROLLBACK').catch(() => discard(connection));
        throw error;
      } finally {
        releaseUnlessDestroyed(connection);
      }
    },
    async connection(work) {
      const connection = await acquire();
      try {
        return await work(boundedExecutor(connection, timeoutMs, statement));
      } finally {
        releaseUnlessDestroyed(connection);
      }
    },
    // Once is enough: mysql2's end() on an ended pool throws ("Can't add new command when connection
    // is in closed state"). A pool its host ended itself is closed already.
    close() {
      closing ??= isClosed(pool) ? Promise.resolve() : pool.end();
      return closing;
    },
  };
}

/**
 * A transaction's start after a causal wait (`TransactionOptions.causal`): `wsrep_sync_wait` 1 makes
 * the node apply what the cluster committed before it runs a read or a `START TRANSACTION`, the one
 * statement of a transaction it waits before. MariaDB's `SET STATEMENT` in an executable comment
 * (`/*M! *\/`), which MySQL reads as a comment (Percona XtraDB Cluster: set `wsrep_sync_wait` on the
 * pool's sessions instead). The wait is bounded by the statement's limit and the provider's
 * `repl.causal_read_timeout`.
 */
const CAUSAL_START = '/*M! SET STATEMENT wsrep_sync_wait = 1 FOR */ START TRANSACTION';

/**
 * Sends a transaction's COMMIT. Past the bound, unlike any other statement's, its outcome is not
 * known: the server may have committed before its answer was lost (measured: a COMMIT that reached
 * the server and whose answer was dropped was stored, and was answered "rolled back"). So it fails
 * with `DATABASE_CONNECTION_LOST`, as a connection lost under a statement does, never with the
 * {@link DatabaseTimeoutError} that says nothing was committed.
 */
async function commit(tx: SqlExecutor, timeoutMs: number): Promise<void> {
  try {
    await tx.execute('COMMIT');
  } catch (error) {
    if (!(error instanceof DatabaseTimeoutError)) throw error;
    throw new DatabaseConnectionError(
      'DATABASE_CONNECTION_LOST',
      `the database did not answer the COMMIT within ${seconds(timeoutMs)}: the connection was closed, and whether the transaction was committed is not known`,
      { cause: error },
    );
  }
}

/** Whether the pool was ended (mysql2's own flag, which its `Symbol.asyncDispose` reads too). */
function isClosed(pool: mysql.Pool): boolean {
  return (pool as unknown as { pool?: { _closed?: unknown } }).pool?._closed === true;
}

/** Connections this package destroyed (a timeout, a refused ROLLBACK): never handed back to the pool. */
const destroyed = new WeakSet<mysql.PoolConnection>();

/** Closes a connection whose state is not known (its transaction may be open): never reused. */
function discard(connection: mysql.PoolConnection): void {
  if (destroyed.has(connection)) return;
  destroyed.add(connection);
  connection.destroy();
}

function releaseUnlessDestroyed(connection: mysql.PoolConnection): void {
  if (!destroyed.has(connection)) connection.release();
}

/**
 * A pool connection within `timeoutMs`. mysql2's pool waits without limit for a free connection, so
 * the wait is raced against a timer; a connection that arrives after the caller gave up goes back to
 * the pool.
 */
async function acquireConnection(pool: mysql.Pool, timeoutMs: number): Promise<mysql.PoolConnection> {
  const pending = pool.getConnection().catch((error: unknown) => {
    // mysql2 says only "Pool is closed." (a plain Error, no code): a host's bug or its shutdown.
    if (!isClosed(pool)) throw error;
    throw new DatabaseConnectionError(
      'DATABASE_CLOSED',
      'the database handle was closed: close() (or end() on the pool given to wrapPool) was called before this call, which read and wrote nothing',
      { cause: error },
    );
  });
  const result = await withDeadline(pending, timeoutMs);
  if (result.timedOut) {
    pending.then(
      (late) => late.release(),
      () => undefined,
    );
    throw new DatabaseTimeoutError(
      'DATABASE_TIMEOUT',
      `no database connection within ${seconds(timeoutMs)}: every pooled connection is busy, or the database does not answer`,
    );
  }
  return result.value;
}

/**
 * Statements on `connection`, each answered within `timeoutMs` or the connection is destroyed: its
 * socket may still deliver the late answer, and mysql2 would queue the next statement behind it.
 * The server drops a destroyed connection's transaction and locks once it sees it gone.
 */
function boundedExecutor(
  connection: mysql.PoolConnection,
  timeoutMs: number,
  statement: StatementOptions,
): SqlExecutor {
  const run = async (
    sql: string,
    params: readonly unknown[],
    { prepare = false, onRow }: QueryOptions = {},
    boundMs = timeoutMs,
  ): Promise<unknown> => {
    if (destroyed.has(connection)) {
      throw new DatabaseTimeoutError('DATABASE_TIMEOUT', 'the connection was closed after a timeout');
    }
    // mysql2 keeps each connection's prepared statements (and closes the oldest past its cap).
    const pending: Promise<unknown> = prepare
      ? connection
          .execute({ sql, values: params as mysql.ExecuteValues[], ...statement })
          .then(([result]) => result)
      : onRow !== undefined
        ? streamRows(connection, sql, params, onRow, statement)
        : connection.query({ sql, values: params as unknown[], ...statement }).then(([result]) => result);
    // The bound is on silence, not on the whole answer: every packet the server sends restarts it,
    // so a large read that keeps streaming (a tree of a million nodes takes seconds) goes on, while
    // a database that stops answering, or a lock wait that sends nothing, is cut after `timeoutMs`.
    const result = await withDeadline(pending, boundMs, socketOf(connection));
    if (!result.timedOut) return result.value;
    pending.catch(() => undefined);
    discard(connection);
    throw new DatabaseTimeoutError(
      'DATABASE_TIMEOUT',
      `the database did not answer within ${seconds(boundMs)}: the connection was closed (the server rolls back its unfinished transaction); try again once the database answers`,
    );
  };
  /**
   * A schema change (see `QueryOptions.schemaChange`): the session's metadata lock wait is cut to
   * SCHEMA_LOCK_WAIT_SECONDS for it and given back after, on the same connection.
   */
  const schemaChange = async (sql: string, params: readonly unknown[]): Promise<unknown> => {
    await run(
      `SET @task_association_lock_wait = @@SESSION.lock_wait_timeout, SESSION lock_wait_timeout = ${SCHEMA_LOCK_WAIT_SECONDS}`,
      [],
    );
    try {
      return await run(sql, params, {}, Math.max(timeoutMs, SCHEMA_CHANGE_TIMEOUT_MS));
    } finally {
      // A connection that could not be given its wait back is not handed on with ours.
      if (!destroyed.has(connection)) {
        await run('SET SESSION lock_wait_timeout = @task_association_lock_wait', []).catch(() =>
          discard(connection),
        );
      }
    }
  };
  return {
    async query<Row extends object>(sql: string, params: readonly unknown[] = [], options?: QueryOptions) {
      return (await run(sql, params, options)) as Row[];
    },
    async execute(
      sql: string,
      params: readonly unknown[] = [],
      options?: QueryOptions,
    ): Promise<ExecuteResult> {
      const header = (
        options?.schemaChange === true
          ? await schemaChange(sql, params)
          : await run(sql, params, { prepare: options?.prepare ?? false })
      ) as mysql.ResultSetHeader;
      return {
        affectedRows: header.affectedRows,
        insertId: Number(header.insertId),
        warningStatus: header.warningStatus,
      };
    },
  };
}

/**
 * Runs `sql` on the connection's event interface, handing each row to `onRow` as it is parsed;
 * resolves with no rows once the result ends. A throwing `onRow` does not stop the result (the
 * connection must read it to the end to stay usable): later rows are dropped and the first error
 * rejects at the end. Once the statement's bound has passed (the connection destroyed), the rows
 * still arriving are dropped too: nobody waits for what they would build.
 */
function streamRows(
  connection: mysql.PoolConnection,
  sql: string,
  params: readonly unknown[],
  onRow: (row: Record<string, unknown>) => void,
  statement: StatementOptions,
): Promise<unknown[]> {
  // The promise wrapper's `connection` is mysql2's own connection, whose queries emit their rows.
  const core = connection.connection as unknown as CallbackConnection;
  return new Promise((resolve, reject) => {
    let failure: { error: unknown } | undefined;
    // mysql2 tells a lost connection (killed, server gone) only to commands with a callback, and to
    // the connection itself: heard there, the read fails at once with its cause instead of at the
    // statement's bound as a timeout.
    const lost = (error: Error) => finish(error);
    const finish = (error?: unknown) => {
      core.removeListener('error', lost);
      if (error === undefined) resolve([]);
      else reject(error);
    };
    core.once('error', lost);
    core
      .query({ sql, values: params as unknown[], ...statement })
      .on('result', (row) => {
        if (failure !== undefined || destroyed.has(connection)) return;
        try {
          onRow(row as Record<string, unknown>);
        } catch (error) {
          failure = { error };
        }
      })
      .on('error', (error) => finish(error))
      .on('end', () => finish(failure?.error));
  });
}

/**
 * `promise`'s outcome, or `timedOut` after `ms` without progress: with `progress` (the connection's
 * socket), each chunk it receives starts the `ms` anew. The timer and listener never outlive the race.
 */
async function withDeadline<T>(
  promise: Promise<T>,
  ms: number,
  progress?: EventEmitter,
): Promise<{ timedOut: false; value: T } | { timedOut: true }> {
  let timer: NodeJS.Timeout | undefined;
  let arm: () => void = () => undefined;
  const deadline = new Promise<{ timedOut: true }>((resolve) => {
    arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => resolve({ timedOut: true }), ms);
    };
    arm();
  });
  progress?.on('data', arm);
  try {
    return await Promise.race([promise.then((value) => ({ timedOut: false as const, value })), deadline]);
  } finally {
    progress?.removeListener('data', arm);
    clearTimeout(timer);
  }
}

/** The socket under a pool connection (mysql2's core connection's `stream`), where it has one. */
function socketOf(connection: mysql.PoolConnection): EventEmitter | undefined {
  const stream = (connection.connection as unknown as { stream?: unknown }).stream;
  return stream instanceof EventEmitter ? stream : undefined;
}

function seconds(ms: number): string {
  return `${ms / 1000} s`;
}

/** Turns a driver error at connection time into one line that says what to check. */
export function connectionError(error: unknown, url: string): DatabaseConnectionError {
  const where = redactUrl(url);
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  const text = error instanceof Error ? error.message : String(error);
  const location = parseDatabaseUrl(url);
  const { host, user, database } = location;
  const at = hostAndPort(location);
  const message = (() => {
    switch (code) {
      case 'ECONNREFUSED':
        return `cannot reach the database at ${at} (connection refused): is the server running? (${where})`;
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
        return `cannot reach the database: host "${host}" is not known (${where})`;
      case 'ETIMEDOUT':
        return `cannot reach the database at ${at}: the connection timed out (${where})`;
      case 'ER_ACCESS_DENIED_ERROR':
      case 'ER_ACCESS_DENIED_NO_PASSWORD_ERROR':
        return `the database at ${at} refused user "${user}": wrong user or password (${where})`;
      case 'ER_BAD_DB_ERROR':
        return `database "${database}" does not exist on ${at} (${where})`;
      case 'ER_DBACCESS_DENIED_ERROR':
        return `user "${user}" may not use database "${database}" on ${at} (${where})`;
      default:
        return `cannot connect to the database (${where}): ${text.split('\n')[0]}`;
    }
  })();
  return new DatabaseConnectionError('DATABASE_UNREACHABLE', message, { cause: error });
}
