import type { SqlExecutor } from '../db/driver.js';
import { quoteIdentifier } from '../identifier.js';
import type { Scope } from '../scope.js';
import { chunks, liveInScope, placeholders, scopeParams } from './sql.js';
import type { PlannedLevel } from './tree-plan.js';

/**
 * Which of `ids`, rows of `levels[index]`, the tree shows, by the rules `loadTaskTree` builds it
 * with: a first-level row when it is live (and, in the default tree's nested groups, when its parent
 * chain reaches a root through live groups without coming back on itself); a deeper row when a live
 * link ties it to a shown row of the level above. Walks upwards from `ids` only, one query per level
 * (per 999 ids), so a save checks its few nodes without loading the whole tree.
 *
 * @example await shownNodes(db, scope, planTree(tableNames(), undefined).levels, 0, [12, 13]) // Set { 12 } when 13 is in a cycle
 */
export async function shownNodes(
  db: SqlExecutor,
  scope: Scope,
  levels: readonly PlannedLevel[],
  index: number,
  ids: readonly number[],
): Promise<Set<number>> {
  const level = levels[index];
  if (level === undefined || ids.length === 0) return new Set();
  const table = quoteIdentifier(level.table);
  if (index === 0 && level.nestedBy !== undefined) {
    // The whole level in one query: a parent chain can be as long as the level.
    const rows = await db.query<{ id: unknown; parent: unknown }>(
      `SELECT g.SEQ_DB AS id, g.${quoteIdentifier(level.nestedBy)} AS parent FROM ${table} g WHERE ${liveInScope('g')}`,
      scopeParams(scope),
    );
    const parents = new Map(
      rows.map((row) => [Number(row.id), row.parent === null ? null : Number(row.parent)]),
    );
    return new Set(ids.filter((id) => reachesRoot(parents, id)));
  }
  const shown = new Set<number>();
  if (index === 0) {
    for (const chunk of chunks(ids, 999)) {
      const rows = await db.query<{ id: unknown }>(
        `SELECT t.SEQ_DB AS id FROM ${table} t WHERE ${liveInScope('t')} AND t.SEQ_DB IN (${placeholders(chunk.length)})`,
        [...scopeParams(scope), ...chunk],
      );
      for (const row of rows) shown.add(Number(row.id));
    }
    return shown;
  }
  const above = levels[index - 1];
  const association = above?.association;
  if (above === undefined || association === undefined) return shown;
  const child = quoteIdentifier(association.childColumn);
  const parent = quoteIdentifier(association.parentColumn);
  const links: { child: number; parent: number }[] = [];
  for (const chunk of chunks(ids, 999)) {
    const rows = await db.query<{ c: unknown; p: unknown }>(
      `SELECT a.${child} AS c, a.${parent} AS p FROM ${quoteIdentifier(association.table)} a
         JOIN ${table} c ON c.SEQ_DB = a.${child}
         JOIN ${quoteIdentifier(above.table)} p ON p.SEQ_DB = a.${parent}
        WHERE ${liveInScope('a')} AND ${liveInScope('c')} AND ${liveInScope('p')} AND a.${child} IN (${placeholders(chunk.length)})`,
      [...scopeParams(scope), ...scopeParams(scope), ...scopeParams(scope), ...chunk],
    );
    for (const row of rows) links.push({ child: Number(row.c), parent: Number(row.p) });
  }
  const shownAbove = await shownNodes(db, scope, levels, index - 1, [...new Set(links.map((l) => l.parent))]);
  for (const link of links) if (shownAbove.has(link.parent)) shown.add(link.child);
  return shown;
}

/** True when the parent chain from `id` ends at a root (no parent) through groups of `parents`. */
function reachesRoot(parents: ReadonlyMap<number, number | null>, id: number): boolean {
  const seen = new Set<number>();
  for (let current: number | null | undefined = id; ; ) {
    if (current === null) return true;
    // Not a live group of the scope (hidden), or back on the chain (a cycle).
    if (current === undefined || seen.has(current)) return false;
    seen.add(current);
    current = parents.get(current);
  }
}
