import { readFileSync } from 'node:fs';
import { type InstallFile, parseInstallFile } from '../../src/installer/install-file.js';
import type { Database, QueryOptions, SqlExecutor } from '../../src/store/driver.js';

export const EXAMPLE_INSTALL_FILE = new URL('../../examples/install.json', import.meta.url);

/** examples/install.json (scope 1/1/1, MO_ overrides, a TREE_VIEW), with `changes` applied on top. */
export function exampleInstallFile(changes: Partial<InstallFile> = {}): InstallFile {
  return { ...parseInstallFile(readFileSync(EXAMPLE_INSTALL_FILE, 'utf8')), ...changes };
}

/** The same installation at another scope, without overrides or TREE_VIEW: default table names. */
export function plainInstallFile(scope: InstallFile['scope']): InstallFile {
  const { tableNames: _names, treeView: _tree, ...rest } = exampleInstallFile();
  return { ...rest, scope };
}

/**
 * Everything a user could see of a database: every table's columns and indexes as
 * information_schema describes them, and every row. AUTO_INCREMENT counters are left out on purpose:
 * InnoDB never gives back a value once used, so an insert followed by a delete moves them.
 */
export async function databaseState(db: SqlExecutor): Promise<Record<string, unknown>> {
  const tables = await db.query<{ TABLE_NAME: string }>(
    'SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME',
  );
  const state: Record<string, unknown> = {};
  for (const { TABLE_NAME } of tables) {
    state[TABLE_NAME] = {
      columns: await db.query(
        `SELECT COLUMN_NAME, ORDINAL_POSITION, COLUMN_DEFAULT, IS_NULLABLE, COLUMN_TYPE, COLUMN_KEY, EXTRA,
                CHARACTER_SET_NAME, COLLATION_NAME
           FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?
          ORDER BY ORDINAL_POSITION`,
        [TABLE_NAME],
      ),
      indexes: await db.query(
        `SELECT INDEX_NAME, SEQ_IN_INDEX, COLUMN_NAME, NON_UNIQUE
           FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?
          ORDER BY INDEX_NAME, SEQ_IN_INDEX`,
        [TABLE_NAME],
      ),
      rows: await db.query(`SELECT * FROM \`${TABLE_NAME}\` ORDER BY 1`),
    };
  }
  return state;
}

/** How many rows of `table` match `where` (a fixed SQL condition of the test's own). */
export async function countRows(db: SqlExecutor, table: string, where = '1 = 1'): Promise<number> {
  const [row] = await db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM \`${table}\` WHERE ${where}`);
  return Number(row?.n ?? 0);
}

/** `db`, writing down every statement sent through it (text and parameters), on any of its connections. */
export function recording(db: Database, sent: { sql: string; params: readonly unknown[] }[]): Database {
  const wrap = (executor: SqlExecutor): SqlExecutor => ({
    query<Row extends object>(sql: string, params: readonly unknown[] = [], options?: QueryOptions) {
      sent.push({ sql, params });
      return executor.query<Row>(sql, params, options);
    },
    execute(sql, params = [], options) {
      sent.push({ sql, params });
      return executor.execute(sql, params, options);
    },
  });
  return {
    ...wrap(db),
    schemaName: db.schemaName,
    close: () => db.close(),
    connection: (work) => db.connection((connection) => work(wrap(connection))),
    transaction: (work) => db.transaction((tx) => work(wrap(tx))),
  };
}
