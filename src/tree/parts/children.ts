import { readBranch } from '../screen/branch.js';
import type { ScreenNode } from '../screen/nodes.js';
import { explainTableErrors } from '../table-diagnosis.js';
import { loadTaskSheet } from '../task-sheet.js';
import type { PartContext } from './context.js';
import { missingParameter } from './missing.js';

export interface ChildrenQuery {
  readonly taskSheet: number;
  /** The TREE_VIEW level (1, 2, ...) and the SEQ_DB of the node whose children are asked for; neither for the roots. */
  readonly level?: number | undefined;
  readonly node?: number | undefined;
}

/**
 * `part=children`: one node's children (or the roots). An expand does not wait for the parameter
 * rows: its queries start at once with the plan this scope had last time, beside the task sheet's
 * and the rows' reads, and their answer counts only if the rows read meanwhile still give that plan
 * (else the branch is read again with the new one). A branch costs one round trip, not two.
 */
export async function childrenPart(
  context: PartContext,
  query: ChildrenQuery,
): Promise<{ nodes: ScreenNode[] }> {
  const { db, plans, scope } = context;
  const { taskSheet, level, node } = query;
  if ((level === undefined) !== (node === undefined)) {
    throw missingParameter(
      level === undefined ? 'level' : 'node',
      'give both &level= and &node= (or neither, for the roots)',
    );
  }
  const parent = level === undefined || node === undefined ? null : { level, id: node };
  // An unknown task sheet is a 404, as for every part.
  const sheetRead = loadTaskSheet(db, scope, taskSheet);
  const guess = plans.last(scope);
  const early =
    guess === undefined
      ? undefined
      : readBranch(db, { scope, plan: guess.plan, parent, taskSheet: sheetRead, taskSheetId: taskSheet });
  // Marked handled now: a guess that turns out stale may fail, and is then never awaited.
  early?.catch(() => undefined);
  const [planned, sheet] = await Promise.all([plans.read(db, scope), sheetRead]);
  const { plan } = planned;
  return explainTableErrors(db, scope, plan, async () => {
    if (early !== undefined && guess === planned) return { nodes: await early };
    return { nodes: await readBranch(db, { scope, plan, parent, taskSheet: sheet }) };
  });
}
