import type { Identifier } from '../model/identifier.js';
import { ConfigurationError } from '../model/issues.js';
import { REQUEST_RETENTION_SECONDS } from '../model/metric-batch.js';
import {
  BusyError,
  ConflictError,
  InvalidRequestError,
  type MetricConflict,
  MetricConflictError,
} from '../model/request-errors.js';
import { formatScope, type Scope } from '../model/scope.js';
import type { SqlExecutor } from '../store/driver.js';
import {
  forgetRequestStatement,
  HISTORY_TABLE,
  type HistoryWrite,
  historyStatement,
  latestChanges,
  requestLookup,
  requestRecordStatement,
} from '../store/history.js';
import { METRIC_WRITE_CHANGED } from '../store/metric-table.js';
import {
  insertStatements,
  lockKeysStatement,
  readBackStatement,
  releaseStatement,
  type ScopeLock,
  scopeLockName,
  scopeLockRowStatement,
  takeLockStatement,
  updateStatements,
} from '../store/metric-writes.js';
import { checkParts } from '../store/save-checks.js';
import { execute, query, type Sql } from '../store/sql.js';
import { metricKey } from './load-task-tree.js';
import type { CheckedBatch, SaveRequest } from './save-batch.js';
import { decideSave, type LockedKey, type SavedEntry, withReadBack } from './save-decision.js';
import { LOCK_TIMEOUT_SECONDS } from './save-turns.js';
import { isoTime, lastChangeOf } from './saved-row.js';
import { jsonRows, shownFromWalk } from './shown-from-walk.js';
import { shownNodes } from './shown-nodes.js';
import { taskSheetNotFound } from './task-sheet.js';

/** What a save did, as `saveMetrics` answers it. */
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

/**
 * Writers of one (database, metric table, scope) are serialised by a named lock, `GET_LOCK`, taken on
 * the transaction's connection before anything is read. We may not add a unique key to the fixed
 * tables, and a locking read of the scope's last row is not enough on its own: two writers' range
 * scans share gap locks and then deadlock on their inserts (measured: most of 50 parallel saves).
 *
 * The lock is taken in a statement of its own, the transaction's first, which reads no table: the
 * transaction's snapshot is then taken by the locking read, after the lock is held, and every check
 * sees what was committed while the save waited (a link removed, a task sheet deleted). Taken inside
 * the locking read, it was waited for after that statement's subqueries had fixed the snapshot.
 *
 * The named lock belongs to the connection, not the transaction, so it is released a moment before
 * the commit, in the history insert (every row of the save, and its request record, are written and
 * locked by then). The reads of what a save decides on are locking reads (FOR UPDATE: the keys' rows
 * and the request record), so a writer that gets the named lock in that moment waits on our new or
 * changed rows and our record until we commit, then reads them: two saves of one key cannot both
 * insert, two inserts cannot take one ID, a base is always compared with the value the previous
 * writer committed, and a retry of a save finds its record. A host writer that does not take our lock
 * can still collide (duplicate ID, deadlock); `saveMetrics` retries those.
 *
 * The stored values are read, and the bases compared, in the locking read itself; releasing the lock
 * shares the history's statement: a one-entry update is six statements (begin, lock, read, update,
 * history and release, commit), seven with a request id.
 */
export async function writeBatch(tx: SqlExecutor, batch: CheckedBatch): Promise<SaveMetricsResult> {
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
  // The rows' writes and their history: one that left a warning or a note wrote something other than
  // the answer and the history say (a decimal given fewer places since the shape was read rounds
  // with a note only). Refused, nothing committed, and the batch checked again (see isShapeError).
  const writeExact = async (statement: Sql, written: Identifier) => {
    const result = await writePrepared(statement);
    if ((result.warningStatus ?? 0) > 0) throw await changedOnWrite(tx, written);
  };
  let released = false;
  try {
    // Before any read. On a cluster the lock row is written: a writer of the scope on this node
    // waits on it until we commit, one on another node makes one of the two fail at commit, and that
    // one is retried from here.
    if (lock === undefined) await execute(tx, scopeLockRowStatement(table, scope));
    else await takeScopeLock(tx, lock, scope);
    // Inactive rows are read too: a key whose row is ATIVO=0 is refused below, never inserted a second
    // time. DELETED=1 rows are history: they are left as they are, and the key gets a new live row.
    const groups = [...new Set(entries.flatMap((entry) => (entry.group === null ? [] : [entry.group])))];
    const checks = checkParts(batch.plan, scope, taskSheet, batch.sheetColumns, entries, groups);
    const metrics = [...batch.metricColumns.keys()];
    const lockedRead = {
      metrics,
      replay:
        request === undefined
          ? undefined
          : { requestId: request.id, retentionSeconds: REQUEST_RETENTION_SECONDS },
    };
    const existing = await prepared(
      lockKeysStatement(table, scope, taskSheet, entries, batch.keyIndex, checks, lockedRead),
    );
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
    const locked = lockedKeys(existing, metrics);
    const decision = decideSave(entries, locked, {
      columns: batch.metricColumns,
      user,
      now: isoTime(now) ?? new Date().toISOString(),
    });
    if (decision.conflicts.length > 0) throw await conflictError(tx, batch, decision.conflicts, locked);
    const { inserts, updates, removes, history, readBack } = decision;
    const historyWrite: HistoryWrite = {
      metricTable: table,
      scope,
      taskSheet,
      user,
      source: batch.source,
      requestId: request?.id,
      at: now instanceof Date ? now : new Date(),
    };
    // Removes are updates of DELETED: one statement per set of columns written covers both.
    for (const statement of updateStatements(
      table,
      scope,
      user,
      [...updates, ...removes],
      undefined,
      batch.source,
    )) {
      await writeExact(statement, table);
    }
    for (const statement of insertStatements(table, scope, user, taskSheet, inserts, batch.source)) {
      await writeExact(statement, table);
    }
    // What the defaults put in the new rows, for the answer: the page takes its values as the bases
    // of its next save, so they must be what a read of the row gives.
    let answered = decision.entries;
    if (readBack.length > 0) {
      const fields = [...new Set(readBack.flatMap((back) => back.fields))];
      // Prepared (its text varies with the fields only): a FLOAT default is read with its every bit.
      const rows = await prepared(readBackStatement(table, scope, taskSheet, readBack, fields));
      const byKey = new Map(
        rows.map((row) => [Number(row.n), new Map(fields.map((field, index) => [field, row[`v${index}`]]))]),
      );
      const found = readBack.map((_, index) => byKey.get(index + 1) ?? new Map<Identifier, unknown>());
      answered = withReadBack(answered, readBack, found, batch.metricColumns);
    }
    const result: SaveMetricsResult = {
      ...decision.counts,
      entries: answered,
      ...(request === undefined ? {} : { requestId: request.id }),
      replayed: false,
    };
    // The request record before the lock is let go: the next save of the same id then finds it (and
    // waits for our commit) rather than miss it.
    if (request !== undefined) {
      await writePrepared(
        requestRecordStatement(scope, request.id, request.hash, JSON.stringify(result), user),
      );
    }
    // The scope's named lock is let go in the last write, the history's (every row of the save is
    // written and locked by then, so the next writer of these keys waits on them until the commit,
    // not on the lock); a save that changes nothing lets go of it on its own, below.
    if (history.length > 0) {
      await writeExact(historyStatement(historyWrite, history, lock), HISTORY_TABLE);
      released = lock !== undefined;
    }
    return result;
  } finally {
    // If the connection itself failed, the server has already dropped the lock with it, and the
    // error that matters is the one already on its way out: do not replace it with this one.
    if (!released && lock !== undefined) await read(releaseStatement(lock)).catch(() => undefined);
  }
}

/** What a request id's look-up before the checks needs: where its save would write, and the id. */
export interface RecordedRequest {
  readonly table: Identifier;
  readonly scope: Scope;
  readonly galera: boolean;
  readonly request: SaveRequest;
}

/**
 * The recorded answer of a request id, read as the save's transaction reads it (the scope's lock
 * taken first, the record read with a lock), for a save refused by a check made before its
 * transaction (a value, a metric the TREE_VIEW no longer has): a retry of a save that was stored is
 * answered as the first time, whatever changed since. Undefined when the id is new or past the
 * retention; `REQUEST_ID_REUSED` when it stood for another body. Writes nothing (on a cluster the
 * lock row, which certifies the look-up against a save of the scope committing through another node).
 */
export async function recordedAnswer(
  tx: SqlExecutor,
  recorded: RecordedRequest,
): Promise<SaveMetricsResult | undefined> {
  const { table, scope, request } = recorded;
  const lock: ScopeLock | undefined = recorded.galera
    ? undefined
    : { name: scopeLockName(table, scope), timeoutSeconds: 1 };
  try {
    if (lock === undefined) await execute(tx, scopeLockRowStatement(table, scope));
    else await takeScopeLock(tx, lock, scope);
    const [row] = await query(tx, requestLookup(scope, request.id, REQUEST_RETENTION_SECONDS));
    const earlier = replayOf(row?.replay, request);
    return earlier === 'expired' ? undefined : earlier;
  } finally {
    if (lock !== undefined) await query(tx, releaseStatement(lock)).catch(() => undefined);
  }
}

/**
 * Takes the scope's named lock, one second per statement for at most {@link LOCK_TIMEOUT_SECONDS}
 * (each statement stays within the connection's bound on an answer), else answers busy.
 */
async function takeScopeLock(tx: SqlExecutor, lock: ScopeLock, scope: Scope): Promise<void> {
  for (let waited = 0; waited < LOCK_TIMEOUT_SECONDS; waited++) {
    const [row] = await query(tx, takeLockStatement(lock), { prepare: true });
    if (Number(row?.locked) === 1) return;
  }
  throw new BusyError(
    'METRICS_BUSY',
    `metrics of scope ${formatScope(scope)} are being saved by another request for more than ${LOCK_TIMEOUT_SECONDS} s: nothing was written, send the batch again`,
  );
}

/**
 * The error of a write the server changed a value of (it left a warning or a note), with the first
 * of them as the server words it: a shape error (`METRIC_WRITE_CHANGED`), so the save checks its
 * batch again against the table as it is now, and answers it if it is still so.
 */
async function changedOnWrite(tx: SqlExecutor, table: Identifier): Promise<ConfigurationError> {
  const [first] = await tx.query<{ Level?: unknown; Code?: unknown; Message?: unknown }>('SHOW WARNINGS');
  const said = first === undefined ? 'a warning' : `${first.Level} ${first.Code}: ${first.Message}`;
  return new ConfigurationError(
    METRIC_WRITE_CHANGED,
    `the database changed a value as it wrote it to table ${table} (${said}), though the value fits the column as it was read: nothing was saved; check the table's column types, triggers and the session's sql_mode`,
    { path: table },
  );
}

/** The locked rows by key: the row of lowest ID shown, every live row of the key changed alike. */
function lockedKeys(
  rows: readonly Record<string, unknown>[],
  metrics: readonly Identifier[],
): Map<string, LockedKey> {
  const byKey = new Map<string, Record<string, unknown>[]>();
  for (const row of rows) {
    // A key without a row comes back once, with a NULL ID.
    if (row.ID === null || row.ID === undefined) continue;
    const key = metricKey(row.OPER_SEQ_DB, row.OPER_GRUPO_SEQ_DB);
    const found = byKey.get(key);
    if (found === undefined) byKey.set(key, [row]);
    else found.push(row);
  }
  const storedOf = (row: Record<string, unknown>) =>
    new Map(metrics.map((field, index) => [field, row[`v${index}`]] as const));
  const keys = new Map<string, LockedKey>();
  for (const [key, found] of byKey) {
    const [shown, ...twins] = found.sort((a, b) => Number(a.ID) - Number(b.ID));
    if (shown === undefined) continue;
    keys.set(key, {
      ids: found.map((row) => Number(row.ID)),
      seqDb: Number(shown.SEQ_DB),
      twins: twins.map((twin) => ({ seqDb: Number(twin.SEQ_DB), stored: storedOf(twin) })),
      readOnly: found.some((row) => Number(row.RO ?? 0) === 1),
      inactive: found.some((row) => Number(row.ATIVO ?? 1) === 0),
      stored: storedOf(shown),
      lastChange: lastChangeOf(shown),
    });
  }
  return keys;
}

/**
 * The recorded answer of a request id seen before (the locking read's `replay`: [hash, answer,
 * young]), `expired` when its row is past the retention, or undefined when it is new. The same id with another body is refused: answering it would tell the
 * client a save it never made was done.
 */
function replayOf(replay: unknown, request: SaveRequest): SaveMetricsResult | 'expired' | undefined {
  if (replay === null || replay === undefined) return undefined;
  const [hash, answer, young] = (typeof replay === 'string' ? JSON.parse(replay) : replay) as [
    string,
    string,
    unknown,
  ];
  // Past the retention the id is new again (its row is taken out before this save records it anew).
  if (Number(young) !== 1) return 'expired';
  if (hash !== request.hash && hash !== request.sentHash) {
    throw new ConflictError(
      'REQUEST_ID_REUSED',
      `request id ${request.id} was used for another save (other task sheet or entries) in this scope: give each save a new id, and send a retry with its own`,
      { path: 'requestId' },
    );
  }
  // The id as this request spells it (ids differing only in case are one: see `requestKey`).
  return { ...(JSON.parse(answer) as SaveMetricsResult), requestId: request.id, replayed: true };
}

/**
 * The conflict error of a batch, each field with who changed it last and when: from the history
 * (per field of the live row; per key where the key has no live row), else from the row's own audit
 * columns. Read in the save's transaction, under its lock, with a locking read: the latest committed
 * history, not the snapshot (see `latestChanges`).
 */
async function conflictError(
  tx: SqlExecutor,
  batch: CheckedBatch,
  conflicts: readonly MetricConflict[],
  locked: ReadonlyMap<string, LockedKey>,
): Promise<MetricConflictError> {
  const latest = await query(
    tx,
    latestChanges(
      batch.scope,
      batch.table,
      batch.taskSheet,
      // A key without a live row was last changed by its remove, which records only the fields the
      // row held: its latest change of any field names who removed it. A field of a live row, by a
      // change of that row only: one its insert left empty has none, and an earlier entry's change
      // of it (since removed) would name someone who did not make what is stored; the row's own
      // audit columns say who did.
      conflicts.map((conflict) =>
        conflict.row
          ? ([
              conflict.activity,
              conflict.group,
              conflict.field,
              locked.get(metricKey(conflict.activity, conflict.group))?.seqDb ?? null,
            ] as const)
          : ([conflict.activity, conflict.group, null, null] as const),
      ),
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
