import type { Identifier } from '../model/identifier.js';
import type { Scope } from '../model/scope.js';
import { TASK_SHEET_TABLE } from '../model/table-names.js';
import type { PlannedLevel } from '../model/tree-plan.js';
import { chainCte } from './save-checks.js';
import { liveInScope, type Sql, savedInScope, sql } from './sql.js';

/*
 * The reads of the tree: its levels for `loadTaskTree`, and the upward walks that find which nodes it
 * shows. Each builder returns one statement; the callers decide when to send it and what the rows mean.
 */

/** How one level's rows reach the next level's rows. */
export type Association = NonNullable<PlannedLevel['association']>;

/** The first level's live rows of the scope. */
export function firstLevelRows(scope: Scope, table: Identifier): Sql {
  return sql`SELECT c.* FROM ${sql.identifier(table)} c WHERE ${liveInScope('c', scope)}`;
}

/**
 * A lower level's live rows, each with the parent it hangs from (`__ta_parent`) through a live link:
 * every link of the scope of that level (one join, which needs nothing of the levels above), or only
 * those of `parentIds` (an IN list, when the level above has few rows).
 */
export function levelRows(
  scope: Scope,
  level: PlannedLevel,
  association: Association,
  parentIds?: readonly number[],
): Sql {
  const parent = sql.identifier(association.parentColumn);
  const amongParents =
    parentIds === undefined ? sql.empty : sql` AND a.${parent} IN (${sql.list(parentIds)})`;
  return sql`SELECT c.*, a.${parent} AS __ta_parent FROM ${sql.identifier(association.table)} a JOIN ${sql.identifier(level.table)} c ON c.SEQ_DB = a.${sql.identifier(association.childColumn)} WHERE ${liveInScope('a', scope)} AND ${liveInScope('c', scope)}${amongParents}`;
}

/** The task sheet's saved metric rows (not deleted; inactive ones too). */
export function savedMetricRows(scope: Scope, metricTable: Identifier, taskSheet: number): Sql {
  return sql`SELECT m.* FROM ${sql.identifier(metricTable)} m WHERE ${savedInScope('m', scope)} AND m.FOLHA_TAREFA_SEQ_DB = ${taskSheet}`;
}

/** Which of `ids` are live rows of `table` in the scope (`id`). */
export function liveIds(scope: Scope, table: Identifier, ids: readonly number[]): Sql {
  return sql`SELECT t.SEQ_DB AS id FROM ${sql.identifier(table)} t WHERE ${liveInScope('t', scope)} AND t.SEQ_DB IN (${sql.list(ids)})`;
}

/**
 * The live links from the live rows `ids` of `level` to live rows of `above`, as (child `c`, parent
 * `p`). The links drive the join, found by their child: never every parent of the scope and its links.
 */
export function liveLinks(
  scope: Scope,
  level: PlannedLevel,
  above: PlannedLevel,
  association: Association,
  ids: readonly number[],
): Sql {
  const child = sql.identifier(association.childColumn);
  const parent = sql.identifier(association.parentColumn);
  return sql`SELECT STRAIGHT_JOIN a.${child} AS c, a.${parent} AS p FROM ${sql.identifier(association.table)} a JOIN ${sql.identifier(level.table)} c ON c.SEQ_DB = a.${child} JOIN ${sql.identifier(above.table)} p ON p.SEQ_DB = a.${parent} WHERE ${liveInScope('a', scope)} AND ${liveInScope('c', scope)} AND ${liveInScope('p', scope)} AND a.${child} IN (${sql.list(ids)})`;
}

/**
 * The live groups on the parent chains of `ids`, each with its parent (`id`, `parent`): one recursive
 * query that walks up from `ids` through the SEQ_DB key and reads nothing else of the level.
 */
export function groupAncestors(
  scope: Scope,
  table: Identifier,
  parentColumn: Identifier,
  ids: readonly number[],
): Sql {
  return sql`WITH RECURSIVE ${chainCte(table, parentColumn, scope, sql`g.SEQ_DB IN (${sql.list(ids)})`)} SELECT DISTINCT id, parent FROM chain`;
}

/**
 * The task sheet row by SEQ_DB, whatever its scope and flags: the host's table is not ours to assume
 * columns of, so the caller checks those on the row, for whichever of them it has.
 */
export function taskSheetRow(taskSheet: number): Sql {
  return sql`SELECT t.* FROM ${sql.identifier(TASK_SHEET_TABLE)} t WHERE t.SEQ_DB = ${taskSheet}`;
}

/** The live task sheets of the scope, in SEQ_DB order (the demo's home page lists them). */
export function liveTaskSheets(scope: Scope): Sql {
  return sql`SELECT t.* FROM ${sql.identifier(TASK_SHEET_TABLE)} t WHERE ${liveInScope('t', scope)} ORDER BY t.SEQ_DB`;
}
