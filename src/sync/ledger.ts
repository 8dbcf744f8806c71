import { quoteIdentifier } from '../model/identifier.js';
import { ledgerTable } from '../schema/ledger.js';
import type { SqlExecutor } from '../store/driver.js';
import { ledgerColumns } from '../store/ledger.js';
import { type Sql, sql } from '../store/sql.js';
import { columnDefinition, createTableStatement } from './ddl.js';
import { tableModel } from './expected-model.js';

/**
 * Creates the installer's ledger from its Drizzle definition, as the schema sync creates the four
 * tables; an existing ledger (another installation's) is left alone.
 */
const LEDGER_MODEL = tableModel(ledgerTable);

export const LEDGER_DDL = sql.raw(createTableStatement(LEDGER_MODEL, { ifNotExists: true }));

/**
 * The statements that bring an existing ledger to this version's columns, made from the same Drizzle
 * definition ([] when it has them all, or when there is no ledger yet). Columns a later version adds
 * are nullable: an older ledger already holds rows.
 */
export async function ledgerUpgrades(db: SqlExecutor): Promise<Sql[]> {
  const present = await ledgerColumns(db);
  if (present === undefined) return [];
  return LEDGER_MODEL.columns
    .filter((column) => !present.has(column.name.toUpperCase()))
    .map((column) =>
      sql.raw(`ALTER TABLE ${quoteIdentifier(LEDGER_MODEL.name)} ADD COLUMN ${columnDefinition(column)}`),
    );
}
