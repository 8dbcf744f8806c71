import { parseIdentifier, quoteIdentifier } from '../model/identifier.js';
import type { ColumnModel, ForeignKeyModel, KeyModel, TableModel } from './expected-model.js';

/**
 * DDL text for the expected model. Every name in it is a checked Identifier (quoteIdentifier refuses
 * anything else); a default comes from our own table definitions, or, restated by a MODIFY, is the
 * server's own text of the default the column already has, as is its comment (a quoted literal).
 */

const list = (names: readonly Parameters<typeof quoteIdentifier>[0][]) =>
  names.map(quoteIdentifier).join(', ');

/**
 * One column's definition. NULL is written out: with explicit_defaults_for_timestamp off (MySQL 5.7,
 * older MariaDB) a bare `timestamp` would silently become NOT NULL with its own default.
 */
export function columnDefinition(
  column: ColumnModel,
  kept: { readonly collation: string | null; readonly comment: string } = { collation: null, comment: '' },
): string {
  return [
    quoteIdentifier(column.name),
    column.type,
    // Restated from the column as found (a MODIFY): the host's collation and comment are kept.
    ...(kept.collation === null
      ? []
      : [`COLLATE ${quoteIdentifier(parseIdentifier(kept.collation, 'collation'))}`]),
    column.nullable ? 'NULL' : 'NOT NULL',
    ...(column.default !== null ? [`DEFAULT ${column.default}`] : column.nullable ? ['DEFAULT NULL'] : []),
    ...(column.onUpdateCurrentTimestamp ? ['ON UPDATE CURRENT_TIMESTAMP'] : []),
    ...(column.autoIncrement ? ['AUTO_INCREMENT'] : []),
    ...(kept.comment === '' ? [] : [`COMMENT ${sqlString(kept.comment)}`]),
  ].join(' ');
}

/** A string literal with its quotes and backslashes escaped, as both servers read it. */
function sqlString(text: string): string {
  return `'${text.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
}

export function primaryKeyDefinition(columns: TableModel['primaryKey']): string {
  return `PRIMARY KEY (${list(columns)})`;
}

export function uniqueKeyDefinition(key: KeyModel): string {
  return `UNIQUE KEY ${quoteIdentifier(key.name)} (${list(key.columns)})`;
}

export function indexDefinition(key: KeyModel): string {
  return `KEY ${quoteIdentifier(key.name)} (${list(key.columns)})`;
}

export function foreignKeyDefinition(key: ForeignKeyModel): string {
  return (
    `CONSTRAINT ${quoteIdentifier(key.name)} FOREIGN KEY (${list(key.columns)}) ` +
    `REFERENCES ${quoteIdentifier(key.referencedTable)} (${list(key.referencedColumns)}) ` +
    `ON DELETE ${key.onDelete} ON UPDATE ${key.onUpdate}`
  );
}

/**
 * The whole table, keys and foreign keys included, as InnoDB with utf8mb4; with `ifNotExists`, a
 * statement that leaves an existing table alone (the installer's ledger, shared by installations).
 */
export function createTableStatement(table: TableModel, { ifNotExists = false } = {}): string {
  const parts = [
    ...table.columns.map((column) => columnDefinition(column)),
    ...(table.primaryKey.length > 0 ? [primaryKeyDefinition(table.primaryKey)] : []),
    ...table.uniqueKeys.map(uniqueKeyDefinition),
    ...table.indexes.map(indexDefinition),
    ...table.foreignKeys.map(foreignKeyDefinition),
  ];
  const create = ifNotExists ? 'CREATE TABLE IF NOT EXISTS' : 'CREATE TABLE';
  return `${create} ${quoteIdentifier(table.name)} (\n  ${parts.join(',\n  ')}\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`;
}

/** `ALTER TABLE t clause, clause, ...`: several changes to one table in one statement. */
export function alterTableStatement(table: TableModel, clauses: readonly string[]): string {
  return `ALTER TABLE ${quoteIdentifier(table.name)}\n  ${clauses.join(',\n  ')}`;
}
