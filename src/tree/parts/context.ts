import type { Scope } from '../../model/scope.js';
import type { Database } from '../../store/driver.js';
import type { Row } from '../metric-defaults.js';
import type { PlanMemo, PlannedInstallation } from '../plan-memo.js';
import { explainTableErrors } from '../table-diagnosis.js';
import { loadTaskSheet } from '../task-sheet.js';

/**
 * What every part of the association screen is asked with: the pool, the memo of its scopes' plans
 * (plan-memo.ts), and who is asking, as the host's session says (never taken from the request).
 */
export interface PartContext {
  readonly db: Database;
  readonly plans: PlanMemo;
  readonly scope: Scope;
  /** The acting user's SEQ_DB. */
  readonly user: number;
}

/**
 * The start of a part that reads the task sheet: the sheet and the scope's plan read together
 * (neither needs the other), then `work`. An unknown task sheet is a 404 for every part, a search
 * included. A table of the plan that is missing or lacks a column is said as the tree's own reads say
 * it: which table, and which parameter row or TREE_VIEW key named it.
 */
export async function withSheetAndPlan<T>(
  context: PartContext,
  taskSheet: number,
  work: (planned: PlannedInstallation, sheet: Row) => Promise<T>,
): Promise<T> {
  const { db, plans, scope } = context;
  const sheetRead = loadTaskSheet(db, scope, taskSheet);
  const [planned, sheet] = await Promise.all([plans.read(db, scope), sheetRead]);
  return explainTableErrors(db, scope, planned.plan, () => work(planned, sheet));
}
