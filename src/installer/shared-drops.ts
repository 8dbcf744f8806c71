import type { Finding } from '../model/findings.js';
import { dropTable } from '../store/row-statements.js';
import { SHARED_TABLE_NAMES } from '../sync/plan.js';
import type { PlannedChange } from './change.js';
import type { TableState } from './state.js';
import { keyOfATableThatStays } from './table-drops.js';

/**
 * The shared tables (the metric history, the saves' request ids) the uninstall of the LAST
 * installation drops, decided over what was read of them, as its own tables are: one that is gone is
 * passed over (no entry records them), one a foreign key of another table points at is kept even
 * with `force`, one holding rows is kept unless `force`. The caller asks only when no installation
 * is left, the moment the ledger goes too; while one is, they are left whole, rows included: the
 * history is a record of every installation's saves.
 *
 * A kept table outlives the ledger, so no later uninstall will see it: the finding says how to drop
 * it by hand.
 */
export function planSharedDrops(
  states: ReadonlyMap<string, TableState>,
  force: boolean,
  findings: Finding[],
): PlannedChange[] {
  const drops: PlannedChange[] = [];
  for (const table of SHARED_TABLE_NAMES) {
    const state = states.get(table);
    if (state === undefined || !state.exists) continue;
    const drop = dropTable(table);
    const byHand = `no installation is left to uninstall it later, so drop it yourself once you no longer need it: ${drop.sql}`;
    const blocker = keyOfATableThatStays(state, table, []);
    if (blocker !== undefined) {
      findings.push({
        level: 'info',
        code: 'TABLE_REFERENCED',
        path: table,
        message: `shared table ${table} is referenced by foreign key ${blocker.constraint} of table ${blocker.table}: kept (${byHand}, after dropping that foreign key)`,
      });
      continue;
    }
    if (state.hasRows && !force) {
      findings.push({
        level: 'info',
        code: 'TABLE_NOT_EMPTY',
        path: table,
        message: `shared table ${table} holds rows: kept (run this uninstall with --force to drop it with its rows; once it has run, ${byHand})`,
      });
      continue;
    }
    drops.push({
      kind: 'drop-table',
      table,
      key: table,
      sql: drop.sql,
      params: drop.params,
      message: `drop the shared table ${table}${state.hasRows ? ' with its rows (--force)' : ' (empty)'}: no installation is left`,
      statements: [drop],
    });
  }
  return drops;
}
