import type { Finding } from '../model/findings.js';
import type { Database } from '../store/driver.js';
import { SHARED_TABLE_NAMES } from '../sync/plan.js';
import type { Change, ChangeResult } from './change.js';
import { executePlan } from './execute.js';
import { type InstallFile, requireUninstallFile } from './install-file.js';
import { withInstallerLock } from './lock.js';
import { changesOf } from './planner.js';
import { decide, rowsNow, tablesNow } from './read-and-decide.js';
import { type Intent, installationTableNames } from './state.js';

/**
 * The findings that say something of the installation stays: a row or table kept (referenced, or
 * holding rows without --force), or a ledger entry nothing was done through.
 */
const KEPT_CODES: ReadonlySet<string> = new Set([
  'ROW_REFERENCED',
  'TABLE_REFERENCED',
  'TABLE_NOT_EMPTY',
  'TABLE_NOT_CREATED',
  'LEDGER_ENTRY_UNEXPECTED',
  'ROW_NOT_RECOGNISED',
]);

/** The shared tables are no installation's: one kept with its rows is kept on purpose (see shared-drops.ts). */
const keptOf = (findings: readonly Finding[]) =>
  findings.filter((finding) => KEPT_CODES.has(finding.code) && !SHARED_TABLE_NAMES.includes(finding.path));

export interface UninstallOptions {
  /** Also drop our tables when they still hold rows. */
  readonly force?: boolean;
  readonly progress?: (line: string) => void;
  /** Only plan: return what would be removed, taking no lock and changing nothing (`applied` is false). */
  readonly dryRun?: boolean;
  readonly confirm?: (plan: { changes: readonly Change[]; findings: readonly Finding[] }) => Promise<boolean>;
}

/**
 * Removes exactly what the installer created for this installation, as its ledger records it: its
 * rows (a row shared with another installation stays until the last one leaves), then its tables,
 * only when empty unless `force`, and the ledger itself once no installation is left in it.
 * Every read happens before the first delete, so a failed read deletes nothing.
 */
export async function uninstallInstallation(
  db: Database,
  given: Pick<InstallFile, 'scope' | 'actingUser' | 'tableNames'>,
  options: UninstallOptions = {},
): Promise<ChangeResult> {
  const intent: Intent = {
    action: 'uninstall',
    file: requireUninstallFile(given),
    force: options.force ?? false,
  };
  const progress = options.progress ?? (() => undefined);
  const read = () => {
    progress('reading the ledger and the tables it records');
    return decide(db, intent);
  };
  if (options.dryRun === true) {
    // Reads only, as `plan` does: no lock, which on Galera is a row written (and maybe its table made).
    const { plan } = await read();
    return { changes: changesOf(plan), findings: plan.findings, applied: false, kept: keptOf(plan.findings) };
  }
  return withInstallerLock(db, async (lock) => {
    const { state, plan } = await read();
    const changes = changesOf(plan);
    const { findings } = plan;
    const kept = keptOf(findings);
    if (changes.length === 0) return { changes, findings, applied: true, kept };
    if (options.confirm !== undefined && !(await options.confirm({ changes, findings })))
      return { changes: [], findings, applied: false };
    // executePlan makes sure of the lock before each step: the operator may have taken a while.
    await executePlan(db, plan, {
      lock,
      names: installationTableNames(intent.file),
      progress,
      rowsNow: (tx) => rowsNow(tx, intent, state),
      tablesNow: () => tablesNow(db, intent, state),
    });
    return { changes, findings, applied: true, kept };
  });
}
