import type { Identifier } from '../model/identifier.js';
import type { Scope } from '../model/scope.js';
import type { PlannedLevel } from '../model/tree-plan.js';
import type { SqlExecutor } from '../store/driver.js';
import { chunks, query } from '../store/sql.js';
import { groupAncestors, liveIds, liveLinks } from '../store/tree-reads.js';
import { shownOf } from './shown.js';

/**
 * Which of `ids`, rows of `levels[index]`, the tree shows, decided by {@link shownOf}. Walks
 * upwards from `ids` only, one query per level (per 999 ids; nested groups: one recursive query
 * along their parent chains), so a save checks its few nodes, whatever the size of the scope.
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
  const first = levels[0];
  if (first === undefined || levels[index] === undefined || ids.length === 0) return new Set();
  // Upwards from `ids`: the links that tie them to the level above, then those of their parents.
  const links: { child: number; parent: number }[][] = [];
  let asked = [...new Set(ids)];
  for (let at = index; at > 0; at--) {
    const level = levels[at];
    const above = levels[at - 1];
    const association = above?.association;
    if (level === undefined || above === undefined || association === undefined) return new Set();
    const read: { child: number; parent: number }[] = [];
    // The links drive the join, found by their child: never every parent of the scope and its links.
    for (const chunk of chunks(asked, 999)) {
      const rows = await query<{ c: unknown; p: unknown }>(
        db,
        liveLinks(scope, level, above, association, chunk),
      );
      for (const row of rows) read.push({ child: Number(row.c), parent: Number(row.p) });
    }
    links.unshift(read);
    asked = [...new Set(read.map((link) => link.parent))];
  }
  const shown = shownOf({
    first:
      first.nestedBy === undefined
        ? { live: await liveOf(db, scope, first.table, asked) }
        : { parents: await ancestors(db, scope, first.table, first.nestedBy, asked) },
    links,
  });
  return new Set(ids.filter((id) => shown.has(id)));
}

/** The live rows of `ids` in a first level without nesting. */
async function liveOf(
  db: SqlExecutor,
  scope: Scope,
  table: Identifier,
  ids: readonly number[],
): Promise<number[]> {
  const live: number[] = [];
  for (const chunk of chunks(ids, 999)) {
    for (const row of await query<{ id: unknown }>(db, liveIds(scope, table, chunk)))
      live.push(Number(row.id));
  }
  return live;
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
