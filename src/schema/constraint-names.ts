import { createHash } from 'node:crypto';

/** MySQL and MariaDB refuse identifiers longer than this. */
const MAX_NAME_LENGTH = 64;

/** The name of the unique key on SEQ_DB. Index names are per table, so one name serves every table. */
export const SEQ_DB_UNIQUE_KEY = 'uq_seq_db';

/**
 * The metric table's index on (scope, task sheet, activity, group): the key a save looks rows up by.
 * Without it a save's locking read walks the primary key over the whole scope and locks every metric
 * row of it; with it, a save reads and locks only the rows of the keys it writes.
 */
export const METRIC_KEY_INDEX = 'ix_metric_key';

/** The primary key's name for drizzle; the server always calls it PRIMARY, but long defaults would be refused. */
export const PRIMARY_KEY_NAME = 'pk';

/**
 * The name of the foreign key from `table`.`column`.
 *
 * InnoDB foreign-key names are unique per DATABASE, and two scopes may keep differently named copies
 * of our tables in one database, so the name carries the actual table name. When that makes it longer
 * than 64 characters, it is cut and ends in a hash of the full table and column instead, which keeps
 * it unique and stable.
 *
 * @example foreignKeyName('MO_OPER', 'UNIDADE_MEDIDA_SEQ_DB') // 'fk_MO_OPER_UNIDADE_MEDIDA_SEQ_DB'
 */
export function foreignKeyName(table: string, column: string): string {
  const full = `fk_${table}_${column}`;
  if (full.length <= MAX_NAME_LENGTH) return full;
  const hash = createHash('sha256').update(`${table}.${column}`).digest('hex').slice(0, 10);
  return `${full.slice(0, MAX_NAME_LENGTH - hash.length - 1)}_${hash}`;
}
