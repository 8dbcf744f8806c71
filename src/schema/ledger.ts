import { sql } from 'drizzle-orm';
import { int, mysqlTable, primaryKey, timestamp, unique, varchar } from 'drizzle-orm/mysql-core';
import { LEDGER_TABLE_NAME } from '../model/table-names.js';
import { bigintUnsigned } from './bigint-unsigned.js';

/**
 * The installer's own record of what it created: one entry per installation (scope) and stable key
 * (`menu:activities`, `link-field`, `parameter:TREE_VIEW`, `table:OPER`), pointing at the row's
 * SEQ_DB in the host table. Its DDL and its row types both come from this definition. UPD_DH and
 * PACKAGE_VERSION came in a later version: a ledger made before gets them added (`ledgerUpgradesOf` in
 * sync/ledger.ts, which refuses a column that could not be added to a table with rows), so they stay
 * nullable.
 */
export const ledgerTable = mysqlTable(
  LEDGER_TABLE_NAME,
  {
    SEQ_DB: bigintUnsigned('SEQ_DB').notNull().autoincrement(),
    EMPRESA: int('EMPRESA').notNull(),
    FILIAL: int('FILIAL').notNull(),
    LOCAL: int('LOCAL').notNull(),
    ENTRY_KEY: varchar('ENTRY_KEY', { length: 100 }).notNull(),
    HOST_TABLE: varchar('HOST_TABLE', { length: 64 }).notNull(),
    ROW_SEQ_DB: bigintUnsigned('ROW_SEQ_DB'),
    INS_USUARIO_SEQ_DB: bigintUnsigned('INS_USUARIO_SEQ_DB').notNull(),
    INS_DH: timestamp('INS_DH').default(sql`CURRENT_TIMESTAMP`),
    UPD_DH: timestamp('UPD_DH').onUpdateNow(),
    PACKAGE_VERSION: varchar('PACKAGE_VERSION', { length: 40 }),
  },
  (table) => [
    primaryKey({ columns: [table.SEQ_DB] }),
    unique('task_association_ledger_entry').on(table.EMPRESA, table.FILIAL, table.LOCAL, table.ENTRY_KEY),
  ],
);

/** A ledger row as read. */
export type LedgerRow = typeof ledgerTable.$inferSelect;
