import { sameName } from '../model/identifier.js';
import { HOST_TABLES } from '../model/table-names.js';
import { COMMON_COLUMN_NAMES } from '../schema/common-columns.js';
import { columnOf, type FoundColumn, type FoundTable, tableOf } from '../store/information-schema.js';
import { normalizeReferentialRule } from '../store/normalize.js';
import {
  alterTableStatement,
  columnDefinition,
  createTableStatement,
  foreignKeyDefinition,
  indexDefinition,
  primaryKeyDefinition,
  uniqueKeyDefinition,
} from './ddl.js';
import type { ColumnModel, TableModel } from './expected-model.js';
import type { SchemaDifference, SchemaPlan } from './schema-difference.js';

const HOST_TABLE_NAMES: ReadonlySet<string> = new Set(Object.values(HOST_TABLES));

/** MySQL compares column and index names without case; so do we. */
const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((name, i) => sameName(name, b[i] ?? ''));
const shown = (columns: readonly string[]) => `(${columns.join(', ')})`;

/**
 * Compares the expected tables (in creation order) with what the database holds and plans the
 * statements that add what is missing. Pure: no I/O. Nothing is ever dropped or narrowed; such a
 * difference is listed as destructive and gets no statement.
 *
 * Statements come in an order that works: each table is created or altered (columns, keys) in turn,
 * then missing foreign keys are added, once every key they point at exists.
 */
export function diffSchema(
  expected: readonly TableModel[],
  found: ReadonlyMap<string, FoundTable>,
): SchemaPlan {
  const differences: SchemaDifference[] = [];
  const statements: string[] = [];
  const tables: string[] = [];
  const foreignKeyStatements: string[] = [];
  const foreignKeyTables: string[] = [];

  for (const host of hostTablesReferenced(expected)) {
    const table = tableOf(found, host);
    if (table === undefined) {
      differences.push({
        kind: 'missing-host-table',
        table: host,
        expected: 'a host table with SEQ_DB bigint unsigned',
        destructive: false,
        message: `host table ${host} does not exist: our foreign keys point at its SEQ_DB; create the host's table first (sync never creates host tables)`,
      });
      continue;
    }
    const seqDb = columnOf(table, 'SEQ_DB');
    if (seqDb === undefined) {
      differences.push({
        kind: 'missing-host-column',
        table: host,
        column: 'SEQ_DB',
        expected: 'bigint unsigned',
        destructive: false,
        message: `host table ${host} has no SEQ_DB column: our foreign keys point at it`,
      });
    } else if (seqDb.type !== 'bigint unsigned') {
      // InnoDB refuses a foreign key between columns of different types; say so before creating anything.
      differences.push({
        kind: 'host-column-type',
        table: host,
        column: 'SEQ_DB',
        found: seqDb.type,
        expected: 'bigint unsigned',
        destructive: false,
        message: `host table ${host} has SEQ_DB ${seqDb.type}: our foreign keys need bigint unsigned`,
      });
    }
    differences.push(...unfitForForeignKeys(host, table));
  }

  for (const table of expected) {
    const existing = tableOf(found, table.name);
    if (existing === undefined) {
      differences.push({
        kind: 'missing-table',
        table: table.name,
        destructive: false,
        message: `table ${table.name}${table.logical === undefined ? '' : ` (${table.logical})`} does not exist (db sync and apply create it)`,
      });
      statements.push(createTableStatement(table));
      tables.push(table.name);
      continue;
    }
    const notOurs = notOurTable(table, existing);
    if (notOurs !== undefined) {
      // Nothing else is compared: its key and columns are the host's, not ours to judge or change.
      differences.push(notOurs);
      continue;
    }
    const clauses = [
      ...columnClauses(table, existing, differences),
      ...keyClauses(table, existing, differences),
    ];
    if (clauses.length > 0) {
      statements.push(alterTableStatement(table, clauses));
      tables.push(table.name);
    }
    const foreignKeys = foreignKeyClauses(table, existing, differences);
    if (foreignKeys.length > 0) {
      foreignKeyStatements.push(alterTableStatement(table, foreignKeys));
      foreignKeyTables.push(table.name);
    }
  }
  return {
    statements: [...statements, ...foreignKeyStatements],
    statementTables: [...tables, ...foreignKeyTables],
    differences,
  };
}

/**
 * What keeps a host table from being pointed at by a foreign key, SEQ_DB aside: an engine other than
 * InnoDB (MyISAM, common in older ERP databases, or a view), and no index whose first column is
 * SEQ_DB. MariaDB and MySQL 8 both refuse the foreign key then ("errno: 150"), naming our table; said
 * here, before anything is created, naming the host's. An engine not read (a caller that did not ask
 * for it) is not judged.
 */
function unfitForForeignKeys(host: string, table: FoundTable): SchemaDifference[] {
  const differences: SchemaDifference[] = [];
  if (table.engine !== undefined && table.engine?.toLowerCase() !== 'innodb') {
    const engine = table.engine ?? 'none (a view)';
    differences.push({
      kind: 'host-table-engine',
      table: host,
      found: engine,
      expected: 'InnoDB',
      destructive: false,
      message: `host table ${host} is ${engine}, which cannot be the target of a foreign key: our foreign keys point at its SEQ_DB; convert it to InnoDB (ALTER TABLE ${host} ENGINE=InnoDB) first (sync never alters host tables)`,
    });
  }
  const seqDb = columnOf(table, 'SEQ_DB');
  if (seqDb !== undefined && !table.indexes.some((index) => sameName(index.columns[0] ?? '', seqDb.name))) {
    differences.push({
      kind: 'host-column-unindexed',
      table: host,
      column: seqDb.name,
      expected: 'a key starting with SEQ_DB (its primary key)',
      destructive: false,
      message: `host table ${host} has no index starting with ${seqDb.name}: our foreign keys point at it, which needs one; add its key (the host's primary key is SEQ_DB) first (sync never alters host tables)`,
    });
  }
  return differences;
}

/**
 * A table named as one of the four that lacks a common column is the host's own (`app_pedido`
 * named by mistake), not ours from an older release: every release made the four with them. Adding
 * our columns, keys and foreign keys to it would reshape the host's table for good, its rows given
 * values no one chose, and uninstall would never take them back.
 */
function notOurTable(table: TableModel, existing: FoundTable): SchemaDifference | undefined {
  if (table.logical === undefined) return undefined;
  const missing = COMMON_COLUMN_NAMES.filter((name) => columnOf(existing, name) === undefined);
  if (missing.length === 0) return undefined;
  return {
    kind: 'not-our-table',
    table: table.name,
    expected: `the columns every task-association table has: ${COMMON_COLUMN_NAMES.join(', ')}`,
    destructive: false,
    message: `${table.name} exists and is not a task-association table (it has no ${missing.join(', ')}): name another table for ${table.logical} (sync never reshapes a host's table into one of ours)`,
  };
}

function hostTablesReferenced(expected: readonly TableModel[]): string[] {
  const names = expected.flatMap((table) => table.foreignKeys.map((key) => key.referencedTable as string));
  return [...new Set(names.filter((name) => HOST_TABLE_NAMES.has(name)))];
}

function columnClauses(table: TableModel, existing: FoundTable, differences: SchemaDifference[]): string[] {
  const clauses: string[] = [];
  for (const column of table.columns) {
    const found = columnOf(existing, column.name);
    if (found === undefined) {
      differences.push({
        kind: 'missing-column',
        table: table.name,
        column: column.name,
        expected: columnDefinition(column),
        destructive: false,
        message: `column ${table.name}.${column.name} is missing (db sync and apply add it)`,
      });
      clauses.push(`ADD COLUMN ${columnDefinition(column)}`);
      continue;
    }
    const columnDifferences = compareColumn(table.name, column, found);
    differences.push(...columnDifferences);
    // MODIFY restates the whole column, so it is only safe when nothing about it is destructive, and
    // it keeps what the host set that the model does not say (see keptByModify).
    if (columnDifferences.length > 0 && columnDifferences.every((difference) => !difference.destructive)) {
      clauses.push(`MODIFY COLUMN ${columnDefinition(keptByModify(column, found), found)}`);
    }
  }
  return clauses;
}

/** The model's column, keeping a default the host gave it where the model names none. */
function keptByModify(column: ColumnModel, found: FoundColumn): ColumnModel {
  return column.default === null && found.default !== null ? { ...column, default: found.default } : column;
}

function compareColumn(table: string, column: ColumnModel, found: FoundColumn): SchemaDifference[] {
  const at = { table, column: column.name };
  if (found.type !== column.type) {
    return [
      {
        kind: 'column-type',
        ...at,
        found: found.type,
        expected: column.type,
        destructive: true,
        message: `column ${table}.${column.name} is ${found.type}, expected ${column.type}: sync never changes a column's type; convert or rename the column yourself`,
      },
    ];
  }
  const differences: SchemaDifference[] = [];
  if (found.nullable !== column.nullable) {
    const narrowing = !column.nullable;
    differences.push({
      kind: 'column-nullability',
      ...at,
      found: found.nullable ? 'NULL' : 'NOT NULL',
      expected: column.nullable ? 'NULL' : 'NOT NULL',
      destructive: narrowing,
      message: narrowing
        ? `column ${table}.${column.name} allows NULL, expected NOT NULL: sync never narrows a column; fill the NULLs and change it yourself`
        : `column ${table}.${column.name} is NOT NULL, expected NULL: it will allow NULL`,
    });
  }
  // A default the host gave a column the model leaves without one is the host's: removing it would
  // make the host's own inserts that rely on it fail. Only a default the model names is set.
  if (found.default !== column.default && column.default !== null) {
    differences.push({
      kind: 'column-default',
      ...at,
      found: found.default ?? 'none',
      expected: column.default ?? 'none',
      destructive: false,
      message: `column ${table}.${column.name} defaults to ${found.default ?? 'nothing'}, expected ${column.default ?? 'nothing'}: the default will be set`,
    });
  }
  for (const [flag, label] of [
    ['autoIncrement', 'AUTO_INCREMENT'],
    ['onUpdateCurrentTimestamp', 'ON UPDATE CURRENT_TIMESTAMP'],
  ] as const) {
    if (found[flag] === column[flag]) continue;
    // Taking a behaviour away from a column someone relies on counts as dropping it.
    const removing = found[flag];
    differences.push({
      kind: 'column-extra',
      ...at,
      found: removing ? label : 'none',
      expected: removing ? 'none' : label,
      destructive: removing,
      message: removing
        ? `column ${table}.${column.name} has ${label}, which the tables do not declare: sync never removes it`
        : `column ${table}.${column.name} lacks ${label} (db sync and apply add it)`,
    });
  }
  return differences;
}

function keyClauses(table: TableModel, existing: FoundTable, differences: SchemaDifference[]): string[] {
  const clauses: string[] = [];
  const primary = existing.indexes.find((index) => index.name === 'PRIMARY');
  if (primary === undefined) {
    differences.push({
      kind: 'missing-key',
      table: table.name,
      expected: `PRIMARY KEY ${shown(table.primaryKey)}`,
      destructive: false,
      message: `table ${table.name} has no primary key: PRIMARY KEY ${shown(table.primaryKey)} will be added`,
    });
    clauses.push(`ADD ${primaryKeyDefinition(table.primaryKey)}`);
  } else if (!sameList(primary.columns, table.primaryKey)) {
    differences.push({
      kind: 'conflicting-key',
      table: table.name,
      found: `PRIMARY KEY ${shown(primary.columns)}`,
      expected: `PRIMARY KEY ${shown(table.primaryKey)}`,
      destructive: true,
      message: `table ${table.name} has PRIMARY KEY ${shown(primary.columns)}, expected ${shown(table.primaryKey)}: sync never drops a key; change it yourself`,
    });
  }

  const matched = new Set<string>();
  for (const key of table.uniqueKeys) {
    const match = existing.indexes.find(
      (index) => index.unique && index.name !== 'PRIMARY' && sameList(index.columns, key.columns),
    );
    if (match !== undefined) {
      matched.add(match.name);
      continue;
    }
    const named = existing.indexes.find((index) => sameName(index.name, key.name));
    if (named !== undefined) {
      matched.add(named.name);
      differences.push({
        kind: 'conflicting-key',
        table: table.name,
        found: `${named.unique ? 'UNIQUE ' : ''}KEY ${named.name} ${shown(named.columns)}`,
        expected: `UNIQUE KEY ${key.name} ${shown(key.columns)}`,
        destructive: true,
        message: `table ${table.name} has an index named ${named.name} on ${shown(named.columns)}, expected UNIQUE ${shown(key.columns)}: sync never drops an index; rename or drop it yourself`,
      });
      continue;
    }
    differences.push({
      kind: 'missing-key',
      table: table.name,
      expected: `UNIQUE KEY ${key.name} ${shown(key.columns)}`,
      destructive: false,
      message: `table ${table.name} has no unique key on ${shown(key.columns)} (db sync and apply add it)`,
    });
    clauses.push(`ADD ${uniqueKeyDefinition(key)}`);
  }

  for (const key of table.indexes) {
    // Any index that starts with these columns serves the same lookups, whatever its name.
    const serving = existing.indexes.find((index) =>
      sameList(index.columns.slice(0, key.columns.length), key.columns),
    );
    if (serving !== undefined) {
      matched.add(serving.name);
      continue;
    }
    const named = existing.indexes.find((index) => sameName(index.name, key.name));
    if (named !== undefined) {
      differences.push({
        kind: 'conflicting-key',
        table: table.name,
        found: `${named.unique ? 'UNIQUE ' : ''}KEY ${named.name} ${shown(named.columns)}`,
        expected: `KEY ${key.name} ${shown(key.columns)}`,
        destructive: true,
        message: `table ${table.name} has an index named ${named.name} on ${shown(named.columns)}, expected ${shown(key.columns)}: sync never drops an index; rename or drop it yourself`,
      });
      continue;
    }
    differences.push({
      kind: 'missing-key',
      table: table.name,
      expected: `KEY ${key.name} ${shown(key.columns)}`,
      destructive: false,
      message: `table ${table.name} has no index on ${shown(key.columns)} (db sync and apply add it: without it a save locks every metric row of its scope)`,
    });
    clauses.push(`ADD ${indexDefinition(key)}`);
  }

  // A unique key that contains a key the tables already have refuses nothing more; any other does.
  const keys = [table.primaryKey, ...table.uniqueKeys.map((key) => key.columns)];
  const implied = (columns: readonly string[]) =>
    keys.some((key) => key.every((column) => columns.some((other) => sameName(other, column))));
  for (const index of existing.indexes) {
    if (!index.unique || index.name === 'PRIMARY' || matched.has(index.name) || implied(index.columns))
      continue;
    differences.push({
      kind: 'conflicting-key',
      table: table.name,
      found: `UNIQUE KEY ${index.name} ${shown(index.columns)}`,
      expected: 'no other unique key',
      destructive: true,
      message: `table ${table.name} has UNIQUE KEY ${index.name} ${shown(index.columns)}, which would refuse rows the tables allow: sync never drops a key; drop it yourself`,
    });
  }
  return clauses;
}

function foreignKeyClauses(
  table: TableModel,
  existing: FoundTable,
  differences: SchemaDifference[],
): string[] {
  const clauses: string[] = [];
  for (const key of table.foreignKeys) {
    const expectedText = `FOREIGN KEY ${shown(key.columns)} REFERENCES ${key.referencedTable} ${shown(key.referencedColumns)} ON DELETE ${key.onDelete}`;
    const match = existing.foreignKeys.find(
      (found) =>
        sameList(found.columns, key.columns) &&
        sameName(found.referencedTable, key.referencedTable) &&
        sameList(found.referencedColumns, key.referencedColumns),
    );
    const conflict =
      match ??
      existing.foreignKeys.find(
        (found) => sameName(found.name, key.name) || sameList(found.columns, key.columns),
      );
    if (match === undefined && conflict === undefined) {
      differences.push({
        kind: 'missing-foreign-key',
        table: table.name,
        column: key.columns.join(', '),
        expected: expectedText,
        destructive: false,
        message: `table ${table.name} lacks ${expectedText} (db sync and apply add it as ${key.name})`,
      });
      clauses.push(`ADD ${foreignKeyDefinition(key)}`);
      continue;
    }
    if (conflict === undefined) continue;
    const sameRules =
      match !== undefined &&
      normalizeReferentialRule(match.onDelete) === normalizeReferentialRule(key.onDelete) &&
      normalizeReferentialRule(match.onUpdate) === normalizeReferentialRule(key.onUpdate);
    if (sameRules) continue;
    differences.push({
      kind: 'conflicting-foreign-key',
      table: table.name,
      column: key.columns.join(', '),
      found: `FOREIGN KEY ${conflict.name} ${shown(conflict.columns)} REFERENCES ${conflict.referencedTable} ${shown(conflict.referencedColumns)} ON DELETE ${conflict.onDelete} ON UPDATE ${conflict.onUpdate}`,
      expected: `${expectedText} ON UPDATE ${key.onUpdate}`,
      destructive: true,
      message: `table ${table.name} has foreign key ${conflict.name}, which differs from ${expectedText}: sync never drops a foreign key; change it yourself`,
    });
  }
  return clauses;
}
