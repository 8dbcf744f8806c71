import { errorsOf, type Finding } from '../model/findings.js';
import { InstallerError } from '../model/installer-errors.js';
import { issuesUnder } from '../model/issues.js';
import { formatScope, sameScope } from '../model/scope.js';
import { LOGICAL_TABLES, type LogicalTable, type TableNames, tableNames } from '../model/table-names.js';
import type { Database, SqlExecutor } from '../store/driver.js';
import { tableExists } from '../store/information-schema.js';
import {
  LEDGER_TABLE,
  type LedgerEntry,
  ledgerWriteStatement,
  readLedger,
  writeLedgerEntry,
} from '../store/ledger.js';
import { withInstallerLock } from '../store/lock.js';
import { TRANSACTION_END, TRANSACTION_START } from '../store/row-statements.js';
import { execute, type Sql, type Statement, sql } from '../store/sql.js';
import { LEDGER_DDL, ledgerUpgrades } from '../sync/ledger.js';
import { BLOCKING_KINDS, differenceCodeAndPath } from '../sync/schema-difference.js';
import { type Change, type ChangeResult, describeChange, runChange } from './change.js';
import { readHostContext } from './host-context.js';
import { HOST_ROW_TABLES, type InstallFile, requireInstallFile } from './install-file.js';
import { CREATED_PREFIX, planRows, USES_PREFIX } from './plan-rows.js';
import { SCHEMA_SYNC, type SchemaSync } from './schema-sync.js';
import {
  columnsAfterSync,
  missingReferences,
  readKnownColumns,
  treeViewReferences,
  unfitMetrics,
} from './verify-tree-view.js';

export interface InstallerOptions {
  /** Also reset the rows administrators may edit (TREE_VIEW, table-name overrides) to the install file. */
  readonly force?: boolean;
  /** The schema sync; the real one unless a test watches it. */
  readonly schema?: SchemaSync;
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
  const file = requireInstallFile(given);
  const progress = options.progress ?? (() => undefined);
  const names = installationTableNames(file);
  progress(`reading the host tables ${HOST_ROW_TABLES.join(', ')}`);
  const host = await readHostContext(db, file);
  progress('planning the schema sync of the four tables');
  const ddl: Change[] = [];
  if (!(await tableExists(db, LEDGER_TABLE))) {
    ddl.push(ddlChange(LEDGER_TABLE, 'ledger', LEDGER_DDL, `create the installer's ledger ${LEDGER_TABLE}`));
  }
  for (const upgrade of await ledgerUpgrades(db)) {
    ddl.push(ddlChange(LEDGER_TABLE, 'ledger', upgrade, `upgrade the installer's ledger: ${upgrade.sql}`));
  }
  const schemaPlan = await (options.schema ?? SCHEMA_SYNC).plan(db, names);
  for (const [index, statement] of schemaPlan.statements.entries()) {
    const table = schemaPlan.statementTables[index] ?? '';
    // The whole statement: an operator reviewing an ALTER needs all of it, not its first line.
    ddl.push(ddlChange(table, 'schema', sql.raw(statement), `schema sync: ${statement}`));
  }
  // The sync refuses these; the installer says so before writing anything, ledger included.
  const refusedBySync = schemaPlan.differences
    .filter((difference) => difference.destructive || BLOCKING_KINDS.includes(difference.kind))
    .map((difference): Finding => {
      const { code, path } = differenceCodeAndPath(difference);
      return { level: 'error', code: `SCHEMA_${code}`, path, message: difference.message };
    });
  progress('checking the tables and columns the TREE_VIEW names');
  const treeView = await treeViewFindings(db, file, names);
  progress('planning the rows');
  const ledger = await readLedger(db);
  const crossed = crossedTables(file, names, ledger);
  const rows = await planRows(db, file, host, ledger, { force: options.force ?? false });
  const created = schemaPlan.statements.length === 0 ? [] : await missingTables(db, names);
  const changes = [...ddl, ...rows.changes.map(describeChange)];
  const script: Statement[] = [
    ...ddl.filter((change) => change.key === 'ledger'),
    ...created.map((logical) => ledgerWriteStatement(createdEntry(file, names, logical), file.actingUser)),
    ...ddl.filter((change) => change.key === 'schema'),
    ...(rows.changes.length === 0
      ? []
      : [TRANSACTION_START, ...rows.changes.flatMap((change) => change.statements), TRANSACTION_END]),
  ].map(({ sql, params }) => ({ sql, params }));
  return {
    changes,
    findings: [...host.findings, ...crossed, ...refusedBySync, ...treeView, ...rows.findings],
    script,
  };
}

/**
 * A table another installation (another scope) keeps as one logical table, named here as another:
 * the schema sync would reshape it into a hybrid of both layouts (an OPER with metric columns), and
 * each installation would read the other's rows as its own kind. The same table under the same
 * logical name is how scopes share an installation's tables, and is fine.
 */
function crossedTables(file: InstallFile, names: TableNames, ledger: readonly LedgerEntry[]): Finding[] {
  const findings: Finding[] = [];
  for (const entry of ledger) {
    if (sameScope(entry.scope, file.scope)) continue;
    const prefix = [USES_PREFIX, CREATED_PREFIX].find((start) => entry.key.startsWith(start));
    if (prefix === undefined) continue;
    const theirs = entry.key.slice(prefix.length);
    for (const logical of LOGICAL_TABLES) {
      if (logical === theirs || names[logical].toLowerCase() !== entry.hostTable.toLowerCase()) continue;
      const path = `tableNames.${logical}`;
      if (findings.some((finding) => finding.path === path)) continue;
      findings.push({
        level: 'error',
        code: 'TABLE_OF_ANOTHER_KIND',
        path,
        message: `table ${names[logical]} is ${theirs} of the installation of scope ${formatScope(entry.scope)}; this install file makes it ${logical}, which would reshape it: give ${logical} a table of its own`,
      });
    }
  }
  return findings;
}

/** The ledger entry saying this installation created a table: written just before the DDL. */
function createdEntry(file: InstallFile, names: TableNames, logical: LogicalTable) {
  return { scope: file.scope, key: `${CREATED_PREFIX}${logical}`, hostTable: names[logical], rowSeqDb: null };
}

/**
 * Carries out the plan: the DDL first (idempotent), then every row change in ONE transaction with
 * its ledger entries, under the installer lock. Refuses before any write when the host is not ready.
 * `confirm` sees the plan first and may decline (the CLI asks the operator).
 */
export async function applyInstallation(
  db: Database,
  file: InstallFile,
  options: InstallerOptions & { confirm?: (plan: InstallPlan) => Promise<boolean> },
): Promise<ChangeResult> {
  requireInstallFile(file);
  const progress = options.progress ?? (() => undefined);
  return withInstallerLock(db, async (lock) => {
    const plan = await planInstallation(db, file, options);
    refuseOnErrors(plan.findings);
    if (plan.changes.length === 0) return { changes: [], findings: plan.findings, applied: true };
    if (options.confirm !== undefined) {
      if (!(await options.confirm(plan))) return { changes: [], findings: plan.findings, applied: false };
      await lock.assertHeld();
    }
    const names = installationTableNames(file);
    const missingBefore = await missingTables(db, names);
    const ddl = plan.changes.filter((change) => change.kind === 'ddl');
    for (const change of ddl.filter(({ key }) => key === 'ledger')) {
      progress(`  ${change.message}`);
      await execute(db, change);
    }
    if (ddl.some((change) => change.key === 'schema')) {
      // Recorded BEFORE the DDL: a stop after it can then never lose the fact that we created the
      // table (an entry for a table that never came is simply forgotten by uninstall).
      for (const logical of missingBefore) {
        await writeLedgerEntry(db, createdEntry(file, names, logical), file.actingUser);
      }
      progress('  running the schema sync');
      await (options.schema ?? SCHEMA_SYNC).sync(db, names);
    }
    // DDL commits implicitly in MySQL, so it ran above, never inside the row transaction.
    progress('writing the rows in one transaction');
    const rowChanges = await db.transaction(async (tx) => {
      // Planned again inside the transaction: under the lock it matches the plan shown, and it
      // is certain to be consistent with what the DDL left.
      const host = await readHostContext(tx, file);
      const rows = await planRows(tx, file, host, await readLedger(tx), { force: options.force ?? false });
      refuseOnErrors([...host.findings, ...rows.findings]);
      for (const change of rows.changes) {
        progress(`  ${change.message}`);
        await runChange(tx, change);
      }
      return rows.changes;
    });
    return { changes: [...ddl, ...rowChanges.map(describeChange)], findings: plan.findings, applied: true };
  });
}

/**
 * Every table and column the install file's TREE_VIEW names must exist, as Odoo checks the records
 * a module refers to before writing any: a tree over a missing table would install and then fail
 * on every load. The installation's four tables count with the columns the schema sync gives them,
 * since apply creates them before it writes the TREE_VIEW row.
 */
async function treeViewFindings(db: SqlExecutor, file: InstallFile, names: TableNames): Promise<Finding[]> {
  if (file.treeView === undefined) return [];
  const references = treeViewReferences(file.treeView, names);
  const found = await readKnownColumns(db, references);
  const known = new Map([...found, ...columnsAfterSync(names, found)]);
  const problems = [
    ...missingReferences(references, known, 'treeView'),
    ...(await unfitMetrics(db, file.treeView, names, 'treeView')),
  ];
  return issuesUnder('treeView', problems).map((problem) => ({ level: 'error', ...problem }));
}

/** The installation's table names: the defaults with the install file's overrides. */
export function installationTableNames(file: InstallFile): TableNames {
  return tableNames(file.tableNames ?? {});
}

/** Why `apply` refuses these findings (the first error's code and path, every error's message), if it does. */
export function refusalOf(
  findings: readonly Finding[],
): { code: string; path: string; message: string } | undefined {
  const errors = errorsOf(findings);
  const [first] = errors;
  if (first === undefined) return undefined;
  const message = `nothing was written: ${errors.map((error) => `${error.path}: ${error.message}`).join('; ')}`;
  return { code: first.code, path: first.path, message };
}

function refuseOnErrors(findings: readonly Finding[]): void {
  const refusal = refusalOf(findings);
  if (refusal !== undefined) throw new InstallerError(refusal.code, refusal.message, { path: refusal.path });
}

async function missingTables(db: SqlExecutor, names: TableNames): Promise<LogicalTable[]> {
  const missing: LogicalTable[] = [];
  for (const logical of LOGICAL_TABLES) if (!(await tableExists(db, names[logical]))) missing.push(logical);
  return missing;
}

function ddlChange(table: string, key: string, statement: Sql, message: string): Change {
  return { kind: 'ddl', table, key, sql: statement.sql, params: statement.params, message };
}
