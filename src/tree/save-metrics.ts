import { z } from 'zod';
import { columnNamed } from '../model/column-values.js';
import { MetricBatch, REQUEST_RETENTION_SECONDS, RequestId, SaveSource } from '../model/metric-batch.js';
import { formatScope, Scope } from '../model/scope.js';
import { SeqDb } from '../model/seq-db.js';
import { GivenPlan, type TreePlan } from '../model/tree-plan.js';
import type { Database } from '../store/driver.js';
import { purgeRequestsStatement } from '../store/history.js';
import {
  forgetMetricTableShape,
  isShapeError,
  metricTableShape,
  taskSheetColumns,
} from '../store/metric-table.js';
import { execute } from '../store/sql.js';
import { readTopology } from '../store/topology.js';
import { checkDatabase } from './arguments.js';
import { withPlan } from './plan-memo.js';
import { type CheckedBatch, checkEntries, metricColumnsOf, requestOf } from './save-batch.js';
import type { CheckedEntry } from './save-decision.js';
import { retrying, writeRetrying } from './save-retry.js';
import { inTurn } from './save-turns.js';
import { recordedAnswer, type SaveMetricsResult } from './save-write.js';
import { explainMissingSharedTable, missingSharedTable } from './shared-tables.js';
import { explainTableErrors } from './table-diagnosis.js';
import { loadTaskSheet } from './task-sheet.js';

/** What `saveMetrics` is given, checked with this model before any SQL. */
export const SaveMetricsOptions = z.strictObject({
  scope: Scope,
  /** The acting user's SEQ_DB: INS_USUARIO_SEQ_DB of new rows, UPD_USUARIO_SEQ_DB of changed ones. */
  user: SeqDb,
  taskSheet: SeqDb,
  /** The PUT's own limits (1 to 1000 entries): a library caller holds the lock no longer than a request. */
  entries: MetricBatch.shape.entries,
  /**
   * The client's id for this save: the same id again in the same scope, within {@link REQUEST_RETENTION_SECONDS},
   * is answered with the first answer (`replayed: true`) and not applied again; with another body it is refused.
   */
  requestId: RequestId.optional(),
  /** What sent the save, as the history records it: `api` (the default), `screen`, `offline` or `copy`. */
  source: SaveSource.optional(),
  /** As in `loadTaskTree`: made by `planTree` or `resolveTreePlan`; read from the parameter rows when absent. */
  plan: GivenPlan.optional(),
});
export type SaveMetricsOptions = z.input<typeof SaveMetricsOptions>;

export type { SaveMetricsResult };

export { REQUEST_RETENTION_SECONDS };

/**
 * Saves or removes a batch of metric entries on one task sheet, keyed by (scope, FOLHA_TAREFA_SEQ_DB,
 * OPER_SEQ_DB, OPER_GRUPO_SEQ_DB): updates the fields that change in the live row of a key, inserts
 * with the scope's next free ID otherwise, soft-deletes the row of a `remove` entry, and records
 * every change in the history table, all in one transaction. Everything is checked first, nothing of a
 * rejected batch is written: values and bases against the column types of information_schema,
 * columns against the metric list, each (activity, group) against the tree's last association, RO and
 * inactive rows refused, and every field's base against the stored value (METRIC_CONFLICT, listing
 * each field). Fields an entry does not send are never written.
 *
 * @example await saveMetrics(db, { scope, user: 7, taskSheet: 42, entries: [{ activity: 3, group: 1, values: { METRICA1: '2.50' } }] });
 */
export async function saveMetrics(db: Database, given: SaveMetricsOptions): Promise<SaveMetricsResult> {
  checkDatabase(db, 'saveMetrics', 'writes');
  return withPlan(db, SaveMetricsOptions, given, 'saveMetrics', (options, plan) =>
    savePlanned(db, options, plan),
  );
}

/** A save's options once checked: what {@link SaveMetricsOptions} gives, with the plan made. */
export type CheckedSave = Omit<z.output<typeof SaveMetricsOptions>, 'plan'>;

/**
 * {@link saveMetrics} for options already checked with the same models: the association handler's
 * PUT, whose body was parsed with `MetricBatch` and whose scope and user came checked from the host's
 * session, so a body is parsed once. Not a public entry: a host's options go through `saveMetrics`.
 */
export async function saveCheckedMetrics(
  db: Database,
  options: CheckedSave,
  plan: TreePlan,
): Promise<SaveMetricsResult> {
  return explainTableErrors(db, options.scope, plan, () => savePlanned(db, options, plan));
}

/** The checks and the write of {@link saveMetrics} once its options are checked and its plan is known. */
async function savePlanned(db: Database, options: CheckedSave, plan: TreePlan): Promise<SaveMetricsResult> {
  const { scope, user, taskSheet, entries } = options;
  for (let fresh = false; ; fresh = true) {
    if (fresh) forgetMetricTableShape(db, plan.metricTable);
    const [shape, sheetColumns, topology] = await Promise.all([
      metricTableShape(db, plan.metricTable),
      taskSheetColumns(db),
      readTopology(db),
    ]);
    // A metric the kept shape lacks may be a column added since it was read (at a deployment, with
    // the TREE_VIEW naming it): read it again before refusing its values or answering without it (a
    // metric configured with no column at all costs each save that read, as an incomplete table does).
    if (!fresh && plan.metrics.some((metric) => columnNamed(shape.columns, metric.field) === undefined))
      continue;
    const request =
      options.requestId === undefined ? undefined : requestOf(options.requestId, taskSheet, entries);
    let rows: CheckedEntry[];
    try {
      rows = checkEntries(entries, plan, shape.columns);
    } catch (error) {
      // A request id seen before is answered as the first time, before any check: the TREE_VIEW or
      // the table may have changed since (a metric dropped), and the save it stands for is done.
      // Looked up here, on a refusal only, as the transaction looks it up (which it never reaches).
      if (request !== undefined) {
        const recorded = { table: plan.metricTable, scope, galera: topology.galera, request };
        const earlier = await inTurn(db, turnOf(plan, scope), () =>
          retrying(db, taskSheet, (tx) => recordedAnswer(tx, recorded), topology.galera),
        ).catch((lookup: unknown) => {
          // Without the table of request ids (a database before `db sync`) there is none to answer.
          if (missingSharedTable(lookup) !== undefined) return undefined;
          throw lookup;
        });
        if (earlier !== undefined) return earlier;
      }
      // Errors come in a fixed order: the task sheet's first, then the values', then the tree's. The
      // task sheet is otherwise checked in the write's own locking read, which a bad value never reaches.
      await loadTaskSheet(db, scope, taskSheet);
      throw error;
    }
    const batch: CheckedBatch = {
      table: plan.metricTable,
      keyIndex: shape.keyIndex,
      scope,
      user,
      taskSheet,
      entries: rows,
      plan,
      sheetColumns,
      metricColumns: metricColumnsOf(plan, shape.columns),
      galera: topology.galera,
      source: options.source ?? 'api',
      request,
    };
    let result: SaveMetricsResult;
    try {
      result = await inTurn(db, turnOf(plan, scope), () => writeRetrying(db, batch));
    } catch (error) {
      if (missingSharedTable(error) !== undefined)
        throw explainMissingSharedTable(error, 'nothing was saved');
      // A table changed under a cached shape: read it again and check the batch against it.
      if (fresh || !isShapeError(error)) throw error;
      continue;
    }
    if (batch.request !== undefined && !result.replayed) await purgeExpiredRequests(db);
    return result;
  }
}

/** The saves of one metric table and scope through one pool take turns (see `inTurn`). */
function turnOf(plan: TreePlan, scope: Scope): string {
  return `${plan.metricTable}\u0000${formatScope(scope)}`;
}

/** When a save with a request id last purged expired ids, per pool: at most once a minute. */
const lastPurge = new WeakMap<object, number>();
const PURGE_EVERY_MS = 60_000;

/**
 * Removes request ids past the retention, a bounded number at a time, after a save that recorded one
 * (they are never matched again; this only keeps the table small). A failure here is not the save's:
 * the save is committed, and the next purge tries again.
 */
async function purgeExpiredRequests(db: Database): Promise<void> {
  const last = lastPurge.get(db) ?? 0;
  if (Date.now() - last < PURGE_EVERY_MS) return;
  lastPurge.set(db, Date.now());
  await execute(db, purgeRequestsStatement(REQUEST_RETENTION_SECONDS, 1000)).catch(() => undefined);
}
