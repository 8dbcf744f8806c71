import type { Scope } from '../model/scope.js';
import type { TreePlan } from '../model/tree-plan.js';
import type { SqlExecutor } from '../store/driver.js';
import { createPlanMemo, type PlanMemo } from './plan-memo.js';
import { explainTableErrors } from './table-diagnosis.js';

/** The plan, when the caller has made it; else it comes from the scope's parameter rows. */
interface Given {
  readonly plan?: TreePlan | undefined;
}

/**
 * One memo of checked parameter rows per executor a caller passes (a pool, usually the same object
 * call after call). Weakly held: an executor dropped by its host takes its memo with it.
 */
const memos = new WeakMap<SqlExecutor, PlanMemo>();

/**
 * Runs `work` with the scope's tree plan, without waiting for the parameter rows before it starts
 * when this executor has read them before. The rows are read on every call, at the same time as
 * `work` runs on the plan they gave last time; that run's answer is kept only if the rows read now
 * still give that very plan, else it is dropped (its failure too) and `work` runs again on the new
 * plan. So a changed parameter row counts on the very next call, as when the rows are read first;
 * what is saved is a round trip of waiting, and checking the TREE_VIEW again when its text has not
 * changed. `work` must only read: a stale run's reads are thrown away, never its writes.
 *
 * With a `plan` given, nothing is read for it.
 */
export async function withGuessedPlan<T>(
  db: SqlExecutor,
  scope: Scope,
  given: Given,
  work: (plan: TreePlan) => Promise<T>,
): Promise<T> {
  if (given.plan !== undefined) {
    const { plan } = given;
    return explainTableErrors(db, scope, plan, () => work(plan));
  }
  let memo = memos.get(db);
  if (memo === undefined) {
    memo = createPlanMemo();
    memos.set(db, memo);
  }
  const guess = memo.last(scope);
  const early = guess === undefined ? undefined : work(guess.plan);
  // Marked handled now: a stale guess may fail, and is then never awaited.
  early?.catch(() => undefined);
  const planned = await memo.read(db, scope);
  const { plan } = planned;
  if (early !== undefined && planned === guess) return explainTableErrors(db, scope, plan, () => early);
  return explainTableErrors(db, scope, plan, () => work(plan));
}
