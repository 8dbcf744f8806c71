import { z } from 'zod';
import { isReservedMetricColumn, TreeView } from '../config/index.js';
import type { Database, SqlExecutor } from '../db/driver.js';
import { type Identifier, parseIdentifier, quoteIdentifier } from '../identifier.js';
import { formatScope, Scope } from '../scope.js';
import { SeqDb } from '../seq-db.js';
import { TableNames } from '../table-names.js';
import { type ColumnType, checkValue, readColumnTypes } from './column-types.js';
import { BusyError, ConfigurationError, InvalidRequestError, ReadOnlyRowError } from './errors.js';
import { metricKey } from './load-task-tree.js';
import { MetricBatch, type MetricEntry } from './metric-batch.js';
import type { MetricValue } from './metric-defaults.js';
import {
  insertStatement,
  lastIdStatement,
  lockKeysStatement,
  type MetricWrite,
  type RowUpdate,
  type Statement,
  updateStatements,
} from './metric-writes.js';
import { shownNodes } from './shown-nodes.js';
import { chunks, liveInScope, placeholders, scopeParams } from './sql.js';
import { METRIC_TABLE_COLUMNS } from './table-diagnosis.js';
import { loadTaskSheet } from './task-sheet.js';
import type { PlannedLevel, TreePlan } from './tree-plan.js';
import { withPlan } from './with-plan.js';

/** What `saveMetrics` is given, checked with this model before any SQL. */
export const SaveMetricsOptions = z.strictObject({
  scope: Scope,
  /** The acting user's SEQ_DB: INS_USUARIO_SEQ_DB of new rows, UPD_USUARIO_SEQ_DB of changed ones. */
  user: SeqDb,
  taskSheet: SeqDb,
  /** The PUT's own limits (1 to 1000 entries): a library caller holds the lock no longer than a request. */
  entries: MetricBatch.shape.entries,
  /** As in `loadTaskTree`: read from the scope's parameter rows when absent. */
  names: TableNames.optional(),
  treeView: TreeView.nullable().optional(),
});
export type SaveMetricsOptions = z.input<typeof SaveMetricsOptions>;

export interface SaveMetricsResult {
  readonly inserted: number;
  readonly updated: number;
}

/** How often a batch is retried when concurrent writers deadlock or take the same new ID. */
const MAX_ATTEMPTS = 10;

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
  // The checks read different things and go out together; their errors still come in a fixed order
  // (task sheet, then values, then the tree), whichever answer arrives first.
  const [sheet, columns, keyIndex, inTree] = await Promise.allSettled([
    loadTaskSheet(db, scope, taskSheet),
    readColumnTypes(db, plan.metricTable),
    findKeyIndex(db, plan.metricTable),
    checkInTree(db, scope, plan, entries),
  ]);
  if (sheet.status === 'rejected') throw sheet.reason;
  if (columns.status === 'rejected') throw columns.reason;
  const rows = checkEntries(entries, plan, columns.value);
  if (inTree.status === 'rejected') throw inTree.reason;
  if (keyIndex.status === 'rejected') throw keyIndex.reason;

  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction((tx) =>
        writeBatch(tx, {
          table: plan.metricTable,
          keyIndex: keyIndex.value,
          scope,
          user,
          taskSheet,
          entries: rows,
        }),
      );
    } catch (error) {
      if (!isRetryable(error)) throw error;
      if (attempt >= MAX_ATTEMPTS) {
        throw new BusyError(
          'METRICS_BUSY',
          `metrics of task sheet ${taskSheet} could not be saved: other writers kept colliding (${attempt} attempts); nothing was written, send the batch again`,
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
  const missing = METRIC_TABLE_COLUMNS.filter((column) => !columns.has(column));
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
      const path = `entries.${index}.values.${name}`;
      const field = fields.get(name);
      if (field === undefined) {
        throw new InvalidRequestError(
          'UNKNOWN_METRIC',
          `entry ${index}: "${name}" is not a metric column of this installation (metrics: ${[...fields.keys()].join(', ')})`,
          { path },
        );
      }
      const column = columns.get(field);
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
          `entry ${index}: ${field} value ${JSON.stringify(value)} ${checked.problem}`,
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
 * under a deleted or inactive node, nor in a cycle of parents (what `loadTaskTree` would show).
 */
async function checkInTree(db: SqlExecutor, scope: Scope, plan: TreePlan, entries: readonly MetricEntry[]) {
  const task = plan.levels.at(-1);
  const parent = plan.levels.at(-2);
  if (task === undefined) return;
  const activities = [...new Set(entries.map((entry) => entry.activity))];
  const groups = [...new Set(entries.flatMap((entry) => (entry.group === null ? [] : [entry.group])))];
  // The links and the nodes they hang from are checked at once: the nodes are the entries' own.
  const [found, shown] = await Promise.all([
    linkedKeys(db, scope, task, parent, activities),
    parent === undefined
      ? new Set<number>()
      : shownNodes(db, scope, plan.levels, plan.levels.length - 2, groups),
  ]);
  entries.forEach((entry, index) => {
    if (!found.has(metricKey(entry.activity, entry.group))) {
      throw new InvalidRequestError(
        'NOT_IN_TREE',
        `entry ${index}: activity ${entry.activity} is not linked to node ${entry.group} in scope ${formatScope(scope)} (or one of them is deleted or inactive)`,
        { path: `entries.${index}` },
      );
    }
    if (entry.group !== null && !shown.has(entry.group)) {
      throw new InvalidRequestError(
        'NOT_IN_TREE',
        `entry ${index}: node ${entry.group} is not in the tree of scope ${formatScope(scope)}: it hangs below a deleted or inactive node, or in a cycle of parents`,
        { path: `entries.${index}` },
      );
    }
  });
}

/**
 * The (activity, parent node) keys among `activities` that live links of the task level tie together.
 * The links drive the join (STRAIGHT_JOIN), found by their activity: left to itself, the optimizer may
 * start from every node of the scope and walk all their links to find the few it was asked for.
 */
async function linkedKeys(
  db: SqlExecutor,
  scope: Scope,
  task: PlannedLevel,
  parent: PlannedLevel | undefined,
  activities: readonly number[],
): Promise<Set<string>> {
  const found = new Set<string>();
  const association = parent?.association;
  for (const ids of chunks(activities, 999)) {
    if (parent === undefined || association === undefined) {
      const rows = await db.query<{ o: number }>(
        `SELECT t.SEQ_DB AS o FROM ${quoteIdentifier(task.table)} t WHERE ${liveInScope('t')} AND t.SEQ_DB IN (${placeholders(ids.length)})`,
        [...scopeParams(scope), ...ids],
      );
      for (const row of rows) found.add(metricKey(row.o, null));
      continue;
    }
    const child = quoteIdentifier(association.childColumn);
    const parentColumn = quoteIdentifier(association.parentColumn);
    const rows = await db.query<{ o: number; g: number }>(
      `SELECT STRAIGHT_JOIN a.${child} AS o, a.${parentColumn} AS g FROM ${quoteIdentifier(association.table)} a
         JOIN ${quoteIdentifier(task.table)} t ON t.SEQ_DB = a.${child}
         JOIN ${quoteIdentifier(parent.table)} p ON p.SEQ_DB = a.${parentColumn}
        WHERE ${liveInScope('a')} AND ${liveInScope('t')} AND ${liveInScope('p')} AND a.${child} IN (${placeholders(ids.length)})`,
      [...scopeParams(scope), ...scopeParams(scope), ...scopeParams(scope), ...ids],
    );
    for (const row of rows) found.add(metricKey(row.o, row.g));
  }
  return found;
}

/** The columns a save looks rows up by, in the order an index must start with to serve it. */
const KEY_COLUMNS = ['EMPRESA', 'FILIAL', 'LOCAL', 'FOLHA_TAREFA_SEQ_DB', 'OPER_SEQ_DB', 'OPER_GRUPO_SEQ_DB'];

/**
 * The metric table's index that starts with the key columns (ours is METRIC_KEY_INDEX; a host's own
 * metric table may have one under another name), or undefined when it has none: then the save still
 * writes only its keys, but the server may lock more rows than theirs to find them.
 */
async function findKeyIndex(db: SqlExecutor, table: Identifier): Promise<Identifier | undefined> {
  const rows = await db.query<{ name: string; columns: string }>(
    `SELECT INDEX_NAME AS name, GROUP_CONCAT(COLUMN_NAME ORDER BY SEQ_IN_INDEX) AS columns
       FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? GROUP BY INDEX_NAME`,
    [table],
  );
  const wanted = KEY_COLUMNS.join(',').toLowerCase();
  const found = rows.find((row) => `${row.columns.toLowerCase()},`.startsWith(`${wanted},`));
  return found === undefined ? undefined : parseIdentifier(found.name, 'metric key index');
}

/** A checked batch, ready to write into the metric table. */
interface CheckedBatch {
  readonly table: Identifier;
  readonly keyIndex: Identifier | undefined;
  readonly scope: Scope;
  readonly user: number;
  readonly taskSheet: number;
  readonly entries: readonly CheckedEntry[];
}

/** How long a save waits for the writer ahead of it before answering busy. */
const LOCK_TIMEOUT_SECONDS = 10;

/**
 * Writers of one (database, metric table, scope) are serialised by a named lock, `GET_LOCK`, taken on
 * the transaction's connection before anything is read. We may not add a unique key to the fixed
 * tables, and a locking read of the scope's last row is not enough on its own: two writers' range
 * scans share gap locks and then deadlock on their inserts (measured: most of 50 parallel saves).
 *
 * The named lock belongs to the connection, not the transaction, so it is released as the last
 * statement here, a moment before the commit. The reads below are locking reads (FOR UPDATE), so a
 * writer that gets the named lock in that moment waits on our new or changed rows until we commit,
 * then reads them: two saves of one key cannot both insert, two inserts cannot take one ID. A host
 * writer that does not take our lock can still collide (duplicate ID, deadlock); `saveMetrics`
 * retries those.
 */
async function writeBatch(tx: SqlExecutor, batch: CheckedBatch): Promise<SaveMetricsResult> {
  const { table, scope } = batch;
  // The lock name is hashed on the server: MySQL refuses names longer than 64 characters.
  const lockName = `CONCAT('task_association:', SHA1(CONCAT(DATABASE(), '.', ?, ':', ?)))`;
  const lockParams = [table, scopeParams(scope).join('/')];
  // Waited for one second at a time: each statement stays within the connection's bound on an
  // answer (a few seconds), which a single ten-second wait would exceed.
  let locked = false;
  for (let waited = 0; !locked && waited < LOCK_TIMEOUT_SECONDS; waited++) {
    const [lock] = await tx.query<{ locked: number | null }>(`SELECT GET_LOCK(${lockName}, 1) AS locked`, [
      ...lockParams,
    ]);
    locked = lock?.locked === 1;
  }
  if (!locked) {
    throw new BusyError(
      'METRICS_BUSY',
      `metrics of scope ${formatScope(scope)} are being saved by another request for more than ${LOCK_TIMEOUT_SECONDS} s: nothing was written, send the batch again`,
    );
  }
  try {
    return await writeLocked(tx, batch);
  } finally {
    // If the connection itself failed, the server has already dropped the lock with it, and the
    // error that matters is the one already on its way out: do not replace it with this one.
    await tx.query(`SELECT RELEASE_LOCK(${lockName})`, lockParams).catch(() => undefined);
  }
}

/**
 * Locks the rows of the batch's keys (and nothing else), refuses RO and inactive ones, then writes:
 * updates by primary key, inserts with the IDs after the scope's last one.
 */
async function writeLocked(tx: SqlExecutor, batch: CheckedBatch): Promise<SaveMetricsResult> {
  const { table, scope, user, taskSheet, entries } = batch;
  const read = (statement: Statement) => tx.query(statement.sql, statement.params);
  const write = (statement: Statement) => tx.execute(statement.sql, statement.params);
  // Inactive rows are read too: a key whose row is ATIVO=0 is refused below, never inserted a second
  // time. DELETED=1 rows are history: they are left as they are, and the key gets a new live row.
  const existing = (await read(lockKeysStatement(table, scope, taskSheet, entries, batch.keyIndex))) as {
    ID: unknown;
    RO: unknown;
    ATIVO: unknown;
    OPER_SEQ_DB: unknown;
    OPER_GRUPO_SEQ_DB: unknown;
  }[];
  const idsByKey = new Map<string, { ids: number[]; readOnly: boolean; inactive: boolean }>();
  for (const row of existing) {
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
  for (const statement of updateStatements(table, scope, user, updates)) await write(statement);
  if (inserts.length > 0) {
    const [last] = (await read(lastIdStatement(table, scope))) as { ID: unknown }[];
    await write(insertStatement(table, scope, user, taskSheet, Number(last?.ID ?? 0) + 1, inserts));
  }
  return { inserted: inserts.length, updated: updates.length };
}

function isRetryable(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  return code === 'ER_LOCK_DEADLOCK' || code === 'ER_DUP_ENTRY' || code === 'ER_LOCK_WAIT_TIMEOUT';
}
