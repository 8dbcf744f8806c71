import { z } from 'zod';
import type { Identifier } from '../model/identifier.js';
import type { Metric } from '../model/metrics.js';
import { Scope } from '../model/scope.js';
import { SeqDb } from '../model/seq-db.js';
import { GivenPlan, type PlannedLevel, type TreePlan } from '../model/tree-plan.js';
import type { SqlExecutor } from '../store/driver.js';
import { RowFeed } from '../store/row-feed.js';
import { query } from '../store/sql.js';
import { type Association, firstLevelRows, levelRows, savedMetricRows } from '../store/tree-reads.js';
import { checkArguments } from './arguments.js';
import { compileMetricDefaults, type ResolvedMetrics, type Row } from './metric-defaults.js';
import { withGuessedPlan } from './plan-memo.js';
import { type LastChange, lastChangeOf, type SavedRow, withSavedRow } from './saved-row.js';
import { loadTaskSheet } from './task-sheet.js';
import { readValueTypes } from './value-types.js';

/** How a level's rows reach the next level's rows. */

/** A node above the task level: a group, a sector, whatever table the level names. */
export interface BranchNode {
  readonly kind: 'branch';
  /** The TREE_VIEW level (1 for the root; the default tree's nested groups are all level 1). */
  readonly level: number;
  readonly table: string;
  readonly seqDb: number;
  readonly row: Row;
  readonly children: TreeNode[];
}

/** An activity, reached through its parent node, with its metrics on this task sheet. */
export interface TaskNode {
  readonly kind: 'task';
  readonly level: number;
  readonly table: string;
  readonly seqDb: number;
  /** SEQ_DB of the parent node it was reached through (the metric row's OPER_GRUPO_SEQ_DB); null on a one-level tree. */
  readonly group: number | null;
  readonly row: Row;
  /** The saved row's values where the key has one (a NULL too: saved empty), else the defaults. */
  metrics: ResolvedMetrics;
  /**
   * False when the activity's saved row is read-only (RO=1) or inactive (ATIVO=0): its values are
   * shown, and `saveMetrics` refuses to change them (READ_ONLY_ROW, INACTIVE_ROW), as the screen says.
   */
  readonly editable: boolean;
  /** Who last changed the activity's saved row, and when; null when it has none (the defaults show). */
  readonly lastChange: LastChange | null;
}

export type TreeNode = BranchNode | TaskNode;

export interface TaskTree {
  readonly taskSheet: Row;
  /** The metric columns, labels and defaults the screen shows. */
  readonly metrics: readonly Metric[];
  readonly roots: TreeNode[];
  /**
   * Groups of the default tree that are their own ancestor, each cycle as the SEQ_DBs along its parent
   * chain. They (and anything below them) are left out of `roots`: there is no root to hang them from.
   */
  readonly cycles: number[][];
}

/** What `loadTaskTree` is given, checked with this model before any SQL. */
export const LoadTaskTreeOptions = z.strictObject({
  scope: Scope,
  /** The task sheet's SEQ_DB (`associationtask?taskSheet=42`). */
  taskSheet: SeqDb,
  /**
   * The installation's tree plan, made by `planTree` (from names and a TREE_VIEW the caller has) or
   * `resolveTreePlan`; read from the scope's parameter rows when absent.
   */
  plan: GivenPlan.optional(),
  /**
   * Most first-level ids the second level is read with as an IN list (default 999). A second level
   * with more parents, and every deeper level, is read with one join over the scope's links of that
   * level, links of parents outside the tree dropped in memory, so that all of them go out at once
   * (MariaDB turns IN lists of 1000 or more values into a subquery and walks the scope's links once
   * per chunk). At most 60 000: one statement carries at most 65 535 placeholders.
   */
  inListLimit: z.int().min(0).max(60_000).optional(),
});
export type LoadTaskTreeOptions = z.input<typeof LoadTaskTreeOptions>;

/**
 * Loads the task sheet's tree: one query per level, never one per node; every level but the second
 * goes out at once, the second once the first is read. Every level,
 * and every association row, passes the scope, DELETED and ATIVO filters. Each task node carries its saved metrics and its
 * computed defaults. An unknown task sheet, or one of another scope, is a NotFoundError.
 *
 * Round trips: parameters (unless a `plan` is given), the task sheet, one per level,
 * and one for the task sheet's saved metrics (none for the second level, nor for the metrics when it
 * is the task level, when the first level has nothing to hang them from), in at most three waits:
 * parameters; the task sheet with the first level and every level below the second (with the saved
 * metrics when the task level is one of them); the second level (with the saved metrics when it is
 * the task level). The parameter rows are read on every call, but once an
 * executor has read a scope's rows, the next call on it does not wait for them before the task sheet
 * and the first level: it reads the tree with the plan they gave last time and keeps that answer
 * only if they still give it (else reads again with the new plan), so one wait fewer, and a changed
 * parameter row still counts on the very next call. Children come in database order.
 *
 * @example const tree = await loadTaskTree(db, { scope: { EMPRESA: 1, FILIAL: 1, LOCAL: 1 }, taskSheet: 42 });
 */
export async function loadTaskTree(db: SqlExecutor, given: LoadTaskTreeOptions): Promise<TaskTree> {
  const options = checkArguments(db, LoadTaskTreeOptions, given, 'loadTaskTree');
  return withGuessedPlan(db, options.scope, options, (plan) => walkTree(db, options, plan));
}

/** The reads of {@link loadTaskTree} once its options are checked and its plan is known. */
async function walkTree(
  db: SqlExecutor,
  options: z.output<typeof LoadTaskTreeOptions>,
  plan: TreePlan,
): Promise<TaskTree> {
  const { scope, taskSheet } = options;
  const inListLimit = options.inListLimit ?? 999;
  const [first, ...rest] = plan.levels;
  // A checked TREE_VIEW has at least its task level; this only satisfies the type checker.
  if (first === undefined) {
    return {
      taskSheet: await loadTaskSheet(db, scope, taskSheet),
      metrics: plan.metrics,
      roots: [],
      cycles: [],
    };
  }
  // Independent reads go out together: the task sheet with the first level, the saved metrics with
  // the task level. Same round trips, less waiting.
  const readSaved = () => {
    const reading = readSavedMetrics(db, scope, taskSheet, plan.metricTable);
    // Marked handled now, in case a level query fails first and it is never awaited; awaiting it
    // below still throws its error.
    reading.catch(() => undefined);
    return reading;
  };
  // The levels below the first, each with the association that reaches it from the level above; a
  // level without one ends the tree there.
  const below: { level: PlannedLevel; association: Association }[] = [];
  for (let above = first, index = 0; index < rest.length; index++) {
    const level = rest[index] as PlannedLevel;
    if (above.association === undefined) break;
    below.push({ level, association: above.association });
    above = level;
  }
  // A level's rows are made into nodes as they arrive (see RowFeed): the task level is most of the
  // tree, and building it after its last row came would add its whole build time to the wait.
  const readLevel = ({ level, association }: (typeof below)[number], parentIds?: readonly number[]) =>
    new RowFeed(db, levelRows(scope, level, association, parentIds));
  // Every level below the second asks for one join over the scope's links of that level: it needs
  // no answer of the levels above, so it goes out before the first level, deepest first (the task
  // level is the biggest read: it gets a pooled connection first), with the saved metrics when it
  // is the task level. Links of parents outside the tree (hidden, in a cycle) come too and are
  // dropped below, level by level. The second level waits for the first: it is read by an IN list of
  // the first level's ids when they are few (inListLimit), and not at all when the first level
  // shows nothing to hang it from.
  const reads: (RowFeed | undefined)[] = below.map(() => undefined);
  let saved: Promise<Map<number, Map<number, SavedRow>>> | undefined;
  for (let index = below.length - 1; index >= 1; index--) {
    const next = below[index] as (typeof below)[number];
    reads[index] = readLevel(next);
    if (next.level.isTask) saved = readSaved();
  }
  if (first.isTask) saved = readSaved();
  const [sheet, firstRows, types] = await Promise.all([
    loadTaskSheet(db, scope, taskSheet),
    query(db, firstLevelRows(scope, first.table)),
    readValueTypes(db, plan),
  ]);
  const resolve = compileMetricDefaults(plan.metrics, types);
  let roots: TreeNode[];
  let cycles: number[][] = [];
  let frontier: BranchNode[];
  if (first.isTask) {
    const savedRows = await (saved ?? readSaved());
    roots = firstRows.map((row) => {
      const savedRow = savedRows.get(0)?.get(Number(row.SEQ_DB));
      return taskNode(
        first,
        row,
        null,
        resolve({ activity: row, taskSheet: sheet, saved: savedRow?.row }),
        savedRow,
      );
    });
    frontier = [];
  } else if (first.nestedBy !== undefined) {
    ({ roots, cycles, all: frontier } = nestGroups(first, firstRows, first.nestedBy));
  } else {
    frontier = firstRows.map((row) => branchNode(first, row));
    roots = frontier;
  }
  const second = below[0];
  if (second !== undefined && frontier.length > 0) {
    const parentIds = [...new Set(frontier.map((node) => node.seqDb))];
    reads[0] = readLevel(second, parentIds.length <= inListLimit ? parentIds : undefined);
    if (second.level.isTask) saved = readSaved();
  }

  for (const [index, { level }] of below.entries()) {
    const reading = reads[index];
    if (reading === undefined) break;
    // Each parent id once, with its nodes (a node linked under two parents is two nodes) and, on the
    // task level, its saved metric rows by activity: one lookup per row finds both.
    const byParent = new Map<number, Parent>();
    for (const node of frontier) {
      const same = byParent.get(node.seqDb);
      if (same === undefined) byParent.set(node.seqDb, { nodes: [node], saved: undefined, seen: new Set() });
      else same.nodes.push(node);
    }
    const next: BranchNode[] = [];
    if (level.isTask) {
      // The saved rows are needed before the first task node is made; they are a smaller read
      // than the task level and sent with it, so they are usually in already.
      const savedRows = await (saved ?? readSaved());
      for (const [group, parent] of byParent) parent.saved = savedRows.get(group);
    }
    // The association row's parent column rides along, last, under a name no host column uses (and
    // is deleted again: deleting the last-added property keeps V8's fast object layout).
    await reading.consume((row) => {
      const parent = byParent.get(Number(row.__ta_parent));
      delete row.__ta_parent;
      // Links of parents that are not in the tree (hidden, in a cycle) come too: dropped here.
      if (parent === undefined) return;
      // Two live links of one parent to one row (nothing in the tables forbids them) are one node.
      const id = Number(row.SEQ_DB);
      if (parent.seen.has(id)) return;
      parent.seen.add(id);
      const { nodes } = parent;
      if (level.isTask) {
        const savedRow = parent.saved?.get(id);
        for (let at = 0; at < nodes.length; at++) {
          const node = nodes[at] as BranchNode;
          const metrics = resolve({ activity: row, taskSheet: sheet, saved: savedRow?.row });
          node.children.push(taskNode(level, row, node.seqDb, metrics, savedRow));
        }
      } else {
        for (let at = 0; at < nodes.length; at++) {
          const child = branchNode(level, row);
          (nodes[at] as BranchNode).children.push(child);
          next.push(child);
        }
      }
    });
    frontier = next;
  }
  return { taskSheet: sheet, metrics: plan.metrics, roots, cycles };
}

/** The nodes of one parent id on the level above, and its saved metric rows by activity. */
interface Parent {
  readonly nodes: BranchNode[];
  saved: Map<number, SavedRow> | undefined;
  /** The rows hung from it so far, by SEQ_DB. */
  readonly seen: Set<number>;
}

function branchNode(level: PlannedLevel, row: Row): BranchNode {
  return {
    kind: 'branch',
    level: level.level,
    table: level.table,
    seqDb: Number(row.SEQ_DB),
    row,
    children: [],
  };
}

function taskNode(
  level: PlannedLevel,
  row: Row,
  group: number | null,
  metrics: ResolvedMetrics,
  saved: SavedRow | undefined,
): TaskNode {
  return {
    kind: 'task',
    level: level.level,
    table: level.table,
    seqDb: Number(row.SEQ_DB),
    group,
    row,
    metrics,
    editable: saved?.editable ?? true,
    lastChange: lastChangeOf(saved?.row),
  };
}

/**
 * The task sheet's saved metric rows, by group (0 for none) then activity: numeric keys, no string per
 * node. Inactive rows are read too (DELETED rows are history, never read): their values are shown,
 * marked not editable, as the screen shows them, since a save refuses them rather than insert a
 * second row for the key.
 */
async function readSavedMetrics(
  db: SqlExecutor,
  scope: Scope,
  taskSheet: number,
  metricTable: Identifier,
): Promise<Map<number, Map<number, SavedRow>>> {
  // Prepared: the binary protocol gives a FLOAT's every bit, where the text protocol's 6 digits
  // would give another number than the save compares and answers (1000001 read as 1000000).
  const rows = await query(db, savedMetricRows(scope, metricTable, taskSheet), { prepare: true });
  // By group (0 for none), then activity.
  const saved = new Map<number, Map<number, SavedRow>>();
  for (const row of rows) {
    const group = row.OPER_GRUPO_SEQ_DB === null ? 0 : Number(row.OPER_GRUPO_SEQ_DB);
    const activity = Number(row.OPER_SEQ_DB);
    let byActivity = saved.get(group);
    if (byActivity === undefined) {
      byActivity = new Map<number, SavedRow>();
      saved.set(group, byActivity);
    }
    byActivity.set(activity, withSavedRow(byActivity.get(activity), row));
  }
  return saved;
}

/** The metric row's identity within one scope and task sheet: activity and the node it was reached through. */
export function metricKey(activity: unknown, group: unknown): string {
  return `${activity === null || activity === undefined ? '' : Number(activity)}:${group === null || group === undefined ? '' : Number(group)}`;
}

/**
 * Hangs the default tree's groups from their parents in memory (one query loaded them all). A group
 * whose parent is not visible (deleted, inactive, another scope) is hidden with its parent. A group
 * that is its own ancestor is reported in `cycles`, never walked: the walk starts only from roots.
 */
function nestGroups(
  level: PlannedLevel,
  rows: Row[],
  parentColumn: Identifier,
): { roots: BranchNode[]; cycles: number[][]; all: BranchNode[] } {
  const nodes = new Map<number, BranchNode>();
  for (const row of rows) nodes.set(Number(row.SEQ_DB), branchNode(level, row));
  const parentOf = (node: BranchNode): number | null => {
    const parent = node.row[parentColumn];
    return parent === null || parent === undefined ? null : Number(parent);
  };
  const roots: BranchNode[] = [];
  for (const node of nodes.values()) {
    const parentId = parentOf(node);
    if (parentId === null) roots.push(node);
    else nodes.get(parentId)?.children.push(node);
  }
  const all: BranchNode[] = [];
  const placed = new Set<number>();
  const stack = [...roots];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    placed.add(node.seqDb);
    all.push(node);
    for (const child of node.children) stack.push(child as BranchNode);
  }
  return { roots, cycles: findCycles(nodes, placed, parentOf), all };
}

/** Among the groups not reached from a root, the parent chains that come back on themselves. */
function findCycles(
  nodes: Map<number, BranchNode>,
  placed: Set<number>,
  parentOf: (node: BranchNode) => number | null,
): number[][] {
  const cycles: number[][] = [];
  const done = new Set<number>(placed);
  for (const start of nodes.keys()) {
    if (done.has(start)) continue;
    const chain: number[] = [];
    const onChain = new Set<number>();
    let current: number | null = start;
    while (current !== null && !done.has(current) && !onChain.has(current)) {
      chain.push(current);
      onChain.add(current);
      const node = nodes.get(current);
      current = node === undefined ? null : parentOf(node);
    }
    if (current !== null && onChain.has(current)) cycles.push(chain.slice(chain.indexOf(current)));
    for (const id of chain) done.add(id);
  }
  return cycles;
}
