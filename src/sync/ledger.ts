import { ledgerTable } from '../schema/ledger.js';
import { sql } from '../store/sql.js';
import { createTableStatement } from './ddl.js';
import { tableModel } from './expected-model.js';

/**
 * Creates the installer's ledger from its Drizzle definition, as the schema sync creates the four
 * tables; an existing ledger (another installation's) is left alone.
 */
export const LEDGER_DDL = sql.raw(createTableStatement(tableModel(ledgerTable), { ifNotExists: true }));
