import type { z } from 'zod';
import type { Scope } from '../model/scope.js';
import type { TreePlan } from '../model/tree-plan.js';
import type { SqlExecutor } from '../store/driver.js';
import { checkArguments } from './arguments.js';
import { resolveTreePlan } from './installation.js';
import { explainTableErrors } from './table-diagnosis.js';

/** The options every call on a scope's tree has: the scope, and its plan when the caller has made it. */
interface TreeCallOptions {
  readonly scope: Scope;
  readonly plan?: TreePlan | undefined;
}

/**
 * The start every call on a tree shares (`loadTaskTree`, `saveMetrics`): its options checked with
 * `model` before any SQL, the tree plan resolved, then `work`; a table of the plan that turns out
 * missing or lacking a column becomes an error naming the parameter row behind it.
 */
export async function withPlan<Model extends z.ZodType<TreeCallOptions>, T>(
  db: SqlExecutor,
  model: Model,
  given: unknown,
  what: string,
  work: (options: z.output<Model>, plan: TreePlan) => Promise<T>,
): Promise<T> {
  const options = checkArguments(model, given, what);
  const plan = options.plan ?? (await resolveTreePlan(db, options.scope));
  return explainTableErrors(db, options.scope, plan, () => work(options, plan));
}
