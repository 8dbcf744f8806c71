import { is, SQL } from 'drizzle-orm';
import { getTableConfig, MySqlDialect, type MySqlTable } from 'drizzle-orm/mysql-core';
import { type Identifier, parseIdentifier } from '../model/identifier.js';
import type { LogicalTable } from '../model/table-names.js';
import { normalizeColumnType, sqlString } from '../store/normalize.js';

/** A column as sync compares it: canonical spellings from normalize.ts. */
export interface ColumnModel {
  readonly name: Identifier;
  /** e.g. `bigint unsigned`, `varchar(50)`, `tinyint(1)`, `decimal(11,2)`. */
  readonly type: string;
  readonly nullable: boolean;
  /** The default's SQL text (`1`, `''`, `CURRENT_TIMESTAMP`), null for none or NULL. */
  readonly default: string | null;
  readonly autoIncrement: boolean;
  readonly onUpdateCurrentTimestamp: boolean;
}

export interface KeyModel {
  readonly name: Identifier;
  readonly columns: readonly Identifier[];
}

export interface ForeignKeyModel extends KeyModel {
  readonly referencedTable: Identifier;
  readonly referencedColumns: readonly Identifier[];
  /** As declared, upper case (`RESTRICT`, `NO ACTION`); compared through normalizeReferentialRule. */
  readonly onDelete: string;
  readonly onUpdate: string;
}

export interface TableModel {
  /** Which of the four tables; absent for a table of the package's own beside them (the ledger). */
  readonly logical?: LogicalTable;
  readonly name: Identifier;
  readonly columns: readonly ColumnModel[];
  readonly primaryKey: readonly Identifier[];
  readonly uniqueKeys: readonly KeyModel[];
  /** Plain (non-unique) indexes that reads and locking reads rely on. */
  readonly indexes: readonly KeyModel[];
  readonly foreignKeys: readonly ForeignKeyModel[];
}

const dialect = new MySqlDialect();

/**
 * What the database should hold for these Drizzle tables, read from the table objects themselves
 * (never restated), in the order given (the order they can be created in).
 */
export function expectedModel(tables: Readonly<Record<LogicalTable, MySqlTable>>): TableModel[] {
  return (Object.entries(tables) as [LogicalTable, MySqlTable][]).map(([logical, table]) =>
    tableModel(table, logical),
  );
}

/** What the database should hold for one Drizzle table, read from the table object itself. */
export function tableModel(table: MySqlTable, logical?: LogicalTable): TableModel {
  const config = getTableConfig(table);
  const id = (name: string, what: string) => parseIdentifier(name, what);
  return {
    ...(logical === undefined ? {} : { logical }),
    name: id(config.name, logical === undefined ? 'table name' : `table name for ${logical}`),
    columns: config.columns.map((column) => ({
      name: id(column.name, 'column name'),
      type: normalizeColumnType(column.getSQLType()),
      nullable: !column.notNull,
      default: defaultSql(column.default),
      autoIncrement: 'autoIncrement' in column && column.autoIncrement === true,
      onUpdateCurrentTimestamp: 'hasOnUpdateNow' in column && column.hasOnUpdateNow === true,
    })),
    primaryKey: (config.primaryKeys[0]?.columns ?? []).map((column) => id(column.name, 'column name')),
    uniqueKeys: config.uniqueConstraints.map((key) => ({
      name: id(key.getName() ?? '', 'unique key name'),
      columns: key.columns.map((column) => id(column.name, 'column name')),
    })),
    indexes: config.indexes
      .filter((index) => !index.config.unique)
      .map((index) => ({
        name: id(index.config.name, 'index name'),
        columns: index.config.columns.map((column) =>
          id('name' in column ? column.name : '', 'index column name'),
        ),
      })),
    foreignKeys: config.foreignKeys.map((key) => {
      const reference = key.reference();
      return {
        name: id(key.getName(), 'foreign key name'),
        columns: reference.columns.map((column) => id(column.name, 'column name')),
        referencedTable: id(getTableConfig(reference.foreignTable).name, 'referenced table name'),
        referencedColumns: reference.foreignColumns.map((column) => id(column.name, 'column name')),
        onDelete: (key.onDelete ?? 'no action').toUpperCase(),
        onUpdate: (key.onUpdate ?? 'no action').toUpperCase(),
      };
    }),
  };
}

function defaultSql(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (is(value, SQL)) {
    const text = dialect.sqlToQuery(value).sql;
    return /^current_timestamp(\(\))?$/i.test(text) ? 'CURRENT_TIMESTAMP' : text;
  }
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'string') return sqlString(value);
  throw new Error(`unsupported column default ${String(value)}`);
}
