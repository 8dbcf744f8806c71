import { z } from 'zod';
import { type ColumnType, checkValue, columnNamed } from '../model/column-values.js';
import { abbreviated } from '../model/errors.js';
import type { Identifier } from '../model/identifier.js';
import { ConfigurationError } from '../model/issues.js';
import { MetricBatch, type MetricEntry } from '../model/metric-batch.js';
import type { MetricValue } from '../model/metrics.js';
import { isReservedMetricColumn } from '../model/metrics.js';
import { BusyError, InvalidRequestError, ReadOnlyRowError } from '../model/request-errors.js';
import { formatScope, Scope } from '../model/scope.js';
import { SeqDb } from '../model/seq-db.js';
import { GivenPlan, type TreePlan } from '../model/tree-plan.js';
import type { Database, SqlExecutor } from '../store/driver.js';
import {
  forgetMetricTableShape,
  isShapeError,
  metricTableShape,
  missingIdentityColumns,
  taskSheetColumns,
} from '../store/metric-table.js';
import {
  insertStatement,
  lockKeysStatement,
  type MetricWrite,
  type RowUpdate,
  releaseStatement,
  type ScopeLock,
  scopeLockName,
  updateStatements,
} from '../store/metric-writes.js';
import { checkParts } from '../store/save-checks.js';
import { execute, query, type Sql } from '../store/sql.js';
import { metricKey } from './load-task-tree.js';
import { jsonRows, shownFromWalk } from './shown-from-walk.js';
import { shownNodes } from './shown-nodes.js';
import { loadTaskSheet, taskSheetNotFound } from './task-sheet.js';
import { withPlan } from './with-plan.js';

/** What `saveMetrics` is given, checked with this model before any SQL. */
export const SaveMetricsOptions = z.strictObject({
  scope: Scope,
  /** The acting user's SEQ_DB: INS_USUARIO_SEQ_DB of new rows, UPD_USUARIO_SEQ_DB of changed ones. */
  user: SeqDb,
  taskSheet: SeqDb,
  /** The PUT's own limits (1 to 1000 entries): a library caller holds the lock no longer than a request. */
  entries: MetricBatch.shape.entries,
  /** As in `loadTaskTree`: made by `planTree` or `resolveTreePlan`; read from the parameter rows when absent. */
  plan: GivenPlan.optional(),
});
export type SaveMetricsOptions = z.input<typeof SaveMetricsOptions>;

export interface SaveMetricsResult {
  readonly inserted: number;
  readonly updated: number;
}

/**
 * Upserts a batch of metric values on one task sheet, keyed by (scope, FOLHA_TAREFA_SEQ_DB,
 * OPER_SEQ_DB, OPER_GRUPO_SEQ_DB): updates the live row of a key, inserts with the scope's next free
 * ID otherwise, all in one transaction. Everything is checked first, nothing of a rejected batch is
 * written: values against the column types of information_schema, columns against the metric list,
 * each (activity, group) against the tree's last association, RO rows refused.
 *
 * @example await saveMetrics(db, { scope, user: 7, taskSheet: 42, entries: [{ activity: 3, group: 1, values: { METRICA1: '2.50' } }] });
 */
export async function saveMetrics(db: Database, given: SaveMetricsOptions): Promise<SaveMetricsResult> {
  return withPlan(db, SaveMetricsOptions, given, 'saveMetrics', (options, plan) =>
    savePlanned(db, options, plan),
  );
}

/** The checks and the write of {@link saveMetrics} once its options are checked and its plan is known. */
async function savePlanned(
  db: Database,
  options: z.output<typeof SaveMetricsOptions>,
  plan: TreePlan,
): Promise<SaveMetricsResult> {
  const { scope, user, taskSheet, entries } = options;
  for (let fresh = false; ; fresh = true) {
    if (fresh) forgetMetricTableShape(db, plan.metricTable);
    const [shape, sheetColumns] = await Promise.all([
      metricTableShape(db, plan.metricTable),
      taskSheetColumns(db),
    ]);
    let rows: CheckedEntry[];
    try {
      rows = checkEntries(entries, plan, shape.columns);
    } catch (error) {
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
    };
    try {
      return await writeRetrying(db, batch);
    } catch (error) {
      // A table changed under a cached shape: read it again and check the batch against it.
      if (fresh || !isShapeError(error)) throw error;
    }
  }
}

/** How often a batch is retried when concurrent writers deadlock or take the same new ID. */
const MAX_ATTEMPTS = 10;

async function writeRetrying(db: Database, batch: CheckedBatch): Promise<SaveMetricsResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction((tx) => writeBatch(tx, batch));
    } catch (error) {
      if (!isRetryable(error)) throw error;
      if (attempt >= MAX_ATTEMPTS) {
        throw new BusyError(
          'METRICS_BUSY',
          `metrics of task sheet ${batch.taskSheet} could not be saved: other writers kept colliding (${attempt} attempts); nothing was written, send the batch again`,
          { cause: error },
        );
      }
      // Jittered backoff, so writers that just collided do not collide again in lockstep.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    }
  }
}

interface CheckedEntry extends MetricWrite {
  readonly key: string;
}

function checkEntries(
  entries: readonly MetricEntry[],
  plan: TreePlan,
  columns: ReadonlyMap<string, ColumnType>,
): CheckedEntry[] {
  const missing = missingIdentityColumns(columns);
  if (missing.length > 0) {
    throw new ConfigurationError(
      'METRIC_TABLE_UNUSABLE',
      columns.size === 0
        ? `metric table ${plan.metricTable} does not exist in this database: create it (db sync) or fix metricAssociationTable`
        : `metric table ${plan.metricTable} lacks ${missing.join(', ')}: a metric table needs the common columns and OPER_SEQ_DB, OPER_GRUPO_SEQ_DB, FOLHA_TAREFA_SEQ_DB`,
      { path: 'metricAssociationTable' },
    );
  }
  // The TREE_VIEW model refuses these already; a library caller can still hand over a TreeView it
  // built by hand, and a metric on a key or flag column would let a save rewrite scope, RO or DELETED.
  plan.metrics.forEach((metric, index) => {
    if (isReservedMetricColumn(metric.field)) {
      throw new ConfigurationError(
        'RESERVED_METRIC_FIELD',
        `metric ${metric.field} names a column the package manages (scope, key, audit or flags): metrics may only name metric columns such as METRICA1`,
        { path: `metrics.${index}.field` },
      );
    }
  });
  const fields = new Map<string, Identifier>(plan.metrics.map((metric) => [metric.field, metric.field]));
  const seen = new Map<string, number>();
  return entries.map((entry, index) => {
    const key = metricKey(entry.activity, entry.group);
    const first = seen.get(key);
    if (first !== undefined) {
      throw new InvalidRequestError(
        'DUPLICATE_ENTRY',
        `entry ${index} saves activity ${entry.activity} under node ${entry.group} again (already entry ${first}): send each one once`,
        { path: `entries.${index}` },
      );
    }
    seen.set(key, index);
    const values = new Map<Identifier, MetricValue>();
    for (const [name, value] of Object.entries(entry.values)) {
      const path = `entries.${index}.values.${abbreviated(name)}`;
      const field = fields.get(name);
      if (field === undefined) {
        throw new InvalidRequestError(
          'UNKNOWN_METRIC',
          `entry ${index}: "${abbreviated(name)}" is not a metric column of this installation (metrics: ${[...fields.keys()].join(', ')})`,
          { path },
        );
      }
      // The server matches column names without case: a TREE_VIEW may write `metrica1`.
      const column = columnNamed(columns, field);
      if (column === undefined) {
        throw new ConfigurationError(
          'METRIC_COLUMN_MISSING',
          `metric ${field} is configured, but table ${plan.metricTable} has no column ${field}: add the column or remove the metric`,
          { path },
        );
      }
      const checked = checkValue(column, value);
      if (!checked.ok) {
        throw new InvalidRequestError(
          'INVALID_METRIC_VALUE',
          `entry ${index}: ${field} value ${abbreviated(JSON.stringify(value))} ${checked.problem}`,
          { path },
        );
      }
      values.set(field, checked.value);
    }
    return { activity: entry.activity, group: entry.group, key, values };
  });
}

/**
 * Every entry must name a live activity linked to a parent node the tree shows: live, and not hidden
 * under a deleted or inactive node, nor in a cycle of parents (what `loadTaskTree` would show). Read
 * from the locking read's check columns (see `checkParts`); parent chains longer than its walk are
 * walked again on `tx`, in the same transaction. `groups` are the batch's parent nodes, each once.
 */
async function checkInTree(
  tx: SqlExecutor,
  batch: CheckedBatch,
  rows: readonly Record<string, unknown>[],
  groups: readonly number[],
): Promise<void> {
  const { scope, plan, entries } = batch;
  if (plan.levels.length === 0) return;
  const firstRow = rows.find((row) => Number(row.n) === 1);
  const linked = new Set(
    (jsonRows(firstRow?.linked) as [unknown, unknown][]).map(([activity, group]) =>
      metricKey(activity, group),
    ),
  );
  let shown = new Set<number>();
  if (plan.levels.length >= 2 && groups.length > 0) {
    shown =
      (firstRow === undefined ? undefined : shownFromWalk(plan, firstRow)) ??
      (await shownNodes(tx, scope, plan.levels, plan.levels.length - 2, groups));
  }
  entries.forEach((entry, index) => {
    if (!linked.has(metricKey(entry.activity, entry.group))) {
      throw new InvalidRequestError(
        'NOT_IN_TREE',
        `entry ${index}: activity ${entry.activity} is not linked to node ${entry.group} in scope ${formatScope(scope)} (or the activity or the link is deleted or inactive)`,
        { path: `entries.${index}` },
      );
    }
    if (entry.group !== null && !shown.has(entry.group)) {
      throw new InvalidRequestError(
        'NOT_IN_TREE',
        `entry ${index}: node ${entry.group} is not in the tree of scope ${formatScope(scope)}: it is deleted or inactive, or hangs below a deleted or inactive node, or in a cycle of parents`,
        { path: `entries.${index}` },
      );
    }
  });
}

/** A checked batch, ready to write into the metric table. */
interface CheckedBatch {
  readonly table: Identifier;
  readonly keyIndex: Identifier | undefined;
  readonly scope: Scope;
  readonly user: number;
  readonly taskSheet: number;
  readonly entries: readonly CheckedEntry[];
  readonly plan: TreePlan;
  /** The host's task sheet table's columns: its scope and flags are checked by those it has. */
  readonly sheetColumns: ReadonlySet<string>;
}

/** How long a save waits for the writer ahead of it before answering busy. */
const LOCK_TIMEOUT_SECONDS = 10;

/**
 * Writers of one (database, metric table, scope) are serialised by a named lock, `GET_LOCK`, taken on
 * the transaction's connection before anything is read. We may not add a unique key to the fixed
 * tables, and a locking read of the scope's last row is not enough on its own: two writers' range
 * scans share gap locks and then deadlock on their inserts (measured: most of 50 parallel saves).
 *
 * The named lock belongs to the connection, not the transaction, so it is released a moment before
 * the commit: after the insert when the batch inserts, with the last update when it only updates (its
 * rows are locked already). The reads are locking reads (FOR UPDATE), so a writer that gets the named
 * lock in that moment waits on our new or changed rows until we commit, then reads them: two saves of
 * one key cannot both insert, two inserts cannot take one ID. A host writer that does not take our
 * lock can still collide (duplicate ID, deadlock); `saveMetrics` retries those.
 *
 * Taking the lock shares a statement with the locking read, releasing it with the last update: a
 * one-entry update is four statements (begin, lock and read, update and release, commit).
 */
async function writeBatch(tx: SqlExecutor, batch: CheckedBatch): Promise<SaveMetricsResult> {
  const { table, scope, user, taskSheet, entries } = batch;
  // The named lock is waited for one second per statement, so that each statement stays within the
  // connection's bound on an answer (a few seconds), which one ten-second wait would exceed.
  const lock: ScopeLock = { name: scopeLockName(table, scope), timeoutSeconds: 1 };
  const read = (statement: Sql) => query(tx, statement);
  // The locking read is long (it carries the checks) and its text is the same for every batch of
  // an installation: prepared, the server parses it once per connection.
  const prepared = (statement: Sql) => query(tx, statement, { prepare: true });
  // The writes are prepared too: their texts depend on the columns written, not on the batch's size.
  const writePrepared = (statement: Sql) => execute(tx, statement, { prepare: true });
  let released = false;
  try {
    // Inactive rows are read too: a key whose row is ATIVO=0 is refused below, never inserted a second
    // time. DELETED=1 rows are history: they are left as they are, and the key gets a new live row.
    type Existing = {
      locked: unknown;
      n: unknown;
      sheet_ok: unknown;
      ID: unknown;
      RO: unknown;
      ATIVO: unknown;
      OPER_SEQ_DB: unknown;
      OPER_GRUPO_SEQ_DB: unknown;
    };
    const groups = [...new Set(entries.flatMap((entry) => (entry.group === null ? [] : [entry.group])))];
    const checks = checkParts(
      batch.plan,
      scope,
      taskSheet,
      batch.sheetColumns,
      [...new Set(entries.map((entry) => entry.activity))],
      groups,
    );
    let existing: Existing[] = [];
    for (let waited = 0; waited < LOCK_TIMEOUT_SECONDS; waited++) {
      existing = (await prepared(
        lockKeysStatement(table, scope, taskSheet, entries, batch.keyIndex, lock, checks),
      )) as Existing[];
      if (Number(existing[0]?.locked) === 1) break;
    }
    if (Number(existing[0]?.locked) !== 1) {
      throw new BusyError(
        'METRICS_BUSY',
        `metrics of scope ${formatScope(scope)} are being saved by another request for more than ${LOCK_TIMEOUT_SECONDS} s: nothing was written, send the batch again`,
      );
    }
    if (Number(existing[0]?.sheet_ok) !== 1) throw taskSheetNotFound(scope, taskSheet);
    await checkInTree(tx, batch, existing, groups);
    const { inserts, updates } = decide(entries, existing);
    // A batch that only updates lets go of the named lock in its last update (see updateStatements).
    const release = inserts.length === 0 ? lock : undefined;
    for (const statement of updateStatements(table, scope, user, updates, release)) {
      await writePrepared(statement);
    }
    released = release !== undefined && updates.length > 0;
    if (inserts.length > 0) await writePrepared(insertStatement(table, scope, user, taskSheet, inserts));
    return { inserted: inserts.length, updated: updates.length };
  } finally {
    // If the connection itself failed, the server has already dropped the lock with it, and the
    // error that matters is the one already on its way out: do not replace it with this one.
    if (!released) await read(releaseStatement(lock)).catch(() => undefined);
  }
}

/**
 * Which entries update which rows and which insert, from the locked rows of their keys: RO and
 * inactive rows are refused, naming the entry.
 */
function decide(
  entries: readonly CheckedEntry[],
  existing: readonly {
    ID: unknown;
    RO: unknown;
    ATIVO: unknown;
    OPER_SEQ_DB: unknown;
    OPER_GRUPO_SEQ_DB: unknown;
  }[],
): { inserts: CheckedEntry[]; updates: RowUpdate[] } {
  const idsByKey = new Map<string, { ids: number[]; readOnly: boolean; inactive: boolean }>();
  for (const row of existing) {
    // A key without a row comes back once, with a NULL ID.
    if (row.ID === null || row.ID === undefined) continue;
    const key = metricKey(row.OPER_SEQ_DB, row.OPER_GRUPO_SEQ_DB);
    const found = idsByKey.get(key) ?? { ids: [], readOnly: false, inactive: false };
    found.ids.push(Number(row.ID));
    found.readOnly ||= Number(row.RO ?? 0) === 1;
    found.inactive ||= Number(row.ATIVO ?? 1) === 0;
    idsByKey.set(key, found);
  }
  const inserts: CheckedEntry[] = [];
  const updates: RowUpdate[] = [];
  for (const [index, entry] of entries.entries()) {
    const found = idsByKey.get(entry.key);
    if (found === undefined) {
      inserts.push(entry);
      continue;
    }
    if (found.readOnly) {
      throw new ReadOnlyRowError(
        'READ_ONLY_ROW',
        `entry ${index}: the metrics of activity ${entry.activity} under node ${entry.group} are read-only (RO=1) and cannot be changed; nothing was saved`,
        { path: `entries.${index}` },
      );
    }
    // Updating would change values no screen shows, reactivating would undo an operator's decision,
    // inserting would give the key two rows: refuse, and let the operator reactivate the row.
    if (found.inactive) {
      throw new ReadOnlyRowError(
        'INACTIVE_ROW',
        `entry ${index}: the metrics of activity ${entry.activity} under node ${entry.group} are inactive (ATIVO=0) and cannot be changed; reactivate the row first; nothing was saved`,
        { path: `entries.${index}` },
      );
    }
    updates.push({ ids: found.ids, values: entry.values });
  }
  return { inserts, updates };
}

function isRetryable(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  return code === 'ER_LOCK_DEADLOCK' || code === 'ER_DUP_ENTRY' || code === 'ER_LOCK_WAIT_TIMEOUT';
}
