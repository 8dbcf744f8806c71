import type { Identifier } from '../model/identifier.js';
import type { Scope } from '../model/scope.js';
import type { PlannedLevel } from '../model/tree-plan.js';
import type { SqlExecutor } from '../store/driver.js';
import { chunks, query } from '../store/sql.js';
import { groupAncestors, liveIds, liveLinks } from '../store/tree-reads.js';

/**
 * Which of `ids`, rows of `levels[index]`, the tree shows, by the rules `loadTaskTree` builds it
 * with: a first-level row when it is live (and, in the default tree's nested groups, when its parent
 * chain reaches a root through live groups without coming back on itself); a deeper row when a live
 * link ties it to a shown row of the level above. Walks upwards from `ids` only, one query per level
 * (per 999 ids; nested groups: one recursive query along their parent chains), so a save checks its
 * few nodes, whatever the size of the scope.
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
  if (index === 0 && level.nestedBy !== undefined) {
    const parents = await ancestors(db, scope, level.table, level.nestedBy, ids);
    return new Set(ids.filter((id) => reachesRoot(parents, id)));
  }
  const shown = new Set<number>();
  if (index === 0) {
    for (const chunk of chunks(ids, 999)) {
      const read = liveIds(scope, level.table, chunk);
      const rows = await query<{ id: unknown }>(db, read);
      for (const row of rows) shown.add(Number(row.id));
    }
    return shown;
  }
  const above = levels[index - 1];
  const association = above?.association;
  if (above === undefined || association === undefined) return shown;
  const links: { child: number; parent: number }[] = [];
  // The links drive the join, found by their child: never every parent of the scope and its links.
  for (const chunk of chunks(ids, 999)) {
    const read = liveLinks(scope, level, above, association, chunk);
    const rows = await query<{ c: unknown; p: unknown }>(db, read);
    for (const row of rows) links.push({ child: Number(row.c), parent: Number(row.p) });
  }
  const shownAbove = await shownNodes(db, scope, levels, index - 1, [...new Set(links.map((l) => l.parent))]);
  for (const link of links) if (shownAbove.has(link.parent)) shown.add(link.child);
  return shown;
}

/**
 * The live groups on the parent chains of `ids`, each with its parent: one recursive query that walks
 * up from `ids` through the SEQ_DB key and reads nothing else of the level.
 *
 * The walk stops itself at CHAIN_STEPS steps, below the depth both servers allow a recursive
 * query (1000 by default: MySQL refuses a deeper one, MariaDB cuts it short), which also ends a cycle
 * of parents. A longer chain ends at a parent not yet read, and the walk goes on from there, each
 * round reading only what it still lacks.
 */
async function ancestors(
  db: SqlExecutor,
  scope: Scope,
  table: Identifier,
  parentColumn: Identifier,
  ids: readonly number[],
): Promise<Map<number, number | null>> {
  const parents = new Map<number, number | null>();
  const asked = new Set<number>();
  for (let start = [...new Set(ids)]; start.length > 0; ) {
    for (const id of start) asked.add(id);
    for (const chunk of chunks(start, 999)) {
      const rows = await query<{ id: unknown; parent: unknown }>(
        db,
        groupAncestors(scope, table, parentColumn, chunk),
      );
      for (const row of rows) parents.set(Number(row.id), row.parent === null ? null : Number(row.parent));
    }
    // Parents named but neither read nor asked for: a chain the depth cap cut short.
    start = [...new Set(parents.values())].filter(
      (parent): parent is number => parent !== null && !parents.has(parent) && !asked.has(parent),
    );
  }
  return parents;
}

/** True when the parent chain from `id` ends at a root (no parent) through groups of `parents`. */
export function reachesRoot(parents: ReadonlyMap<number, number | null>, id: number): boolean {
  const seen = new Set<number>();
  for (let current: number | null | undefined = id; ; ) {
    if (current === null) return true;
    // Not a live group of the scope (hidden), or back on the chain (a cycle).
    if (current === undefined || seen.has(current)) return false;
    seen.add(current);
    current = parents.get(current);
  }
}
