import {
  type ColumnType,
  checkValue,
  columnNamed,
  columnTypeOf,
  isMetricType,
} from '../model/column-values.js';
import { dateTextLength } from '../model/date-text.js';
import { type Identifier, sameName } from '../model/identifier.js';
import type { Issue } from '../model/issues.js';
import { DEFAULT_METRICS } from '../model/metrics.js';
import { TASK_SHEET_TABLE, type TableNames } from '../model/table-names.js';
import { metricTableMismatch } from '../model/tree-plan.js';
import { parseTreeView, type TreeView, treeViewLevels } from '../model/tree-view.js';
import { createTables } from '../schema/tables.js';
import { columnTypesOf, readColumnTypes } from '../store/column-types.js';
import type { SqlExecutor } from '../store/driver.js';
import { type FoundTable, readTables, tableOf } from '../store/information-schema.js';
import { IDENTITY_COLUMNS } from '../store/metric-table.js';
import { expectedModel } from '../sync/expected-model.js';
import { LIVE_COLUMNS } from '../tree/table-diagnosis.js';

/**
 * One way a TREE_VIEW does not fit the database (a table or column it names is not there, a metric its
 * table cannot keep), its path inside the TREE_VIEW: `layers.2.table`, `metrics.0.default.name`.
 */
export type TreeViewProblem = Issue<
  | 'TREE_VIEW_TABLE_MISSING'
  | 'TREE_VIEW_COLUMN_MISSING'
  | 'TREE_VIEW_INVALID'
  | 'TREE_VIEW_METRIC_TYPE'
  | 'TREE_VIEW_DEFAULT_UNFIT'
  | 'TREE_VIEW_METRIC_TABLE'
>;

/** A table a TREE_VIEW names, where, and the columns it needs of it (each with where it is named). */
export interface TreeViewReference {
  readonly table: Identifier;
  readonly at: string;
  readonly columns: readonly { readonly name: string; readonly at: string }[];
}

/** Table name → its columns in upper case, or undefined when the table does not exist. */
export type KnownColumns = ReadonlyMap<string, ReadonlySet<string> | undefined>;

/**
 * Every table and column a TREE_VIEW names or needs: the layers' tables (with their id, scope and
 * flags), the association tables with their scope, flags, parent and child columns, the metric table
 * with its key and flags and each metric's column, and the columns `field` and `taskSheet` defaults
 * copy from (of the task layer's table and of the task sheet table).
 */
export function treeViewReferences(treeView: TreeView, names: TableNames): TreeViewReference[] {
  const references: TreeViewReference[] = [];
  const levels = treeViewLevels(treeView);
  // What every load and save reads of each table besides the columns the TREE_VIEW names: a level's
  // id, scope and flags, an association's scope and flags, the metric table's key and flags.
  const needed = (columns: readonly string[], at: string) => columns.map((name) => ({ name, at }));
  for (const level of levels) {
    const at = `layers.${level.level}`;
    references.push({
      table: level.table,
      at: `${at}.table`,
      columns: [
        ...needed(LIVE_COLUMNS, `${at}.table`),
        ...(level.labelColumns ?? []).map((name, index) => ({ name, at: `${at}.labelColumns.${index}` })),
      ],
    });
    if (level.association !== undefined) {
      references.push({
        table: level.association.table,
        at: `${at}.associationTable`,
        columns: [
          ...needed(LIVE_COLUMNS.slice(1), `${at}.associationTable`),
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
    columns: [
      ...needed(IDENTITY_COLUMNS, 'metricAssociationTable'),
      ...metrics.map((metric, index) => ({ name: metric.field, at: `metrics.${index}.field` })),
    ],
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
    table: TASK_SHEET_TABLE,
    at: 'task sheet table',
    columns: [
      ...copied('taskSheet'),
      ...(treeView.taskSheetColumns ?? []).map((entry, index) => ({
        name: typeof entry === 'string' ? entry : entry.column,
        at: `taskSheetColumns.${index}`,
      })),
    ],
  });
  return references;
}

/** Reads the columns of every table the references name, in one information_schema read. */
export async function readKnownColumns(
  db: SqlExecutor,
  references: readonly TreeViewReference[],
): Promise<Map<string, ReadonlySet<string> | undefined>> {
  const names = [...new Set(references.map(({ table }) => table))];
  const found = await readTables(db, names);
  return knownColumnsOf(new Map(names.map((name) => [name, tableOf(found, name)])));
}

/** Table name → its columns in upper case (`undefined`: no such table), of the tables as read. */
export function knownColumnsOf(
  tables: ReadonlyMap<string, FoundTable | undefined>,
): Map<string, ReadonlySet<string> | undefined> {
  const known = new Map<string, ReadonlySet<string> | undefined>();
  for (const [name, found] of tables) {
    known.set(name, found && new Set([...found.columns.keys()].map((column) => column.toUpperCase())));
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
        path: at,
        message: `${label} ${at} names table ${table}, which does not exist`,
      });
      continue;
    }
    for (const column of columns) {
      if (found.has(column.name.toUpperCase())) continue;
      problems.push({
        code: 'TREE_VIEW_COLUMN_MISSING',
        path: column.at,
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
      path: issue.path,
      message: `${label} is invalid: ${issue.path === '' ? '' : `${issue.path}: `}${issue.message}`,
    }));
  }
  const references = treeViewReferences(parsed.data, where.names);
  const metricTable = parsed.data.metricAssociationTable ?? where.names.OPER_GRUPO_METRICA;
  return [
    ...missingReferences(references, await readKnownColumns(db, references), label),
    ...unfitMetrics(
      await readColumnTypes(db, metricTable),
      parsed.data,
      where.names,
      label,
      await readCopiedTypes(db, parsed.data),
    ),
  ];
}

/** The types of the tables `field` and `taskSheet` defaults copy from: the task layer's and the task sheet's. */
async function readCopiedTypes(db: SqlExecutor, treeView: TreeView): Promise<CopiedTypes> {
  const task = treeViewLevels(treeView).at(-1)?.table;
  const tables = [TASK_SHEET_TABLE, ...(task === undefined ? [] : [task])];
  const found = await readTables(db, tables);
  return {
    taskSheet: columnTypesOf(tableOf(found, TASK_SHEET_TABLE)),
    ...(task === undefined ? {} : { activity: columnTypesOf(tableOf(found, task)) }),
  };
}

/** The columns `field` (activity) and `taskSheet` defaults copy from, by table, as read. */
export interface CopiedTypes {
  readonly activity?: ReadonlyMap<string, ColumnType>;
  readonly taskSheet?: ReadonlyMap<string, ColumnType>;
}

/**
 * The metrics that do not fit the metric table: a tree the installation's own metric table cannot
 * key (see `metricTableMismatch`: saves would write over other nodes' rows), a column of a type no
 * metric can have (a date, a blob), and a `value` default the column cannot hold (too many decimal
 * places, out of range, too long, text for a number). The last two would pass every other check and
 * then refuse every save of every activity, on a field the person never touched. A table or column
 * that does not exist yet is left to {@link missingReferences}. `found`: the metric table's columns as read.
 */
export function unfitMetrics(
  found: ReadonlyMap<string, ColumnType>,
  treeView: TreeView,
  names: TableNames,
  label: string,
  copied: CopiedTypes = {},
): TreeViewProblem[] {
  const problems: TreeViewProblem[] = [];
  const mismatch = metricTableMismatch(names, treeView);
  if (mismatch !== undefined) {
    problems.push({
      code: 'TREE_VIEW_METRIC_TABLE',
      path: mismatch.at,
      message: `${label} ${mismatch.message}`,
    });
  }
  const table = treeView.metricAssociationTable ?? names.OPER_GRUPO_METRICA;
  const columns = new Map(found);
  // The installation's own metric table: apply's schema sync creates it, or adds the columns it
  // lacks, before it writes the TREE_VIEW. Checked with the columns it will have.
  if (sameName(table, names.OPER_GRUPO_METRICA)) {
    const model = expectedModel(createTables(names)).find((found) => found.logical === 'OPER_GRUPO_METRICA');
    for (const column of model?.columns ?? []) {
      if (columnNamed(columns, column.name) === undefined) {
        columns.set(column.name, columnTypeOf(column.name, column.type, column.nullable));
      }
    }
  }
  (treeView.metrics ?? DEFAULT_METRICS).forEach((metric, index) => {
    const column = columnNamed(columns, metric.field);
    if (column === undefined) return;
    if (!isMetricType(column.dataType)) {
      problems.push({
        code: 'TREE_VIEW_METRIC_TYPE',
        path: `metrics.${index}.field`,
        message: `${label} metrics.${index}.field: column ${table}.${column.name} is ${column.dataType}, which no metric can be: use a number or text column`,
      });
      return;
    }
    if (metric.default?.type === 'field' || metric.default?.type === 'taskSheet') {
      const source = metric.default.type === 'field' ? copied.activity : copied.taskSheet;
      const from = source === undefined ? undefined : columnNamed(source, metric.default.name);
      const problem = from === undefined ? undefined : copiedDateProblem(from, column);
      if (problem !== undefined) {
        problems.push({
          code: 'TREE_VIEW_DEFAULT_UNFIT',
          path: `metrics.${index}.default.name`,
          message: `${label} metrics.${index}.default.name: column ${from?.name} is ${from?.dataType}, ${problem}, so column ${table}.${column.name} cannot hold what it copies`,
        });
      }
      return;
    }
    // A null value presets nothing (as no default). A number for a text column is saved as its text.
    if (metric.default?.type !== 'value' || metric.default.value === null) return;
    const preset = metric.default.value;
    const checked = checkValue(column, preset);
    if (!checked.ok) {
      problems.push({
        code: 'TREE_VIEW_DEFAULT_UNFIT',
        path: `metrics.${index}.default.value`,
        message: `${label} metrics.${index}.default.value ${JSON.stringify(metric.default.value)} ${checked.problem}, so column ${table}.${column.name} cannot hold it`,
      });
    }
  });
  return problems;
}

/**
 * Why a metric column cannot hold a date copied from `from` (a DATE preset as `2026-11-20`, a
 * DATETIME or TIMESTAMP as `2026-11-20 07:30:00`), or undefined when it can or `from` is no date: a
 * number column holds no date, a text column needs its length. Other copies (a decimal into fewer
 * places, a longer text) depend on the rows, and are left to the save, which refuses a value at its
 * path.
 */
function copiedDateProblem(from: ColumnType, metric: ColumnType): string | undefined {
  const length = dateTextLength(from.dataType);
  if (length === undefined) return undefined;
  if (!['char', 'varchar', 'text', 'tinytext', 'mediumtext', 'longtext'].includes(metric.dataType)) {
    return `whose values are given as text such as ${length === 10 ? '"2026-11-20"' : '"2026-11-20 07:30:00"'}, which a ${metric.dataType} column cannot keep`;
  }
  if (metric.maxLength !== null && metric.maxLength < length) {
    return `whose values are ${length} characters, longer than the column's ${metric.maxLength}`;
  }
  return undefined;
}
