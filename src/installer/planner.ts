import { errorsOf, type Finding } from '../model/findings.js';
import { InstallerError } from '../model/installer-errors.js';
import { issuesUnder } from '../model/issues.js';
import { formatScope, sameScope } from '../model/scope.js';
import { LOGICAL_TABLES, TASK_SHEET_TABLE, type TableNames } from '../model/table-names.js';
import { treeViewLevels } from '../model/tree-view.js';
import { columnTypesOf } from '../store/column-types.js';
import { CREATED_PREFIX, LEDGER_TABLE, type LedgerEntry, ledgerWriteStatement } from '../store/ledger.js';
import { dropTable, TRANSACTION_END, TRANSACTION_START } from '../store/row-statements.js';
import { type Sql, type Statement, sql } from '../store/sql.js';
import { LEDGER_DDL, ledgerUpgradesOf } from '../sync/ledger.js';
import { recordedTables, tablesOfAnotherKind } from '../sync/ledger-tables.js';
import { BLOCKING_KINDS, differenceIssue } from '../sync/schema-difference.js';
import { type Change, describeChange, type PlannedChange } from './change.js';
import type { DesiredRow } from './desired-rows.js';
import { hostContext } from './host-context.js';
import type { InstallFile, UninstallFile } from './install-file.js';
import { planRowsFrom, removals } from './plan-rows.js';
import { planSharedDrops } from './shared-drops.js';
import { type InstallerState, type Intent, installationTableNames, tableIn } from './state.js';
import { planTableDrops, tablesNotCreated } from './table-drops.js';
import {
  columnsAfterSync,
  knownColumnsOf,
  missingReferences,
  treeViewReferences,
  unfitMetrics,
} from './verify-tree-view.js';

/*
 * The installer's one planner, for apply and for uninstall: plain data in (what was asked, what was
 * read), plain data out (the steps, each a list of changes with their statements, and what was
 * noticed). It reads nothing and writes nothing; execute.ts carries a plan out.
 */

/** A plan: its steps in the order they run (any may be empty), and what was noticed on the way. */
export interface InstallerPlan {
  readonly findings: readonly Finding[];
  /** Create the installer's ledger, or bring an older one to this version's columns. */
  readonly ledger: readonly PlannedChange[];
  /** The entries saying this installation creates a table, written just before the schema sync creates it. */
  readonly created: readonly Statement[];
  /** The schema sync's DDL for the four tables and the shared ones; the sync runs it (it guards each statement itself). */
  readonly schema: readonly PlannedChange[];
  /** The host rows and their ledger entries, written in one transaction. */
  readonly rows: readonly PlannedChange[];
  /**
   * The tables uninstall drops after the rows: the installation's own (each with its entry), then,
   * with the last installation, the shared ones.
   */
  readonly tables: readonly PlannedChange[];
  /** The ledger itself, once no installation is left in it. */
  readonly dropLedger: readonly PlannedChange[];
}

/** A plan, or the hand-made rows the planner must see first (which depend on what it would insert). */
export type Decision = InstallerPlan | { readonly lookups: readonly DesiredRow[] };

/** Decides what `intent` changes, over `state`. */
export function planInstaller(intent: Intent, state: InstallerState): Decision {
  return intent.action === 'apply'
    ? planApply(intent.file, intent.force, state)
    : planUninstall(intent.file, intent.force, state);
}

/** Every change of a plan in the order it runs, as `--json` prints them. */
export function changesOf(plan: InstallerPlan): Change[] {
  return [...plan.ledger, ...plan.schema, ...plan.rows, ...plan.tables, ...plan.dropLedger].map(
    describeChange,
  );
}

/**
 * Every statement a plan runs, in its order, ledger bookkeeping included, the rows inside their
 * transaction: what `plan --sql` prints for a DBA to review.
 */
export function scriptOf(plan: InstallerPlan): Statement[] {
  const statements = (changes: readonly PlannedChange[]) => changes.flatMap((change) => change.statements);
  return [
    ...statements(plan.ledger),
    ...plan.created,
    ...statements(plan.schema),
    ...(plan.rows.length === 0 ? [] : [TRANSACTION_START, ...statements(plan.rows), TRANSACTION_END]),
    ...statements(plan.tables),
    ...statements(plan.dropLedger),
  ].map(({ sql, params }) => ({ sql, params }));
}

/** Why a plan's findings stop it (the first error's code and path, every error's message), if they do. */
export function refusalOf(
  findings: readonly Finding[],
): { code: string; path: string; message: string } | undefined {
  const errors = errorsOf(findings);
  const [first] = errors;
  if (first === undefined) return undefined;
  const message = `nothing was written: ${errors.map((error) => `${error.path}: ${error.message}`).join('; ')}`;
  return { code: first.code, path: first.path, message };
}

/** Throws the refusal of {@link refusalOf}, if any. */
export function refuseOnErrors(findings: readonly Finding[]): void {
  const refusal = refusalOf(findings);
  if (refusal !== undefined) throw new InstallerError(refusal.code, refusal.message, { path: refusal.path });
}

function planApply(file: InstallFile, force: boolean, state: InstallerState): Decision {
  const names = installationTableNames(file);
  const host = hostContext(file, state);
  const rows = planRowsFrom(file, host, state.ledger, state.rows, { force });
  if ('lookups' in rows) return rows;
  const schema = state.schema ?? { statements: [], statementTables: [], differences: [] };
  // The sync refuses these; the installer says so before writing anything, ledger included.
  const refusedBySync = schema.differences
    .filter((difference) => difference.destructive || BLOCKING_KINDS.includes(difference.kind))
    .map((difference): Finding => {
      const issue = differenceIssue(difference);
      return { level: 'error', ...issue, code: `SCHEMA_${issue.code}` };
    });
  return {
    findings: [
      ...host.findings,
      ...crossedTables(file, names, state.ledger),
      ...refusedBySync,
      ...treeViewFindings(file, names, state),
      ...rows.findings,
    ],
    ledger: ledgerSteps(state, { createIfAbsent: true }),
    // Recorded BEFORE the DDL: a stop after it can then never lose the fact that we created the
    // table (an entry for a table that never came is simply forgotten by uninstall).
    created: LOGICAL_TABLES.filter(
      (logical) => schema.statements.length > 0 && tableIn(state, names[logical]) === undefined,
    ).map((logical) =>
      ledgerWriteStatement(
        { scope: file.scope, key: `${CREATED_PREFIX}${logical}`, hostTable: names[logical], rowSeqDb: null },
        file.actingUser,
      ),
    ),
    schema: schema.statements.map((statement, index) =>
      // The whole statement: an operator reviewing an ALTER needs all of it, not its first line.
      ddlChange(
        'schema',
        sql.raw(statement),
        `schema sync: ${statement}`,
        schema.statementTables[index] ?? '',
      ),
    ),
    rows: rows.changes,
    tables: [],
    dropLedger: [],
  };
}

function planUninstall(file: UninstallFile, force: boolean, state: InstallerState): InstallerPlan {
  const { scope } = file;
  const mine = state.ledger.filter((entry) => sameScope(entry.scope, scope));
  const nothing = { ledger: [], created: [], schema: [], rows: [], tables: [], dropLedger: [] };
  if (mine.length === 0) {
    return {
      ...nothing,
      findings: [
        {
          level: 'info',
          code: 'NOT_INSTALLED',
          path: LEDGER_TABLE,
          message: 'the ledger has no entry for this installation: nothing to remove',
        },
      ],
    };
  }
  const findings: Finding[] = [];
  // Parameter rows go too: uninstall removes everything the installation made.
  const rows = removals(
    mine.filter((entry) => !entry.key.startsWith(CREATED_PREFIX)),
    state.rows,
    state.ledger,
    scope,
    true,
    findings,
  );
  const tables = planTableDrops(
    file,
    mine,
    state.ledger,
    state.drops,
    { force, foldsNames: state.foldsNames },
    findings,
  );
  findings.push(...tablesNotCreated(file, mine, state.ledger, state.tables, state.foldsNames));
  const keptEntries = mine.length - rows.length - tables.length;
  const othersLeft = state.ledger.some((entry) => !sameScope(entry.scope, scope));
  // The last installation to leave takes the ledger and the shared tables with it; until then they
  // stay whole (the history keeps every installation's rows, this one's included).
  const last = !othersLeft && keptEntries === 0;
  const shared = last ? planSharedDrops(state.drops, force, findings) : [];
  const drop = dropTable(LEDGER_TABLE);
  return {
    findings,
    ledger: ledgerSteps(state, { createIfAbsent: false }),
    created: [],
    schema: [],
    rows,
    tables: [...tables, ...shared],
    dropLedger: !last
      ? []
      : [
          {
            kind: 'drop-table',
            table: LEDGER_TABLE,
            key: 'ledger',
            ...drop,
            message: `drop the installer's ledger ${LEDGER_TABLE} (no installation left in it)`,
            statements: [drop],
          },
        ],
  };
}

/**
 * Table names the ledger rules out. This installation's own tables keep their names: an entry of its
 * scope (`table:OPER`, `uses:OPER`) naming another table than the file does for that logical name
 * would be overwritten by the new name, and the tables it created would be lost to its uninstall
 * (`TABLE_NAME_CHANGED`; the operator uninstalls with the former file first). And a table any
 * installation keeps as one logical table cannot be named as another (`TABLE_OF_ANOTHER_KIND`): the
 * schema sync would reshape it into a hybrid of both layouts (an OPER with metric columns), and its
 * rows would be read as the other kind. The same table under the same logical name is how scopes
 * share an installation's tables, and is fine. One finding per logical name, renames first.
 */
function crossedTables(file: InstallFile, names: TableNames, ledger: readonly LedgerEntry[]): Finding[] {
  const findings: Finding[] = [];
  const add = (logical: string, finding: Omit<Finding, 'level' | 'path'>) => {
    const path = `tableNames.${logical}`;
    if (!findings.some((found) => found.path === path)) findings.push({ level: 'error', path, ...finding });
  };
  for (const { entry, recordedAs } of recordedTables(ledger)) {
    const logical = LOGICAL_TABLES.find((candidate) => candidate === recordedAs);
    // The spelling too: the entries, and uninstall's drops, name a table exactly as it was installed.
    if (!sameScope(entry.scope, file.scope) || logical === undefined || names[logical] === entry.hostTable)
      continue;
    add(logical, {
      code: 'TABLE_NAME_CHANGED',
      message: `this installation's ${logical} is table ${entry.hostTable} (ledger entry ${entry.key}), but the install file names ${names[logical]}: an installed table is not renamed; uninstall with the install file it was applied with first (its tables go with it), then apply this one`,
    });
  }
  for (const { entry, recordedAs, logical } of tablesOfAnotherKind(names, ledger)) {
    const whose = sameScope(entry.scope, file.scope)
      ? 'this installation'
      : `the installation of scope ${formatScope(entry.scope)}`;
    add(logical, {
      code: 'TABLE_OF_ANOTHER_KIND',
      message: `table ${names[logical]} is ${recordedAs} of ${whose}; this install file makes it ${logical}, which would reshape it: give ${logical} a table of its own`,
    });
  }
  return findings;
}

/**
 * Every table and column the install file's TREE_VIEW names must exist, as Odoo checks the records
 * a module refers to before writing any: a tree over a missing table would install and then fail
 * on every load. The installation's four tables count with the columns the schema sync gives them,
 * since apply creates them before it writes the TREE_VIEW row.
 */
function treeViewFindings(file: InstallFile, names: TableNames, state: InstallerState): Finding[] {
  if (file.treeView === undefined) return [];
  const references = treeViewReferences(file.treeView, names);
  const found = knownColumnsOf(new Map(references.map(({ table }) => [table, tableIn(state, table)])));
  const known = new Map([...found, ...columnsAfterSync(names, found)]);
  const metricTable = file.treeView.metricAssociationTable ?? names.OPER_GRUPO_METRICA;
  const task = treeViewLevels(file.treeView).at(-1)?.table;
  const problems = [
    ...missingReferences(references, known, 'treeView'),
    ...unfitMetrics(columnTypesOf(tableIn(state, metricTable)), file.treeView, names, 'treeView', {
      taskSheet: columnTypesOf(tableIn(state, TASK_SHEET_TABLE)),
      ...(task === undefined ? {} : { activity: columnTypesOf(tableIn(state, task)) }),
    }),
  ];
  return issuesUnder('treeView', problems).map((problem) => ({ level: 'error', ...problem }));
}

/**
 * The ledger's DDL: created when absent (apply), and an older one brought to this version's columns
 * before anything writes to it (both).
 */
function ledgerSteps(state: InstallerState, options: { createIfAbsent: boolean }): PlannedChange[] {
  const found = tableIn(state, LEDGER_TABLE);
  if (found === undefined) {
    return options.createIfAbsent
      ? [ddlChange('ledger', LEDGER_DDL, `create the installer's ledger ${LEDGER_TABLE}`)]
      : [];
  }
  return ledgerUpgradesOf(found).map((upgrade) =>
    ddlChange('ledger', upgrade, `upgrade the installer's ledger: ${upgrade.sql}`),
  );
}

function ddlChange(
  key: 'ledger' | 'schema',
  statement: Sql,
  message: string,
  table: string = LEDGER_TABLE,
): PlannedChange {
  return {
    kind: 'ddl',
    table,
    key,
    sql: statement.sql,
    params: statement.params,
    message,
    statements: [statement],
  };
}
