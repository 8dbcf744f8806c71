import type { Database, SqlExecutor } from '../store/driver.js';
import type { PlannedChange } from './change.js';
import { type InstallerPlan, planInstaller, refuseOnErrors } from './planner.js';
import {
  type InstallerState,
  type Intent,
  readByHand,
  readDropStates,
  readInstallerState,
  readRowState,
} from './state.js';

/** Reads the state `intent` is decided over, and decides: the one path to a plan. */
export async function decide(
  db: Database,
  intent: Intent,
): Promise<{ state: InstallerState; plan: InstallerPlan }> {
  const state = await readInstallerState(db, intent);
  return { state, plan: await decideOver(db, intent, state) };
}

/**
 * The row changes decided again over the rows as they are read now inside `tx` (the rest of the
 * state as read before), refusing when they now have an error.
 */
export async function rowsNow(
  tx: SqlExecutor,
  intent: Intent,
  state: InstallerState,
): Promise<readonly PlannedChange[]> {
  const plan = await decideOver(tx, intent, {
    ...state,
    ...(await readRowState(tx, intent, state.tables, true)),
  });
  refuseOnErrors(plan.findings);
  return plan.rows;
}

/**
 * The tables uninstall drops, decided again over their state as it is read now (whether each holds
 * rows, the foreign keys pointing at it), the rest as read before; none on apply.
 */
export async function tablesNow(
  db: SqlExecutor,
  intent: Intent,
  state: InstallerState,
): Promise<readonly PlannedChange[]> {
  if (intent.action !== 'uninstall') return [];
  const drops = await readDropStates(db, intent, state.ledger);
  return (await decideOver(db, intent, { ...state, drops })).tables;
}

/** Decides over `state`; when the planner first asks for hand-made rows, reads them and decides again. */
async function decideOver(db: SqlExecutor, intent: Intent, state: InstallerState): Promise<InstallerPlan> {
  const first = planInstaller(intent, state);
  if (!('lookups' in first)) return first;
  const byHand = await readByHand(db, first.lookups);
  const plan = planInstaller(intent, { ...state, rows: { ...state.rows, byHand } });
  if ('lookups' in plan) throw new Error('the installer planner asked again for rows it was given');
  return plan;
}
