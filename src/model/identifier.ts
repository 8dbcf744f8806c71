import { z } from 'zod';
import { IdentifierError } from './errors.js';

/**
 * An SQL identifier as this package accepts it: ASCII letters, digits and underscores, not starting
 * with a digit, 1 to 64 characters (MySQL's limit). Anything else is refused before SQL is built, so
 * a table name from a parameter row or a config file can never carry SQL.
 */
export const IDENTIFIER_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

export const IDENTIFIER_RULE = 'use 1 to 64 ASCII letters, digits and underscores, not starting with a digit';

/** The zod schema of an identifier; the brand makes unchecked text unusable where SQL is built. */
export const Identifier = z
  .string()
  .regex(IDENTIFIER_PATTERN, { message: `not an SQL identifier: ${IDENTIFIER_RULE}` })
  .brand<'Identifier'>();
export type Identifier = z.infer<typeof Identifier>;

/**
 * Checks `text` and returns it as an {@link Identifier}.
 * `what` names the thing for the error message, e.g. `table name for OPER`.
 *
 * @example parseIdentifier('MO_OPER', 'table name for OPER') // 'MO_OPER'
 * @example parseIdentifier('app_oper; DROP TABLE x', 'table name for OPER') // throws IdentifierError
 */
export function parseIdentifier(text: unknown, what: string, path?: string): Identifier {
  const result = Identifier.safeParse(text);
  if (result.success) return result.data;
  const shown = typeof text === 'string' ? JSON.stringify(text) : `a ${text === null ? 'null' : typeof text}`;
  const detail =
    typeof text === 'string' && text.length > 64 ? ` (${text.length} characters, at most 64)` : '';
  throw new IdentifierError(
    'INVALID_IDENTIFIER',
    `${what} ${shown} is not an SQL identifier${detail}: ${IDENTIFIER_RULE}`,
    path === undefined ? {} : { path },
  );
}

/** Backtick-quotes a checked identifier. Only {@link Identifier}s can be quoted. */
export function quoteIdentifier(name: Identifier): string {
  return `\`${name}\``;
}

/**
 * Whether two table or column names name the same thing as the server matches them: regardless of
 * case (MySQL and MariaDB compare column names so, and table names on lower_case_table_names servers).
 */
export function sameName(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/**
 * Whether two table names name one table on this server: regardless of case where it folds table
 * names (lower_case_table_names 1 or 2: `MO_OPER` is the table it keeps as `mo_oper`), exactly where
 * it keeps them apart (0: `MO_OPER` and `mo_oper` are two tables).
 */
export function sameTableName(a: string, b: string, foldsNames: boolean): boolean {
  return foldsNames ? sameName(a, b) : a === b;
}
