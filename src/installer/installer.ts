import type { Finding } from '../model/findings.js';
import type { Database } from '../store/driver.js';
import type { Statement } from '../store/sql.js';
import type { Change, ChangeResult } from './change.js';
import { executePlan } from './execute.js';
import { HOST_ROW_TABLES, type InstallFile, requireInstallFile } from './install-file.js';
import { withInstallerLock } from './lock.js';
import { changesOf, type InstallerPlan, refuseOnErrors, scriptOf } from './planner.js';
import { decide, rowsNow, tablesNow } from './read-and-decide.js';
import { type Intent, installationTableNames } from './state.js';

export interface InstallerOptions {
  /** Also reset the rows administrators may edit (TREE_VIEW, table-name overrides) to the install file. */
  readonly force?: boolean;
  /** One line per step, for stderr. */
  readonly progress?: (line: string) => void;
}

export interface InstallPlan {
  readonly changes: readonly Change[];
  readonly findings: readonly Finding[];
  /**
   * Every statement `apply` would run, in its order, ledger bookkeeping included: the ledger's DDL,
   * the entries for tables about to be created, the schema sync, then the rows in one transaction.
   * `plan --sql` prints it for a DBA to review and run as is.
   */
  readonly script: readonly Statement[];
}

/**
 * Every change `apply` would make, and what was noticed on the way. Writes nothing and takes no lock.
 *
 * @example const { changes, findings } = await planInstallation(db, file, {}); // changes: [] once installed
 */
export async function planInstallation(
  db: Database,
  given: InstallFile,
  options: InstallerOptions,
): Promise<InstallPlan> {
  const intent = applyIntent(given, options);
  options.progress?.(READING);
  return shown((await decide(db, intent)).plan);
}

/**
 * Carries out the plan under the installer lock: the DDL first (idempotent), then every row change
 * in ONE transaction with its ledger entries. Refuses before any write when the host is not ready.
 * `confirm` sees the plan first and may decline (the CLI asks the operator).
 */
export async function applyInstallation(
  db: Database,
  given: InstallFile,
  options: InstallerOptions & { confirm?: (plan: InstallPlan) => Promise<boolean> },
): Promise<ChangeResult> {
  const intent = applyIntent(given, options);
  const progress = options.progress ?? (() => undefined);
  return withInstallerLock(db, async (lock) => {
    progress(READING);
    const { state, plan } = await decide(db, intent);
    refuseOnErrors(plan.findings);
    const changes = changesOf(plan);
    if (changes.length === 0) return { changes, findings: plan.findings, applied: true };
    if (options.confirm !== undefined && !(await options.confirm(shown(plan))))
      return { changes: [], findings: plan.findings, applied: false };
    // executePlan makes sure of the lock before each step: the operator may have taken a while.
    await executePlan(db, plan, {
      lock,
      names: installationTableNames(intent.file),
      progress,
      rowsNow: (tx) => rowsNow(tx, intent, state),
      tablesNow: () => tablesNow(db, intent, state),
    });
    return { changes, findings: plan.findings, applied: true };
  });
}

const READING = `reading the host tables ${HOST_ROW_TABLES.join(', ')}, the ledger, the four tables and what the TREE_VIEW names`;

function applyIntent(given: InstallFile, options: InstallerOptions): Intent {
  return { action: 'apply', file: requireInstallFile(given), force: options.force ?? false };
}

/** What the caller sees of a plan. */
function shown(plan: InstallerPlan): InstallPlan {
  return { changes: changesOf(plan), findings: plan.findings, script: scriptOf(plan) };
}
