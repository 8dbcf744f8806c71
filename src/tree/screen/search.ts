import { z } from 'zod';
import { Scope } from '../../model/scope.js';
import { containsPattern, SearchText, searchWords } from '../../model/search-text.js';
import { GivenPlan, type PlannedLevel } from '../../model/tree-plan.js';
import { readColumnTypes } from '../../store/column-types.js';
import type { SqlExecutor } from '../../store/driver.js';
import { labelMatches, liveParents, liveRow, parentGroupOf, tableProbe } from '../../store/screen-reads.js';
import { query } from '../../store/sql.js';
import { checkArguments } from '../arguments.js';
import type { Row } from '../metric-defaults.js';
import { shownNodes } from '../shown-nodes.js';
import { onePerRow } from './branch.js';
import { byLabel, labelColumnsOf, nodeLabel, sortKey } from './labels.js';

/** One node on a match's path, from the root down to the match itself (the last step). */
export interface PathStep {
  readonly level: number;
  readonly id: number;
  readonly label: string;
}

export interface SearchMatch {
  /** The matching node's path from a root; a node reached through several parents is listed once per path. */
  readonly path: readonly PathStep[];
}

export interface SearchResult {
  readonly matches: readonly SearchMatch[];
  /** True when more nodes matched than were returned: the person should type more. */
  readonly more: boolean;
}

/** The most matches one search may ask for. */
export const MAX_SEARCH_LIMIT = 100;

/** What `searchTree` is given, checked before any SQL as the handler's requests are. */
export const SearchTreeOptions = z.strictObject({
  scope: Scope,
  plan: GivenPlan,
  /**
   * What the person typed: 1 to 100 characters, at most 8 words. Each word must be found in one of
   * a node's label columns, in any order, case and accents ignored (see {@link searchWords}).
   */
  text: SearchText,
  /** Most matches returned, 1 to {@link MAX_SEARCH_LIMIT} (default 30). */
  limit: z.int().min(1).max(MAX_SEARCH_LIMIT).optional(),
});
export type SearchTreeOptions = z.input<typeof SearchTreeOptions>;

/** Deepest parent chain followed upwards; a longer chain of nested groups is not shown as a path. */
const MAX_DEPTH = 64;

/**
 * Finds nodes of every level whose label columns contain every word of `text` (each word in any of
 * them, in any order, case and accents ignored: "rocada a01" finds `A01 — Roçada ...`), each with its path from a root,
 * so the screen can open the tree down to it. Per level, one query for its label columns and one
 * for its matches (LIMIT: never more rows than asked for); then, per match, one query per step up
 * its parent chain (a few steps on ordinary trees; the matches walked side by side). Only paths the
 * tree shows are returned: every node on them live and in scope, the top one a root; matches without
 * one do not count against `limit` (see MAX_CANDIDATES).
 *
 * @example
 * const plan = await resolveTreePlan(db, scope);
 * const { matches, more } = await searchTree(db, { scope, plan, text: 'seed' });
 * // matches: [{ path: [{ level: 1, id: 3, label: 'G-PLANT — Planting' }, { level: 2, id: 9, label: 'A-SEED — Seeding' }] }]
 */
export async function searchTree(db: SqlExecutor, given: SearchTreeOptions): Promise<SearchResult> {
  const { scope, plan, text, limit = 30 } = checkArguments(db, SearchTreeOptions, given, 'searchTree');
  const patterns = searchWords(text).map(containsPattern);
  // Punctuation alone (a pasted " — ", a lone "%") is no word: nothing to look for.
  if (patterns.length === 0) return { matches: [], more: false };
  /** The matching nodes the tree shows (each with every path to it), in the order found. */
  const shown: PathStep[][][] = [];
  let more = false;
  for (const [index, level] of plan.levels.entries()) {
    if (shown.length > limit) break;
    const types = await readColumnTypes(db, level.table);
    // No columns: the table is missing. Asked of the server, its refusal is the error the caller
    // explains (which table, named where), where skipping the level would answer "no match".
    if (types.size === 0) await query(db, tableProbe(level.table));
    // The server matches column names regardless of case, so a TREE_VIEW may write `nome` for the
    // table's `NOME`: a label column counts when the table has it in any case.
    const present = new Set([...types.keys()].map((name) => name.toLowerCase()));
    const columns = labelColumnsOf(level).filter((column) => present.has(column.toLowerCase()));
    if (columns.length === 0) continue;
    const candidates = (count: number) =>
      query(db, labelMatches(scope, level.table, columns, patterns, count));
    const pathsOf = (row: Row) =>
      pathsUp(db, scope, plan.levels, index, {
        level: level.level,
        id: Number(row.SEQ_DB),
        label: nodeLabel(row, labelColumnsOf(level)),
      });
    // Live rows that match may hang below a hidden node, and show no path: they must not take the
    // places of shown ones. Which are shown is asked of all of a batch at once (shownNodes: a query
    // per level, or one walk up the nested groups), and paths are walked for shown ones alone, at
    // most `needed`. Asked for again, four times as many, until enough are shown, the level has no
    // more, or MAX_CANDIDATES rows were read (then the person is asked to type more).
    const needed = limit + 1 - shown.length;
    for (let count = needed; ; count = Math.min(count * 4, MAX_CANDIDATES)) {
      const rows = await candidates(count);
      const visible = await shownNodes(db, scope, plan.levels, index, [
        ...new Set(rows.map((row) => Number(row.SEQ_DB))),
      ]);
      const keep = rows.filter((row) => visible.has(Number(row.SEQ_DB))).slice(0, needed);
      const exhausted = rows.length < count;
      if (keep.length >= needed || exhausted || count >= MAX_CANDIDATES) {
        const paths = await Promise.all(keep.map(pathsOf));
        shown.push(...paths.filter((nodePaths) => nodePaths.length > 0));
        if (!exhausted && keep.length < needed) more = true;
        break;
      }
    }
  }
  more ||= shown.length > limit;
  const matches: SearchMatch[] = shown
    .slice(0, limit)
    .flat()
    .map((path) => ({ path }));
  const keyed = matches.map((match) => ({
    match,
    id: lastStep(match).id,
    key: sortKey(lastStep(match).label),
  }));
  keyed.sort(byLabel);
  matches.splice(0, matches.length, ...keyed.map((entry) => entry.match));
  return { matches: matches.slice(0, limit), more: more || matches.length > limit };
}

/** The most matching rows one level reads to find shown ones among hidden (a few hundred at most). */
const MAX_CANDIDATES = 496;

function lastStep(match: SearchMatch): PathStep {
  return match.path.at(-1) ?? { level: 0, label: '', id: 0 };
}

/**
 * Every path from a root down to `node` (a row of `levels[index]`), walking up one parent query per
 * step. Stops at {@link MAX_DEPTH} and never walks a group twice on one path (a cycle is no path).
 */
async function pathsUp(
  db: SqlExecutor,
  scope: Scope,
  levels: readonly PlannedLevel[],
  index: number,
  node: PathStep,
): Promise<PathStep[][]> {
  const done: PathStep[][] = [];
  let open: Array<{ index: number; path: PathStep[] }> = [{ index, path: [node] }];
  for (let depth = 0; depth < MAX_DEPTH && open.length > 0; depth++) {
    const next: typeof open = [];
    for (const partial of open) {
      const top = partial.path[0] as PathStep;
      const parents = await parentsOf(db, scope, levels, partial.index, top.id);
      if (parents === 'root') {
        done.push(partial.path);
        continue;
      }
      for (const parent of parents) {
        if (partial.path.some((step) => step.level === parent.step.level && step.id === parent.step.id))
          continue;
        next.push({ index: parent.index, path: [parent.step, ...partial.path] });
      }
    }
    open = next;
  }
  return done;
}

/**
 * The live parents of row `id` of `levels[index]`, or 'root' when it is a root: a first-level row
 * (in the default tree, one without a parent group). Nested groups go up within their level,
 * deeper rows through the association of the level above.
 */
async function parentsOf(
  db: SqlExecutor,
  scope: Scope,
  levels: readonly PlannedLevel[],
  index: number,
  id: number,
): Promise<'root' | Array<{ index: number; step: PathStep }>> {
  const level = levels[index] as PlannedLevel;
  if (index === 0 && level.nestedBy === undefined) return 'root';
  if (index === 0 && level.nestedBy !== undefined) {
    const [child] = await query(db, parentGroupOf(level.table, level.nestedBy, id));
    if (child === undefined || child.p === null) return 'root';
    const rows = await query(db, liveRow(scope, level.table, child.p));
    return rows.map((row) => ({ index, step: stepOf(level, row) }));
  }
  const above = levels[index - 1] as PlannedLevel;
  const association = above.association;
  if (association === undefined) return [];
  const rows = onePerRow(await query(db, liveParents(scope, above, association, id)));
  return rows.map((row) => ({ index: index - 1, step: stepOf(above, row) }));
}

function stepOf(level: PlannedLevel, row: Row): PathStep {
  return { level: level.level, id: Number(row.SEQ_DB), label: nodeLabel(row, labelColumnsOf(level)) };
}
