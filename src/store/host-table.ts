import type { Identifier } from '../model/identifier.js';
import type { SqlExecutor } from './driver.js';

/** One column of a host table as information_schema describes it. */
export interface HostColumn {
  readonly name: string;
  /** `int(11) unsigned`, `varchar(100)`: for messages and type checks. */
  readonly columnType: string;
  readonly nullable: boolean;
  /** True when an INSERT may leave the column out: it has a default, or is generated or AUTO_INCREMENT. */
  readonly fillsItself: boolean;
}

/** A host table's columns, looked up by name case-insensitively (as MySQL does). */
export interface HostTable {
  readonly name: Identifier;
  readonly columns: readonly HostColumn[];
  column(name: string): HostColumn | undefined;
}

interface ColumnRow {
  COLUMN_NAME: string;
  COLUMN_TYPE: string;
  IS_NULLABLE: string;
  COLUMN_DEFAULT: string | null;
  EXTRA: string;
}

/**
 * Reads the columns of `table` in the current database, or `undefined` when there is no such table.
 * MariaDB reports `DEFAULT NULL` as the text 'NULL' and "no default" as SQL NULL; MySQL 8 reports
 * both as SQL NULL, which is harmless here because only NOT NULL columns are asked whether they fill
 * themselves.
 */
export async function readHostTable(db: SqlExecutor, table: Identifier): Promise<HostTable | undefined> {
  const rows = await db.query<ColumnRow>(
    `SELECT COLUMN_NAME, COLUMN_TYPE, IS_NULLABLE, COLUMN_DEFAULT, EXTRA
       FROM information_schema.COLUMNS
      WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?
      ORDER BY ORDINAL_POSITION`,
    [table],
  );
  if (rows.length === 0) return undefined;
  const columns = rows.map(
    (row): HostColumn => ({
      name: row.COLUMN_NAME,
      columnType: row.COLUMN_TYPE,
      nullable: row.IS_NULLABLE === 'YES',
      fillsItself: row.COLUMN_DEFAULT !== null || /auto_increment|generated/i.test(row.EXTRA),
    }),
  );
  const byName = new Map(columns.map((column) => [column.name.toUpperCase(), column]));
  return { name: table, columns, column: (name) => byName.get(name.toUpperCase()) };
}

/** Whether `table` exists in the current database (case as the server compares it). */
export async function tableExists(db: SqlExecutor, table: string): Promise<boolean> {
  const rows = await db.query(
    'SELECT 1 FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?',
    [table],
  );
  return rows.length > 0;
}
