import { sameName } from '../model/identifier.js';
import type { SqlExecutor } from './driver.js';
import {
  hasAutoIncrement,
  hasOnUpdateCurrentTimestamp,
  normalizeColumnDefault,
  normalizeColumnType,
} from './normalize.js';
import { query, sql } from './sql.js';

/*
 * The one reader of information_schema: what the current database's tables are made of (columns with
 * their types, indexes, foreign keys), for the schema sync, the installer's checks of host tables and
 * the tree's checks of values. Only reads; table names travel as parameters.
 */

/** A column as found: the server's own words, and the canonical spellings of normalize.ts beside them. */
export interface FoundColumn {
  readonly name: string;
  /** COLUMN_TYPE as the server says it (`int(11) unsigned`): for messages. */
  readonly columnType: string;
  /** DATA_TYPE, lower case: `int`, `decimal`, `varchar`. */
  readonly dataType: string;
  /** COLUMN_TYPE canonical (`int unsigned`): what the sync compares. */
  readonly type: string;
  readonly unsigned: boolean;
  readonly nullable: boolean;
  /** The canonical default (`1`, `''`, `CURRENT_TIMESTAMP`), null for none or NULL. */
  readonly default: string | null;
  /** True when an INSERT may leave the column out: it has a default, or is generated or AUTO_INCREMENT. */
  readonly fillsItself: boolean;
  readonly autoIncrement: boolean;
  readonly onUpdateCurrentTimestamp: boolean;
  readonly precision: number | null;
  readonly scale: number | null;
  readonly maxLength: number | null;
  /** CHARACTER_OCTET_LENGTH: the most bytes a text column holds (a TEXT's limit, which is in bytes). */
  readonly octetLength: number | null;
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
  /** By name as stored; {@link columnOf} finds one whatever its case. */
  readonly columns: ReadonlyMap<string, FoundColumn>;
  /** PRIMARY included, under that name; read only when asked for. */
  readonly indexes: readonly FoundIndex[];
  /** Read only when asked for. */
  readonly foreignKeys: readonly FoundForeignKey[];
  /**
   * Its storage engine as the server names it (`InnoDB`, `MyISAM`; null for a view), read only when
   * asked for: a foreign key can point only at an InnoDB table.
   */
  readonly engine?: string | null;
  /**
   * Whether the server matches table names regardless of case (lower_case_table_names 1 or 2): then
   * `MO_OPER` names the table it stores as `mo_oper`; with 0, `mo_oper` is another table.
   */
  readonly foldsNames: boolean;
}

/** What to read besides the columns (one statement each). */
export interface TableParts {
  readonly indexes?: boolean;
  readonly foreignKeys?: boolean;
  readonly engines?: boolean;
}

/** The statement that reads the columns of `tables`, in order. */
export function columnsStatement(tables: readonly string[]) {
  return sql`SELECT TABLE_NAME AS tableName, COLUMN_NAME AS name, COLUMN_TYPE AS columnType, DATA_TYPE AS dataType, IS_NULLABLE AS nullable, COLUMN_DEFAULT AS columnDefault, EXTRA AS extra, NUMERIC_PRECISION AS numericPrecision, NUMERIC_SCALE AS numericScale, CHARACTER_MAXIMUM_LENGTH AS maxLength, CHARACTER_OCTET_LENGTH AS octetLength, COLLATION_NAME AS collation, COLUMN_COMMENT AS comment, @@lower_case_table_names AS foldsNames, @@version LIKE '%MariaDB%' AS mariaDb FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN (${sql.list(tables)}) ORDER BY TABLE_NAME, ORDINAL_POSITION`;
}

/** The statement that reads the indexes of `tables`, one row per key part, in order. */
export function indexesStatement(tables: readonly string[]) {
  return sql`SELECT TABLE_NAME AS tableName, INDEX_NAME AS name, NON_UNIQUE AS nonUnique, COLUMN_NAME AS \`column\` FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN (${sql.list(tables)}) ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX`;
}

/** The statement that reads the foreign keys of `tables`, one row per column, in order. */
export function foreignKeysStatement(tables: readonly string[]) {
  return sql`SELECT k.TABLE_NAME AS tableName, k.CONSTRAINT_NAME AS name, k.COLUMN_NAME AS \`column\`, k.REFERENCED_TABLE_NAME AS referencedTable, k.REFERENCED_COLUMN_NAME AS referencedColumn, r.DELETE_RULE AS onDelete, r.UPDATE_RULE AS onUpdate FROM information_schema.KEY_COLUMN_USAGE k JOIN information_schema.REFERENTIAL_CONSTRAINTS r ON r.CONSTRAINT_SCHEMA = k.CONSTRAINT_SCHEMA AND r.CONSTRAINT_NAME = k.CONSTRAINT_NAME AND r.TABLE_NAME = k.TABLE_NAME WHERE k.TABLE_SCHEMA = DATABASE() AND k.TABLE_NAME IN (${sql.list(tables)}) AND k.REFERENCED_TABLE_NAME IS NOT NULL ORDER BY k.TABLE_NAME, k.CONSTRAINT_NAME, k.ORDINAL_POSITION`;
}

/** The statement that reads the storage engine of `tables` (ENGINE is NULL for a view). */
export function enginesStatement(tables: readonly string[]) {
  return sql`SELECT TABLE_NAME AS tableName, ENGINE AS engine FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN (${sql.list(tables)})`;
}

/**
 * The statement that finds the foreign keys of this database pointing at `table` (`t` the table
 * holding one, `c` its name, `r` the table it points at as stored, `folds` whether the server
 * matches table names regardless of case).
 */
export function referencingKeysStatement(table: string) {
  return sql`SELECT DISTINCT TABLE_NAME AS t, CONSTRAINT_NAME AS c, REFERENCED_TABLE_NAME AS r, @@lower_case_table_names AS folds FROM information_schema.KEY_COLUMN_USAGE WHERE REFERENCED_TABLE_SCHEMA = DATABASE() AND REFERENCED_TABLE_NAME = ${table} ORDER BY t, c`;
}

/**
 * The statement that reads, column by column, the foreign keys of tables of this database that point
 * at `table` (`t` the table holding one, `c` its name, `col` its column, `rc` the column of `table`
 * it points at, `r` the table as stored, `folds` as above).
 */
export function referencingColumnsStatement(table: string) {
  return sql`SELECT TABLE_NAME AS t, CONSTRAINT_NAME AS c, COLUMN_NAME AS col, REFERENCED_COLUMN_NAME AS rc, REFERENCED_TABLE_NAME AS r, @@lower_case_table_names AS folds FROM information_schema.KEY_COLUMN_USAGE WHERE TABLE_SCHEMA = DATABASE() AND REFERENCED_TABLE_SCHEMA = DATABASE() AND REFERENCED_TABLE_NAME = ${table} ORDER BY t, c, ORDINAL_POSITION`;
}

/** The statement that says whether the server matches table names regardless of case (`folds` not 0). */
export const FOLDS_NAMES_STATEMENT = sql`SELECT @@lower_case_table_names AS folds`;

/** The statement that says whether `table` exists. */
export function tableExistsStatement(table: string) {
  return sql`SELECT 1 FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ${table}`;
}

interface ColumnRow {
  tableName: string;
  name: string;
  columnType: string;
  dataType: string;
  nullable: string;
  columnDefault: string | null;
  extra: string;
  numericPrecision: number | string | null;
  numericScale: number | string | null;
  maxLength: number | string | null;
  octetLength: number | string | null;
  collation: string | null;
  comment: string | null;
  foldsNames: number | string;
  mariaDb: number | string;
}

const nullableNumber = (value: number | string | null) => (value === null ? null : Number(value));

/**
 * Reads `tables` of the current database: their columns, and their indexes and foreign keys when
 * `parts` asks for them. Tables that do not exist are absent from the map, which is keyed by the
 * names as the server stores them ({@link tableOf} finds one as the server matches names).
 *
 * MariaDB reports `DEFAULT NULL` as the text 'NULL' and "no default" as SQL NULL; MySQL 8 reports both
 * as SQL NULL, which is harmless for `fillsItself`: only NOT NULL columns are asked it.
 */
export async function readTables(
  db: SqlExecutor,
  tables: readonly string[],
  parts: TableParts = {},
): Promise<Map<string, FoundTable>> {
  // Built mutably here, handed out read-only.
  type Building = {
    name: string;
    columns: Map<string, FoundColumn>;
    indexes: { name: string; unique: boolean; columns: string[] }[];
    foreignKeys: (FoundForeignKey & { columns: string[]; referencedColumns: string[] })[];
    foldsNames: boolean;
    engine?: string | null;
  };
  const found = new Map<string, Building>();
  if (tables.length === 0) return found;
  // One after another, not together: on a pool of one connection (db sync's) each read would wait
  // for the others, and every wait for a connection has the same bound.
  const columns = await query<ColumnRow>(db, columnsStatement(tables));
  const indexes = parts.indexes
    ? await query<{ tableName: string; name: string; nonUnique: number | string; column: string | null }>(
        db,
        indexesStatement(tables),
      )
    : [];
  const foreignKeys = parts.foreignKeys
    ? await query<{
        tableName: string;
        name: string;
        column: string;
        referencedTable: string;
        referencedColumn: string;
        onDelete: string;
        onUpdate: string;
      }>(db, foreignKeysStatement(tables))
    : [];
  const engines = parts.engines
    ? await query<{ tableName: string; engine: string | null }>(db, enginesStatement(tables))
    : [];
  // information_schema compares an IN list of names regardless of case even where the server keeps
  // `MO_OPER` and `mo_oper` apart (MariaDB with lower_case_table_names=0 does, for two names or
  // more): a table is taken only under a name asked for, unless the server folds names itself.
  const foldsNames = Number(columns[0]?.foldsNames ?? 0) !== 0;
  const asked = new Set(tables);
  const wanted = (name: string) => foldsNames || asked.has(name);
  const table = (name: string) => {
    let entry = found.get(name);
    if (entry === undefined) {
      entry = { name, columns: new Map(), indexes: [], foreignKeys: [], foldsNames };
      found.set(name, entry);
    }
    return entry;
  };
  for (const row of columns.filter((column) => wanted(column.tableName))) {
    const autoIncrement = hasAutoIncrement(row.extra);
    table(row.tableName).columns.set(row.name, {
      name: row.name,
      columnType: row.columnType,
      dataType: row.dataType.toLowerCase(),
      type: normalizeColumnType(row.columnType),
      unsigned: /unsigned/i.test(row.columnType),
      nullable: row.nullable === 'YES',
      default: normalizeColumnDefault(row.columnDefault, row.dataType, {
        extra: row.extra,
        mariaDb: Number(row.mariaDb) === 1,
      }),
      fillsItself: row.columnDefault !== null || autoIncrement || /generated/i.test(row.extra),
      autoIncrement,
      onUpdateCurrentTimestamp: hasOnUpdateCurrentTimestamp(row.extra),
      precision: nullableNumber(row.numericPrecision),
      scale: nullableNumber(row.numericScale),
      maxLength: nullableNumber(row.maxLength),
      octetLength: nullableNumber(row.octetLength),
      collation: row.collation,
      comment: row.comment ?? '',
    });
  }
  for (const row of indexes.filter((index) => found.has(index.tableName))) {
    const list = table(row.tableName).indexes;
    const last = list.at(-1);
    const column = row.column ?? EXPRESSION_PART;
    if (last?.name === row.name) last.columns.push(column);
    else list.push({ name: row.name, unique: Number(row.nonUnique) === 0, columns: [column] });
  }
  for (const row of engines.filter((table) => found.has(table.tableName))) {
    table(row.tableName).engine = row.engine === null ? null : String(row.engine);
  }
  for (const row of foreignKeys.filter((key) => found.has(key.tableName))) {
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

/** One table, read with {@link readTables}; `undefined` when it does not exist. */
export async function readTable(
  db: SqlExecutor,
  table: string,
  parts: TableParts = {},
): Promise<FoundTable | undefined> {
  return tableOf(await readTables(db, [table], parts), table);
}

/** The table `name` of what was read, matched as the server matches names (case aside where it folds them). */
export function tableOf(found: ReadonlyMap<string, FoundTable>, name: string): FoundTable | undefined {
  return (
    found.get(name) ?? [...found.values()].find((table) => table.foldsNames && sameName(table.name, name))
  );
}

/** The column `name` of `table`, matched as the server matches names (case aside). */
export function columnOf(table: FoundTable, name: string): FoundColumn | undefined {
  return table.columns.get(name) ?? [...table.columns.values()].find((column) => sameName(column.name, name));
}

/** Whether `table` exists in the current database (case as the server compares it). */
export async function tableExists(db: SqlExecutor, table: string): Promise<boolean> {
  return (await query(db, tableExistsStatement(table))).length > 0;
}

/** Whether the server matches table names regardless of case (lower_case_table_names 1 or 2). */
export async function foldsTableNames(db: SqlExecutor): Promise<boolean> {
  const [row] = await query<{ folds: number | string }>(db, FOLDS_NAMES_STATEMENT);
  return Number(row?.folds ?? 0) !== 0;
}

/** A foreign key pointing at a table: the table holding it, its name, and how the server matches table names. */
export interface ReferencingKey {
  readonly table: string;
  readonly constraint: string;
  /** As {@link FoundTable.foldsNames}: whether `table` is to be compared with others regardless of case. */
  readonly foldsNames: boolean;
}

/**
 * The foreign keys of this database that reference `table` (its own too). information_schema may
 * match the name regardless of case where the server keeps `MO_OPER` and `mo_oper` apart: a key to
 * the other one is left out.
 */
export async function referencingKeys(db: SqlExecutor, table: string): Promise<ReferencingKey[]> {
  const rows = await query<{ t: string; c: string; r: string; folds: number | string }>(
    db,
    referencingKeysStatement(table),
  );
  return rows
    .filter((row) => Number(row.folds) !== 0 || String(row.r) === table)
    .map((row) => ({ table: String(row.t), constraint: String(row.c), foldsNames: Number(row.folds) !== 0 }));
}

/** A foreign key pointing at a table, with its columns: which rows of `table` refer to which row. */
export interface ReferencingForeignKey extends ReferencingKey {
  /** The key's columns in `table`, in order. */
  readonly columns: readonly string[];
  /** The columns of the referenced table they point at, in the same order. */
  readonly referencedColumns: readonly string[];
}

/**
 * The foreign keys of this database's tables that reference `table` (its own too), with their
 * columns; a key to another table that differs only in case is left out, as {@link referencingKeys}
 * leaves it.
 */
export async function referencingForeignKeys(
  db: SqlExecutor,
  table: string,
): Promise<ReferencingForeignKey[]> {
  const rows = await query<{
    t: string;
    c: string;
    col: string;
    rc: string;
    r: string;
    folds: number | string;
  }>(db, referencingColumnsStatement(table));
  const keys: (ReferencingForeignKey & { columns: string[]; referencedColumns: string[] })[] = [];
  for (const row of rows.filter((found) => Number(found.folds) !== 0 || String(found.r) === table)) {
    const last = keys.at(-1);
    if (last?.table === String(row.t) && last.constraint === String(row.c)) {
      last.columns.push(String(row.col));
      last.referencedColumns.push(String(row.rc));
    } else {
      keys.push({
        table: String(row.t),
        constraint: String(row.c),
        foldsNames: Number(row.folds) !== 0,
        columns: [String(row.col)],
        referencedColumns: [String(row.rc)],
      });
    }
  }
  return keys;
}
