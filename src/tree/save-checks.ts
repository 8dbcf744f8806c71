import { parseIdentifier, quoteIdentifier } from '../model/identifier.js';
import type { Scope } from '../model/scope.js';
import { HOST_TABLES } from '../model/table-names.js';
import type { CheckParts } from '../store/metric-writes.js';
import { liveInScope, scopeParams } from '../store/scope-filter.js';
import { fragment, joinSql, type SqlPart, type Statement } from '../store/statement.js';
import { CHAIN_STEPS, chainCte, reachesRoot } from './shown-nodes.js';
import type { TreePlan } from './tree-plan.js';

const TASK_SHEET = quoteIdentifier(parseIdentifier(HOST_TABLES.FOLHA_TAREFA, 'task sheet table'));

/**
 * The check parts for a batch on `plan`. `sheetColumns` are the columns of the host's task sheet
 * table: its scope and flags are checked by whichever of them it has (the host's table is not ours to
 * assume). `activities` and `groups` are the batch's activities and parent nodes, each once.
 */
export function checkParts(
  plan: TreePlan,
  scope: Scope,
  taskSheet: number,
  sheetColumns: ReadonlySet<string>,
  activities: readonly number[],
  groups: readonly number[],
): CheckParts {
  const columns: SqlPart[] = [sheetCheck(scope, taskSheet, sheetColumns), linkCheck(plan, scope, activities)];
  const walk = walkParts(plan, scope, groups);
  columns.push(...walk.columns);
  return {
    with: walk.ctes.length === 0 ? undefined : joinSql(walk.ctes, ', '),
    columns: joinSql(columns, ', '),
  };
}

function sheetCheck(scope: Scope, taskSheet: number, columns: ReadonlySet<string>): Statement {
  const conditions: SqlPart[] = [fragment('t.SEQ_DB = ?', taskSheet)];
  for (const [column, value] of Object.entries(scope)) {
    if (columns.has(column)) conditions.push(fragment(`t.${column} = ?`, value));
  }
  if (columns.has('DELETED')) conditions.push('IFNULL(t.DELETED, 0) = 0');
  if (columns.has('ATIVO')) conditions.push('IFNULL(t.ATIVO, 1) = 1');
  return joinSql([
    `(SELECT 1 FROM ${TASK_SHEET} t WHERE `,
    joinSql(conditions, ' AND '),
    ' LIMIT 1) AS sheet_ok',
  ]);
}

function live(alias: string, scope: Scope): Statement {
  return fragment(liveInScope(alias), ...scopeParams(scope));
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
export function isIn(column: string, ids: readonly number[]): Statement {
  const lists: Statement[] = [];
  for (let start = 0; start < ids.length; start += IN_LIST_CHUNK) {
    const chunk = ids.slice(start, start + IN_LIST_CHUNK);
    let size = 1;
    while (size < chunk.length) size *= 2;
    const last = chunk.at(-1);
    const padded = [...chunk, ...Array.from({ length: size - chunk.length }, () => last)];
    lists.push({ sql: `${column} IN (${padded.map(() => '?').join(', ')})`, params: padded });
  }
  return lists.length === 1 ? (lists[0] as Statement) : joinSql(['(', joinSql(lists, ' OR '), ')']);
}

/**
 * The links of the batch's `activities`, as (activity, parent node) pairs: those of a live link of
 * the task level to the activity, live; on a one-level tree, (activity, NULL) for each live
 * activity. The links are found by their activity (STRAIGHT_JOIN: left to itself the optimizer may
 * look them up by the parent node, whose links may be thousands). On the first key's row only.
 */
function linkCheck(plan: TreePlan, scope: Scope, activities: readonly number[]): Statement {
  const task = plan.levels.at(-1);
  const association = plan.levels.at(-2)?.association;
  if (task === undefined) return fragment('NULL AS linked');
  const taskTable = quoteIdentifier(task.table);
  const found =
    association === undefined
      ? joinSql([
          `SELECT JSON_ARRAYAGG(JSON_ARRAY(t.SEQ_DB, NULL)) FROM ${taskTable} t WHERE `,
          live('t', scope),
          ' AND ',
          isIn('t.SEQ_DB', activities),
        ])
      : joinSql([
          `SELECT STRAIGHT_JOIN JSON_ARRAYAGG(JSON_ARRAY(a.${quoteIdentifier(association.childColumn)}, a.${quoteIdentifier(association.parentColumn)})) FROM ${quoteIdentifier(association.table)} a JOIN ${taskTable} t ON t.SEQ_DB = a.${quoteIdentifier(association.childColumn)} WHERE `,
          live('a', scope),
          ' AND ',
          live('t', scope),
          ' AND ',
          isIn(`a.${quoteIdentifier(association.childColumn)}`, activities),
        ]);
  return joinSql(['CASE WHEN k.n = 1 THEN (', found, ') END AS linked']);
}

/**
 * The walk upwards from the batch's nodes: `s<i>` the ids of level i reached from below, `l<i>` the live
 * links from them to live rows of the level above, and at the first level either the parent chains
 * of the default tree's nested groups (`chain`, as far as {@link CHAIN_STEPS} steps) or its live rows.
 * Each CTE starts from the ids of the one below, so the walk reads the batch's nodes and their
 * ancestors, never the scope.
 */
function walkParts(
  plan: TreePlan,
  scope: Scope,
  groups: readonly number[],
): { ctes: Statement[]; columns: Statement[] } {
  const start = plan.levels.length - 2;
  const ctes: Statement[] = [];
  const columns: Statement[] = [];
  if (start < 0 || groups.length === 0) return { ctes, columns };
  const firstRow = (name: string, query: string) =>
    fragment(`CASE WHEN k.n = 1 THEN (${query}) END AS ${name}`);
  // `column` among the ids asked for at a level: the batch's own nodes as constants (see isIn), the
  // levels above from the links read below them.
  const amongIds = (column: string, index: number) =>
    index === start ? isIn(column, groups) : fragment(`${column} IN (SELECT id FROM s${index})`);
  for (let index = start; index >= 1; index--) {
    const level = plan.levels[index];
    const above = plan.levels[index - 1];
    const association = above?.association;
    // Nothing above to be shown through: no node of this level is shown.
    if (level === undefined || above === undefined || association === undefined) return { ctes, columns };
    const child = quoteIdentifier(association.childColumn);
    const parent = quoteIdentifier(association.parentColumn);
    ctes.push(
      joinSql([
        `l${index} (c, p) AS (SELECT STRAIGHT_JOIN a.${child}, a.${parent} FROM ${quoteIdentifier(association.table)} a JOIN ${quoteIdentifier(level.table)} c ON c.SEQ_DB = a.${child} JOIN ${quoteIdentifier(above.table)} p ON p.SEQ_DB = a.${parent} WHERE `,
        joinSql([live('a', scope), live('c', scope), live('p', scope)], ' AND '),
        ' AND ',
        amongIds(`a.${child}`, index),
        ')',
      ]),
      fragment(`s${index - 1} (id) AS (SELECT DISTINCT p FROM l${index})`),
    );
    columns.push(firstRow(`w${index}`, `SELECT JSON_ARRAYAGG(JSON_ARRAY(c, p)) FROM l${index}`));
  }
  const first = plan.levels[0];
  if (first === undefined) return { ctes, columns };
  const table = quoteIdentifier(first.table);
  if (first.nestedBy === undefined) {
    columns.push(
      joinSql([
        `CASE WHEN k.n = 1 THEN (SELECT JSON_ARRAYAGG(g.SEQ_DB) FROM ${table} g WHERE `,
        live('g', scope),
        ' AND ',
        amongIds('g.SEQ_DB', 0),
        ') END AS w0',
      ]),
    );
    return { ctes, columns };
  }
  ctes.push(chainCte(table, quoteIdentifier(first.nestedBy), scope, amongIds('g.SEQ_DB', 0)));
  columns.push(
    firstRow(
      'w0',
      'SELECT JSON_ARRAYAGG(JSON_ARRAY(id, parent, step)) FROM (SELECT id, parent, MAX(step) AS step FROM chain GROUP BY id, parent) d',
    ),
  );
  return { ctes, columns };
}

/**
 * Which of the batch's parent nodes the tree shows, from the walk's JSON columns (`w0`, `w1`, ...,
 * read from the first key's row), by the rules `loadTaskTree` builds the tree with; or `undefined`
 * when a parent chain is longer than the walk went ({@link CHAIN_STEPS} steps): the caller walks
 * those with `shownNodes` instead.
 */
export function shownFromWalk(
  plan: TreePlan,
  row: Readonly<Record<string, unknown>>,
): Set<number> | undefined {
  const start = plan.levels.length - 2;
  const first = plan.levels[0];
  if (start < 0 || first === undefined) return new Set();
  let shown: Set<number>;
  if (first.nestedBy !== undefined) {
    const parents = new Map<number, number | null>();
    const deepest: (number | null)[] = [];
    for (const [id, parent, step] of jsonRows(row.w0) as [unknown, unknown, unknown][]) {
      const parentId = parent === null ? null : Number(parent);
      parents.set(Number(id), parentId);
      if (Number(step) >= CHAIN_STEPS) deepest.push(parentId);
    }
    // A parent not read is hidden (deleted, inactive, another scope), unless the walk stopped there.
    if (deepest.some((parent) => parent !== null && !parents.has(parent))) return undefined;
    shown = new Set([...parents.keys()].filter((id) => reachesRoot(parents, id)));
  } else {
    shown = new Set((jsonRows(row.w0) as unknown[]).map(Number));
  }
  for (let index = 1; index <= start; index++) {
    const next = new Set<number>();
    for (const [child, parent] of jsonRows(row[`w${index}`]) as [unknown, unknown][]) {
      if (shown.has(Number(parent))) next.add(Number(child));
    }
    shown = next;
  }
  return shown;
}

/**
 * A JSON column's rows: MySQL sends JSON typed (the driver parses it), MariaDB as text; no rows is
 * NULL.
 */
export function jsonRows(value: unknown): unknown[] {
  if (value === null || value === undefined) return [];
  const parsed = typeof value === 'string' ? JSON.parse(value) : value;
  return Array.isArray(parsed) ? parsed : [];
}
