/**
 * One spelling for what MariaDB and MySQL 8 report differently in information_schema, so that the
 * expected model (from the Drizzle tables) and the found one compare equal when they mean the same:
 *
 * - integer display widths: MariaDB and MySQL 5.7 say `int(11)`, `bigint(20) unsigned`; MySQL 8.0.19+
 *   says `int`, `bigint unsigned`. Widths mean nothing for storage and are dropped, except `tinyint(1)`,
 *   which both keep and which is the customer's flag type;
 * - defaults: MariaDB 10.2.7+ quotes string literals (`'text'`), says `NULL` for an explicit NULL
 *   default and `current_timestamp()`; MySQL 8 reports strings unquoted, SQL NULL for NULL and
 *   `CURRENT_TIMESTAMP` (with `DEFAULT_GENERATED` in EXTRA). Canonical: the SQL text of the default
 *   (`1`, `''`, `CURRENT_TIMESTAMP`), or null for none / NULL;
 * - EXTRA: `on update current_timestamp()` (MariaDB) and `DEFAULT_GENERATED on update CURRENT_TIMESTAMP`
 *   (MySQL 8) both mean "refreshed on update".
 */

const INTEGER_WITH_WIDTH = /^(tinyint|smallint|mediumint|int|integer|bigint)\(\d+\)/;

/** `bigint(20) unsigned` → `bigint unsigned`; `tinyint(1)` stays; everything lower-case. */
export function normalizeColumnType(columnType: string): string {
  const type = columnType.trim().toLowerCase().replace(/\s+/g, ' ');
  if (/^tinyint\(1\)( |$)/.test(type)) return type;
  return type.replace(INTEGER_WITH_WIDTH, '$1').replace(/^integer\b/, 'int');
}

const TEXT_TYPES = new Set(['char', 'varchar', 'tinytext', 'text', 'mediumtext', 'longtext', 'enum', 'set']);
const CURRENT_TIMESTAMP = /^current_timestamp(\(\))?$/i;

/** A number as a default's literal: `1`, `-0.5`, `1e3`. */
const NUMBER_LITERAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** Which server's words information_schema is in: they spell an expression default differently. */
export interface DefaultSpelling {
  /** EXTRA of the column: MySQL 8 marks an expression default `DEFAULT_GENERATED`. */
  readonly extra?: string;
  /** The server is MariaDB, which quotes a string literal and leaves an expression bare. */
  readonly mariaDb?: boolean;
}

/**
 * The canonical default from information_schema.COLUMNS' COLUMN_DEFAULT and DATA_TYPE, as it would be
 * written in a column definition. Returns null when the column has no default or defaults to NULL.
 * An expression default (a host's `DEFAULT (uuid())`) comes back in parentheses, the form both
 * servers take (MariaDB 10.2+, MySQL 8.0.13+): restated bare it would be refused or, on a text
 * column, become the text of the expression.
 */
export function normalizeColumnDefault(
  columnDefault: string | null,
  dataType: string,
  spelling: DefaultSpelling = {},
): string | null {
  if (columnDefault === null) return null;
  if (CURRENT_TIMESTAMP.test(columnDefault)) return 'CURRENT_TIMESTAMP';
  const isMariaDbQuoted =
    columnDefault.length >= 2 && columnDefault.startsWith("'") && columnDefault.endsWith("'");
  if (isMariaDbQuoted) return columnDefault;
  // MariaDB says NULL for a NULL default. MySQL would say the same for a string default spelt NULL,
  // which no table of ours has.
  if (columnDefault === 'NULL') return null;
  // MySQL 8 writes an expression's quotes escaped (`concat(_utf8mb4\'a\')`).
  if (/DEFAULT_GENERATED/i.test(spelling.extra ?? '')) return `(${columnDefault.replaceAll("\\'", "'")})`;
  if (spelling.mariaDb === true && !NUMBER_LITERAL.test(columnDefault)) return `(${columnDefault})`;
  if (TEXT_TYPES.has(dataType.toLowerCase())) return sqlString(columnDefault);
  return columnDefault;
}

/** A string as an SQL literal: `it's` → `'it''s'`. */
export function sqlString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** Whether EXTRA says the column is refreshed with the current time on every update. */
export function hasOnUpdateCurrentTimestamp(extra: string): boolean {
  return /on update current_timestamp/i.test(extra);
}

export function hasAutoIncrement(extra: string): boolean {
  return /auto_increment/i.test(extra);
}

/**
 * Delete/update rules: InnoDB checks NO ACTION at once, exactly like RESTRICT, and MariaDB reports an
 * unspecified rule as RESTRICT where MySQL 8 reports NO ACTION, so the two compare equal.
 */
export function normalizeReferentialRule(rule: string): string {
  const upper = rule.trim().toUpperCase();
  return upper === 'NO ACTION' ? 'RESTRICT' : upper;
}
