import { z } from 'zod';
import { InvalidRequestError } from '../model/request-errors.js';
import { Scope } from '../model/scope.js';
import { SeqDb } from '../model/seq-db.js';
import { GivenPlan, type TreePlan } from '../model/tree-plan.js';
import type { SqlExecutor } from '../store/driver.js';
import { historyRows } from '../store/history.js';
import { query } from '../store/sql.js';
import { withPlan } from './plan-memo.js';
import { isoTime } from './saved-row.js';
import { explainMissingSharedTable } from './shared-tables.js';
import { loadTaskSheet } from './task-sheet.js';

/** What `readMetricHistory` is given, checked with this model before any SQL. */
export const ReadMetricHistoryOptions = z
  .strictObject({
    scope: Scope,
    taskSheet: SeqDb,
    /** One activity's changes; every activity of the task sheet when left out. */
    activity: SeqDb.optional(),
    /** With `activity`: the node it hangs under (null on a one-level tree). */
    group: SeqDb.nullable().optional(),
    /** At most this many changes, newest first (1 to 1000, default 100). */
    limit: z.int().min(1).max(1000).optional(),
    /** As in `loadTaskTree`: made by `planTree` or `resolveTreePlan`; read from the parameter rows when absent. */
    plan: GivenPlan.optional(),
  })
  .refine((options) => options.group === undefined || options.activity !== undefined, {
    path: ['group'],
    message: 'group names the node an activity hangs under: give it with activity, or leave it out',
  });
export type ReadMetricHistoryOptions = z.input<typeof ReadMetricHistoryOptions>;

/** One change of one field of a metric row, as the history recorded it in the save's transaction. */
export interface MetricChange {
  /** The history row's SEQ_DB: later changes have higher ones. */
  readonly id: number;
  /** The metric row's SEQ_DB. */
  readonly row: number;
  readonly activity: number;
  readonly group: number | null;
  readonly field: string;
  /** `insert` (a new row), `update`, `clear` (set to empty), `remove` (the row soft-deleted). */
  readonly action: 'insert' | 'update' | 'clear' | 'remove';
  /** Values as text, as the table keeps them (decimals exact); null for empty. */
  readonly oldValue: string | null;
  readonly newValue: string | null;
  /** The acting user's SEQ_DB. */
  readonly user: number;
  /** The server's time of the change (ISO 8601, UTC). */
  readonly at: string;
  /** What sent it: `screen`, `api` (and, from the offline work on, `offline`, `copy`). */
  readonly source: string;
  readonly requestId: string | null;
  /** The device's own time of entry, where the client sent one (offline entries). */
  readonly deviceAt: string | null;
}

/**
 * The metric history of one task sheet of the caller's scope, newest first: of one activity (under one
 * node) or of all. Rows of other scopes and of other metric tables are never read; an unknown task
 * sheet, or one of another scope, is a NotFoundError as for `loadTaskTree`.
 *
 * @example const changes = await readMetricHistory(db, { scope, taskSheet: 42, activity: 3, group: 7 });
 * // [{ id: 12, field: 'METRICA1', action: 'update', oldValue: '20.00', newValue: '21.00', user: 7, at: '2026-…', source: 'screen', … }]
 */
export async function readMetricHistory(
  db: SqlExecutor,
  given: ReadMetricHistoryOptions,
): Promise<MetricChange[]> {
  return withPlan(db, ReadMetricHistoryOptions, given, 'readMetricHistory', (options, plan) =>
    readHistory(db, options, plan),
  );
}

/**
 * The node an activity's history is keyed by: required where activities hang under nodes (a missing
 * one would match no row, an empty history that is not), refused on a one-level tree (none do).
 */
function groupOf(plan: TreePlan, group: number | null | undefined): number | null {
  const parent = plan.levels.at(-2);
  if (parent !== undefined && (group ?? null) === null) {
    throw new InvalidRequestError(
      'INVALID_REQUEST',
      `group: on this tree activities hang under nodes of ${parent.table}: give the node the activity hangs under as group`,
      { path: 'group' },
    );
  }
  if (parent === undefined && group !== undefined && group !== null) {
    throw new InvalidRequestError(
      'INVALID_REQUEST',
      `group: this tree has one level, its activities hang under no node: leave group out`,
      { path: 'group' },
    );
  }
  return group ?? null;
}

async function readHistory(
  db: SqlExecutor,
  options: z.output<typeof ReadMetricHistoryOptions>,
  plan: TreePlan,
): Promise<MetricChange[]> {
  const { scope, taskSheet, activity } = options;
  const key = activity === undefined ? undefined : { activity, group: groupOf(plan, options.group) };
  const [, rows] = await Promise.all([
    loadTaskSheet(db, scope, taskSheet),
    query(db, historyRows(scope, plan.metricTable, taskSheet, key, options.limit ?? 100)),
  ]).catch((error: unknown) => {
    throw explainMissingSharedTable(error, 'there is no history to read until then');
  });
  return rows.map((row) => ({
    id: Number(row.SEQ_DB),
    row: Number(row.ROW_SEQ_DB),
    activity: Number(row.OPER_SEQ_DB),
    group: row.OPER_GRUPO_SEQ_DB === null ? null : Number(row.OPER_GRUPO_SEQ_DB),
    field: String(row.FIELD),
    action: String(row.ACTION) as MetricChange['action'],
    oldValue: row.OLD_VALUE === null ? null : String(row.OLD_VALUE),
    newValue: row.NEW_VALUE === null ? null : String(row.NEW_VALUE),
    user: Number(row.USUARIO_SEQ_DB),
    at: isoTime(row.CHANGED_DH) ?? '',
    source: String(row.SOURCE),
    requestId: row.REQUEST_ID === null ? null : String(row.REQUEST_ID),
    deviceAt: isoTime(row.DEVICE_DH),
  }));
}
