/**
 * Which nodes the tree shows, decided one way for every caller over what was read of the levels: the
 * first level's rows (live ids, or, in the default tree's nested groups, each live group with its
 * parent), then each deeper level's live links. A first-level row is shown when it is live (and a
 * nested group when its parent chain reaches a root through live groups without coming back on
 * itself); a deeper row when a live link ties it to a shown row of the level above. The save reads
 * all of it in its locking read (`shown-from-walk.ts`); the screen and a long chain read it level by
 * level (`shown-nodes.ts`).
 */
export interface Walk {
  readonly first:
    | { readonly live: Iterable<number> }
    | { readonly parents: ReadonlyMap<number, number | null> };
  /** `links[i]`: the live links between level i and level i + 1 that were read. */
  readonly links: readonly (readonly { readonly child: number; readonly parent: number }[])[];
}

/** The shown rows of the deepest level the walk reached (the first level when it has no links). */
export function shownOf(walk: Walk): Set<number> {
  const { first } = walk;
  let shown =
    'parents' in first
      ? new Set([...first.parents.keys()].filter((id) => reachesRoot(first.parents, id)))
      : new Set(first.live);
  for (const links of walk.links) {
    const next = new Set<number>();
    for (const { child, parent } of links) if (shown.has(parent)) next.add(child);
    shown = next;
  }
  return shown;
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
