import { lockTable } from '../schema/history.js';
import { sql } from '../store/sql.js';
import { createTableStatement } from './ddl.js';
import { tableModel } from './expected-model.js';

/**
 * Creates the lock table from its Drizzle definition when the database lacks it, as the schema sync
 * would: the installer's lease on a cluster lives there, and is taken before the sync runs.
 */
export const LOCK_TABLE_DDL = sql.raw(createTableStatement(tableModel(lockTable), { ifNotExists: true }));
