import { formatScope, type Scope, sameScope } from '../model/scope.js';
import { LOGICAL_TABLES, type LogicalTable } from '../model/table-names.js';
import type { LedgerRow } from '../schema/ledger.js';
import type { SqlExecutor } from '../store/driver.js';
import { columnOf, readTables, tableOf } from '../store/information-schema.js';
import { CREATED_PREFIX, ledgerColumns, ledgerStatusStatement, USES_PREFIX } from '../store/ledger.js';
import { rowCount, rowsByScope } from '../store/row-statements.js';
import { query } from '../store/sql.js';
import { SHARED_TABLE_NAMES } from '../sync/plan.js';
import { SCOPE_COLUMNS } from './row-identity.js';

/** One installation as its ledger entries describe it (`task-association status`). */
export interface InstallationStatus {
  readonly scope: Scope;
  /** The installation's table for each logical table, as recorded by its `uses:` entries. */
  readonly tables: Partial<Record<LogicalTable, string>>;
  /** The tables this installation created (uninstall drops them when nobody else uses them). */
  readonly createdTables: readonly string[];
  /** How many host rows (menu rows, the link field, parameters) its ledger entries point at. */
  readonly rows: number;
  /** When its first entry was written, and when an entry last changed (ISO 8601, UTC). */
  readonly installedAt: string | null;
  readonly changedAt: string | null;
  /** The package version that wrote its latest entry (null: written before versions were recorded). */
  readonly version: string | null;
}

/** A ledger row as status reads it; UPD_DH and PACKAGE_VERSION are absent from an older ledger. */
export type LedgerStatusRow = Readonly<
  Pick<LedgerRow, 'EMPRESA' | 'FILIAL' | 'LOCAL' | 'ENTRY_KEY' | 'HOST_TABLE' | 'ROW_SEQ_DB' | 'INS_DH'> &
    Partial<Pick<LedgerRow, 'UPD_DH' | 'PACKAGE_VERSION'>>
>;

/** Reads every ledger row (none when the database has no ledger). */
export async function readLedgerStatusRows(db: SqlExecutor): Promise<LedgerStatusRow[] | undefined> {
  const present = await ledgerColumns(db);
  if (present === undefined) return undefined;
  const optional = (['UPD_DH', 'PACKAGE_VERSION'] as const).filter((column) => present.has(column));
  return query<LedgerStatusRow>(db, ledgerStatusStatement(optional));
}

/** The installations a ledger holds, one per scope, in scope order. Pure: tested without a database. */
export function summarizeLedger(rows: readonly LedgerStatusRow[]): InstallationStatus[] {
  const scopes: Scope[] = [];
  for (const row of rows) {
    const scope = { EMPRESA: row.EMPRESA, FILIAL: row.FILIAL, LOCAL: row.LOCAL };
    if (!scopes.some((known) => sameScope(known, scope))) scopes.push(scope);
  }
  return scopes.map((scope) => {
    const mine = rows.filter((row) => sameScope(row, scope));
    const tables: Partial<Record<LogicalTable, string>> = {};
    for (const logical of LOGICAL_TABLES) {
      const entry = mine.find((row) => row.ENTRY_KEY === `${USES_PREFIX}${logical}`);
      if (entry !== undefined) tables[logical] = entry.HOST_TABLE;
    }
    const times = mine.map((row) => ({
      inserted: isoTime(row.INS_DH),
      changed: isoTime(row.UPD_DH ?? null) ?? isoTime(row.INS_DH),
      version: row.PACKAGE_VERSION ?? null,
    }));
    const inserted = times.flatMap(({ inserted }) => (inserted === null ? [] : [inserted])).sort();
    const latest = times
      .filter((time) => time.changed !== null)
      .sort((a, b) => (a.changed ?? '').localeCompare(b.changed ?? ''))
      .at(-1);
    return {
      scope,
      tables,
      createdTables: mine
        .filter((row) => row.ENTRY_KEY.startsWith(CREATED_PREFIX))
        .map((row) => row.HOST_TABLE),
      rows: mine.filter((row) => row.ROW_SEQ_DB !== null).length,
      installedAt: inserted[0] ?? null,
      changedAt: latest?.changed ?? null,
      version: latest?.version ?? null,
    };
  });
}

/** The installations of the database `db` is connected to; [] when it has no ledger. */
export async function installationStatus(db: SqlExecutor): Promise<InstallationStatus[]> {
  return summarizeLedger((await readLedgerStatusRows(db)) ?? []);
}

/** One line per installation, for the terminal. */
export function formatInstallation(status: InstallationStatus): string {
  const tables = LOGICAL_TABLES.flatMap((logical) => {
    const name = status.tables[logical];
    return name === undefined
      ? []
      : [`${logical}=${name}${status.createdTables.includes(name) ? ' (created)' : ''}`];
  });
  // A table this installation created and no longer uses (uninstall kept it: a foreign key of the
  // host points at it) is still recorded, so that the next uninstall drops it.
  const used = new Set(Object.values(status.tables));
  const kept = status.createdTables.filter((name) => !used.has(name));
  const them = kept.length === 1 ? 'it' : 'them';
  const recorded = [
    tables.length > 0 ? tables.join(', ') : kept.length > 0 ? 'no table in use' : 'no tables recorded',
    ...(kept.length === 0
      ? []
      : [
          `still recorded: ${kept.join(', ')} (created; uninstall drops ${them} once nothing refers to ${them})`,
        ]),
  ].join('; ');
  return `scope ${formatScope(status.scope)}: ${recorded}; ${status.rows} host row(s); installed ${status.installedAt ?? 'at an unknown time'}, last changed ${status.changedAt ?? 'unknown'}${status.version === null ? '' : ` by version ${status.version}`}`;
}

function isoTime(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const date = value instanceof Date ? value : new Date(`${value.replace(' ', 'T')}Z`);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** One of the tables every installation of a database shares, as `status` lists it. */
export interface SharedTableStatus {
  readonly table: string;
  readonly exists: boolean;
  /** How many rows it holds (0 when it does not exist). */
  readonly rows: number;
  /**
   * Its rows per scope (EMPRESA/FILIAL/LOCAL), in scope order, scopes without rows left out; null
   * when it has no scope columns to count them by (changed by hand: `verify` says how).
   */
  readonly rowsByScope: readonly { readonly scope: Scope; readonly rows: number }[] | null;
}

/** A count row as the server sends it: COUNT(*) may come as a string. */
type CountRow = { readonly n: number | string };
type ScopeCountRow = CountRow & Scope;

/**
 * One shared table's status from what was read of it: absent (`undefined`), its counts per scope, or
 * (without scope columns) its total alone. Pure: tested without a database.
 */
export function sharedTableStatusOf(
  table: string,
  counts: { readonly byScope: readonly ScopeCountRow[] } | { readonly total: CountRow } | undefined,
): SharedTableStatus {
  if (counts === undefined) return { table, exists: false, rows: 0, rowsByScope: [] };
  if ('total' in counts) return { table, exists: true, rows: Number(counts.total.n), rowsByScope: null };
  const rowsByScope = counts.byScope.map(({ EMPRESA, FILIAL, LOCAL, n }) => ({
    scope: { EMPRESA: Number(EMPRESA), FILIAL: Number(FILIAL), LOCAL: Number(LOCAL) },
    rows: Number(n),
  }));
  return { table, exists: true, rows: rowsByScope.reduce((sum, { rows }) => sum + rows, 0), rowsByScope };
}

/**
 * The shared tables of the database `db` is connected to (the metric history, the saves' request
 * ids): whether each exists and how many rows it holds, per scope. Reads only.
 */
export async function sharedTableStatus(db: SqlExecutor): Promise<SharedTableStatus[]> {
  const found = await readTables(db, SHARED_TABLE_NAMES);
  const statuses: SharedTableStatus[] = [];
  for (const table of SHARED_TABLE_NAMES) {
    const read = tableOf(found, table);
    if (read === undefined) {
      statuses.push(sharedTableStatusOf(table, undefined));
      continue;
    }
    const scoped = SCOPE_COLUMNS.every((column) => columnOf(read, column) !== undefined);
    const counts = scoped
      ? { byScope: await query<ScopeCountRow>(db, rowsByScope(table)) }
      : { total: (await query<CountRow>(db, rowCount(table)))[0] ?? { n: 0 } };
    statuses.push(sharedTableStatusOf(table, counts));
  }
  return statuses;
}

/** One line per shared table, for the terminal. */
export function formatSharedTable(status: SharedTableStatus): string {
  if (!status.exists)
    return `shared table ${status.table}: missing (db sync and apply create it; saving metrics needs it)`;
  const scopes =
    status.rowsByScope === null
      ? ' (no scope columns to count them by: run verify)'
      : status.rowsByScope.length === 0
        ? ''
        : ` (${status.rowsByScope.map(({ scope, rows }) => `${formatScope(scope)}: ${rows}`).join(', ')})`;
  return `shared table ${status.table}: ${status.rows} row(s)${scopes}`;
}
