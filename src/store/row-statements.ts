import { parseIdentifier } from '../model/identifier.js';
import { MENU_TABLE } from '../model/menu.js';
import { type Sql, sql } from './sql.js';

/*
 * The installer's statements on host rows: insert, update and delete one row by SEQ_DB, and the reads
 * that find a row again (by SEQ_DB, or by the values of a row made by hand). Names are checked
 * identifiers; values travel as parameters.
 */

const name = (text: string) => sql.identifier(parseIdentifier(text, 'table or column name'));

export function insertStatement(table: string, values: Readonly<Record<string, unknown>>): Sql {
  const columns = sql.join(Object.keys(values).map(name), ', ');
  return sql`INSERT INTO ${name(table)} (${columns}) VALUES (${sql.list(Object.values(values))})`;
}

export function updateStatement(
  table: string,
  seqDb: number,
  values: Readonly<Record<string, unknown>>,
): Sql {
  const assignments = sql.join(
    Object.entries(values).map(([column, value]) => sql`${name(column)} = ${value}`),
    ', ',
  );
  return sql`UPDATE ${name(table)} SET ${assignments} WHERE SEQ_DB = ${seqDb}`;
}

export function deleteStatement(table: string, seqDb: number): Sql {
  return sql`DELETE FROM ${name(table)} WHERE SEQ_DB = ${seqDb}`;
}

/**
 * Rows of `table` by SEQ_DB (`SELECT *`: comparing needs every column the host has); `lock`: locked
 * for the transaction's writes (`FOR UPDATE`), as the rows it is about to change or delete.
 */
export function selectBySeqDb(table: string, seqDbs: readonly number[], lock = false): Sql {
  return sql`SELECT * FROM ${name(table)} WHERE SEQ_DB IN (${sql.list(seqDbs)})${sql.raw(lock ? ' FOR UPDATE' : '')}`;
}

/** Rows whose columns equal `values` (a hand-made row of the same meaning). */
export function selectWhere(table: string, values: Readonly<Record<string, unknown>>): Sql {
  const conditions = sql.join(
    Object.entries(values).map(([column, value]) => sql`${name(column)} = ${value}`),
    ' AND ',
  );
  return sql`SELECT * FROM ${name(table)} WHERE ${conditions} ORDER BY SEQ_DB`;
}

/**
 * The rows of `table` whose columns equal `values` (rows referring to another row): their SEQ_DB
 * when `withSeqDb` (a host table of the installer's rows, some of which it may be removing itself),
 * else only how many there are (`n`). `lock`: a locking read (`LOCK IN SHARE MODE`, which MariaDB
 * and MySQL 8 both take), so it sees every row committed until now, not the transaction's snapshot.
 */
export function referringRows(
  table: string,
  values: Readonly<Record<string, unknown>>,
  withSeqDb: boolean,
  lock = false,
): Sql {
  const conditions = sql.join(
    Object.entries(values).map(([column, value]) => sql`${name(column)} = ${value}`),
    ' AND ',
  );
  const what = sql.raw(withSeqDb ? 'SEQ_DB' : 'COUNT(*) AS n');
  return sql`SELECT ${what} FROM ${name(table)} WHERE ${conditions}${sql.raw(lock ? ' LOCK IN SHARE MODE' : '')}`;
}

/** How many rows `table` holds per scope, in scope order (`status` on a shared table). */
export function rowsByScope(table: string): Sql {
  return sql`SELECT EMPRESA, FILIAL, LOCAL, COUNT(*) AS n FROM ${name(table)} GROUP BY EMPRESA, FILIAL, LOCAL ORDER BY EMPRESA, FILIAL, LOCAL`;
}

/** How many rows `table` holds. */
export function rowCount(table: string): Sql {
  return sql`SELECT COUNT(*) AS n FROM ${name(table)}`;
}

/** Whether `table` holds any row. */
export function anyRow(table: string): Sql {
  return sql`SELECT 1 FROM ${name(table)} LIMIT 1`;
}

/**
 * The menu rows of `seqDbs` (a menu parent named by an install file), with their scope columns when
 * the host's menu table has them (`withScope`).
 */
export function menuRowsBySeqDb(seqDbs: readonly number[], withScope: boolean): Sql {
  const scope = sql.raw(withScope ? ', EMPRESA, FILIAL, LOCAL' : '');
  return sql`SELECT SEQ_DB${scope} FROM ${sql.identifier(MENU_TABLE)} WHERE SEQ_DB IN (${sql.list(seqDbs)})`;
}

/** The statements `plan --sql` wraps the row changes in, as `apply` runs them in one transaction. */
export const TRANSACTION_START = sql`START TRANSACTION`;
export const TRANSACTION_END = sql`COMMIT`;

/** Drops one of our tables. */
export function dropTable(table: string): Sql {
  return sql`DROP TABLE ${name(table)}`;
}
