import { sameName } from '../model/identifier.js';
import { formatScope } from '../model/scope.js';
import { LOGICAL_TABLES, type TableNames } from '../model/table-names.js';
import type { Database } from '../store/driver.js';
import { readLedger } from '../store/ledger.js';
import { SCHEMA_LOCK_WAIT_SECONDS } from '../store/timeout.js';
import { tablesOfAnotherKind } from './ledger-tables.js';
import { planSchemaSync } from './plan.js';
import { BLOCKING_KINDS, type SchemaDifference } from './schema-difference.js';
import { SchemaSyncError } from './sync-errors.js';

export interface SyncOptions {
  /** Plan only: return the statements without running any. */
  readonly dryRun?: boolean;
  /**
   * Awaited before each statement runs; a throw stops the sync there. The installer renews its lock
   * here, for as long as the statement may run.
   */
  readonly beforeStatement?: (statement: string) => Promise<void>;
}

/**
 * Brings the four tables of `names` and the shared ones (SHARED_TABLES) up to date: creates missing tables, adds missing columns, keys and
 * foreign keys. Refuses, before running anything, when a difference is destructive (it would have to
 * drop or narrow something), a host table our foreign keys need is missing, or a name gives a table
 * the installer's ledger records as one of the four to another of them (`TABLE_OF_ANOTHER_KIND`). On an up-to-date
 * database it runs nothing and returns no statements.
 *
 * DDL commits implicitly in MySQL, so statements run one by one; a failure stops at the failing one
 * and a later run picks up from there.
 *
 * @example await syncSchema(db, tableNames(), { dryRun: true }) // { statements: [...], applied: false }
 */
export async function syncSchema(
  db: Database,
  names: TableNames,
  options: SyncOptions = {},
): Promise<{ statements: string[]; applied: boolean }> {
  // The plan first: it checks the names before any SQL.
  const plan = await planSchemaSync(db, names);
  const ledger = await readLedger(db);
  const crossed = tablesOfAnotherKind(names, ledger).map(
    ({ entry, recordedAs, logical }): SchemaDifference => ({
      kind: 'table-of-another-kind',
      table: entry.hostTable,
      found: `${recordedAs} of the installation of scope ${formatScope(entry.scope)} (ledger entry ${entry.key})`,
      expected: logical,
      destructive: false,
      message: `table ${names[logical]} is named for ${logical}, but the installer's ledger records it as ${recordedAs}: syncing would reshape it into both; give ${logical} a table of its own (--table-name ${logical}=...)`,
    }),
  );
  if (crossed.length > 0) {
    const [first] = crossed as [SchemaDifference];
    throw new SchemaSyncError(
      'TABLE_OF_ANOTHER_KIND',
      `refused, nothing was changed: ${describe(crossed)}`,
      crossed,
      {
        path: `tableNames.${first.expected}`,
      },
    );
  }
  // Before the destructive differences: a host's table is named by mistake, whatever it holds.
  const notOurs = plan.differences.filter((difference) => difference.kind === 'not-our-table');
  const [firstNotOurs] = notOurs;
  if (firstNotOurs !== undefined) {
    const logical = LOGICAL_TABLES.find((candidate) => sameName(names[candidate], firstNotOurs.table));
    throw new SchemaSyncError(
      'NOT_OUR_TABLE',
      `refused, nothing was changed: ${describe(notOurs)}`,
      notOurs,
      logical === undefined ? {} : { path: `tableNames.${logical}` },
    );
  }
  const destructive = plan.differences.filter((difference) => difference.destructive);
  if (destructive.length > 0) {
    throw new SchemaSyncError(
      'DESTRUCTIVE_DIFFERENCE',
      `refused, nothing was changed: ${describe(destructive)}`,
      destructive,
    );
  }
  const blocking = plan.differences.filter((difference) => BLOCKING_KINDS.includes(difference.kind));
  if (blocking.length > 0) {
    throw new SchemaSyncError(
      'MISSING_HOST_TABLE',
      `refused, nothing was changed: ${describe(blocking)}`,
      blocking,
    );
  }
  if (options.dryRun === true || plan.statements.length === 0) {
    return { statements: plan.statements, applied: false };
  }
  for (const [done, statement] of plan.statements.entries()) {
    await options.beforeStatement?.(statement);
    try {
      await db.execute(statement, [], { schemaChange: true });
    } catch (error) {
      const reason = lockWaitTimedOut(error)
        ? `its table was in use by another transaction for more than ${SCHEMA_LOCK_WAIT_SECONDS} s; a schema change waits no longer, since the table's readers and writers queue behind it while it waits`
        : error instanceof Error
          ? error.message
          : String(error);
      throw new SchemaSyncError(
        'STATEMENT_FAILED',
        `statement ${done + 1} of ${plan.statements.length} failed (${reason}); the ${done} before it were applied; run the command again once the cause is fixed (db sync, or apply, which runs the sync): ${statement.split('\n')[0]}`,
        [],
        { cause: error, path: plan.statementTables[done] ?? '' },
      );
    }
  }
  return { statements: plan.statements, applied: true };
}

function describe(differences: readonly SchemaDifference[]): string {
  return differences
    .map((difference) =>
      difference.found === undefined
        ? difference.message
        : `${difference.message} (found ${difference.found}; expected ${difference.expected})`,
    )
    .join('; ');
}

/** The server's ER_LOCK_WAIT_TIMEOUT: here, the metadata lock a DDL waits for. */
function lockWaitTimedOut(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'errno' in error && error.errno === 1205;
}
