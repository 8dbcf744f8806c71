import { createHash } from 'node:crypto';
import { z } from 'zod';
import { type ColumnType, checkValue, columnNamed } from '../model/column-values.js';
import { abbreviated, DatabaseConnectionError, TaskAssociationError } from '../model/errors.js';
import type { Identifier } from '../model/identifier.js';
import { ConfigurationError } from '../model/issues.js';
import {
  MetricBatch,
  type MetricEntry,
  REQUEST_RETENTION_SECONDS,
  RequestId,
  SaveSource,
} from '../model/metric-batch.js';
import type { MetricValue } from '../model/metrics.js';
import { isReservedMetricColumn } from '../model/metrics.js';
import {
  BusyError,
  ConflictError,
  InvalidRequestError,
  type MetricConflict,
  MetricConflictError,
} from '../model/request-errors.js';
import { formatScope, Scope } from '../model/scope.js';
import { SeqDb } from '../model/seq-db.js';
import { GivenPlan, type TreePlan } from '../model/tree-plan.js';
import type { Database, SqlExecutor } from '../store/driver.js';
import { isConnectionLoss } from '../store/failure.js';
import {
  forgetRequestStatement,
  HISTORY_TABLE,
  type HistoryWrite,
  historyStatement,
  LOCK_TABLE,
  latestChanges,
  purgeRequestsStatement,
  REQUEST_TABLE,
  requestRecordStatement,
} from '../store/history.js';
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
  releaseStatement,
  type ScopeLock,
  scopeLockName,
  scopeLockRowStatement,
  updateStatements,
} from '../store/metric-writes.js';
import { checkParts } from '../store/save-checks.js';
import { execute, query, type Sql } from '../store/sql.js';
import { readTopology } from '../store/topology.js';
import { metricKey } from './load-task-tree.js';
import { withPlan } from './plan-memo.js';
import { type CheckedEntry, decideSave, type LockedKey, type SavedEntry } from './save-decision.js';
import { isoTime, lastChangeOf } from './saved-row.js';
import { jsonRows, shownFromWalk } from './shown-from-walk.js';
import { shownNodes } from './shown-nodes.js';
import { explainTableErrors } from './table-diagnosis.js';
import { loadTaskSheet, taskSheetNotFound } from './task-sheet.js';

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

export interface SaveMetricsResult {
  /** Keys that got a new row. */
  readonly inserted: number;
  /** Rows with at least one field changed. */
  readonly updated: number;
  /** Rows soft-deleted (`remove: true`). */
  readonly removed: number;
  /** Entries whose row already held every value sent: nothing written, no history. */
  readonly unchanged: number;
  /** Each entry as stored now, in the batch's order: its values (every metric) or null (no live row). */
  readonly entries: readonly SavedEntry[];
  readonly requestId?: string;
  /** True when this is the recorded answer of an earlier save with the same request id: nothing was applied now. */
  readonly replayed: boolean;
}

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
      metricColumns: metricColumnsOf(plan, shape.columns),
      galera: topology.galera,
      source: options.source ?? 'api',
      request:
        options.requestId === undefined
          ? undefined
          : { id: options.requestId, hash: bodyHash(taskSheet, entries) },
    };
    let result: SaveMetricsResult;
    try {
      result = await inTurn(db, `${plan.metricTable}\u0000${formatScope(scope)}`, () =>
        writeRetrying(db, batch),
      );
    } catch (error) {
      const missing = missingSharedTable(error);
      if (missing !== undefined) {
        throw new ConfigurationError(
          'HISTORY_TABLE_MISSING',
          `table ${missing} does not exist in this database: run \`task-association db sync\` (or apply) to create it; nothing was saved`,
          { path: missing },
        );
      }
      // A table changed under a cached shape: read it again and check the batch against it.
      if (fresh || !isShapeError(error)) throw error;
      continue;
    }
    if (batch.request !== undefined && !result.replayed) await purgeExpiredRequests(db);
    return result;
  }
}

/**
 * The shared table (history, request ids, on a cluster the lock rows) a save failed on for want of it, if it did: a database
 * whose tables predate them until `db sync` runs.
 */
function missingSharedTable(error: unknown): string | undefined {
  if (codeOf(error) !== 'ER_NO_SUCH_TABLE') return undefined;
  const message = error instanceof Error ? error.message : '';
  return [HISTORY_TABLE, REQUEST_TABLE, LOCK_TABLE].find((table) => message.includes(`.${table}'`));
}

/** The saves of each pool waiting for their turn on a scope, by metric table and scope (see {@link inTurn}). */
const turns = new WeakMap<object, Map<string, Promise<void>>>();

/**
 * Runs `work` once every earlier save of the same scope through the same pool has finished. The
 * scope's writers of one pool take their turns here instead of each holding a pooled connection while
 * it waits for the database's lock: on one server that wait is `GET_LOCK`'s, on a Galera cluster it is
 * worse, since writers of the lock row through other nodes are not queued but fail at certification
 * and run again (measured: with ten connections spread over three nodes, 2 of 180 saves ran out of
 * attempts). The database's lock still serialises the writers of other pools and processes. A save
 * that waits more than {@link LOCK_TIMEOUT_SECONDS} for its turn is answered METRICS_BUSY, nothing
 * written, as one that waits that long for the database's lock.
 */
async function inTurn<T>(db: object, key: string, work: () => Promise<T>): Promise<T> {
  let waiting = turns.get(db);
  if (waiting === undefined) {
    waiting = new Map();
    turns.set(db, waiting);
  }
  const before = waiting.get(key);
  let done = () => {};
  const mine = new Promise<void>((resolve) => {
    done = resolve;
  });
  // The next save waits for this one and, through it, for every save before.
  const turn = before === undefined ? mine : before.then(() => mine);
  waiting.set(key, turn);
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    // Nothing ahead (the usual case): no wait, and no timer armed for one.
    if (before !== undefined) {
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), LOCK_TIMEOUT_SECONDS * 1000);
      });
      if ((await Promise.race([before, late])) === 'late') {
        throw new BusyError(
          'METRICS_BUSY',
          `metrics of this scope are being saved by other requests of this process for more than ${LOCK_TIMEOUT_SECONDS} s: nothing was written, send the batch again`,
        );
      }
    }
    return await work();
  } finally {
    clearTimeout(timer);
    done();
    if (waiting.get(key) === turn) waiting.delete(key);
  }
}

/** How often a batch is retried when concurrent writers deadlock or take the same new ID. */
const MAX_ATTEMPTS = 10;

/**
 * How often a batch that lost to another writer (1213: a deadlock, or on a Galera cluster a lost
 * certification race) is tried. Writers of one scope through three nodes are not queued: each round
 * one of them wins, so a writer may lose many in a row, and 10 attempts left about 2% of them without
 * a turn (measured: 3 or 4 of 180 saves a round answered METRICS_BUSY). Still within the same time
 * bound as a wait for the lock, {@link LOCK_TIMEOUT_SECONDS}.
 */
const MAX_LOST_RACE_ATTEMPTS = 50;

async function writeRetrying(db: Database, batch: CheckedBatch): Promise<SaveMetricsResult> {
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction((tx) => writeBatch(tx, batch));
    } catch (error) {
      // The server went away under the save (a cluster node killed, a network cut): whether its
      // COMMIT was applied is not known. The same save sent again with its request id is answered
      // if it was, applied if it was not.
      if (error instanceof Error && !(error instanceof TaskAssociationError) && isConnectionLoss(error)) {
        throw new DatabaseConnectionError(
          'DATABASE_CONNECTION_LOST',
          `the connection to the database was lost while saving metrics of task sheet ${batch.taskSheet} (${error.message}): the save may or may not be stored; send it again with the same request id, which is then answered once, not applied twice`,
          { cause: error },
        );
      }
      if (!isRetryable(error)) throw error;
      if (attempt >= MAX_ATTEMPTS && isNodeNotReady(error)) {
        throw new BusyError(
          'DATABASE_NOT_READY',
          `metrics of task sheet ${batch.taskSheet} could not be saved: the database node is not ready for writes (${error instanceof Error ? error.message : String(error)}: a Galera node cut off from the cluster's majority, or still joining it); nothing was written, send the batch again, through another node if it lasts`,
          { cause: error },
        );
      }
      const limit = isLostRace(error) ? MAX_LOST_RACE_ATTEMPTS : MAX_ATTEMPTS;
      if (attempt >= limit || Date.now() - started > LOCK_TIMEOUT_SECONDS * 1000) {
        throw new BusyError(
          'METRICS_BUSY',
          `metrics of task sheet ${batch.taskSheet} could not be saved: other writers kept colliding (${attempt} attempts); nothing was written, send the batch again`,
          { cause: error },
        );
      }
      // Jittered backoff, so writers that just collided do not collide again in lockstep; it stops
      // growing after a few attempts, so that a writer that lost a few races is not left further behind.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * Math.min(attempt, 4)));
    }
  }
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
    // Each field checked against its column: what to write, and what the client started from.
    const checkedFields = (given: Record<string, MetricValue> | undefined, part: 'values' | 'base') => {
      const checked = new Map<Identifier, MetricValue>();
      for (const [name, value] of Object.entries(given ?? {})) {
        const path = `entries.${index}.${part}.${abbreviated(name)}`;
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
        // A base is a value the column held: null is one whatever the column says (no row held it).
        const result =
          part === 'base' && value === null ? { ok: true as const, value } : checkValue(column, value);
        if (!result.ok) {
          throw new InvalidRequestError(
            part === 'values' ? 'INVALID_METRIC_VALUE' : 'INVALID_BASE',
            `entry ${index}: ${field} ${part === 'values' ? 'value' : 'base'} ${abbreviated(JSON.stringify(value))} ${result.problem}`,
            { path },
          );
        }
        checked.set(field, result.value);
      }
      return checked;
    };
    return {
      index,
      activity: entry.activity,
      group: entry.group,
      key,
      values: checkedFields(entry.values, 'values'),
      base: checkedFields(entry.base, 'base'),
      remove: entry.remove === true,
      deviceAt: entry.enteredAt === undefined ? null : utcWallClock(new Date(entry.enteredAt)),
    };
  });
}

/**
 * A time as the history's TIMESTAMP takes it from our connections: the UTC wall clock (they read and
 * write dates in UTC, `timezone: 'Z'`, as CHANGED_DH is written), whole seconds.
 */
function utcWallClock(at: Date): string {
  return at.toISOString().slice(0, 19).replace('T', ' ');
}

/** The configured metrics the table has, with their types, in the TREE_VIEW's order. */
function metricColumnsOf(
  plan: TreePlan,
  columns: ReadonlyMap<string, ColumnType>,
): Map<Identifier, ColumnType> {
  const found = new Map<Identifier, ColumnType>();
  for (const metric of plan.metrics) {
    const column = columnNamed(columns, metric.field);
    if (column !== undefined && !isReservedMetricColumn(metric.field)) found.set(metric.field, column);
  }
  return found;
}

/**
 * What a request id stands for: the task sheet and the entries as given. The same id with another
 * body is refused (REQUEST_ID_REUSED) rather than answered with an answer to another question.
 */
function bodyHash(taskSheet: number, entries: readonly MetricEntry[]): string {
  return createHash('sha256')
    .update(JSON.stringify([taskSheet, entries]))
    .digest('hex');
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
  /** The configured metric columns the table has: read in the locking read, answered, compared. */
  readonly metricColumns: ReadonlyMap<Identifier, ColumnType>;
  readonly source: SaveSource;
  /** The request id and what it stands for, when the save has one. */
  readonly request: { readonly id: string; readonly hash: string } | undefined;
  /** The server is a Galera cluster node: the scope's lock row, not `GET_LOCK` (see `readTopology`). */
  readonly galera: boolean;
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
 * the commit: in the history insert, or the request record when the save has an id (every row of the
 * save is written and locked by then). The reads are locking reads (FOR UPDATE), so a writer that gets
 * the named lock in that moment waits on our new or changed rows until we commit, then reads them: two
 * saves of one key cannot both insert, two inserts cannot take one ID, and a base is always compared
 * with the value the previous writer committed. A host writer that does not take our lock can still
 * collide (duplicate ID, deadlock); `saveMetrics` retries those.
 *
 * The stored values are read, and the bases compared, in the locking read itself; taking the lock
 * shares that statement, releasing it shares the history's: a one-entry update is five statements
 * (begin, lock and read, update, history and release, commit), six with a request id.
 */
async function writeBatch(tx: SqlExecutor, batch: CheckedBatch): Promise<SaveMetricsResult> {
  const { table, scope, user, taskSheet, entries, request } = batch;
  // The named lock is waited for one second per statement, so that each statement stays within the
  // connection's bound on an answer (a few seconds), which one ten-second wait would exceed. On a
  // Galera cluster it is one node's alone: the scope's lock row is written instead (see below).
  const lock: ScopeLock | undefined = batch.galera
    ? undefined
    : { name: scopeLockName(table, scope), timeoutSeconds: 1 };
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
    const groups = [...new Set(entries.flatMap((entry) => (entry.group === null ? [] : [entry.group])))];
    const checks = checkParts(
      batch.plan,
      scope,
      taskSheet,
      batch.sheetColumns,
      [...new Set(entries.map((entry) => entry.activity))],
      groups,
    );
    const metrics = [...batch.metricColumns.keys()];
    const lockedRead = {
      metrics,
      replay:
        request === undefined
          ? undefined
          : { requestId: request.id, retentionSeconds: REQUEST_RETENTION_SECONDS },
    };
    // On a cluster the lock row is written first: a writer of the scope on this node waits on it,
    // one on another node makes one of the two fail at commit, and that one is retried from here.
    if (lock === undefined) await execute(tx, scopeLockRowStatement(table, scope));
    let existing: Record<string, unknown>[] = [];
    for (let waited = 0; waited < LOCK_TIMEOUT_SECONDS; waited++) {
      existing = await prepared(
        lockKeysStatement(table, scope, taskSheet, entries, batch.keyIndex, lock, checks, lockedRead),
      );
      if (Number(existing[0]?.locked) === 1) break;
    }
    if (Number(existing[0]?.locked) !== 1) {
      throw new BusyError(
        'METRICS_BUSY',
        `metrics of scope ${formatScope(scope)} are being saved by another request for more than ${LOCK_TIMEOUT_SECONDS} s: nothing was written, send the batch again`,
      );
    }
    // A request id seen before is answered as it was the first time, before any check: the world
    // may have moved on since (a link removed), and the save it stands for is already done.
    const earlier = request === undefined ? undefined : replayOf(existing[0]?.replay, request);
    if (earlier === 'expired' && request !== undefined) {
      await writePrepared(forgetRequestStatement(scope, request.id));
    } else if (earlier !== undefined && earlier !== 'expired') {
      return earlier;
    }
    if (Number(existing[0]?.sheet_ok) !== 1) throw taskSheetNotFound(scope, taskSheet);
    await checkInTree(tx, batch, existing, groups);
    const now = existing[0]?.server_now;
    const decision = decideSave(entries, lockedKeys(existing, metrics), {
      columns: batch.metricColumns,
      user,
      now: isoTime(now) ?? new Date().toISOString(),
    });
    if (decision.conflicts.length > 0) throw await conflictError(tx, batch, decision.conflicts);
    const { inserts, updates, removes, history } = decision;
    const result: SaveMetricsResult = {
      ...decision.counts,
      entries: decision.entries,
      ...(request === undefined ? {} : { requestId: request.id }),
      replayed: false,
    };
    const historyWrite: HistoryWrite = {
      metricTable: table,
      scope,
      taskSheet,
      user,
      source: batch.source,
      requestId: request?.id,
      at: now instanceof Date ? now : new Date(),
    };
    // The writes in order. The scope's named lock is let go in the last of them, the request record
    // or else the history (every row of the save is written and locked by then, so the next writer
    // of these keys waits on them until the commit, not on the lock); a save that changes nothing
    // and records no id lets go of it on its own, below.
    const releaseIn =
      lock === undefined
        ? undefined
        : request !== undefined
          ? 'request'
          : history.length > 0
            ? 'history'
            : undefined;
    // Removes are updates of DELETED: one statement per set of columns written covers both.
    for (const statement of updateStatements(
      table,
      scope,
      user,
      [...updates, ...removes],
      undefined,
      batch.source,
    )) {
      await writePrepared(statement);
    }
    if (inserts.length > 0)
      await writePrepared(insertStatement(table, scope, user, taskSheet, inserts, batch.source));
    if (history.length > 0) {
      await writePrepared(
        historyStatement(historyWrite, history, releaseIn === 'history' ? lock : undefined),
      );
      released = releaseIn === 'history';
    }
    if (request !== undefined) {
      await execute(
        tx,
        requestRecordStatement(
          scope,
          request.id,
          request.hash,
          JSON.stringify(result),
          user,
          releaseIn === 'request' ? lock : undefined,
        ),
        { prepare: true },
      );
      released = releaseIn === 'request';
    }
    return result;
  } finally {
    // If the connection itself failed, the server has already dropped the lock with it, and the
    // error that matters is the one already on its way out: do not replace it with this one.
    if (!released && lock !== undefined) await read(releaseStatement(lock)).catch(() => undefined);
  }
}

/** The locked rows by key: the row of lowest ID shown, every live row of the key changed alike. */
function lockedKeys(
  rows: readonly Record<string, unknown>[],
  metrics: readonly Identifier[],
): Map<string, LockedKey> {
  const keys = new Map<string, LockedKey>();
  for (const row of rows) {
    // A key without a row comes back once, with a NULL ID.
    if (row.ID === null || row.ID === undefined) continue;
    const key = metricKey(row.OPER_SEQ_DB, row.OPER_GRUPO_SEQ_DB);
    const found = keys.get(key);
    const id = Number(row.ID);
    const readOnly = Number(row.RO ?? 0) === 1;
    const inactive = Number(row.ATIVO ?? 1) === 0;
    const shown = found === undefined || id < Math.min(...found.ids);
    const stored = shown
      ? new Map(metrics.map((field, index) => [field, row[`v${index}`]] as const))
      : (found?.stored ?? new Map());
    keys.set(key, {
      ids: [...(found?.ids ?? []), id],
      seqDb: shown ? Number(row.SEQ_DB) : (found?.seqDb ?? Number(row.SEQ_DB)),
      readOnly: readOnly || (found?.readOnly ?? false),
      inactive: inactive || (found?.inactive ?? false),
      stored,
      lastChange: shown ? lastChangeOf(row) : (found?.lastChange ?? null),
    });
  }
  return keys;
}

/**
 * The recorded answer of a request id seen before (the locking read's `replay`: [hash, answer,
 * young]), `expired` when its row is past the retention, or undefined when it is new. The same id with another body is refused: answering it would tell the
 * client a save it never made was done.
 */
function replayOf(
  replay: unknown,
  request: { readonly id: string; readonly hash: string },
): SaveMetricsResult | 'expired' | undefined {
  if (replay === null || replay === undefined) return undefined;
  const [hash, answer, young] = (typeof replay === 'string' ? JSON.parse(replay) : replay) as [
    string,
    string,
    unknown,
  ];
  // Past the retention the id is new again (its row is taken out before this save records it anew).
  if (Number(young) !== 1) return 'expired';
  if (hash !== request.hash) {
    throw new ConflictError(
      'REQUEST_ID_REUSED',
      `request id ${request.id} was used for another save (other task sheet or entries) in this scope: give each save a new id, and send a retry with its own`,
      { path: 'requestId' },
    );
  }
  return { ...(JSON.parse(answer) as SaveMetricsResult), replayed: true };
}

/**
 * The conflict error of a batch, each field with who changed it last and when: from the history
 * (per field), else from the row's own audit columns. Read in the save's transaction, under its lock.
 */
async function conflictError(
  tx: SqlExecutor,
  batch: CheckedBatch,
  conflicts: readonly MetricConflict[],
): Promise<MetricConflictError> {
  const latest = await query(
    tx,
    latestChanges(
      batch.scope,
      batch.table,
      batch.taskSheet,
      conflicts.map((conflict) => [conflict.activity, conflict.group, conflict.field] as const),
    ),
  );
  const detailed = conflicts.map((conflict, index) => {
    const found = latest[index]?.latest;
    const [by, at] = (typeof found === 'string' ? JSON.parse(found) : (found ?? [])) as [unknown, unknown];
    return by === undefined || by === null
      ? conflict
      : { ...conflict, changedBy: Number(by), changedAt: isoTime(at) ?? conflict.changedAt };
  });
  const [first] = detailed;
  const entry = batch.entries.find((candidate) => candidate.index === first?.entry);
  const part = entry?.remove ? 'base' : 'values';
  return new MetricConflictError(
    detailed,
    `${detailed.length === 1 ? 'a field was' : `${detailed.length} fields were`} changed by someone else since this client read ${detailed.length === 1 ? 'it' : 'them'}: ${detailed
      .slice(0, 5)
      .map(
        (conflict) =>
          `entry ${conflict.entry} ${conflict.field} is ${JSON.stringify(conflict.theirs)} (read as ${JSON.stringify(conflict.base)})`,
      )
      .join('; ')}; nothing was saved: show both values and send again with the stored value as the base`,
    { path: first === undefined ? 'entries' : `entries.${first.entry}.${part}.${first.field}` },
  );
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

/**
 * What a concurrent writer can make a save's transaction fail with, all of which leave nothing
 * written and pass if the save runs again: a deadlock (on a Galera cluster also a certification
 * conflict at commit, which the server reports as one), a lock wait past its bound (the scope's lock
 * row on a cluster), an ID another writer took (a host writer without our lock), InnoDB's
 * auto-increment lock giving way to a host's bulk insert (ER_AUTOINC_READ_FAILED), a row changed
 * since a snapshot read (ER_CHECKREAD, with innodb_snapshot_isolation), and a cluster node that is
 * not ready yet (ER_UNKNOWN_COM_ERROR: "WSREP has not yet prepared node for application use").
 */
const RETRYABLE = new Set([
  'ER_LOCK_DEADLOCK',
  'ER_LOCK_WAIT_TIMEOUT',
  'ER_DUP_ENTRY',
  'ER_AUTOINC_READ_FAILED',
  'ER_CHECKREAD',
  'ER_UNKNOWN_COM_ERROR',
]);

/** The driver's error code (`ER_...`) of a failed statement, if it has one. */
function codeOf(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** A Galera node that is not part of the cluster's primary component (or not yet joined) refuses with 1047. */
const isNodeNotReady = (error: unknown) => codeOf(error) === 'ER_UNKNOWN_COM_ERROR';

/** A deadlock, or on a Galera cluster a transaction that lost at certification (both 1213). */
const isLostRace = (error: unknown) => codeOf(error) === 'ER_LOCK_DEADLOCK';

const isRetryable = (error: unknown) => RETRYABLE.has(codeOf(error) ?? '');
