import { DEFAULT_METRICS, parseTreeView, type TreeView, treeViewLevels } from '../config/index.js';
import type { SqlExecutor } from '../db/driver.js';
import { type Identifier, parseIdentifier } from '../identifier.js';
import { createTables } from '../schema/tables.js';
import { expectedModel } from '../sync/expected-model.js';
import { HOST_TABLES, type TableNames } from '../table-names.js';
import { readHostTable } from './host-table.js';

/** One way a TREE_VIEW does not fit the database: a table or column it names is not there. */
export interface TreeViewProblem {
  readonly code: 'TREE_VIEW_TABLE_MISSING' | 'TREE_VIEW_COLUMN_MISSING' | 'TREE_VIEW_INVALID';
  /** Inside the TREE_VIEW: `layers.2.table`, `metrics.0.default.name`. */
  readonly at: string;
  readonly message: string;
}

/** A table a TREE_VIEW names, where, and the columns it needs of it (each with where it is named). */
export interface TreeViewReference {
  readonly table: Identifier;
  readonly at: string;
  readonly columns: readonly { readonly name: string; readonly at: string }[];
}

/** Table name → its columns in upper case, or undefined when the table does not exist. */
export type KnownColumns = ReadonlyMap<string, ReadonlySet<string> | undefined>;

/**
 * Every table and column a TREE_VIEW names: the layers' tables, the association tables with their
 * parent and child columns, the metric table with each metric's column, and the columns `field`
 * and `taskSheet` defaults copy from (of the task layer's table and of the task sheet table).
 */
export function treeViewReferences(treeView: TreeView, names: TableNames): TreeViewReference[] {
  const references: TreeViewReference[] = [];
  const levels = treeViewLevels(treeView);
  for (const level of levels) {
    references.push({ table: level.table, at: `layers.${level.level}.table`, columns: [] });
    if (level.association !== undefined) {
      const at = `layers.${level.level}`;
      references.push({
        table: level.association.table,
        at: `${at}.associationTable`,
        columns: [
          { name: level.association.parentColumn, at: `${at}.parentColumn` },
          { name: level.association.childColumn, at: `${at}.childColumn` },
        ],
      });
    }
  }
  const metrics = treeView.metrics ?? DEFAULT_METRICS;
  references.push({
    table: treeView.metricAssociationTable ?? names.OPER_GRUPO_METRICA,
    at: 'metricAssociationTable',
    columns: metrics.map((metric, index) => ({ name: metric.field, at: `metrics.${index}.field` })),
  });
  const copied = (type: 'field' | 'taskSheet') =>
    metrics.flatMap((metric, index) =>
      metric.default?.type === type
        ? [{ name: metric.default.name, at: `metrics.${index}.default.name` }]
        : [],
    );
  const task = levels.at(-1);
  if (task !== undefined)
    references.push({ table: task.table, at: `layers.${task.level}.table`, columns: copied('field') });
  references.push({
    table: parseIdentifier(HOST_TABLES.FOLHA_TAREFA, 'task sheet table'),
    at: 'task sheet table',
    columns: copied('taskSheet'),
  });
  return references;
}

/** Reads the columns of every table the references name (one information_schema query per table). */
export async function readKnownColumns(
  db: SqlExecutor,
  references: readonly TreeViewReference[],
): Promise<Map<string, ReadonlySet<string> | undefined>> {
  const known = new Map<string, ReadonlySet<string> | undefined>();
  for (const { table } of references) {
    if (known.has(table)) continue;
    const found = await readHostTable(db, table);
    known.set(table, found && new Set(found.columns.map((column) => column.name.toUpperCase())));
  }
  return known;
}

/**
 * The columns the installation's four tables will have once the schema sync has run: a TREE_VIEW
 * may name a table or column that `apply` creates before it writes the TREE_VIEW row.
 */
export function columnsAfterSync(names: TableNames, known: KnownColumns): Map<string, ReadonlySet<string>> {
  const after = new Map<string, ReadonlySet<string>>();
  for (const table of expectedModel(createTables(names))) {
    const found = known.get(table.name) ?? new Set<string>();
    after.set(table.name, new Set([...found, ...table.columns.map((column) => column.name.toUpperCase())]));
  }
  return after;
}

/** The references that name a table or column not in `known`; a missing table is said once. */
export function missingReferences(
  references: readonly TreeViewReference[],
  known: KnownColumns,
  label: string,
): TreeViewProblem[] {
  const problems: TreeViewProblem[] = [];
  const missing = new Set<string>();
  for (const { table, at, columns } of references) {
    const found = known.get(table);
    if (found === undefined) {
      // A table is named in several places (a layer, the defaults copied from it): say it once.
      if (missing.has(table)) continue;
      missing.add(table);
      problems.push({
        code: 'TREE_VIEW_TABLE_MISSING',
        at,
        message: `${label} ${at} names table ${table}, which does not exist`,
      });
      continue;
    }
    for (const column of columns) {
      if (found.has(column.name.toUpperCase())) continue;
      problems.push({
        code: 'TREE_VIEW_COLUMN_MISSING',
        at: column.at,
        message: `${label} ${column.at}: table ${table} has no column ${column.name}`,
      });
    }
  }
  return problems;
}

/**
 * Checks a TREE_VIEW row as it is stored now (an administrator may have edited it): valid by the
 * config model, and every table and column it names exists.
 */
export async function checkStoredTreeView(
  db: SqlExecutor,
  text: string | null,
  where: { seqDb: number; names: TableNames },
): Promise<TreeViewProblem[]> {
  const label = `TREE_VIEW (SEQ_DB ${where.seqDb})`;
  const parsed = parseTreeView(text ?? '');
  if (!parsed.success) {
    return parsed.issues.map((issue) => ({
      code: 'TREE_VIEW_INVALID',
      at: issue.path,
      message: `${label} is invalid: ${issue.path === '' ? '' : `${issue.path}: `}${issue.message}`,
    }));
  }
  const references = treeViewReferences(parsed.data, where.names);
  return missingReferences(references, await readKnownColumns(db, references), label);
}
