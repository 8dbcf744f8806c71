import { z } from 'zod';
import { Scope } from '../../model/scope.js';
import { SeqDb } from '../../model/seq-db.js';
import { GivenPlan, type TreePlan } from '../../model/tree-plan.js';
import type { SqlExecutor } from '../../store/driver.js';
import { loadTaskTree, type TaskNode, type TreeNode } from '../load-task-tree.js';
import { withPlan } from '../plan-memo.js';
import type { LastChange } from '../saved-row.js';
import { byLabel, labelColumnsOf, nodeLabel, sortKey } from './labels.js';
import { type ScreenMetric, screenSource } from './nodes.js';
import type { PathStep } from './search.js';

/*
 * The whole task sheet as a table (#29): every activity of the tree with its path and values, a page
 * at a time, and how many of them have values, per node and for the sheet. Both read the tree as
 * `loadTaskTree` builds it (the same rules for what is shown: scope, DELETED, ATIVO, cycles), then
 * decide here, over plain nodes, what the page or the counts are.
 */

/** Most rows one page answers: a table view of 5,000 activities takes five requests. */
export const MAX_SHEET_PAGE_SIZE = 1000;
/** The rows of a page when the caller names no size. */
export const DEFAULT_SHEET_PAGE_SIZE = 500;
/**
 * Most pages a caller may ask for (the HTTP query's four digits, and the library's the same): past
 * the last page the answer is simply empty.
 */
export const MAX_SHEET_PAGE = 9_999;

/** Which activities a page lists: every one, or those still without values. */
export const SheetFilter = z.enum(['all', 'empty'], { error: 'filter is "all" or "empty"' });
export type SheetFilter = z.infer<typeof SheetFilter>;

/** What `readSheetPage` is given, checked with this model before any SQL. */
export const ReadSheetPageOptions = z.strictObject({
  scope: Scope,
  taskSheet: SeqDb,
  /** The page, from 1 (default 1). */
  page: z.int().min(1).max(MAX_SHEET_PAGE).optional(),
  /** Rows per page, 1 to {@link MAX_SHEET_PAGE_SIZE} (default {@link DEFAULT_SHEET_PAGE_SIZE}). */
  size: z.int().min(1).max(MAX_SHEET_PAGE_SIZE).optional(),
  /** `empty`: only the activities without a value saved on this sheet (default `all`). */
  filter: SheetFilter.optional(),
  /** As in `loadTaskTree`: made by `planTree` or `resolveTreePlan`; read from the parameter rows when absent. */
  plan: GivenPlan.optional(),
});
export type ReadSheetPageOptions = z.input<typeof ReadSheetPageOptions>;

/** What `readSheetProgress` is given. */
export const ReadSheetProgressOptions = ReadSheetPageOptions.pick({
  scope: true,
  taskSheet: true,
  plan: true,
});
export type ReadSheetProgressOptions = z.input<typeof ReadSheetProgressOptions>;

/** One activity of the sheet, as a row of the table view. */
export interface SheetRow {
  readonly activity: number;
  /** The activity's level in the tree: with `path`, where the tree finds it (the outbox opens it there). */
  readonly level: number;
  /** The node it hangs under (the metric row's OPER_GRUPO_SEQ_DB); null on a one-level tree. */
  readonly group: number | null;
  readonly label: string;
  /** The nodes above it, from the root down (sector, group, ...): its first path in the tree's order. */
  readonly path: readonly PathStep[];
  /** The values the table presets, by metric column, with their source (as `part=children` gives them). */
  readonly metrics: Readonly<Record<string, ScreenMetric>>;
  /** False when its saved row is read-only (RO=1) or inactive (ATIVO=0). */
  readonly editable: boolean;
  readonly lastChange: LastChange | null;
  /** True when a value is saved on this sheet for at least one metric (a default is not one). */
  readonly filled: boolean;
}

/** One page of the sheet's activities, with the sheet's counts. */
export interface SheetPage {
  /** Every activity of the sheet (each key, activity under its node, once). */
  readonly activities: number;
  /** How many of them have a value saved on this sheet. */
  readonly filled: number;
  /** The rows the filter keeps, over every page. */
  readonly total: number;
  readonly page: number;
  readonly size: number;
  /** How many pages the filter's rows take (0 when none). */
  readonly pages: number;
  readonly rows: readonly SheetRow[];
}

/** The activities below one node of the tree, and how many of them have values. */
export interface NodeProgress {
  readonly level: number;
  readonly id: number;
  readonly activities: number;
  readonly filled: number;
}

/** "12 of 30": for the sheet, and for every node above the activities. */
export interface SheetProgress {
  readonly activities: number;
  readonly filled: number;
  /** Each node once (one reached through two parents counts its activities once), in the tree's order. */
  readonly nodes: readonly NodeProgress[];
}

/**
 * One page of the task sheet's activities, in the order the tree shows them (by label, branch by
 * branch), each with its path from the root, its values and their sources: what a table view of the
 * sheet needs, one request per page. An activity linked under two nodes is two rows (two keys); one
 * reached twice through the same node (its node under two parents) is one row, with its first path.
 * Reads the whole tree per page (as `loadTaskTree`): about the time of that read, see
 * docs/benchmarks.md.
 *
 * @example
 * const page = await readSheetPage(db, { scope, taskSheet: 42, page: 1, size: 500, filter: 'empty' });
 * // { activities: 30, filled: 12, total: 18, page: 1, size: 500, pages: 1, rows: [{ activity: 3, group: 7, path: [...], metrics: {...}, filled: false, ... }] }
 */
export async function readSheetPage(db: SqlExecutor, given: ReadSheetPageOptions): Promise<SheetPage> {
  return withPlan(db, ReadSheetPageOptions, given, 'readSheetPage', async (options, plan) => {
    const rows = sheetRows(await treeOf(db, options, plan), plan);
    const size = options.size ?? DEFAULT_SHEET_PAGE_SIZE;
    const page = options.page ?? 1;
    const kept = options.filter === 'empty' ? rows.filter((row) => !row.filled) : rows;
    return {
      activities: rows.length,
      filled: rows.reduce((count, row) => count + (row.filled ? 1 : 0), 0),
      total: kept.length,
      page,
      size,
      pages: Math.ceil(kept.length / size),
      rows: kept.slice((page - 1) * size, page * size),
    };
  });
}

/**
 * How many activities of the task sheet have a value saved on it, of how many: for the sheet and for
 * every node above the activities (a group's count covers every activity below it, at any depth).
 * One read of the tree, as `loadTaskTree`.
 *
 * @example
 * const { activities, filled, nodes } = await readSheetProgress(db, { scope, taskSheet: 42 });
 * // 30, 12, [{ level: 1, id: 7, activities: 10, filled: 4 }, ...]
 */
export async function readSheetProgress(
  db: SqlExecutor,
  given: ReadSheetProgressOptions,
): Promise<SheetProgress> {
  return withPlan(db, ReadSheetProgressOptions, given, 'readSheetProgress', async (options, plan) =>
    progressOf(await treeOf(db, options, plan)),
  );
}

async function treeOf(
  db: SqlExecutor,
  options: { scope: Scope; taskSheet: number },
  plan: TreePlan,
): Promise<readonly TreeNode[]> {
  return (await loadTaskTree(db, { scope: options.scope, taskSheet: options.taskSheet, plan })).roots;
}

/** Whether a saved value (not a default, not saved empty) is among an activity's metrics. */
function isFilled(node: TaskNode): boolean {
  for (const field in node.metrics) {
    const metric = node.metrics[field];
    if (metric?.source === 'saved' && metric.value !== null) return true;
  }
  return false;
}

const keyOf = (node: TaskNode) => `${node.seqDb}:${node.group}`;

/** The tree's activities as rows, in the order the screen shows them, each key once. */
export function sheetRows(roots: readonly TreeNode[], plan: TreePlan): SheetRow[] {
  const levels = new Map(plan.levels.map((level) => [level.level, level]));
  const labelOf = (node: TreeNode) => {
    const level = levels.get(node.level);
    return level === undefined ? `#${node.seqDb}` : nodeLabel(node.row, labelColumnsOf(level));
  };
  const sources = plan.metrics.map((metric) => ({
    field: metric.field,
    saved: screenSource(metric, 'saved'),
    default: screenSource(metric, 'default'),
    none: screenSource(metric, 'none'),
  }));
  const seen = new Set<string>();
  const rows: SheetRow[] = [];
  const walk = (nodes: readonly TreeNode[], path: readonly PathStep[]) => {
    const sorted = nodes
      .map((node) => {
        const label = labelOf(node);
        return { node, label, id: node.seqDb, key: sortKey(label) };
      })
      // As the tree lists a branch (readBranch): the groups nested in it first, then the next level.
      .sort((a, b) => a.node.level - b.node.level || byLabel(a, b));
    for (const { node, label } of sorted) {
      if (node.kind === 'branch') {
        walk(node.children, [...path, { level: node.level, id: node.seqDb, label }]);
        continue;
      }
      const key = keyOf(node);
      if (seen.has(key)) continue;
      seen.add(key);
      const metrics: Record<string, ScreenMetric> = {};
      for (const source of sources) {
        const resolved = node.metrics[source.field];
        if (resolved !== undefined)
          metrics[source.field] = { value: resolved.value, source: source[resolved.source] };
      }
      rows.push({
        activity: node.seqDb,
        level: node.level,
        group: node.group,
        label,
        path,
        metrics,
        editable: node.editable,
        lastChange: node.lastChange,
        filled: isFilled(node),
      });
    }
  };
  walk(roots, []);
  return rows;
}

/** The counts of every node above the activities, each node once, and of the sheet. */
export function progressOf(roots: readonly TreeNode[]): SheetProgress {
  // Per node, the keys below it and which of them are filled: a key reached through two paths of
  // one node counts once, as it is one cell of the table.
  const below = new Map<string, { level: number; id: number; keys: Map<string, boolean> }>();
  const visit = (node: TreeNode): Map<string, boolean> => {
    if (node.kind === 'task') return new Map([[keyOf(node), isFilled(node)]]);
    const name = `${node.level}:${node.seqDb}`;
    const known = below.get(name);
    if (known !== undefined) return known.keys;
    const keys = new Map<string, boolean>();
    below.set(name, { level: node.level, id: node.seqDb, keys });
    for (const child of node.children) for (const [key, filled] of visit(child)) keys.set(key, filled);
    return keys;
  };
  const all = new Map<string, boolean>();
  for (const root of roots) for (const [key, filled] of visit(root)) all.set(key, filled);
  const count = (keys: Map<string, boolean>) => {
    let filled = 0;
    for (const value of keys.values()) if (value) filled++;
    return filled;
  };
  return {
    activities: all.size,
    filled: count(all),
    nodes: [...below.values()].map(({ level, id, keys }) => ({
      level,
      id,
      activities: keys.size,
      filled: count(keys),
    })),
  };
}
