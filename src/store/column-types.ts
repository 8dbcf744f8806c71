import { type ColumnType, isByteLimited } from '../model/column-values.js';
import type { Identifier } from '../model/identifier.js';
import type { SqlExecutor } from './driver.js';
import { type FoundColumn, type FoundTable, readTable } from './information-schema.js';

/** The columns of `table` in the connection's database, by name, in one query. */
export async function readColumnTypes(db: SqlExecutor, table: Identifier): Promise<Map<string, ColumnType>> {
  return columnTypesOf(await readTable(db, table));
}

/** The column types of a table as read (none for a table that does not exist). */
export function columnTypesOf(found: FoundTable | undefined): Map<string, ColumnType> {
  return new Map(
    [...(found?.columns.values() ?? [])].map((column) => [
      column.name,
      { ...valueTypeOf(column), leftOut: leftOutOf(column) },
    ]),
  );
}

/** What a value must be to fit a column as read: the parts of a {@link FoundColumn} that judge a value. */
export type ValueColumn = Pick<
  FoundColumn,
  | 'name'
  | 'dataType'
  | 'unsigned'
  | 'nullable'
  | 'precision'
  | 'scale'
  | 'maxLength'
  | 'octetLength'
  | 'collation'
>;

/** The type of one column as read, to check a value against (`checkValue`), without what an insert leaving it out gets. */
export function valueTypeOf(column: ValueColumn): ColumnType {
  return {
    name: column.name,
    dataType: column.dataType,
    unsigned: column.unsigned,
    nullable: column.nullable,
    precision: column.precision,
    scale: column.scale,
    maxLength: column.maxLength,
    // A TEXT's limit is in bytes (MariaDB says 255 characters of a utf8mb4 TINYTEXT: its bytes).
    ...(isByteLimited(column.dataType) && column.octetLength !== null
      ? { maxBytes: column.octetLength }
      : {}),
    // A collation's name starts with its character set's: `utf8mb4_general_ci`, `latin1_swedish_ci`.
    ...(column.collation === null ? {} : { charset: column.collation.split('_')[0] ?? column.collation }),
  };
}

/** What an insert that leaves `column` out writes there (see `ColumnType.leftOut`). */
function leftOutOf(column: FoundColumn): NonNullable<ColumnType['leftOut']> {
  if (!column.nullable && !column.fillsItself) return 'refused';
  // `default` is null for no default and for DEFAULT NULL alike: a nullable column then gets NULL.
  return column.nullable && column.default === null ? 'null' : 'default';
}
