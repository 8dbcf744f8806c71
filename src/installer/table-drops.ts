import type { Finding } from '../model/findings.js';
import { sameTableName } from '../model/identifier.js';
import { sameScope } from '../model/scope.js';
import type { LOGICAL_TABLES } from '../model/table-names.js';
import type { FoundTable } from '../store/information-schema.js';
import {
  CREATED_PREFIX,
  LEDGER_TABLE,
  type LedgerEntry,
  ledgerDeleteStatement,
  ledgerWriteStatement,
  USES_PREFIX,
} from '../store/ledger.js';
import { dropTable } from '../store/row-statements.js';
import type { PlannedChange } from './change.js';
import type { UninstallFile } from './install-file.js';
import { installationTableNames, type TableState } from './state.js';

/** How the drops are decided besides the ledger and the tables' states. */
export interface DropOptions {
  /** Drop a table that holds rows too. */
  readonly force: boolean;
  /** Whether the server matches table names regardless of case (see {@link sameTableName}). */
  readonly foldsNames: boolean;
}

/** Children before parents, so foreign keys never block a drop. */
const DROP_ORDER = [
  'OPER_GRUPO_METRICA',
  'OPER_OPER_GRUPO',
  'OPER',
  'OPER_GRUPO',
] as const satisfies readonly (typeof LOGICAL_TABLES)[number][];

/**
 * The installation's tables that exist though it never recorded creating them: `apply` found them
 * made (by `db sync`, drizzle-kit or by hand) and only uses them, so uninstall leaves them, saying so
 * (`TABLE_NOT_CREATED`, with the DROP to run by hand, children first), unless another installation
 * uses them too: they are its tables as much.
 */
export function tablesNotCreated(
  file: UninstallFile,
  mine: readonly LedgerEntry[],
  ledger: readonly LedgerEntry[],
  tables: ReadonlyMap<string, FoundTable | undefined>,
  foldsNames: boolean,
): Finding[] {
  const names = installationTableNames(file);
  return DROP_ORDER.flatMap((logical): Finding[] => {
    const table = names[logical];
    const created = mine.some((entry) => entry.key === `${CREATED_PREFIX}${logical}`);
    const usedByOthers = ledger.some(
      (other) =>
        !sameScope(other.scope, file.scope) &&
        (other.key.startsWith(USES_PREFIX) || other.key.startsWith(CREATED_PREFIX)) &&
        sameTableName(other.hostTable, table, foldsNames),
    );
    if (created || usedByOthers || tables.get(table) === undefined) return [];
    return [
      {
        level: 'info',
        code: 'TABLE_NOT_CREATED',
        path: table,
        message: `table ${table} (${logical}) was there before apply (made by db sync, drizzle-kit push or by hand), so apply never recorded creating it: kept, with its rows; drop it yourself once you no longer need it (${dropTable(table).sql})`,
      },
    ];
  });
}

/**
 * The tables this installation created and may drop, decided over what was read: each only under
 * the installation's own name for it, handed over to another installation that uses it, kept when a
 * foreign key of a table that stays points at it or (without `force`) when it holds rows.
 */
export function planTableDrops(
  file: UninstallFile,
  mine: readonly LedgerEntry[],
  ledger: readonly LedgerEntry[],
  states: ReadonlyMap<string, TableState>,
  { force, foldsNames }: DropOptions,
  findings: Finding[],
): PlannedChange[] {
  const drops: PlannedChange[] = [];
  for (const logical of DROP_ORDER) {
    const entry = mine.find((e) => e.key === `${CREATED_PREFIX}${logical}`);
    if (entry === undefined) continue;
    // Only the installation's own name for this table is ever dropped: a stale or edited entry
    // naming another table is reported and kept.
    const table = installationTableNames(file)[logical];
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
    // before recording its use) keeps the table, even with --force: as the server matches names, so
    // another scope's `mo_oper` keeps our MO_OPER where the server folds names.
    const user = ledger.find(
      (other) =>
        !sameScope(other.scope, entry.scope) &&
        (other.key.startsWith(USES_PREFIX) || other.key.startsWith(CREATED_PREFIX)) &&
        sameTableName(other.hostTable, table, foldsNames),
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
    const dropped = drops.filter((drop) => drop.kind === 'drop-table').map((drop) => drop.table);
    const blocker = keyOfATableThatStays(state, table, dropped);
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
 * The first foreign key pointing at `table` from a table that stays: neither `table` itself nor one
 * of `dropped` (dropped before it). Compared without case where the server folds names (with
 * lower_case_table_names=1 it reports `mo_oper` for MO_OPER); exactly where it keeps them apart.
 */
export function keyOfATableThatStays(
  state: TableState,
  table: string,
  dropped: readonly string[],
): TableState['referencedBy'][number] | undefined {
  return state.referencedBy.find((key) => {
    const same = (name: string) => sameTableName(name, key.table, key.foldsNames);
    return !same(table) && !dropped.some(same);
  });
}

/**
 * A table this installation created that another one still uses stays, and the record of its
 * creation passes to that installation: the last one to leave drops it, so it is never orphaned.
 * The heir's entry names the table as the heir does (`mo_oper` for our MO_OPER where the server
 * folds names): its uninstall drops a table only under its own name for it.
 */
function handOver(entry: LedgerEntry, user: LedgerEntry, actingUser: number): PlannedChange {
  const logical = user.key.slice(user.key.indexOf(':') + 1);
  const heir = {
    scope: user.scope,
    key: `${CREATED_PREFIX}${logical}`,
    hostTable: user.hostTable,
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
