import {
  IDENTIFIER_PATTERN,
  type Identifier,
  parseIdentifier,
  quoteIdentifier,
} from '../model/identifier.js';
import type { Scope } from '../model/scope.js';
import type { ExecuteResult, QueryOptions, SqlExecutor } from './driver.js';

/** A statement as plain data: its text with `?` placeholders and their values (what `plan --json` prints). */
export interface Statement {
  readonly sql: string;
  readonly params: readonly unknown[];
}

/**
 * A statement or a piece of one: its text with `?` placeholders and the values they stand for, in
 * order. Built only with {@link sql}, so a value always travels with the placeholder it fills and no
 * caller lines parameters up by hand.
 */
export class Sql implements Statement {
  /** Use {@link sql} and its helpers: they are the only way text gets in. */
  private constructor(
    readonly sql: string,
    readonly params: readonly unknown[],
  ) {}

  /** @internal The one door for text, kept for the helpers below. */
  static of(text: string, params: readonly unknown[]): Sql {
    return new Sql(text, params);
  }
}

/**
 * The statement the template reads as: each embedded {@link Sql} goes in with its parameters, every
 * other value becomes one `?` and its parameter. The API is Drizzle's (`sql`, `sql.identifier`,
 * `sql.join`, `sql.raw`), but the text is put together as the template is read: Drizzle's own `sql`,
 * rendered by its MySQL dialect, took 40 to 95 times as long for the tree loader's statement at 1 to
 * 10,000 ids (`npm run bench:sql`), which every save and every IN list would pay.
 *
 * @example sql`SELECT * FROM ${sql.identifier(parseIdentifier('app_oper', 'table'))} t WHERE t.SEQ_DB = ${42}` // { sql: 'SELECT * FROM `app_oper` t WHERE t.SEQ_DB = ?', params: [42] }
 */
export function sql(strings: TemplateStringsArray, ...values: readonly unknown[]): Sql {
  let text = strings[0] as string;
  const params: unknown[] = [];
  for (let index = 0; index < values.length; index++) {
    const value = values[index];
    if (value instanceof Sql) {
      text += value.sql;
      for (const param of value.params) params.push(param);
    } else {
      text += '?';
      params.push(value instanceof Date ? utcDateTime(value) : value);
    }
    text += strings[index + 1] as string;
  }
  return Sql.of(text, params);
}

/**
 * A date as the text our pools send it (`2026-11-21 00:30:00.000`, its UTC fields): dates are read
 * in UTC (the server's wall-clock time taken as UTC), so one sent back names the same time. Sent as
 * a Date, a driver formats it in its own connection's time zone, which a host's pool (mysql2's
 * default is the process's local time) sets otherwise: a task sheet's date read and sent back moved
 * by hours, and so to another day.
 */
function utcDateTime(date: Date): string {
  return date.toISOString().slice(0, 23).replace('T', ' ');
}

/**
 * A checked table or column name, quoted: names are never parameters. Checked again here, whatever
 * its type says, since a name that is not an identifier must never reach the text.
 */
sql.identifier = (name: Identifier): Sql =>
  Sql.of(quoteIdentifier(IDENTIFIER_PATTERN.test(name) ? name : parseIdentifier(name, 'name')), []);

/**
 * Fixed text of our own (an alias such as `a`, a keyword), never anything a caller gave: it goes in
 * as written.
 */
sql.raw = (text: string): Sql => Sql.of(text, []);

/** Nothing: for a clause a statement has only sometimes. */
sql.empty = Sql.of('', []);

/** `?, ?, ?` for an IN list, with its values (at least one: an empty IN list is never built). */
sql.list = (values: readonly unknown[]): Sql => {
  // Callers skip the statement instead: `IN ()` is a syntax error on every server.
  if (values.length === 0) throw new RangeError('sql.list: an empty list has no SQL form');
  return Sql.of(
    values.length === 1 ? '?' : `?${', ?'.repeat(values.length - 1)}`,
    values.map((value) => (value instanceof Date ? utcDateTime(value) : value)),
  );
};

/** The parts in order, separated by `separator`, with their parameters in the same order. */
sql.join = (parts: readonly Sql[], separator: string): Sql => {
  const params: unknown[] = [];
  for (const part of parts) for (const param of part.params) params.push(param);
  return Sql.of(parts.map((part) => part.sql).join(separator), params);
};

/** The caller's scope on `alias`, one of our own fixed aliases (never user text). */
export function inScope(alias: string, scope: Scope): Sql {
  return Sql.of(`${alias}.EMPRESA = ? AND ${alias}.FILIAL = ? AND ${alias}.LOCAL = ?`, [
    scope.EMPRESA,
    scope.FILIAL,
    scope.LOCAL,
  ]);
}

/**
 * The filter of a task sheet's saved metric rows: the caller's scope, not deleted. Inactive rows are
 * read too: they are shown, not editable. DELETED is nullable with default 0, so NULL counts as 0.
 */
export function savedInScope(alias: string, scope: Scope): Sql {
  return sql`${inScope(alias, scope)} AND IFNULL(${sql.raw(alias)}.DELETED, 0) = 0`;
}

/**
 * The filter every level of a read goes through: the caller's scope, not deleted, active. ATIVO is
 * nullable with default 1, so NULL counts as 1.
 */
export function liveInScope(alias: string, scope: Scope): Sql {
  return sql`${savedInScope(alias, scope)} AND IFNULL(${sql.raw(alias)}.ATIVO, 1) = 1`;
}

/** Splits `values` into chunks of at most `size`; an empty input gives no chunk, so no query. */
export function chunks<T>(values: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < values.length; start += size) result.push(values.slice(start, start + size));
  return result;
}

/** Sends a statement that returns rows. */
export function query<Row extends object = Record<string, unknown>>(
  db: SqlExecutor,
  statement: Statement,
  options?: QueryOptions,
): Promise<Row[]> {
  return db.query<Row>(statement.sql, statement.params, options);
}

/** Sends a statement that changes something. */
export function execute(
  db: SqlExecutor,
  statement: Statement,
  options?: QueryOptions,
): Promise<ExecuteResult> {
  return db.execute(statement.sql, statement.params, options);
}
