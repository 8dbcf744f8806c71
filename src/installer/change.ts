import type { Finding } from '../model/findings.js';
import type { SqlExecutor } from '../store/driver.js';
import type { Statement } from '../store/sql.js';

/**
 * One change the installer makes, as `plan`/`apply --json` print it: what kind, on which table, for
 * which ledger key, and the exact SQL with its parameters.
 *
 * - `ddl`: DDL (the schema sync's statements, the ledger table); runs before the rows.
 * - `insert` / `update` / `delete`: a host row, with its ledger entry written or removed alongside.
 * - `share`: the link field exists (another installation of this database made it): only a ledger
 *   entry is added, so it is removed only when no installation needs it any more.
 * - `use-table`: only a ledger entry: this installation uses one of its four tables (created by it
 *   or by another installation with the same table names), so no other uninstall drops it.
 * - `forget`: a ledger entry whose row is gone and no longer wanted.
 * - `drop-table`: one of our tables, on uninstall.
 */
export interface Change {
  readonly kind: 'ddl' | 'insert' | 'update' | 'delete' | 'share' | 'use-table' | 'forget' | 'drop-table';
  readonly table: string;
  readonly key: string;
  readonly sql: string;
  readonly params: readonly unknown[];
  readonly message: string;
}

/**
 * A change and the statements that carry it out, its ledger bookkeeping included, in order. They
 * are all the change does, so `plan --sql` prints exactly what `apply` runs: a ledger entry for a
 * row inserted just before takes the row's SEQ_DB from `LAST_INSERT_ID()` in SQL, not from the driver.
 */
export interface PlannedChange extends Change {
  readonly statements: readonly Statement[];
}

/** Runs a planned change's statements, in order, on `tx`; its DDL as a schema change (bounded lock wait). */
export async function runChange(tx: SqlExecutor, change: PlannedChange): Promise<void> {
  for (const statement of change.statements) {
    await tx.execute(statement.sql, statement.params, { schemaChange: SCHEMA_CHANGE.test(statement.sql) });
  }
}

/** Our DDL's text: a `ddl` or `drop-table` change also forgets or records a ledger entry (DML). */
const SCHEMA_CHANGE = /^(?:CREATE|ALTER|DROP) /;

/** Whether a change runs a schema change (DDL) among its statements. */
export function changesSchema(change: PlannedChange): boolean {
  return change.statements.some((statement) => SCHEMA_CHANGE.test(statement.sql));
}

/** What `apply` and `uninstall` report: what was done, what was noticed, whether it ran at all. */
export interface ChangeResult {
  /** What was done (empty when nothing was needed, or when the operator declined). */
  readonly changes: readonly Change[];
  readonly findings: readonly Finding[];
  /** False when the operator declined: nothing was changed. */
  readonly applied: boolean;
  /**
   * uninstall: what of the installation it keeps and why, one finding each (`ROW_REFERENCED`,
   * `TABLE_NOT_EMPTY`, ...); empty when nothing of it is left. The CLI exits 1 while any is.
   */
  readonly kept?: readonly Finding[];
}

/** The printable part of a change: `--json` shows exactly these fields. */
export function describeChange(change: Change): Change {
  const { kind, table, key, sql, params, message } = change;
  return { kind, table, key, sql, params, message };
}
