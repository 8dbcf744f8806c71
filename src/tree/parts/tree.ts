import { loadTaskTree, type TaskTree } from '../load-task-tree.js';
import type { PartContext } from './context.js';

/** A GET without `part`, asking for JSON: the whole tree of the task sheet (`loadTaskTree`). */
export async function treePart(
  context: PartContext,
  query: { readonly taskSheet: number },
): Promise<TaskTree> {
  const { db, plans, scope } = context;
  const { plan } = await plans.read(db, scope);
  return loadTaskTree(db, { scope, taskSheet: query.taskSheet, plan });
}
