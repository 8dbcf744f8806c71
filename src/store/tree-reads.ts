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

/** Which of the columns the package filters task sheets by the host's table has (its layout is the host's). */
export interface TaskSheetFilters {
  /** The scope columns it has (a host's table may lack some: a sheet is then in scope by those it has). */
  readonly scope: readonly ('EMPRESA' | 'FILIAL' | 'LOCAL')[];
  readonly deleted: boolean;
  readonly ativo: boolean;
}

/**
 * The task sheet of the scope just before sheet `current` (live, the SEQ_DB `id`): by `dateColumn`,
 * the latest earlier date, then on the same date the highest lower SEQ_DB; sheets without a date
 * count as earlier than any dated one (where DESC puts NULL, on MariaDB and MySQL alike). Without a
 * date column, or for a sheet without a date, SEQ_DB order among sheets without one. `current.date`
 * is bound as read, so the comparison is the column's own.
 */
export function previousTaskSheet(
  scope: Scope,
  filters: TaskSheetFilters,
  dateColumn: Identifier | undefined,
  current: { readonly id: number; readonly date: unknown },
): Sql {
  const conditions: Sql[] = [];
  for (const column of filters.scope) conditions.push(sql`t.${sql.raw(column)} = ${scope[column]}`);
  if (filters.deleted) conditions.push(sql`IFNULL(t.DELETED, 0) = 0`);
  if (filters.ativo) conditions.push(sql`IFNULL(t.ATIVO, 1) = 1`);
  const sheet = sql.identifier(TASK_SHEET_TABLE);
  if (dateColumn === undefined) {
    conditions.push(sql`t.SEQ_DB < ${current.id}`);
    return sql`SELECT t.* FROM ${sheet} t WHERE ${sql.join(conditions, ' AND ')} ORDER BY t.SEQ_DB DESC LIMIT 1`;
  }
  const date = sql.identifier(dateColumn);
  conditions.push(
    current.date === null || current.date === undefined
      ? sql`t.${date} IS NULL AND t.SEQ_DB < ${current.id}`
      : sql`(t.${date} < ${current.date} OR (t.${date} = ${current.date} AND t.SEQ_DB < ${current.id}) OR t.${date} IS NULL)`,
  );
  return sql`SELECT t.* FROM ${sheet} t WHERE ${sql.join(conditions, ' AND ')} ORDER BY t.${date} DESC, t.SEQ_DB DESC LIMIT 1`;
}
