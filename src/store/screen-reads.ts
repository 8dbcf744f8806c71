import type { Identifier } from '../model/identifier.js';
import type { Scope } from '../model/scope.js';
import type { PlannedLevel } from '../model/tree-plan.js';
import { liveInScope, type Sql, savedInScope, sql } from './sql.js';
import type { Association } from './tree-reads.js';

/*
 * The association screen's reads of one branch: its children, whether each has children of its own,
 * and this task sheet's saved metric rows under it. The cost follows the branch, not the tree.
 */

/** One read of a node's children, in two forms of one statement. */
export interface ChildRead {
  readonly level: PlannedLevel;
  /** Naming only the columns the screen reads: the rest of a wide host row is never parsed. */
  readonly narrow: Sql;
  /** The same read with `c.*`: for a level whose table lacks one of the named columns. */
  readonly wide: Sql;
}

/** The columns the screen reads of a level's rows (the key, the labels, what `field` defaults copy). */
export type ColumnsOf = (level: PlannedLevel) => readonly Identifier[];

function childRead(level: PlannedLevel, columnsOf: ColumnsOf, read: (columns: Sql) => Sql): ChildRead {
  const columns = sql.join(
    columnsOf(level).map((column) => sql`c.${sql.identifier(column)}`),
    ', ',
  );
  return { level, narrow: read(columns), wide: read(sql`c.*`) };
}

/** The roots: the first level's live rows, without the nested groups of the default tree. */
export function rootReads(levels: readonly PlannedLevel[], scope: Scope, columnsOf: ColumnsOf): ChildRead[] {
  const first = levels[0];
  if (first === undefined) return [];
  const roots =
    first.nestedBy === undefined ? sql.empty : sql` AND c.${sql.identifier(first.nestedBy)} IS NULL`;
  const more = hasChildren(levels, 0, scope);
  return [
    childRead(
      first,
      columnsOf,
      (columns) =>
        sql`SELECT ${columns}${more} FROM ${sql.identifier(first.table)} c WHERE ${liveInScope('c', scope)}${roots}`,
    ),
  ];
}

/**
 * The children of node `parentId` of `levels[index]`: the nested groups of its own level (default
 * tree) first, then the next level's rows its association links.
 */
export function childReads(
  levels: readonly PlannedLevel[],
  index: number,
  parentId: number,
  scope: Scope,
  columnsOf: ColumnsOf,
): ChildRead[] {
  const level = levels[index];
  if (level === undefined) return [];
  const reads: ChildRead[] = [];
  const nestedBy = level.nestedBy;
  if (nestedBy !== undefined) {
    const more = hasChildren(levels, index, scope);
    reads.push(
      childRead(
        level,
        columnsOf,
        (columns) =>
          sql`SELECT ${columns}${more} FROM ${sql.identifier(level.table)} c WHERE ${liveInScope('c', scope)} AND c.${sql.identifier(nestedBy)} = ${parentId}`,
      ),
    );
  }
  const next = levels[index + 1];
  const association = level.association;
  if (next !== undefined && association !== undefined) {
    const more = hasChildren(levels, index + 1, scope);
    reads.push(
      childRead(
        next,
        columnsOf,
        (columns) =>
          sql`SELECT ${columns}${more} FROM ${sql.identifier(association.table)} a JOIN ${sql.identifier(next.table)} c ON c.SEQ_DB = a.${sql.identifier(association.childColumn)} WHERE ${liveInScope('a', scope)} AND ${liveInScope('c', scope)} AND a.${sql.identifier(association.parentColumn)} = ${parentId}`,
      ),
    );
  }
  return reads;
}

/**
 * The select-list column `__ta_has_children` telling whether the row `c` of `levels[index]` has a
 * child the tree would show: a live nested group below it, or a live link to a live row of the next
 * level. Nothing on the task level, whose rows have no children (a constant column costs on every
 * row).
 */
function hasChildren(levels: readonly PlannedLevel[], index: number, scope: Scope): Sql {
  const level = levels[index];
  const next = levels[index + 1];
  if (level === undefined) return sql.empty;
  const checks: Sql[] = [];
  if (level.nestedBy !== undefined) {
    checks.push(
      sql`EXISTS (SELECT 1 FROM ${sql.identifier(level.table)} n WHERE n.${sql.identifier(level.nestedBy)} = c.SEQ_DB AND ${liveInScope('n', scope)})`,
    );
  }
  const association = level.association;
  if (next !== undefined && association !== undefined) {
    checks.push(
      sql`EXISTS (SELECT 1 FROM ${sql.identifier(association.table)} l JOIN ${sql.identifier(next.table)} n ON n.SEQ_DB = l.${sql.identifier(association.childColumn)} WHERE l.${sql.identifier(association.parentColumn)} = c.SEQ_DB AND ${liveInScope('l', scope)} AND ${liveInScope('n', scope)})`,
    );
  }
  return checks.length === 0 ? sql.empty : sql`, (${sql.join(checks, ' OR ')}) AS __ta_has_children`;
}

/** How the activities of a branch hang from its parent: the parent level's association and the parent's SEQ_DB. */
export interface TaskLink {
  readonly association: Association;
  readonly parent: number;
}

/**
 * This task sheet's metric rows of the activities under one parent node, read through the parent's
 * links (by the association's parent column, then the metric table's key per link), so the cost
 * follows the branch; on a one-level tree (`link` null), the rows without a parent node. Inactive
 * rows too; lowest ID first.
 */
export function savedUnder(
  scope: Scope,
  metricTable: Identifier,
  taskSheet: number,
  link: TaskLink | null,
): Sql {
  const saved = sql`${savedInScope('m', scope)} AND m.FOLHA_TAREFA_SEQ_DB = ${taskSheet}`;
  if (link === null)
    return sql`SELECT m.* FROM ${sql.identifier(metricTable)} m WHERE ${saved} AND m.OPER_GRUPO_SEQ_DB IS NULL ORDER BY m.ID`;
  const { association } = link;
  const parent = sql.identifier(association.parentColumn);
  return sql`SELECT m.* FROM ${sql.identifier(association.table)} a JOIN ${sql.identifier(metricTable)} m ON m.OPER_SEQ_DB = a.${sql.identifier(association.childColumn)} AND m.OPER_GRUPO_SEQ_DB = a.${parent} WHERE a.${parent} = ${link.parent} AND ${liveInScope('a', scope)} AND ${saved} ORDER BY m.ID`;
}

/** Nothing of `table`, asked only so a missing table is refused by the server under its own name. */
export function tableProbe(table: Identifier): Sql {
  return sql`SELECT 1 FROM ${sql.identifier(table)} LIMIT 0`;
}

/**
 * At most `limit` live rows of `table` whose label `columns` contain each of `patterns` (LIKE
 * patterns, their wildcards already escaped), each in any of the columns: a condition per word, the
 * words ANDed, so "A01 Roçada" finds the row whose CODIGO holds one and DESCRICAO the other, in
 * either order. Compared as utf8mb4 under one collation named here: a host's latin1 or utf8mb3 label
 * column compared with text it cannot hold (an emoji, a CJK character) is otherwise an error
 * ("Illegal mix of collations"), where the answer is simply no match. utf8mb4_unicode_ci exists on
 * MariaDB and MySQL alike (MySQL 8's default utf8mb4_0900_ai_ci does not exist on MariaDB), and
 * ignores case and accents character by character, in LIKE too: "rocada" finds "Roçada". Every
 * pattern is a bound parameter; the collation and the columns are the only text of ours.
 */
export function labelMatches(
  scope: Scope,
  table: Identifier,
  columns: readonly Identifier[],
  patterns: readonly string[],
  limit: number,
): Sql {
  const word = (pattern: string) =>
    sql`(${sql.join(
      columns.map(
        (column) =>
          sql`CONVERT(c.${sql.identifier(column)} USING utf8mb4) COLLATE utf8mb4_unicode_ci LIKE ${pattern}`,
      ),
      ' OR ',
    )})`;
  const matches = sql.join(patterns.map(word), ' AND ');
  return sql`SELECT c.* FROM ${sql.identifier(table)} c WHERE ${liveInScope('c', scope)} AND ${matches} LIMIT ${sql.raw(String(Math.trunc(limit)))}`;
}

/** The parent group of group `id` (`p`), whatever its state: nested groups of one level. */
export function parentGroupOf(table: Identifier, nestedBy: Identifier, id: number): Sql {
  return sql`SELECT c.${sql.identifier(nestedBy)} AS p FROM ${sql.identifier(table)} c WHERE c.SEQ_DB = ${id}`;
}

/** Row `id` of `table` when it is live in the scope. */
export function liveRow(scope: Scope, table: Identifier, id: unknown): Sql {
  return sql`SELECT p.* FROM ${sql.identifier(table)} p WHERE ${liveInScope('p', scope)} AND p.SEQ_DB = ${id}`;
}

/** The live rows of `above` that row `id` of the level below hangs from, through live links. */
export function liveParents(scope: Scope, above: PlannedLevel, association: Association, id: number): Sql {
  return sql`SELECT p.* FROM ${sql.identifier(association.table)} a JOIN ${sql.identifier(above.table)} p ON p.SEQ_DB = a.${sql.identifier(association.parentColumn)} WHERE ${liveInScope('a', scope)} AND ${liveInScope('p', scope)} AND a.${sql.identifier(association.childColumn)} IN (${sql.list([id])})`;
}
