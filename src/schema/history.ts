import { sql } from 'drizzle-orm';
import {
  index,
  int,
  mediumtext,
  mysqlTable,
  primaryKey,
  text,
  timestamp,
  unique,
  varchar,
} from 'drizzle-orm/mysql-core';
import { HISTORY_TABLE_NAME, LOCK_TABLE_NAME, REQUEST_TABLE_NAME } from '../model/table-names.js';
import { bigintUnsigned } from './bigint-unsigned.js';

/**
 * Every change of a metric row, one row per field changed, written by `saveMetrics` in the same
 * transaction as the change (a rolled-back save leaves none). Shared by every installation of a
 * database, as the installer's ledger is: rows say their scope and metric table. Values are kept as
 * text, as the driver reads them (decimals exact, `"12.50"`), NULL for empty.
 *
 * ACTION is `insert` (a new row; one history row per field it was given), `update` (a field changed),
 * `clear` (a field set to empty) or `remove` (the row soft-deleted; one history row per metric field
 * it held, a field that was NULL has none; a row saved empty, every field NULL, has one row: its first
 * metric's, NULL to NULL). SOURCE says what sent it (`screen`, `api`, later `offline` and `copy`); DEVICE_DH is the
 * device's own time of entry where the client sent one (offline entries), beside CHANGED_DH, the
 * server's.
 */
export const historyTable = mysqlTable(
  HISTORY_TABLE_NAME,
  {
    SEQ_DB: bigintUnsigned('SEQ_DB').notNull().autoincrement(),
    EMPRESA: int('EMPRESA').notNull(),
    FILIAL: int('FILIAL').notNull(),
    LOCAL: int('LOCAL').notNull(),
    METRIC_TABLE: varchar('METRIC_TABLE', { length: 64 }).notNull(),
    ROW_SEQ_DB: bigintUnsigned('ROW_SEQ_DB').notNull(),
    FOLHA_TAREFA_SEQ_DB: bigintUnsigned('FOLHA_TAREFA_SEQ_DB').notNull(),
    OPER_SEQ_DB: bigintUnsigned('OPER_SEQ_DB').notNull(),
    OPER_GRUPO_SEQ_DB: bigintUnsigned('OPER_GRUPO_SEQ_DB'),
    FIELD: varchar('FIELD', { length: 64 }).notNull(),
    ACTION: varchar('ACTION', { length: 10 }).notNull(),
    OLD_VALUE: text('OLD_VALUE'),
    NEW_VALUE: text('NEW_VALUE'),
    USUARIO_SEQ_DB: bigintUnsigned('USUARIO_SEQ_DB').notNull(),
    CHANGED_DH: timestamp('CHANGED_DH').default(sql`CURRENT_TIMESTAMP`),
    SOURCE: varchar('SOURCE', { length: 20 }).notNull(),
    REQUEST_ID: varchar('REQUEST_ID', { length: 64 }),
    DEVICE_DH: timestamp('DEVICE_DH'),
  },
  (table) => [
    primaryKey({ columns: [table.SEQ_DB] }),
    // The reader asks for one key's changes, newest first; a conflict for one key's latest change.
    index('ix_history_key').on(
      table.EMPRESA,
      table.FILIAL,
      table.LOCAL,
      table.FOLHA_TAREFA_SEQ_DB,
      table.OPER_SEQ_DB,
      table.OPER_GRUPO_SEQ_DB,
    ),
  ],
);

/** A history row as read. */
export type HistoryRow = typeof historyTable.$inferSelect;

/**
 * The saves that carried a request id, with the answer they got: the same id again in the same
 * scope is answered from here, not applied again (a retry after a lost answer). Written in the
 * save's transaction; rows older than the retention are not matched and are removed by later saves.
 */
export const requestTable = mysqlTable(
  REQUEST_TABLE_NAME,
  {
    SEQ_DB: bigintUnsigned('SEQ_DB').notNull().autoincrement(),
    EMPRESA: int('EMPRESA').notNull(),
    FILIAL: int('FILIAL').notNull(),
    LOCAL: int('LOCAL').notNull(),
    REQUEST_ID: varchar('REQUEST_ID', { length: 64 }).notNull(),
    /** SHA-256 of what was asked (task sheet and entries): the same id with another body is refused. */
    BODY_HASH: varchar('BODY_HASH', { length: 64 }).notNull(),
    ANSWER: mediumtext('ANSWER').notNull(),
    USUARIO_SEQ_DB: bigintUnsigned('USUARIO_SEQ_DB').notNull(),
    INS_DH: timestamp('INS_DH').default(sql`CURRENT_TIMESTAMP`),
  },
  (table) => [
    primaryKey({ columns: [table.SEQ_DB] }),
    unique('task_association_request_id').on(table.EMPRESA, table.FILIAL, table.LOCAL, table.REQUEST_ID),
    index('ix_request_time').on(table.INS_DH),
  ],
);

/** A request row as read. */
export type RequestRow = typeof requestTable.$inferSelect;

/**
 * Lock rows that every node of a Galera cluster sees: a save on a cluster writes its scope's row first
 * (`N = N + 1`), so two saves of one scope through two nodes conflict at certification and the later
 * one is retried, where `GET_LOCK` is one node's alone. The installer keeps its lease here too
 * (HOLDER, EXPIRES_DH). On a single server saves keep `GET_LOCK`, which costs no statement of its own.
 */
export const lockTable = mysqlTable(
  LOCK_TABLE_NAME,
  {
    SEQ_DB: bigintUnsigned('SEQ_DB').notNull().autoincrement(),
    /** The scope a save's row serialises (0/0/0 for the database-wide installer lease). */
    EMPRESA: int('EMPRESA').notNull(),
    FILIAL: int('FILIAL').notNull(),
    LOCAL: int('LOCAL').notNull(),
    /** `save:<sha1 of database, metric table and scope>` or `installer` (rows named `save:<sha1 of database and metric table>` are from before the scope was in the name, and unused). */
    LOCK_NAME: varchar('LOCK_NAME', { length: 100 }).notNull(),
    /** How often it was taken: the write that makes two takers conflict. */
    N: bigintUnsigned('N').notNull().default(0),
    /** The installer lease's holder (a random token) and when it lapses; NULL for a save's row. */
    HOLDER: varchar('HOLDER', { length: 64 }),
    EXPIRES_DH: timestamp('EXPIRES_DH'),
    UPD_DH: timestamp('UPD_DH').onUpdateNow(),
  },
  (table) => [
    primaryKey({ columns: [table.SEQ_DB] }),
    unique('task_association_lock_name').on(table.LOCK_NAME),
  ],
);
