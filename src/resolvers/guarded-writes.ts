import { type Identifier, quoteIdentifier } from '../identifier.js';
import type { Scope } from '../scope.js';
import { insertStatement, type MetricWrite, scopeLockName, valueTable } from './metric-writes.js';
import { inList, sheetCondition } from './save-checks.js';
import { CHAIN_STEPS } from './shown-nodes.js';
import { liveInScope, scopeParams } from './sql.js';
import { fragment, joinSql, type SqlPart, type Statement } from './statement.js';
import type { TreePlan } from './tree-plan.js';

/*
 * A batch written by one autocommit statement that writes every entry or none: the statement's own
 * guard counts the keys that pass every check a save makes and writes only when all of them do. When
 * it writes nothing, the save takes its full path (named lock, locking read, checks, decisions), which
 * says which entry failed and why, or writes a batch that mixes updates and inserts.
 *
 * Why a second way to write: the full path costs four or five round trips and a locking read; a
 * one-entry update measured about 3x the hand-written floor's time (begin, one INSERT ... ON
 * DUPLICATE KEY UPDATE, commit), a guarded statement about 1.5x. What it costs: for the length of the
 * statement, InnoDB share-locks the host rows the guard reads (the task sheet, the keys' links,
 * activities and their groups up to the root), as any INSERT ... SELECT does, so a host writer of one
 * of those rows waits for the statement, never for a transaction of ours.
 *
 * Only the default tree and trees of one or two levels, with the metric key index present: deeper
 * trees walk several association tables, which the full path does in one read of its own.
 */

/** A checked batch, as the guard needs it. */
export interface GuardedBatch {
  readonly table: Identifier;
  readonly keyIndex: Identifier | undefined;
  readonly scope: Scope;
  readonly user: number;
  readonly taskSheet: number;
  readonly entries: readonly MetricWrite[];
  readonly plan: TreePlan;
  /** The host's task sheet table's columns: its scope and flags are checked by those it has. */
  readonly sheetColumns: ReadonlySet<string>;
}

/**
 * The UPDATE that writes the batch when every key has a live row, none read-only or inactive, and
 * every key passes the tree's checks; `undefined` when the batch cannot be written by one statement
 * (see above; also entries that write different sets of columns).
 *
 * The guard is a derived table of one row (a count), which both servers materialise before the join:
 * when the count is short, no row is read or written.
 */
export function guardedUpdateStatement(batch: GuardedBatch): Statement | undefined {
  const { table, scope, user, taskSheet, entries } = batch;
  const keyIndex = guardable(batch);
  const first = entries[0];
  if (keyIndex === undefined || first === undefined) return undefined;
  const columns = [...first.values.keys()];
  const set = columns.join(',');
  if (entries.some((entry) => [...entry.values.keys()].join(',') !== set)) return undefined;
  const names = columns.map((_, index) => `v${index}`);
  const rows = entries.map((entry) => [
    entry.activity,
    entry.group,
    ...[...entry.values.values()].map((value) => value ?? null),
  ]);
  const values = valueTable(['o', 'g'], names.length, rows);
  const key = (alias: string) =>
    fragment(
      `${alias}.EMPRESA = ? AND ${alias}.FILIAL = ? AND ${alias}.LOCAL = ? AND ${alias}.FOLHA_TAREFA_SEQ_DB = ? AND ${alias}.OPER_SEQ_DB = k.o AND ${alias}.OPER_GRUPO_SEQ_DB <=> k.g AND IFNULL(${alias}.DELETED, 0) = 0`,
      ...scopeParams(scope),
      taskSheet,
    );
  // One look at each key's live rows: 1 when it has some and every one is writable (not RO, active);
  // NULL (no row) or 0 otherwise.
  const rowCondition = joinSql([
    `(SELECT MIN(IFNULL(x.RO, 0) = 0 AND IFNULL(x.ATIVO, 1) = 1) FROM ${quoteIdentifier(table)} x FORCE INDEX (${quoteIdentifier(keyIndex)}) WHERE `,
    key('x'),
    ') = 1',
  ]);
  return joinSql([
    'UPDATE ',
    guard(batch, valueTable(['o', 'g'], names.length, rows, 'k'), rowCondition),
    ' JOIN ',
    values,
    fragment(
      ` JOIN ${quoteIdentifier(table)} m FORCE INDEX (${quoteIdentifier(keyIndex)}) ON m.EMPRESA = ? AND m.FILIAL = ? AND m.LOCAL = ? AND m.FOLHA_TAREFA_SEQ_DB = ? AND m.OPER_SEQ_DB = v.o AND m.OPER_GRUPO_SEQ_DB <=> v.g AND IFNULL(m.DELETED, 0) = 0`,
      ...scopeParams(scope),
      taskSheet,
    ),
    fragment(
      ` SET ${columns.map((column, index) => `m.${quoteIdentifier(column)} = v.${names[index]}`).join(', ')}${columns.length > 0 ? ', ' : ''}m.UPD_USUARIO_SEQ_DB = ? WHERE q.n = ?`,
      user,
      entries.length,
    ),
  ]);
}

/**
 * The INSERT that writes the batch when no key has a live row and every key passes the tree's
 * checks, with the IDs `insertStatement` gives; `undefined` when the batch cannot be written by one
 * statement.
 */
export function guardedInsertStatement(batch: GuardedBatch): Statement | undefined {
  const { table, scope, taskSheet, entries } = batch;
  const keyIndex = guardable(batch);
  if (keyIndex === undefined || entries.length === 0) return undefined;
  const keys = valueTable(
    ['o', 'g'],
    0,
    entries.map((entry) => [entry.activity, entry.group]),
    'k',
  );
  const rowCondition = fragment(
    `NOT EXISTS (SELECT 1 FROM ${quoteIdentifier(table)} x FORCE INDEX (${quoteIdentifier(keyIndex)}) WHERE x.EMPRESA = ? AND x.FILIAL = ? AND x.LOCAL = ? AND x.FOLHA_TAREFA_SEQ_DB = ? AND x.OPER_SEQ_DB = k.o AND x.OPER_GRUPO_SEQ_DB <=> k.g AND IFNULL(x.DELETED, 0) = 0)`,
    ...scopeParams(scope),
    taskSheet,
  );
  return insertStatement(table, scope, batch.user, taskSheet, entries, {
    guard: guard(batch, keys, rowCondition),
    count: entries.length,
  });
}

/** The key index when the batch's tree is one the guard can check, else `undefined`. */
function guardable(batch: GuardedBatch): Identifier | undefined {
  return batch.plan.levels.length <= 2 ? batch.keyIndex : undefined;
}

/**
 * `(SELECT COUNT(*) AS n FROM <keys> k WHERE <row> AND <checks>) q`: the number of the batch's keys
 * whose rows pass `row` and that pass the save's checks (0 while the scope's named lock is held), by the rules the full path checks with:
 * the task sheet live and in the scope; the activity live and linked (live link) to the key's node,
 * or on a one-level tree the activity live and the node NULL; the node shown, that is live and (on
 * the default tree) on a chain of live groups up to a root within {@link CHAIN_STEPS} steps. A chain
 * longer than that counts as not shown here; the full path walks it to the end.
 *
 * `keys` is a JSON table `k` of the batch whose columns o and g are the activity and the node.
 */
function guard(batch: GuardedBatch, keys: Statement, row: Statement): Statement {
  const { plan, scope, entries } = batch;
  const live = (alias: string) => fragment(liveInScope(alias), ...scopeParams(scope));
  const activities = [...new Set(entries.map((entry) => entry.activity))];
  const groups = [...new Set(entries.flatMap((entry) => (entry.group === null ? [] : [entry.group])))];
  const conditions: SqlPart[] = [
    row,
    joinSql(['EXISTS (', sheetCondition(scope, batch.taskSheet, batch.sheetColumns), ')']),
  ];
  let rooted: Statement | undefined;
  const task = plan.levels.at(-1);
  const above = plan.levels.at(-2);
  if (task !== undefined) {
    const taskTable = quoteIdentifier(task.table);
    const association = above?.association;
    if (above === undefined || association === undefined) {
      conditions.push(
        joinSql([
          `k.g IS NULL AND k.o IN (SELECT t.SEQ_DB FROM ${taskTable} t WHERE `,
          live('t'),
          ' AND t.SEQ_DB IN ',
          inList(activities),
          ')',
        ]),
      );
    } else {
      const child = quoteIdentifier(association.childColumn);
      const parent = quoteIdentifier(association.parentColumn);
      // The links are read by their activities, as constants, in a table of their own (DISTINCT keeps
      // it from being merged into the keys' join): merged, the optimizer may look each key's link up
      // by its node, whose links may be thousands, when the link table's statistics are stale.
      conditions.push(
        joinSql([
          `(k.o, k.g) IN (SELECT c, p FROM (SELECT DISTINCT STRAIGHT_JOIN a.${child} AS c, a.${parent} AS p FROM ${quoteIdentifier(association.table)} a JOIN ${taskTable} t ON t.SEQ_DB = a.${child} WHERE `,
          live('a'),
          ' AND ',
          live('t'),
          ` AND a.${child} IN `,
          inList(activities),
          ') l)',
        ]),
      );
      // No group at all: nothing is shown, the guard counts no key.
      const groupTable = quoteIdentifier(above.table);
      if (groups.length === 0) conditions.push('FALSE');
      else if (above.nestedBy === undefined) {
        conditions.push(
          joinSql([
            `k.g IN (SELECT g.SEQ_DB FROM ${groupTable} g WHERE `,
            live('g'),
            ' AND g.SEQ_DB IN ',
            inList(groups),
            ')',
          ]),
        );
      } else {
        const nested = quoteIdentifier(above.nestedBy);
        rooted = joinSql([
          `WITH RECURSIVE rooted (s, id, parent, step) AS (SELECT g.SEQ_DB, g.SEQ_DB, g.${nested}, 1 FROM ${groupTable} g WHERE `,
          live('g'),
          ' AND g.SEQ_DB IN ',
          inList(groups),
          ` UNION ALL SELECT STRAIGHT_JOIN r.s, g.SEQ_DB, g.${nested}, r.step + 1 FROM rooted r JOIN ${groupTable} g ON g.SEQ_DB = r.parent WHERE r.step < ${CHAIN_STEPS} AND `,
          live('g'),
          ') ',
        ]);
        conditions.push('k.g IN (SELECT s FROM rooted WHERE parent IS NULL)');
      }
    }
  }
  return joinSql([
    '(',
    rooted ?? '',
    // A writer on the full path holds the scope's named lock (see saveMetrics): leave the scope to it.
    // Asked once, for the count, rather than for each key.
    joinSql(['SELECT IF(IS_FREE_LOCK(', scopeLockName(batch.table, scope), ') = 1, COUNT(*), 0) AS n FROM ']),
    keys,
    ' WHERE ',
    joinSql(conditions, ' AND '),
    ') q',
  ]);
}
