import mysql from 'mysql2/promise';
import { DatabaseConnectionError } from '../errors.js';
import type { Database, ExecuteResult, SqlExecutor } from './driver.js';
import { parseDatabaseUrl, redactUrl } from './url.js';

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

export interface OpenOptions {
  /** Pool size; the CLI needs one or two, a web host more. */
  readonly connectionLimit?: number;
  /** Lets a script run several statements at once (loading a host schema). Off by default. */
  readonly multipleStatements?: boolean;
}

/**
 * Opens a pool on `url` and checks that the server answers, so that a wrong host or password fails
 * here with one clear line ({@link DatabaseConnectionError}) instead of at the first query.
 */
export async function openDatabase(
  url: string,
  options: OpenOptions = {},
): Promise<Database & { pool: mysql.Pool }> {
  const location = parseDatabaseUrl(url);
  const pool = mysql.createPool({
    ...CONNECTION_OPTIONS,
    host: location.host,
    port: location.port,
    user: location.user,
    password: location.password,
    database: location.database,
    connectionLimit: options.connectionLimit ?? 4,
    multipleStatements: options.multipleStatements ?? false,
    connectTimeout: 5_000,
  });
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw connectionError(error, url);
  }
  return wrapPool(pool, location.database);
}

/** Wraps a mysql2 pool the host already has (`mysql.createPool(...)`) in our {@link Database} interface. */
export function wrapPool(pool: mysql.Pool, schemaName: string): Database & { pool: mysql.Pool } {
  return {
    pool,
    schemaName,
    ...executorOf(pool),
    async transaction(work) {
      const connection = await pool.getConnection();
      try {
        await connection.beginTransaction();
        const result = await work(executorOf(connection));
        await connection.commit();
        return result;
      } catch (error) {
        await connection.rollback().catch(() => undefined);
        throw error;
      } finally {
        connection.release();
      }
    },
    async close() {
      await pool.end();
    },
  };
}

function executorOf(target: mysql.Pool | mysql.PoolConnection): SqlExecutor {
  return {
    async query<Row extends object>(sql: string, params: readonly unknown[] = []) {
      const [rows] = await target.query(sql, params as unknown[]);
      return rows as Row[];
    },
    async execute(sql: string, params: readonly unknown[] = []): Promise<ExecuteResult> {
      const [result] = await target.query(sql, params as unknown[]);
      const header = result as mysql.ResultSetHeader;
      return { affectedRows: header.affectedRows, insertId: Number(header.insertId) };
    },
  };
}

/** Turns a driver error at connection time into one line that says what to check. */
export function connectionError(error: unknown, url: string): DatabaseConnectionError {
  const where = redactUrl(url);
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  const text = error instanceof Error ? error.message : String(error);
  const { host, port, user, database } = parseDatabaseUrl(url);
  const message = (() => {
    switch (code) {
      case 'ECONNREFUSED':
        return `cannot reach the database at ${host}:${port} (connection refused): is the server running? (${where})`;
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
        return `cannot reach the database: host "${host}" is not known (${where})`;
      case 'ETIMEDOUT':
        return `cannot reach the database at ${host}:${port}: the connection timed out (${where})`;
      case 'ER_ACCESS_DENIED_ERROR':
      case 'ER_ACCESS_DENIED_NO_PASSWORD_ERROR':
        return `the database at ${host}:${port} refused user "${user}": wrong user or password (${where})`;
      case 'ER_BAD_DB_ERROR':
        return `database "${database}" does not exist on ${host}:${port} (${where})`;
      case 'ER_DBACCESS_DENIED_ERROR':
        return `user "${user}" may not use database "${database}" on ${host}:${port} (${where})`;
      default:
        return `cannot connect to the database (${where}): ${text.split('\n')[0]}`;
    }
  })();
  return new DatabaseConnectionError('DATABASE_UNREACHABLE', message, { cause: error });
}
