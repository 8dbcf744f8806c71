import { HOST_TABLES, type TableNames, tableNames } from '../model/table-names.js';
import { historyTable, lockTable, requestTable } from '../schema/history.js';
import { createTables } from '../schema/tables.js';
import type { SqlExecutor } from '../store/driver.js';
import { readTables } from '../store/information-schema.js';
import { diffSchema } from './diff.js';
import { expectedModel, tableModel } from './expected-model.js';
import type { SchemaPlan } from './schema-difference.js';

/**
 * The package's own tables beside an installation's four, shared by every installation of a
 * database: the metric history and the saves' request ids (`saveMetrics` writes both), and the lock
 * rows a Galera cluster's nodes all see.
 */
export const SHARED_TABLES = [tableModel(historyTable), tableModel(requestTable), tableModel(lockTable)];

/** The shared tables' names, in the order they are created (uninstall drops them in it too). */
export const SHARED_TABLE_NAMES: readonly string[] = SHARED_TABLES.map((table) => table.name);

/**
 * Compares the current database with the four tables of `names` and the shared tables (and the host tables they reference)
 * and returns the statements that would add what is missing, with every difference found. Reads
 * information_schema only; changes nothing.
 *
 * @example const plan = await planSchemaSync(db, tableNames({ OPER: 'MO_OPER' }));
 *          plan.statements // ['CREATE TABLE `MO_OPER` (...)', ...], [] when up to date
 */
export async function planSchemaSync(db: SqlExecutor, given: TableNames): Promise<SchemaPlan> {
  // Checked again before any DDL is built from them: a library caller may hand over any object.
  const names = tableNames(given);
  const expected = [...expectedModel(createTables(names)), ...SHARED_TABLES];
  const found = await readTables(
    db,
    [...Object.values(names), ...SHARED_TABLE_NAMES, ...Object.values(HOST_TABLES)],
    {
      indexes: true,
      foreignKeys: true,
      engines: true,
    },
  );
  return diffSchema(expected, found);
}
