import { HOST_TABLES, type TableNames, tableNames } from '../model/table-names.js';
import { createTables } from '../schema/tables.js';
import type { SqlExecutor } from '../store/driver.js';
import { readTables } from '../store/information-schema.js';
import { diffSchema } from './diff.js';
import { expectedModel } from './expected-model.js';
import type { SchemaPlan } from './schema-difference.js';

/**
 * Compares the current database with the four tables of `names` (and the host tables they reference)
 * and returns the statements that would add what is missing, with every difference found. Reads
 * information_schema only; changes nothing.
 *
 * @example const plan = await planSchemaSync(db, tableNames({ OPER: 'MO_OPER' }));
 *          plan.statements // ['CREATE TABLE `MO_OPER` (...)', ...], [] when up to date
 */
export async function planSchemaSync(db: SqlExecutor, given: TableNames): Promise<SchemaPlan> {
  // Checked again before any DDL is built from them: a library caller may hand over any object.
  const names = tableNames(given);
  const expected = expectedModel(createTables(names));
  const found = await readTables(db, [...Object.values(names), ...Object.values(HOST_TABLES)], {
    indexes: true,
    foreignKeys: true,
  });
  return diffSchema(expected, found);
}
