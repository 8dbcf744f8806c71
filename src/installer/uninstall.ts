import type { Finding } from '../model/findings.js';
import { sameScope } from '../model/scope.js';
import { type LOGICAL_TABLES, tableNames } from '../model/table-names.js';
import type { Database } from '../store/driver.js';
import { referencingKeys, tableExists } from '../store/information-schema.js';
import {
  LEDGER_TABLE,
  type LedgerEntry,
  ledgerDeleteStatement,
  ledgerWriteStatement,
  readLedger,
} from '../store/ledger.js';
import { withInstallerLock } from '../store/lock.js';
import { anyRow, dropTable } from '../store/row-statements.js';
import { execute, query } from '../store/sql.js';
import { ledgerUpgrades } from '../sync/ledger.js';
import { type Change, type ChangeResult, describeChange, type PlannedChange, runChange } from './change.js';
import { type InstallFile, requireUninstallFile } from './install-file.js';
import { CREATED_PREFIX, readLedgerRows, removal, USES_PREFIX } from './plan-rows.js';

export interface UninstallOptions {
  /** Also drop our tables when they still hold rows. */
  readonly force?: boolean;
  readonly progress?: (line: string) => void;
  /** Only plan: return what would be removed and change nothing (`applied` is false). */
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
  const file = requireUninstallFile(given);
  const progress = options.progress ?? (() => undefined);
  const { scope } = file;
  return withInstallerLock(db, async (lock) => {
    progress('reading the ledger');
    const ledger = await readLedger(db);
    const mine = ledger.filter((entry) => sameScope(entry.scope, scope));
    if (mine.length === 0) {
      return {
        changes: [],
        findings: [
          {
            level: 'info',
            code: 'NOT_INSTALLED',
            path: LEDGER_TABLE,
            message: 'the ledger has no entry for this installation: nothing to remove',
          },
        ],
        applied: true,
      };
    }
    const existing = await readLedgerRows(db, ledger);
    const findings: Finding[] = [];
    const rowChanges = mine
      .filter((entry) => !entry.key.startsWith(CREATED_PREFIX))
      .flatMap((entry) => removal(entry, existing, ledger, scope, true, findings));
    const tables = planTableDrops(
      file,
      mine,
      ledger,
      await readTableStates(db, file, mine),
      options.force ?? false,
      findings,
    );
    const keptEntries = mine.length - rowChanges.length - tables.length;
    const othersLeft = ledger.some((entry) => !sameScope(entry.scope, scope));
    const dropLedger: Change[] =
      othersLeft || keptEntries > 0
        ? []
        : [
            {
              kind: 'drop-table',
              table: LEDGER_TABLE,
              key: 'ledger',
              sql: dropTable(LEDGER_TABLE).sql,
              params: [],
              message: `drop the installer's ledger ${LEDGER_TABLE} (no installation left in it)`,
            },
          ];
    const changes = [...rowChanges.map(describeChange), ...tables.map(describeChange), ...dropLedger];
    if (options.dryRun === true) return { changes, findings, applied: false };
    if (options.confirm !== undefined) {
      if (!(await options.confirm({ changes, findings }))) return { changes: [], findings, applied: false };
      await lock.assertHeld();
    }
    // A ledger written by an older version gets this version's columns before we write to it.
    for (const upgrade of await ledgerUpgrades(db)) await execute(db, upgrade);
    progress('removing the rows in one transaction');
    await db.transaction(async (tx) => {
      for (const change of rowChanges) {
        progress(`  ${change.message}`);
        await runChange(tx, change);
      }
    });
    // DDL commits implicitly: each table is dropped, then its entry forgotten. A stop in between
    // leaves an entry for a table that is gone, which the next uninstall simply forgets.
    for (const change of tables) {
      progress(`  ${change.message}`);
      await runChange(db, change);
    }
    for (const change of dropLedger) {
      progress(`  ${change.message}`);
      await execute(db, change);
    }
    return { changes, findings, applied: true };
  });
}

/** What the drop planner needs to know of one of the installation's tables. */
export interface TableState {
  readonly exists: boolean;
  /** Foreign keys of this database pointing at it (its own included). */
  readonly referencedBy: readonly { readonly table: string; readonly constraint: string }[];
  readonly hasRows: boolean;
}

/**
 * The state of each of the installation's tables it recorded creating, read before anything is
 * planned: only those can be dropped, so no other table is read.
 */
async function readTableStates(
  db: Database,
  file: Pick<InstallFile, 'tableNames'>,
  mine: readonly LedgerEntry[],
): Promise<Map<string, TableState>> {
  const states = new Map<string, TableState>();
  const created = new Set(
    mine.filter((entry) => entry.key.startsWith(CREATED_PREFIX)).map((entry) => entry.hostTable),
  );
  for (const table of Object.values(tableNames(file.tableNames ?? {})).filter((name) => created.has(name))) {
    if (!(await tableExists(db, table))) {
      states.set(table, { exists: false, referencedBy: [], hasRows: false });
      continue;
    }
    const referencedBy = await referencingKeys(db, table);
    const [row] = await query(db, anyRow(table));
    states.set(table, { exists: true, referencedBy, hasRows: row !== undefined });
  }
  return states;
}

/**
 * The tables this installation created and may drop, decided over what was read: each only under
 * the installation's own name for it, handed over to another installation that uses it, kept when a
 * foreign key of a table that stays points at it or (without `force`) when it holds rows.
 */
export function planTableDrops(
  file: Pick<InstallFile, 'scope' | 'actingUser' | 'tableNames'>,
  mine: readonly LedgerEntry[],
  ledger: readonly LedgerEntry[],
  states: ReadonlyMap<string, TableState>,
  force: boolean,
  findings: Finding[],
): PlannedChange[] {
  // Children before parents, so foreign keys never block a drop.
  const order = [
    'OPER_GRUPO_METRICA',
    'OPER_OPER_GRUPO',
    'OPER',
    'OPER_GRUPO',
  ] as const satisfies readonly (typeof LOGICAL_TABLES)[number][];
  const drops: PlannedChange[] = [];
  for (const logical of order) {
    const entry = mine.find((e) => e.key === `${CREATED_PREFIX}${logical}`);
    if (entry === undefined) continue;
    // Only the installation's own name for this table is ever dropped: a stale or edited entry
    // naming another table is reported and kept.
    const table = tableNames(file.tableNames ?? {})[logical];
    if (entry.hostTable !== table) {
      findings.push({
        level: 'info',
        code: 'LEDGER_ENTRY_UNEXPECTED',
        path: `ledger.${entry.key}`,
        message: `the ledger entry ${entry.key} names table ${entry.hostTable}, but this installation's ${logical} table is ${table}: nothing was dropped; check the install file's tableNames, or remove the entry from ${LEDGER_TABLE}`,
      });
      continue;
    }
    const forget = ledgerDeleteStatement(entry.scope, entry.key);
    // Any entry of another installation naming the table (it uses it, or created it and was killed
    // before recording its use) keeps the table, even with --force.
    const user = ledger.find(
      (other) =>
        !sameScope(other.scope, entry.scope) &&
        (other.key.startsWith(USES_PREFIX) || other.key.startsWith(CREATED_PREFIX)) &&
        other.hostTable === table,
    );
    if (user !== undefined) {
      drops.push(handOver(entry, user, file.actingUser));
      continue;
    }
    const state = states.get(table) ?? { exists: false, referencedBy: [], hasRows: false };
    if (!state.exists) {
      drops.push({
        kind: 'forget',
        table: LEDGER_TABLE,
        key: entry.key,
        ...forget,
        message: `forget table ${table}: it is gone`,
        statements: [forget],
      });
      continue;
    }
    // A foreign key of a table that stays (the host's, or one of ours kept for its rows) would make
    // the DROP fail after the rows were already removed: the table is kept, even with --force.
    // Compared without case: a server with lower_case_table_names=1 reports `mo_oper` for MO_OPER.
    const dropped = new Set(
      drops.filter((drop) => drop.kind === 'drop-table').map((drop) => drop.table.toLowerCase()),
    );
    const blocker = state.referencedBy.find(
      (key) => key.table.toLowerCase() !== table.toLowerCase() && !dropped.has(key.table.toLowerCase()),
    );
    if (blocker !== undefined) {
      findings.push({
        level: 'info',
        code: 'TABLE_REFERENCED',
        path: table,
        message: `table ${table} is referenced by foreign key ${blocker.constraint} of table ${blocker.table}: kept (drop that foreign key, then run uninstall again)`,
      });
      continue;
    }
    if (state.hasRows && !force) {
      findings.push({
        level: 'info',
        code: 'TABLE_NOT_EMPTY',
        path: table,
        message: `table ${table} holds rows: kept (run uninstall with --force to drop it with its rows)`,
      });
      continue;
    }
    const drop = dropTable(table);
    drops.push({
      kind: 'drop-table',
      table,
      key: entry.key,
      sql: drop.sql,
      params: drop.params,
      message: `drop table ${table}${state.hasRows ? ' with its rows (--force)' : ' (empty)'}`,
      statements: [drop, forget],
    });
  }
  return drops;
}

/**
 * A table this installation created that another one still uses stays, and the record of its
 * creation passes to that installation: the last one to leave drops it, so it is never orphaned.
 */
function handOver(entry: LedgerEntry, user: LedgerEntry, actingUser: number): PlannedChange {
  const logical = user.key.slice(user.key.indexOf(':') + 1);
  const heir = {
    scope: user.scope,
    key: `${CREATED_PREFIX}${logical}`,
    hostTable: entry.hostTable,
    rowSeqDb: null,
  };
  const { scope } = user;
  return {
    kind: 'forget',
    table: LEDGER_TABLE,
    key: entry.key,
    ...ledgerDeleteStatement(entry.scope, entry.key),
    message: `keep table ${entry.hostTable}: installation ${scope.EMPRESA}/${scope.FILIAL}/${scope.LOCAL} uses it (it will drop it when it leaves)`,
    statements: [ledgerWriteStatement(heir, actingUser), ledgerDeleteStatement(entry.scope, entry.key)],
  };
}
