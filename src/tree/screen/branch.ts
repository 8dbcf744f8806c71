import { z } from 'zod';
import { type Identifier, parseIdentifier } from '../../model/identifier.js';
import { InvalidRequestError, NotFoundError } from '../../model/request-errors.js';
import { formatScope, Scope } from '../../model/scope.js';
import { SeqDb } from '../../model/seq-db.js';
import { GivenPlan, type TreePlan } from '../../model/tree-plan.js';
import type { SqlExecutor } from '../../store/driver.js';
import {
  type ChildRead,
  type ColumnsOf,
  childReads,
  rootReads,
  savedUnder,
  type TaskLink,
} from '../../store/screen-reads.js';
import { query } from '../../store/sql.js';
import { checkArguments } from '../arguments.js';
import { compileMetricDefaults, type MetricSource, type Row } from '../metric-defaults.js';
import { lastChangeOf, type SavedRow, withSavedRow } from '../saved-row.js';
import { shownNodes } from '../shown-nodes.js';
import { readValueTypes } from '../value-types.js';
import { byLabel, labelColumnsOf, nodeLabel, sortKey } from './labels.js';
import { type ScreenMetric, type ScreenMetricSource, type ScreenNode, screenSource } from './nodes.js';

/** The deepest TREE_VIEW level a request may name (the handler's `level` is one or two digits). */
const MAX_TREE_LEVEL = 99;

/** The node whose children are asked for: its level (1-based, as in TREE_VIEW) and SEQ_DB; null for the roots. */
export const BranchParent = z.strictObject({ level: z.int().min(1).max(MAX_TREE_LEVEL), id: SeqDb });
export type BranchParent = z.input<typeof BranchParent>;

/** A row read from the database (or one on its way): what the library is handed back, unchanged. */
export const GivenRow = z.custom<Row | Promise<Row>>((value) => typeof value === 'object' && value !== null, {
  message: 'expected the task sheet’s row, as loadTaskSheet reads it',
});

/** What `readBranch` is given, checked before any SQL as the handler's requests are. */
export const ReadBranchOptions = z.strictObject({
  scope: Scope,
  plan: GivenPlan,
  parent: BranchParent.nullable(),
  /**
   * The task sheet's row (its columns feed `taskSheet` defaults); read by the caller, once. It may be
   * still on its way, with its SEQ_DB as `taskSheetId`: the branch's queries then do not wait for it.
   */
  taskSheet: GivenRow,
  taskSheetId: SeqDb.optional(),
});
export type ReadBranchOptions = z.input<typeof ReadBranchOptions>;

/**
 * The children of one node (or the roots), with what the screen shows of each. The cost follows the
 * branch, not the tree: one query for the children (through the parent's association, by its
 * parent column; or the nested groups below it), each child's `hasChildren` as an EXISTS in the
 * same query, and, when the children are activities, one query for this task sheet's metric rows
 * under this parent. Scope, DELETED and ATIVO filter every row, as in `loadTaskTree`.
 *
 * @example
 * const plan = await resolveTreePlan(db, scope);
 * const taskSheet = await loadTaskSheet(db, scope, 42);
 * const nodes = await readBranch(db, { scope, plan, parent: { level: 1, id: 7 }, taskSheet });
 * // [{ id: 12, level: 2, label: 'A-SEED — Seeding', hasChildren: false, kind: 'task', group: 7, metrics: {...}, editable: true }]
 */
export async function readBranch(db: SqlExecutor, given: ReadBranchOptions): Promise<ScreenNode[]> {
  const options = checkArguments(db, ReadBranchOptions, given, 'readBranch');
  const { scope, plan, parent } = options;
  const parts = childParts(plan, parent, scope);
  // The parent must be a node the tree shows: children of a deleted node, or of a live one hanging
  // below a deleted one, are not the screen's to list. Walked up from the parent alone, beside the
  // children's reads, so the answer waits for the longer of the two, not for both.
  const parentShown = parent === null ? undefined : isShown(db, scope, plan, parent);
  parentShown?.catch(() => undefined);
  const taskSheetId = options.taskSheetId ?? Number((await options.taskSheet).SEQ_DB);
  const metricsRead = parts.some((part) => part.level.isTask)
    ? readSavedUnder(db, scope, plan.metricTable, taskSheetId, taskLink(plan, parent))
    : undefined;
  const typesRead = metricsRead === undefined ? undefined : readValueTypes(db, plan);
  // Marked handled now, in case the children query fails first; awaiting it below still throws.
  metricsRead?.catch(() => undefined);
  typesRead?.catch(() => undefined);
  const nodes: ScreenNode[] = [];
  for (const part of parts) {
    // Two live links of one group to one activity (nothing in the tables forbids them) are one node:
    // the metric row's key is (activity, group), and the sheet and its progress count it once.
    const rows = onePerRow(await readChildren(db, part));
    const saved = part.level.isTask && metricsRead !== undefined ? await metricsRead : undefined;
    const resolve = part.level.isTask ? compileMetricDefaults(plan.metrics, await typesRead) : undefined;
    // Each metric's name for each source, made once per branch rather than once per activity.
    const screenSources = plan.metrics.map((metric) => ({
      field: metric.field,
      sources: {
        saved: screenSource(metric, 'saved'),
        default: screenSource(metric, 'default'),
        none: screenSource(metric, 'none'),
      } satisfies Record<MetricSource, ScreenMetricSource>,
    }));
    const taskSheet = await options.taskSheet;
    const columns = labelColumnsOf(part.level);
    const group = parent?.id ?? null;
    const sorted = rows
      .map((row) => {
        const label = nodeLabel(row, columns);
        return { row, id: Number(row.SEQ_DB), label, key: sortKey(label) };
      })
      .sort(byLabel);
    for (const { row, id, label } of sorted) {
      // The flag stays on the row: rows are read here, never sent, and deleting a property from a
      // thousand rows costs more than it saves.
      const hasChildren = Number(row.__ta_has_children ?? 0) === 1;
      if (resolve === undefined) {
        nodes.push({ id, level: part.level.level, label, hasChildren, kind: 'branch' });
        continue;
      }
      const savedRow = saved?.get(id);
      const resolved = resolve({ activity: row, taskSheet, saved: savedRow?.row });
      const metrics: Record<string, ScreenMetric> = {};
      for (const { field, sources } of screenSources) {
        const value = resolved[field];
        if (value !== undefined) metrics[field] = { value: value.value, source: sources[value.source] };
      }
      nodes.push({
        id,
        level: part.level.level,
        label,
        hasChildren: false,
        kind: 'task',
        group,
        metrics,
        editable: savedRow?.editable ?? true,
        lastChange: lastChangeOf(savedRow?.row),
      });
    }
  }
  if (parent !== null && !(await parentShown)) {
    throw new NotFoundError(
      'NODE_NOT_FOUND',
      `node ${parent.id} of level ${parent.level} is not in the tree of scope ${formatScope(scope)}: it does not exist, is deleted or inactive, or hangs below a deleted or inactive node (or in a cycle of parents)`,
      { path: 'node' },
    );
  }
  return nodes;
}

/** Whether the tree shows `parent`, by the rules `loadTaskTree` builds it with. */
async function isShown(
  db: SqlExecutor,
  scope: Scope,
  plan: TreePlan,
  parent: BranchParent,
): Promise<boolean> {
  const index = plan.levels.findIndex((level) => level.level === parent.level);
  return (await shownNodes(db, scope, plan.levels, index, [parent.id])).has(parent.id);
}

const KEY_COLUMN = parseIdentifier('SEQ_DB', 'key column');

/**
 * Reads where the screen reads its nodes from: the key, the label columns and, on the task level,
 * the columns `field` defaults copy; the rest of a wide host row is never parsed. A table without one
 * of those columns (a host table with no DESCRICAO, a default naming a column that is not there)
 * answers ER_BAD_FIELD_ERROR: its level is then read whole, as before, so a label is simply shorter
 * and a missing default column is named by the defaults' own check, never a bare database error.
 */
async function readChildren(db: SqlExecutor, read: ChildRead): Promise<Row[]> {
  if (!WIDE.has(read.narrow.sql)) {
    try {
      return await query(db, read.narrow);
    } catch (error) {
      if (!isBadField(error)) throw error;
      if (WIDE.size >= MAX_WIDE) WIDE.clear();
      WIDE.add(read.narrow.sql);
    }
  }
  return query(db, read.wide);
}

/** The rows, each SEQ_DB once (the first of its copies). */
export function onePerRow(rows: readonly Row[]): Row[] {
  const seen = new Set<number>();
  return rows.filter((row) => {
    const id = Number(row.SEQ_DB);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/** Queries whose narrow form failed: remembered so a host table without a label column costs one try, not one per expand. */
const WIDE = new Set<string>();
const MAX_WIDE = 256;

function isBadField(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && 'code' in error && error.code === 'ER_BAD_FIELD_ERROR'
  );
}

/** The columns the screen reads of a level's children: `SEQ_DB`, its labels, what `field` defaults copy; each once. */
function screenColumns(plan: TreePlan): ColumnsOf {
  return (level) => {
    const columns = new Set<Identifier>([KEY_COLUMN, ...labelColumnsOf(level)]);
    if (level.isTask) {
      for (const metric of plan.metrics)
        if (metric.default?.type === 'field') columns.add(metric.default.name);
    }
    return [...columns];
  };
}

/**
 * The reads that list a node's children: the roots of the first level; below a node, the nested
 * groups of its own level (default tree) first, then the next level's rows its association links.
 */
function childParts(plan: TreePlan, parent: BranchParent | null, scope: Scope): ChildRead[] {
  const { levels } = plan;
  if (parent === null) return rootReads(levels, scope, screenColumns(plan));
  const index = levels.findIndex((level) => level.level === parent.level);
  if (index < 0) {
    throw new InvalidRequestError(
      'INVALID_REQUEST',
      `level ${parent.level} is not a level of this tree (levels 1 to ${levels.length})`,
      { path: 'level' },
    );
  }
  return childReads(levels, index, parent.id, scope, screenColumns(plan));
}

/**
 * How the activities under `parent` are linked to it: the parent level's association and the
 * parent's SEQ_DB; null on a one-level tree, whose activities hang from no node.
 */
function taskLink(plan: TreePlan, parent: BranchParent | null): TaskLink | null {
  if (parent === null) return null;
  const level = plan.levels.find((candidate) => candidate.level === parent.level);
  return level?.association === undefined ? null : { association: level.association, parent: parent.id };
}

/**
 * This task sheet's metric rows of the activities under one parent node, by activity. Read through
 * the parent's links (by the association's parent column, then the metric table's key per link), so
 * the cost follows the branch, never the task sheet's other rows. On a one-level tree, the rows
 * without a parent node. Inactive rows are read too: they are shown, read-only, as saving would
 * refuse them. Lowest ID first, as `loadTaskTree` and saving treat a key stored twice.
 */
async function readSavedUnder(
  db: SqlExecutor,
  scope: Scope,
  metricTable: Identifier,
  taskSheet: number,
  link: TaskLink | null,
): Promise<Map<number, SavedRow>> {
  // Prepared, as `loadTaskTree` reads them: the binary protocol gives a FLOAT's every bit.
  const rows = await query(db, savedUnder(scope, metricTable, taskSheet, link), { prepare: true });
  const saved = new Map<number, SavedRow>();
  for (const row of rows) {
    const activity = Number(row.OPER_SEQ_DB);
    saved.set(activity, withSavedRow(saved.get(activity), row));
  }
  return saved;
}
