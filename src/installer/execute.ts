import { InstallerError } from '../model/installer-errors.js';
import type { TableNames } from '../model/table-names.js';
import type { Database, SqlExecutor } from '../store/driver.js';
import type { HeldLock } from '../store/lock.js';
import { execute } from '../store/sql.js';
import { syncSchema } from '../sync/sync.js';
import { changesSchema, type PlannedChange, runChange } from './change.js';
import type { InstallerPlan } from './planner.js';

/** How a plan is carried out besides its statements. */
export interface Execution {
  readonly names: TableNames;
  readonly progress: (line: string) => void;
  /**
   * The row changes decided again over the rows read inside the row transaction (`tx`): the host's
   * users may have changed a row since the plan was read.
   */
  readonly rowsNow: (tx: SqlExecutor) => Promise<readonly PlannedChange[]>;
  /** The table drops decided again over the tables as they are now: one may have got rows meanwhile. */
  readonly tablesNow: () => Promise<readonly PlannedChange[]>;
  /** The installer's lock, made sure of (a lease renewed) before each step. */
  readonly lock: HeldLock;
}

/**
 * Carries out a plan, in its order: the ledger's DDL, the schema sync (after the entries saying
 * which tables it creates), the rows in ONE transaction, then the tables dropped one by one and
 * the ledger. DDL commits implicitly in MySQL, so none runs inside the row transaction.
 *
 * Rows and drops run only as they were planned and shown to the operator: decided again over what
 * is read at that moment (the rows inside their transaction, the drops before the rows and again
 * just before the first drop), they must come out the same, or what is left is not done
 * (`PLAN_CHANGED`) and the operator plans again. A table that got rows meanwhile is not dropped,
 * unless `--force` asked to drop the tables with their rows.
 *
 * Before each step the lock is made sure of: still ours, and on Galera its lease renewed for as long
 * as the step may take (a schema change up to an hour), so no second installer gets in mid-run.
 */
export async function executePlan(db: Database, plan: InstallerPlan, how: Execution): Promise<void> {
  const { progress, lock } = how;
  const step = async (change: PlannedChange) => {
    progress(`  ${change.message}`);
    await lock.assertHeld({ schemaChange: changesSchema(change) });
    await runChange(db, change);
  };
  for (const change of plan.ledger) await step(change);
  if (plan.schema.length > 0) {
    await lock.assertHeld();
    for (const statement of plan.created) await execute(db, statement, { schemaChange: true });
    progress('  running the schema sync');
    // The sync runs its own statements: it checks each against what it finds at that moment.
    await syncSchema(db, how.names, { beforeStatement: () => lock.assertHeld({ schemaChange: true }) });
  }
  const tablesChanged =
    'the tables changed since they were planned (one got rows, or a foreign key now points at it)';
  unchanged(
    await how.tablesNow(),
    plan.tables,
    `${tablesChanged}: nothing was removed; run uninstall again to see what it would do now`,
  );
  progress('changing the rows in one transaction');
  await lock.assertHeld();
  await db.transaction(async (tx) => {
    unchanged(
      await how.rowsNow(tx),
      plan.rows,
      `the rows changed since they were planned (someone edited them meanwhile): no row was written${plan.schema.length > 0 ? ', though the tables were brought up to date' : ''}; plan again to see what is needed now`,
    );
    for (const change of plan.rows) {
      progress(`  ${change.message}`);
      await runChange(tx, change);
    }
  });
  if (plan.tables.length > 0) {
    unchanged(
      await how.tablesNow(),
      plan.tables,
      `${tablesChanged}: the rows were removed, no table was dropped; run uninstall again to see what it would do now`,
    );
  }
  // Each table is dropped, then its entry forgotten (DDL commits by itself). A stop in between
  // leaves an entry for a table that is gone, which the next uninstall simply forgets.
  for (const change of [...plan.tables, ...plan.dropLedger]) await step(change);
}

/** Throws `PLAN_CHANGED` with `message` unless `now` runs what `planned` runs. */
function unchanged(now: readonly PlannedChange[], planned: readonly PlannedChange[], message: string): void {
  if (sameChanges(now, planned)) return;
  throw new InstallerError('PLAN_CHANGED', message, { path: firstDifference(planned, now) });
}

/** Whether two lists of changes run the same statements with the same parameters. */
function sameChanges(a: readonly PlannedChange[], b: readonly PlannedChange[]): boolean {
  const text = (changes: readonly PlannedChange[]) =>
    JSON.stringify(
      changes.map((change) => change.statements.map(({ sql, params }) => [sql, params])),
      (_key, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value),
    );
  return text(a) === text(b);
}

/** The ledger key of the first change that differs between two lists of changes. */
function firstDifference(a: readonly PlannedChange[], b: readonly PlannedChange[]): string {
  for (let index = 0; index < Math.max(a.length, b.length); index++) {
    const [x, y] = [a[index], b[index]];
    if (x === undefined || y === undefined || !sameChanges([x], [y])) return (x ?? y)?.key ?? '';
  }
  return '';
}
