import type { SqlExecutor } from './driver.js';
import {
  hasAutoIncrement,
  hasOnUpdateCurrentTimestamp,
  normalizeColumnDefault,
  normalizeColumnType,
} from './normalize.js';

/** A column as found, in the canonical spellings of normalize.ts. */
export interface FoundColumn {
  readonly name: string;
  readonly type: string;
  readonly nullable: boolean;
  readonly default: string | null;
  readonly autoIncrement: boolean;
  readonly onUpdateCurrentTimestamp: boolean;
  /** The column's own collation (text columns; null for others). A MODIFY restates it. */
  readonly collation: string | null;
  /** The column's comment ('' for none). A MODIFY restates it. */
  readonly comment: string;
}

export interface FoundIndex {
  readonly name: string;
  readonly unique: boolean;
  /** Key parts in order; a part that is an expression, not a column, is {@link EXPRESSION_PART}. */
  readonly columns: readonly string[];
}

/**
 * What an index's key part is called when it is an expression: MySQL 8 has functional key parts,
 * whose COLUMN_NAME in information_schema is NULL. No column can have this name, so such an index
 * never passes for one on columns, and a message shows it as what it is.
 */
export const EXPRESSION_PART = '(expression)';

export interface FoundForeignKey {
  readonly name: string;
  readonly columns: readonly string[];
  readonly referencedTable: string;
  readonly referencedColumns: readonly string[];
  readonly onDelete: string;
  readonly onUpdate: string;
}

export interface FoundTable {
  readonly name: string;
  readonly columns: ReadonlyMap<string, FoundColumn>;
  /** PRIMARY included, under that name. */
  readonly indexes: readonly FoundIndex[];
  readonly foreignKeys: readonly FoundForeignKey[];
}

/**
 * Reads `tables` of the current database from information_schema (COLUMNS, STATISTICS,
 * KEY_COLUMN_USAGE with REFERENTIAL_CONSTRAINTS). Tables that do not exist are absent from the map.
 * Only reads; the names travel as `?` parameters.
 */
export async function introspect(
  db: SqlExecutor,
  tables: readonly string[],
): Promise<Map<string, FoundTable>> {
  // Built mutably here, handed out read-only.
  type Building = {
    name: string;
    columns: Map<string, FoundColumn>;
    indexes: { name: string; unique: boolean; columns: string[] }[];
    foreignKeys: (FoundForeignKey & { columns: string[]; referencedColumns: string[] })[];
  };
  const found = new Map<string, Building>();
  if (tables.length === 0) return found;
  const marks = tables.map(() => '?').join(', ');
  const columns = await db.query<{
    tableName: string;
    name: string;
    columnType: string;
    dataType: string;
    nullable: string;
    columnDefault: string | null;
    extra: string;
    collation: string | null;
    comment: string | null;
  }>(
    `SELECT TABLE_NAME AS tableName, COLUMN_NAME AS name, COLUMN_TYPE AS columnType, DATA_TYPE AS dataType,
            IS_NULLABLE AS nullable, COLUMN_DEFAULT AS columnDefault, EXTRA AS extra,
            COLLATION_NAME AS collation, COLUMN_COMMENT AS comment
       FROM information_schema.COLUMNS
      WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN (${marks})
      ORDER BY TABLE_NAME, ORDINAL_POSITION`,
    tables,
  );
  const indexes = await db.query<{
    tableName: string;
    name: string;
    nonUnique: number | string;
    column: string | null;
  }>(
    `SELECT TABLE_NAME AS tableName, INDEX_NAME AS name, NON_UNIQUE AS nonUnique, COLUMN_NAME AS \`column\`
       FROM information_schema.STATISTICS
      WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN (${marks})
      ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX`,
    tables,
  );
  const foreignKeys = await db.query<{
    tableName: string;
    name: string;
    column: string;
    referencedTable: string;
    referencedColumn: string;
    onDelete: string;
    onUpdate: string;
  }>(
    `SELECT k.TABLE_NAME AS tableName, k.CONSTRAINT_NAME AS name, k.COLUMN_NAME AS \`column\`,
            k.REFERENCED_TABLE_NAME AS referencedTable, k.REFERENCED_COLUMN_NAME AS referencedColumn,
            r.DELETE_RULE AS onDelete, r.UPDATE_RULE AS onUpdate
       FROM information_schema.KEY_COLUMN_USAGE k
       JOIN information_schema.REFERENTIAL_CONSTRAINTS r
         ON r.CONSTRAINT_SCHEMA = k.CONSTRAINT_SCHEMA AND r.CONSTRAINT_NAME = k.CONSTRAINT_NAME
        AND r.TABLE_NAME = k.TABLE_NAME
      WHERE k.TABLE_SCHEMA = DATABASE() AND k.TABLE_NAME IN (${marks}) AND k.REFERENCED_TABLE_NAME IS NOT NULL
      ORDER BY k.TABLE_NAME, k.CONSTRAINT_NAME, k.ORDINAL_POSITION`,
    tables,
  );

  const table = (name: string) => {
    let entry = found.get(name);
    if (entry === undefined) {
      entry = { name, columns: new Map(), indexes: [], foreignKeys: [] };
      found.set(name, entry);
    }
    return entry;
  };
  for (const row of columns) {
    table(row.tableName).columns.set(row.name, {
      name: row.name,
      type: normalizeColumnType(row.columnType),
      nullable: row.nullable === 'YES',
      default: normalizeColumnDefault(row.columnDefault, row.dataType),
      autoIncrement: hasAutoIncrement(row.extra),
      onUpdateCurrentTimestamp: hasOnUpdateCurrentTimestamp(row.extra),
      collation: row.collation,
      comment: row.comment ?? '',
    });
  }
  for (const row of indexes) {
    const list = table(row.tableName).indexes;
    const last = list.at(-1);
    const column = row.column ?? EXPRESSION_PART;
    if (last?.name === row.name) last.columns.push(column);
    else list.push({ name: row.name, unique: Number(row.nonUnique) === 0, columns: [column] });
  }
  for (const row of foreignKeys) {
    const list = table(row.tableName).foreignKeys;
    const last = list.at(-1);
    if (last?.name === row.name) {
      last.columns.push(row.column);
      last.referencedColumns.push(row.referencedColumn);
    } else {
      list.push({
        name: row.name,
        columns: [row.column],
        referencedTable: row.referencedTable,
        referencedColumns: [row.referencedColumn],
        onDelete: row.onDelete,
        onUpdate: row.onUpdate,
      });
    }
  }
  return found;
}
