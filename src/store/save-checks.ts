import type { Identifier } from '../model/identifier.js';
import type { Scope } from '../model/scope.js';
import { TASK_SHEET_TABLE } from '../model/table-names.js';
import type { TreePlan } from '../model/tree-plan.js';
import { liveInScope, type Sql, sql } from './sql.js';

const TASK_SHEET = sql.identifier(TASK_SHEET_TABLE);

/** How far one recursive query walks up a parent chain. */
export const CHAIN_STEPS = 100;

/** A batch's key, as `MetricKey` of metric-writes.ts (which imports this module). */
interface BatchKey {
  readonly activity: number;
  readonly group: number | null;
}

/**
 * What a save checks in its own locking read, so that the checks cost no round trip of their own and
 * see the tree as the write does (a link removed between a separate check and the write would go
 * unnoticed):
 * - `sheet_ok`: 1 when the task sheet is live and in the scope;
 * - `linked`: the keys' own (activity, parent node) pairs that are live links of the task level, to
 *   a live activity (on a one-level tree: (activity, NULL) for each live activity);
 * - `w0`, `w1`, ...: the rows the shown-node walk reads upwards from the keys' nodes.
 * The last two are JSON arrays, on the first key's row only.
 *
 * Every check is a subquery in the select list: neither MySQL nor MariaDB locks the rows a subquery
 * reads under the outer statement's FOR UPDATE (the lock-count test pins it), so host rows are only
 * read. `with` holds the walk's common table expressions; the key rows are `k (n, o, g)`. `prefix`
 * goes before the whole statement: see {@link UNCUT_AGGREGATES}.
 */
export interface CheckParts {
  readonly prefix: Sql;
  readonly with: Sql | undefined;
  readonly columns: Sql;
}

/**
 * MariaDB cuts a JSON_ARRAYAGG at `group_concat_max_len` (1 MB by default), leaving text that is not
 * JSON: a 1000-entry batch whose activities had 120 links each, or a walk up long chains of nested
 * groups, was answered 500. The limit is raised for the statement, in an executable comment that
 * MySQL reads as a comment (its JSON_ARRAYAGG has no such limit). The server still caps a result at
 * `max_allowed_packet` (16 MB by default): a walk column cut there is walked again by plain reads
 * (see `shownFromWalk`); `linked` holds at most the batch's own pairs, a few dozen kB for 1000.
 */
export const UNCUT_AGGREGATES = sql.raw('/*M! SET STATEMENT group_concat_max_len = 4294967295 FOR */ ');

/**
 * The check parts for a batch on `plan`. `sheetColumns` are the columns of the host's task sheet
 * table: its scope and flags are checked by whichever of them it has (the host's table is not ours to
 * assume). `keys` are the batch's keys, each once; `groups` its parent nodes, each once.
 */
export function checkParts(
  plan: TreePlan,
  scope: Scope,
  taskSheet: number,
  sheetColumns: ReadonlySet<string>,
  keys: readonly BatchKey[],
  groups: readonly number[],
): CheckParts {
  const walk = walkParts(plan, scope, groups);
  return {
    prefix: UNCUT_AGGREGATES,
    with: walk.ctes.length === 0 ? undefined : sql.join(walk.ctes, ', '),
    columns: sql.join(
      [sheetCheck(scope, taskSheet, sheetColumns), linkCheck(plan, scope, keys), ...walk.columns],
      ', ',
    ),
  };
}

function sheetCheck(scope: Scope, taskSheet: number, columns: ReadonlySet<string>): Sql {
  const conditions: Sql[] = [sql`t.SEQ_DB = ${taskSheet}`];
  for (const [column, value] of Object.entries(scope)) {
    // The scope's keys are our own fixed column names.
    if (columns.has(column)) conditions.push(sql`${sql.raw(`t.${column}`)} = ${value}`);
  }
  if (columns.has('DELETED')) conditions.push(sql`IFNULL(t.DELETED, 0) = 0`);
  if (columns.has('ATIVO')) conditions.push(sql`IFNULL(t.ATIVO, 1) = 1`);
  return sql`(SELECT 1 FROM ${TASK_SHEET} t WHERE ${sql.join(conditions, ' AND ')} LIMIT 1) AS sheet_ok`;
}

/** The most constants one IN list carries; longer lists are cut into lists of this many (see isIn). */
export const IN_LIST_CHUNK = 512;

/**
 * `column IN (?, ?, ...)` for `ids`, the list padded to the next power of two by repeating the last (an
 * IN list is a set): a statement's text then takes one of a few forms whatever the batch's size, and
 * stays prepared. More than {@link IN_LIST_CHUNK} ids are cut into lists of that many, joined with OR:
 * MariaDB turns an IN list of 1000 values or more into a subquery, and may then read every link of
 * the scope through its primary key (measured on the links of 1000 activities among 101,000, asked
 * alone: 57 ms that way against 15 ms as two lists, which stay ranges of the index). Inside the
 * save's locking read it happened to choose the index either way; the lists keep it from having the
 * choice.
 *
 * Lookups by a non-unique index (a link by its activity) take their ids as such a list rather than
 * from a joined JSON table: for a list of constants the optimizer counts the matching rows in the
 * index itself, where for a join it trusts the table's statistics, which right after a bulk load can
 * say the table is empty and turn each lookup into a scan of the table (measured: 10,100 rows read
 * for a one-entry save, a million for a batch of 100).

 */
export function isIn(column: Sql, ids: readonly (number | string)[]): Sql {
  return inLists(ids, (list) => sql`${column} IN (${sql.list(list)})`);
}

/** `items` as IN lists of at most {@link IN_LIST_CHUNK}, each padded to a power of two with its last item, joined with OR. */
function inLists<Item>(items: readonly Item[], list: (chunk: readonly Item[]) => Sql): Sql {
  const lists: Sql[] = [];
  for (let start = 0; start < items.length; start += IN_LIST_CHUNK) {
    const chunk = items.slice(start, start + IN_LIST_CHUNK);
    let size = 1;
    while (size < chunk.length) size *= 2;
    const last = chunk.at(-1) as Item;
    lists.push(list([...chunk, ...Array.from({ length: size - chunk.length }, () => last)]));
  }
  return lists.length === 1 ? (lists[0] as Sql) : sql`(${sql.join(lists, ' OR ')})`;
}

/**
 * The batch's `keys` that are live links, as (activity, parent node) pairs: a live link of the task
 * level from the key's node to its activity, live; on a one-level tree, (activity, NULL) for each
 * live activity. The links are found by their activity (STRAIGHT_JOIN: left to itself the optimizer
 * may look them up by the parent node, whose links may be thousands), then kept only when they are
 * one of the keys: an activity's other links (120 each, in a 1000-entry batch, were 120,000 pairs,
 * past what one aggregate holds) are no answer to the check. On the first key's row only.
 */
function linkCheck(plan: TreePlan, scope: Scope, keys: readonly BatchKey[]): Sql {
  const task = plan.levels.at(-1);
  const association = plan.levels.at(-2)?.association;
  if (task === undefined) return sql`NULL AS linked`;
  const taskTable = sql.identifier(task.table);
  const activities = [...new Set(keys.map((key) => key.activity))];
  if (association === undefined)
    return sql`CASE WHEN k.n = 1 THEN (SELECT JSON_ARRAYAGG(JSON_ARRAY(t.SEQ_DB, NULL)) FROM ${taskTable} t WHERE ${liveInScope('t', scope)} AND ${isIn(sql.raw('t.SEQ_DB'), activities)}) END AS linked`;
  const child = sql.identifier(association.childColumn);
  const parent = sql.identifier(association.parentColumn);
  // The pairs as text (`activity:node`), an IN list of constants: MariaDB searches such a list as
  // a sorted array, where a list of (activity, node) row constructors was compared row by row (a
  // 1000-entry save took 270 ms instead of 75). A key without a node matches no link.
  const pairs = keys.flatMap((key) => (key.group === null ? [] : [`${key.activity}:${key.group}`]));
  const ofKeys = pairs.length === 0 ? sql`FALSE` : isIn(sql`CONCAT(a.${child}, ':', a.${parent})`, pairs);
  return sql`CASE WHEN k.n = 1 THEN (SELECT STRAIGHT_JOIN JSON_ARRAYAGG(JSON_ARRAY(a.${child}, a.${parent})) FROM ${sql.identifier(association.table)} a JOIN ${taskTable} t ON t.SEQ_DB = a.${child} WHERE ${liveInScope('a', scope)} AND ${liveInScope('t', scope)} AND ${isIn(sql`a.${child}`, activities)} AND ${ofKeys}) END AS linked`;
}

/**
 * The walk upwards from the batch's nodes: `s<i>` the ids of level i reached from below, `l<i>` the live
 * links from them to live rows of the level above, and at the first level either the parent chains
 * of the default tree's nested groups (`chain`, as far as {@link CHAIN_STEPS} steps) or its live rows.
 * Each CTE starts from the ids of the one below, so the walk reads the batch's nodes and their
 * ancestors, never the scope.
 */
function walkParts(plan: TreePlan, scope: Scope, groups: readonly number[]): { ctes: Sql[]; columns: Sql[] } {
  const start = plan.levels.length - 2;
  const ctes: Sql[] = [];
  const columns: Sql[] = [];
  if (start < 0 || groups.length === 0) return { ctes, columns };
  // `column` among the ids asked for at a level: the batch's own nodes as constants (see isIn), the
  // levels above from the links read below them.
  const amongIds = (column: Sql, index: number) =>
    index === start ? isIn(column, groups) : sql`${column} IN (SELECT id FROM ${sql.raw(`s${index}`)})`;
  for (let index = start; index >= 1; index--) {
    const level = plan.levels[index];
    const above = plan.levels[index - 1];
    const association = above?.association;
    // Nothing above to be shown through: no node of this level is shown.
    if (level === undefined || above === undefined || association === undefined) return { ctes, columns };
    const child = sql.identifier(association.childColumn);
    const parent = sql.identifier(association.parentColumn);
    const links = sql.raw(`l${index}`);
    ctes.push(
      sql`${links} (c, p) AS (SELECT STRAIGHT_JOIN a.${child}, a.${parent} FROM ${sql.identifier(association.table)} a JOIN ${sql.identifier(level.table)} c ON c.SEQ_DB = a.${child} JOIN ${sql.identifier(above.table)} p ON p.SEQ_DB = a.${parent} WHERE ${liveInScope('a', scope)} AND ${liveInScope('c', scope)} AND ${liveInScope('p', scope)} AND ${amongIds(sql`a.${child}`, index)})`,
      sql`${sql.raw(`s${index - 1}`)} (id) AS (SELECT DISTINCT p FROM ${links})`,
    );
    columns.push(
      sql`CASE WHEN k.n = 1 THEN (SELECT JSON_ARRAYAGG(JSON_ARRAY(c, p)) FROM ${links}) END AS ${sql.raw(`w${index}`)}`,
    );
  }
  const first = plan.levels[0];
  if (first === undefined) return { ctes, columns };
  if (first.nestedBy === undefined) {
    columns.push(
      sql`CASE WHEN k.n = 1 THEN (SELECT JSON_ARRAYAGG(g.SEQ_DB) FROM ${sql.identifier(first.table)} g WHERE ${liveInScope('g', scope)} AND ${amongIds(sql.raw('g.SEQ_DB'), 0)}) END AS w0`,
    );
    return { ctes, columns };
  }
  ctes.push(chainCte(first.table, first.nestedBy, scope, amongIds(sql.raw('g.SEQ_DB'), 0)));
  columns.push(
    sql`CASE WHEN k.n = 1 THEN (SELECT JSON_ARRAYAGG(JSON_ARRAY(id, parent, step)) FROM (SELECT id, parent, MAX(step) AS step FROM chain GROUP BY id, parent) d) END AS w0`,
  );
  return { ctes, columns };
}

/**
 * `chain (id, parent, step)`: the live groups of `table` on the parent chains of the groups `start`
 * picks (a condition on `g`, such as `g.SEQ_DB IN (...)`), each with its parent through
 * `parentColumn`, as far as {@link CHAIN_STEPS} steps. The recursive step follows the SEQ_DB key
 * from each parent, the chain's rows driving the join.
 */
export function chainCte(table: Identifier, parentColumn: Identifier, scope: Scope, start: Sql): Sql {
  const groups = sql.identifier(table);
  const parent = sql.identifier(parentColumn);
  const live = liveInScope('g', scope);
  return sql`chain (id, parent, step) AS (SELECT g.SEQ_DB, g.${parent}, 1 FROM ${groups} g WHERE ${live} AND ${start} UNION SELECT STRAIGHT_JOIN g.SEQ_DB, g.${parent}, c.step + 1 FROM chain c JOIN ${groups} g ON g.SEQ_DB = c.parent WHERE c.step < ${sql.raw(String(CHAIN_STEPS))} AND ${live})`;
}
