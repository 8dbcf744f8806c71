import { z } from 'zod';
import type { ColumnType } from '../../model/column-values.js';
import { columnNamed } from '../../model/column-values.js';
import { dateValueText } from '../../model/date-text.js';
import { type Identifier, parseIdentifier } from '../../model/identifier.js';
import type { MetricValue } from '../../model/metrics.js';
import { InvalidRequestError, NotFoundError } from '../../model/request-errors.js';
import { formatScope, Scope } from '../../model/scope.js';
import { SeqDb } from '../../model/seq-db.js';
import { TASK_SHEET_TABLE } from '../../model/table-names.js';
import { GivenPlan, type TreePlan } from '../../model/tree-plan.js';
import { readColumnTypes } from '../../store/column-types.js';
import type { SqlExecutor } from '../../store/driver.js';
import { query } from '../../store/sql.js';
import { previousTaskSheet, type TaskSheetFilters } from '../../store/tree-reads.js';
import { loadTaskTree } from '../load-task-tree.js';
import type { Row } from '../metric-defaults.js';
import { withPlan } from '../plan-memo.js';
import { loadTaskSheet } from '../task-sheet.js';
import { sheetRows } from './sheet.js';

/** What `readPreviousSheet` is given, checked with this model before any SQL. */
export const ReadPreviousSheetOptions = z.strictObject({
  scope: Scope,
  /** The sheet being filled. */
  taskSheet: SeqDb,
  /** The sheet to copy from, when the person picked one (another live sheet of the scope); else the previous one. */
  from: SeqDb.optional(),
  /** As in `loadTaskTree`: made by `planTree` or `resolveTreePlan`; read from the parameter rows when absent. */
  plan: GivenPlan.optional(),
});
export type ReadPreviousSheetOptions = z.input<typeof ReadPreviousSheetOptions>;

/** The values saved on the sheet copied from, for one activity of the tree. */
export interface CopiedEntry {
  readonly activity: number;
  readonly group: number | null;
  /** Every metric with a value saved there (saved empty and defaults are not copied). */
  readonly values: Readonly<Record<string, MetricValue>>;
}

export interface PreviousSheet {
  /** The sheet being filled. */
  readonly taskSheet: number;
  /** The sheet the values come from, with its date as text; null when there is no earlier sheet. */
  readonly from: { readonly id: number; readonly date: string | null } | null;
  /** The column the previous sheet was chosen by; null when the table has no date column (SEQ_DB order). */
  readonly dateColumn: string | null;
  /** For each activity the tree shows now that has values saved on `from`, in the tree's order. */
  readonly entries: readonly CopiedEntry[];
}

const DATE_TYPES = new Set(['date', 'datetime', 'timestamp']);

/**
 * The values saved on the previous task sheet of the same scope (or on the sheet `from` names), for
 * the activities the tree shows now, so a client can fill its table from them and save them as its
 * own (source `copy`). Nothing is written. The previous sheet is the closest earlier one by its date
 * column: `DATA` when the task sheet table has it (the host schema's), else its first date, datetime
 * or timestamp column; on the same date, the highest lower SEQ_DB; without a date column, the highest
 * lower SEQ_DB. Only live sheets of the scope count. A `from` that is missing, of another scope,
 * deleted or inactive is a NotFoundError at `from`, as the sheet itself is at `taskSheet`.
 *
 * @example
 * const { from, entries } = await readPreviousSheet(db, { scope, taskSheet: 43 });
 * // from: { id: 42, date: '2026-11-20' }, entries: [{ activity: 3, group: 7, values: { METRICA1: '2.50' } }]
 */
export async function readPreviousSheet(
  db: SqlExecutor,
  given: ReadPreviousSheetOptions,
): Promise<PreviousSheet> {
  return withPlan(db, ReadPreviousSheetOptions, given, 'readPreviousSheet', (options, plan) =>
    previousOf(db, options, plan),
  );
}

async function previousOf(
  db: SqlExecutor,
  options: z.output<typeof ReadPreviousSheetOptions>,
  plan: TreePlan,
): Promise<PreviousSheet> {
  const { scope, taskSheet } = options;
  if (options.from === taskSheet) {
    throw new InvalidRequestError(
      'INVALID_REQUEST',
      `from names the task sheet being filled (${taskSheet}): name another sheet to copy from, or leave from out for the previous one`,
      { path: 'from' },
    );
  }
  const [sheet, columns] = await Promise.all([
    loadTaskSheet(db, scope, taskSheet),
    readColumnTypes(db, TASK_SHEET_TABLE),
  ]);
  const dateColumn = dateColumnOf(columns);
  const source =
    options.from === undefined
      ? await previousRow(db, scope, columns, dateColumn, sheet)
      : await namedRow(db, scope, options.from);
  if (source === undefined) {
    return { taskSheet, from: null, dateColumn: dateColumn ?? null, entries: [] };
  }
  const id = Number(source.SEQ_DB);
  const tree = await loadTaskTree(db, { scope, taskSheet: id, plan });
  const entries: CopiedEntry[] = [];
  for (const row of sheetRows(tree.roots, plan)) {
    const values: Record<string, MetricValue> = {};
    for (const [field, metric] of Object.entries(row.metrics))
      if (metric.source === 'saved' && metric.value !== null) values[field] = metric.value;
    if (Object.keys(values).length > 0) entries.push({ activity: row.activity, group: row.group, values });
  }
  const date = dateColumn === undefined ? null : dateText(source[dateColumn], columns.get(dateColumn));
  return { taskSheet, from: { id, date }, dateColumn: dateColumn ?? null, entries };
}

/** `DATA` when the table has it as a date, else its first date, datetime or timestamp column. */
function dateColumnOf(columns: ReadonlyMap<string, ColumnType>): Identifier | undefined {
  const data = columnNamed(columns, 'DATA');
  const found =
    data !== undefined && DATE_TYPES.has(data.dataType)
      ? data
      : [...columns.values()].find((column) => DATE_TYPES.has(column.dataType));
  return found === undefined ? undefined : parseIdentifier(found.name, 'date column');
}

async function previousRow(
  db: SqlExecutor,
  scope: Scope,
  columns: ReadonlyMap<string, ColumnType>,
  dateColumn: Identifier | undefined,
  sheet: Row,
): Promise<Row | undefined> {
  const filters: TaskSheetFilters = {
    scope: (['EMPRESA', 'FILIAL', 'LOCAL'] as const).filter((column) => columns.has(column)),
    deleted: columns.has('DELETED'),
    ativo: columns.has('ATIVO'),
  };
  const current = { id: Number(sheet.SEQ_DB), date: dateColumn === undefined ? null : sheet[dateColumn] };
  const [row] = await query(db, previousTaskSheet(scope, filters, dateColumn, current));
  return row;
}

async function namedRow(db: SqlExecutor, scope: Scope, from: number): Promise<Row> {
  try {
    return await loadTaskSheet(db, scope, from);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    throw new NotFoundError(
      'TASK_SHEET_NOT_FOUND',
      `task sheet ${from} to copy from does not exist in scope ${formatScope(scope)} (or is deleted or inactive)`,
      { path: 'from' },
    );
  }
}

/** A date as the screen's header writes it: a DATE as its day, a DATETIME or TIMESTAMP as its wall time. */
function dateText(value: unknown, type: ColumnType | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return dateValueText(value, type?.dataType);
  return String(value);
}
