import { z } from 'zod';
import { type ColumnType, columnNamed } from '../../model/column-values.js';
import { dateValueText } from '../../model/date-text.js';
import type { Metric } from '../../model/metrics.js';
import { Scope } from '../../model/scope.js';
import { TASK_SHEET_TABLE } from '../../model/table-names.js';
import { GivenPlan } from '../../model/tree-plan.js';
import { TreeView } from '../../model/tree-view.js';
import { readColumnTypes } from '../../store/column-types.js';
import type { SqlExecutor } from '../../store/driver.js';
import { checkArguments } from '../arguments.js';
import { columnKey, type Row } from '../metric-defaults.js';
import { GivenRow, readBranch } from './branch.js';
import type { ScreenNode } from './nodes.js';

/** One column of the task sheet's header: its name, its configured label if any, its value as text (dates as YYYY-MM-DD). */
export interface HeaderColumn {
  readonly name: string;
  readonly label?: string;
  readonly value: string | null;
  /** The column's DATA_TYPE (`decimal`, `date`, ...), so the page writes the value as its language does. */
  readonly dataType: string | null;
}

/** What the modal needs of a metric column to type its input: the database's type, not a guess. */
export interface ScreenMetricColumn {
  readonly field: string;
  /** The TREE_VIEW's label, else the column name. */
  readonly label: string;
  /** `int`, `decimal`, ... as information_schema says; null when the metric table lacks the column. */
  readonly dataType: string | null;
  readonly unsigned: boolean;
  readonly nullable: boolean;
  readonly precision: number | null;
  readonly scale: number | null;
  readonly maxLength: number | null;
  /**
   * A text column's character set (`utf8mb3`, `latin1`, ...), so the page refuses at the field a
   * character the column cannot hold (an emoji in a utf8mb3 column) as the server would, also
   * offline, in the page's language. Absent for other columns.
   */
  readonly charset?: string;
  /** The most bytes a TEXT type holds in its character set; absent for other columns. */
  readonly maxBytes?: number;
}

/** The first answer of the screen: header, metric columns and the first level, in one request. */
export interface ScreenStart {
  readonly taskSheet: { readonly id: number; readonly columns: readonly HeaderColumn[] };
  readonly metrics: readonly ScreenMetricColumn[];
  readonly levels: number;
  readonly nodes: readonly ScreenNode[];
}

/** What `readScreenStart` is given, checked before any SQL. */
export const ReadScreenStartOptions = z.strictObject({
  scope: Scope,
  /** The task sheet's row, live and in scope (as `loadTaskSheet` reads it). */
  taskSheet: GivenRow as z.ZodType<Row>,
  plan: GivenPlan,
  /** The TREE_VIEW's `taskSheetColumns`, if it names them. */
  headerColumns: TreeView.shape.taskSheetColumns,
});
export type ReadScreenStartOptions = z.input<typeof ReadScreenStartOptions>;

const DATE_TYPES = new Set(['date', 'datetime', 'timestamp']);
const CODE_COLUMN = /^(CODIGO|COD_.+|.+_CODIGO|NUMERO|DOCUMENTO)$/i;

/**
 * Everything the screen paints first: the task sheet's header, the metric columns with their
 * database types, and the tree's first level: three reads, sent together.
 *
 * @example
 * const plan = await resolveTreePlan(db, scope);
 * const start = await readScreenStart(db, { scope, plan, taskSheet: await loadTaskSheet(db, scope, 42) });
 */
export async function readScreenStart(db: SqlExecutor, given: ReadScreenStartOptions): Promise<ScreenStart> {
  const options = checkArguments(db, ReadScreenStartOptions, given, 'readScreenStart');
  const { scope, plan, taskSheet } = options;
  const [sheetColumns, metricColumns, nodes] = await Promise.all([
    // Also for configured columns: their types tell the page how its language writes each value.
    readColumnTypes(db, TASK_SHEET_TABLE),
    readColumnTypes(db, plan.metricTable),
    readBranch(db, { scope, plan, parent: null, taskSheet }),
  ]);
  return {
    taskSheet: {
      id: Number(taskSheet.SEQ_DB),
      columns: headerColumns(taskSheet, options.headerColumns, sheetColumns),
    },
    metrics: plan.metrics.map((metric) => metricColumn(metric, columnNamed(metricColumns, metric.field))),
    levels: plan.levels.length,
    nodes,
  };
}

/** The configured columns, else SEQ_DB and the table's date and code columns, in table order. */
function headerColumns(
  row: Row,
  configured: TreeView['taskSheetColumns'],
  types: ReadonlyMap<string, ColumnType> | undefined,
): HeaderColumn[] {
  const columns: Array<{ column: string; label?: string }> =
    configured?.map((entry) => (typeof entry === 'string' ? { column: entry } : entry)) ??
    [
      'SEQ_DB',
      ...[...(types?.values() ?? [])]
        .filter((column) => DATE_TYPES.has(column.dataType) || CODE_COLUMN.test(column.name))
        .map((column) => column.name),
    ]
      .filter((name, index, all) => all.indexOf(name) === index)
      .map((column) => ({ column }));
  // A column named in another case than the table's (`data` for DATA) is the same column.
  return columns.flatMap(({ column, label }) => {
    const key = columnKey(row, column);
    if (key === undefined) return [];
    return [
      {
        name: key,
        ...(label === undefined ? {} : { label }),
        value: headerValue(row[key], types?.get(key)),
        dataType: types?.get(key)?.dataType ?? null,
      },
    ];
  });
}

function headerValue(value: unknown, type: ColumnType | undefined): string | null {
  if (value === null || value === undefined) return null;
  // A DATE as its day, a DATETIME or TIMESTAMP as its wall time (`2026-11-20 07:30:00`), as the
  // database keeps them and defaults copy them: an ISO instant in UTC was shown to a person in
  // Brazil as "2026-11-20T07:30:00.000Z". Our connections read dates in UTC (CONNECTION_OPTIONS),
  // so the text never depends on the server process's own time zone.
  if (value instanceof Date) return dateValueText(value, type?.dataType);
  return String(value);
}

function metricColumn(metric: Metric, column: ColumnType | undefined): ScreenMetricColumn {
  return {
    field: metric.field,
    label: metric.label ?? metric.field,
    dataType: column?.dataType ?? null,
    unsigned: column?.unsigned ?? false,
    nullable: column?.nullable ?? true,
    precision: column?.precision ?? null,
    scale: column?.scale ?? null,
    maxLength: column?.maxLength ?? null,
    ...(column?.charset === undefined ? {} : { charset: column.charset }),
    ...(column?.maxBytes === undefined ? {} : { maxBytes: column.maxBytes }),
  };
}
