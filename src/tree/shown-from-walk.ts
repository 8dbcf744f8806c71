import type { TreePlan } from '../model/tree-plan.js';
import { CHAIN_STEPS } from '../store/save-checks.js';
import { shownOf } from './shown.js';

/**
 * Which of the batch's parent nodes the tree shows, from the walk's JSON columns (`w0`, `w1`, ...,
 * read from the first key's row), decided by {@link shownOf}; or `undefined` when a parent chain is
 * longer than the walk went ({@link CHAIN_STEPS} steps), or a column is not whole JSON (the server
 * cut an aggregate at `max_allowed_packet`): the caller walks those with `shownNodes` instead.
 */
export function shownFromWalk(
  plan: TreePlan,
  row: Readonly<Record<string, unknown>>,
): Set<number> | undefined {
  try {
    return shownFromColumns(plan, row);
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}

function shownFromColumns(plan: TreePlan, row: Readonly<Record<string, unknown>>): Set<number> | undefined {
  const start = plan.levels.length - 2;
  const first = plan.levels[0];
  if (start < 0 || first === undefined) return new Set();
  const links = Array.from({ length: start }, (_, index) =>
    (jsonRows(row[`w${index + 1}`]) as [unknown, unknown][]).map(([child, parent]) => ({
      child: Number(child),
      parent: Number(parent),
    })),
  );
  if (first.nestedBy === undefined) {
    return shownOf({ first: { live: (jsonRows(row.w0) as unknown[]).map(Number) }, links });
  }
  const parents = new Map<number, number | null>();
  const deepest: (number | null)[] = [];
  for (const [id, parent, step] of jsonRows(row.w0) as [unknown, unknown, unknown][]) {
    const parentId = parent === null ? null : Number(parent);
    parents.set(Number(id), parentId);
    if (Number(step) >= CHAIN_STEPS) deepest.push(parentId);
  }
  // A parent not read is hidden (deleted, inactive, another scope), unless the walk stopped there.
  if (deepest.some((parent) => parent !== null && !parents.has(parent))) return undefined;
  return shownOf({ first: { parents }, links });
}

/**
 * A JSON column's rows: MySQL sends JSON typed (the driver parses it), MariaDB as text; no rows is
 * NULL.
 */
export function jsonRows(value: unknown): unknown[] {
  if (value === null || value === undefined) return [];
  const parsed = typeof value === 'string' ? JSON.parse(value) : value;
  return Array.isArray(parsed) ? parsed : [];
}
