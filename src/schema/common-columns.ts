import { sql } from 'drizzle-orm';
import { type AnyMySqlColumn, int, primaryKey, timestamp, unique, varchar } from 'drizzle-orm/mysql-core';
import { bigintUnsigned } from './bigint-unsigned.js';
import { PRIMARY_KEY_NAME, SEQ_DB_UNIQUE_KEY } from './constraint-names.js';
import { flag } from './flag-column.js';

/**
 * The columns every one of the four tables starts with (the customer's common columns: scope, SEQ_DB,
 * audit and flags), fresh builders on each call.
 *
 * - SEQ_DB is `bigint unsigned NOT NULL AUTO_INCREMENT` with a unique key of its own (see
 *   {@link commonConstraints}); drizzle's `serial()` would be `bigint unsigned ... UNIQUE` spelt in a
 *   way MariaDB refuses.
 * - INS_DH defaults to the insertion time; UPD_DH is NULL until the row is updated, then refreshed by
 *   the server on every update.
 * - ATIVO, DELETED and RO have only a default in the customer's column list, so they stay nullable, as
 *   that list (and the host's app_folha_tarefa) declares them: requiring NOT NULL would make every
 *   table created by hand from that list a "narrowing" difference that sync would have to refuse.
 */
export function commonColumns() {
  return {
    SEQ_DB: bigintUnsigned('SEQ_DB').notNull().autoincrement(),
    EMPRESA: int('EMPRESA').notNull(),
    FILIAL: int('FILIAL').notNull(),
    LOCAL: int('LOCAL').notNull(),
    INS_DH: timestamp('INS_DH').default(sql`CURRENT_TIMESTAMP`),
    INS_USUARIO_SEQ_DB: bigintUnsigned('INS_USUARIO_SEQ_DB').notNull(),
    UPD_DH: timestamp('UPD_DH').onUpdateNow(),
    UPD_USUARIO_SEQ_DB: bigintUnsigned('UPD_USUARIO_SEQ_DB'),
    SOURCE: varchar('SOURCE', { length: 50 }),
    ATIVO: flag('ATIVO').default(1),
    DELETED: flag('DELETED').default(0),
    RO: flag('RO').default(0),
    ID: int('ID', { unsigned: true }).notNull(),
  };
}

/**
 * The common columns' names, in their order: a table lacking any of them is not one of ours (the
 * customer's layout is fixed, and no release of ours ever made the four without them).
 */
export const COMMON_COLUMN_NAMES: readonly string[] = Object.keys(commonColumns());

/** The customer's fixed keys: primary key (EMPRESA, FILIAL, LOCAL, ID) and a unique key on SEQ_DB. */
export function commonConstraints(t: {
  SEQ_DB: AnyMySqlColumn;
  EMPRESA: AnyMySqlColumn;
  FILIAL: AnyMySqlColumn;
  LOCAL: AnyMySqlColumn;
  ID: AnyMySqlColumn;
}) {
  return [
    primaryKey({ name: PRIMARY_KEY_NAME, columns: [t.EMPRESA, t.FILIAL, t.LOCAL, t.ID] }),
    unique(SEQ_DB_UNIQUE_KEY).on(t.SEQ_DB),
  ];
}
