import { parseIdentifier, quoteIdentifier } from '../model/identifier.js';

/** A statement and its `?` parameters. */
export interface Statement {
  readonly sql: string;
  readonly params: readonly unknown[];
}

const column = (name: string) => quoteIdentifier(parseIdentifier(name, 'column name'));

export function insertStatement(table: string, values: Readonly<Record<string, unknown>>): Statement {
  const names = Object.keys(values);
  return {
    sql: `INSERT INTO ${column(table)} (${names.map(column).join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
    params: Object.values(values),
  };
}

export function updateStatement(
  table: string,
  seqDb: number,
  values: Readonly<Record<string, unknown>>,
): Statement {
  return {
    sql: `UPDATE ${column(table)} SET ${Object.keys(values)
      .map((name) => `${column(name)} = ?`)
      .join(', ')} WHERE SEQ_DB = ?`,
    params: [...Object.values(values), seqDb],
  };
}

export function deleteStatement(table: string, seqDb: number): Statement {
  return { sql: `DELETE FROM ${column(table)} WHERE SEQ_DB = ?`, params: [seqDb] };
}

/** Rows of `table` by SEQ_DB (`SELECT *`: comparing needs every column the host has). */
export function selectBySeqDb(table: string, seqDbs: readonly number[]): Statement {
  return {
    sql: `SELECT * FROM ${column(table)} WHERE SEQ_DB IN (${seqDbs.map(() => '?').join(', ')})`,
    params: seqDbs,
  };
}

/** Rows whose columns equal `values` (a hand-made row of the same meaning). */
export function selectWhere(table: string, values: Readonly<Record<string, unknown>>): Statement {
  return {
    sql: `SELECT * FROM ${column(table)} WHERE ${Object.keys(values)
      .map((name) => `${column(name)} = ?`)
      .join(' AND ')} ORDER BY SEQ_DB`,
    params: Object.values(values),
  };
}

/**
 * Whether a value read back equals the one we write. Compared in JavaScript, not by the server's
 * collation, so trailing spaces and case count: OPCOES must be exactly the customer's string, byte
 * for byte.
 */
export function sameValue(found: unknown, expected: unknown): boolean {
  if (found === null || found === undefined || expected === null || expected === undefined) {
    return (found ?? null) === (expected ?? null);
  }
  const text = (value: unknown) => (Buffer.isBuffer(value) ? value.toString('utf8') : String(value));
  return text(found) === text(expected);
}
