import { quoteIdentifier } from '../model/identifier.js';
import { InstallerError } from '../model/installer-errors.js';
import { ledgerTable } from '../schema/ledger.js';
import type { FoundTable } from '../store/information-schema.js';
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
 * definition, decided over the ledger as read ([] when it has them all). Columns a later version adds
 * are nullable: an older ledger already holds rows.
 */
export function ledgerUpgradesOf(found: FoundTable): Sql[] {
  const present = new Set([...found.columns.keys()].map((name) => name.toUpperCase()));
  const missing = LEDGER_MODEL.columns.filter((column) => !present.has(column.name.toUpperCase()));
  // A column an older ledger lacks must be one a table with rows can take: nullable or with a
  // default, never the key. Anything else means the table is not our ledger as any version made it.
  const unfit = missing.find(
    (column) => column.autoIncrement || (!column.nullable && column.default === null),
  );
  if (unfit !== undefined) {
    throw new InstallerError(
      'LEDGER_UNEXPECTED',
      `table ${LEDGER_MODEL.name} has no column ${unfit.name}, which no version of the ledger lacked: it is not the installer's ledger, or was changed by hand; rename it and run again`,
      { path: LEDGER_MODEL.name },
    );
  }
  return missing.map((column) =>
    sql.raw(`ALTER TABLE ${quoteIdentifier(LEDGER_MODEL.name)} ADD COLUMN ${columnDefinition(column)}`),
  );
}
