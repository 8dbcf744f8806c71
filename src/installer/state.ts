import { InstallerError } from '../model/installer-errors.js';
import { MENU_TABLE } from '../model/menu.js';
import { type Scope, sameScope } from '../model/scope.js';
import { type TableNames, tableNames } from '../model/table-names.js';
import type { Database, SqlExecutor } from '../store/driver.js';
import { isNotTheTables } from '../store/failure.js';
import {
  columnOf,
  type FoundTable,
  foldsTableNames,
  type ReferencingKey,
  readTables,
  referencingKeys,
  tableExists,
  tableOf,
} from '../store/information-schema.js';
import { CREATED_PREFIX, LEDGER_TABLE, type LedgerEntry, readLedger } from '../store/ledger.js';
import { anyRow, menuRowsBySeqDb, selectBySeqDb, selectWhere } from '../store/row-statements.js';
import { query } from '../store/sql.js';
import { planSchemaSync, SHARED_TABLE_NAMES } from '../sync/plan.js';
import type { SchemaPlan } from '../sync/schema-difference.js';
import type { DesiredRow } from './desired-rows.js';
import { HOST_ROW_TABLES, type InstallFile, type UninstallFile } from './install-file.js';
import { type HostRow, rowId } from './ledger-keys.js';
import { ledgerRowIdentity, SCOPE_COLUMNS } from './row-identity.js';
import { type OwnRow, type RowReferences, readRowReferences } from './row-references.js';
import { treeViewReferences } from './verify-tree-view.js';

/*
 * The installer reads, decides, then writes. This is the reading: everything its one planner
 * (planner.ts) decides over, for apply and for uninstall, read before anything is decided, as plain
 * data. Only the hand-made rows depend on a decision (which rows would be inserted), so the planner
 * names them and they are read in a second pass.
 */

/** What the installer is asked to do. */
export type Intent =
  | { readonly action: 'apply'; readonly file: InstallFile; readonly force: boolean }
  | { readonly action: 'uninstall'; readonly file: UninstallFile; readonly force: boolean };

/** What an uninstall needs to know of a table it may drop. */
export interface TableState {
  readonly exists: boolean;
  /** Foreign keys of this database pointing at it (its own included). */
  readonly referencedBy: readonly ReferencingKey[];
  readonly hasRows: boolean;
}

/** The host rows the row planner decides over. */
export interface RowState {
  /** The host rows the ledger points at, keyed by {@link rowId}. */
  readonly existing: ReadonlyMap<string, HostRow>;
  /**
   * The rows made by hand with the natural key of a wanted row (a menu entry of the same meaning,
   * say), by that row's ledger key; a key not here was not looked up.
   */
  readonly byHand: ReadonlyMap<string, readonly HostRow[]>;
  /**
   * The rows referring to this installation's rows of `existing` (a host menu placed under one of
   * ours, a row whose foreign key points at one), keyed by {@link rowId}: such a row of ours is never
   * deleted while they are there.
   */
  readonly references: RowReferences;
}

export interface InstallerState {
  /** Every table the plan looks at, as information_schema describes it; `undefined`: no such table. */
  readonly tables: ReadonlyMap<string, FoundTable | undefined>;
  /** Every entry of every installation (shared rows and tables need the others'). */
  readonly ledger: readonly LedgerEntry[];
  readonly rows: RowState;
  /** The menu rows the install file names as parents (SEQ_DB, and the scope when the table has one). */
  readonly menuParents: readonly HostRow[];
  /** What the schema sync would do to the four tables and the shared ones (apply only); the sync reads and decides it. */
  readonly schema: SchemaPlan | undefined;
  /** The tables this installation recorded creating, and the shared tables, by name (uninstall only). */
  readonly drops: ReadonlyMap<string, TableState>;
  /**
   * Whether the server matches table names regardless of case (lower_case_table_names set): then
   * another installation's `mo_oper` is this one's `MO_OPER`.
   */
  readonly foldsNames: boolean;
}

/** The installation's table names: the defaults with the file's overrides. */
export function installationTableNames(file: Pick<InstallFile, 'tableNames'>): TableNames {
  return tableNames(file.tableNames ?? {});
}

/** The table `name` as read into `state`; asking for a table the reader did not read is a bug. */
export function tableIn(state: Pick<InstallerState, 'tables'>, name: string): FoundTable | undefined {
  if (!state.tables.has(name)) throw new Error(`the installer's state holds no read of table ${name}`);
  return state.tables.get(name);
}

/** Reads the state `intent` is decided over (without the hand-made rows: see {@link readByHand}). */
export async function readInstallerState(db: Database, intent: Intent): Promise<InstallerState> {
  const names = installationTableNames(intent.file);
  const wanted = [...new Set([LEDGER_TABLE, ...Object.values(names), ...hostTablesOf(intent)])];
  const found = await readTables(db, wanted);
  const tables = new Map(wanted.map((name) => [name, tableOf(found, name)]));
  const rows = await readRowState(db, intent, tables);
  return {
    tables,
    ...rows,
    schema: intent.action === 'apply' ? await planSchemaSync(db, names) : undefined,
    drops: intent.action === 'uninstall' ? await readDropStates(db, intent, rows.ledger) : new Map(),
    foldsNames: await foldsTableNames(db),
  };
}

/** The tables apply looks at besides the ledger and its four: the host's, and those its TREE_VIEW names. */
function hostTablesOf(intent: Intent): string[] {
  if (intent.action !== 'apply') return [];
  const { treeView } = intent.file;
  const named =
    treeView === undefined ? [] : treeViewReferences(treeView, installationTableNames(intent.file));
  return [...HOST_ROW_TABLES, ...named.map((reference) => reference.table)];
}

/**
 * The rows part of the state: the ledger, the host rows it points at, the menu parents. Read again
 * inside the row transaction, where the rows are decided once more before they are written: there
 * (`lock`) the rows the ledger points at are locked first, then the rows referring to them read
 * with locking reads, so a host row put under one of ours meanwhile is seen, never deleted with it.
 */
export async function readRowState(
  db: SqlExecutor,
  intent: Intent,
  tables: InstallerState['tables'],
  lock = false,
): Promise<Pick<InstallerState, 'ledger' | 'rows' | 'menuParents'>> {
  const ledger = await readLedger(db);
  // Apply (and verify) say a host table that is gone is missing; uninstall refuses to forget rows it
  // cannot see (the table may be back tomorrow, with our rows in it).
  const existing = await readLedgerRows(db, ledger, intent.action === 'apply' ? tables : undefined, lock);
  const references = await readRowReferences(db, ownRows(ledger, existing, intent.file.scope), lock);
  const menuParents = intent.action === 'apply' ? await readMenuParents(db, intent.file, tables) : [];
  return { ledger, rows: { existing, byHand: new Map(), references }, menuParents };
}

/** The rows of `existing` this installation's entries point at: the only ones it may delete. */
function ownRows(
  ledger: readonly LedgerEntry[],
  existing: ReadonlyMap<string, HostRow>,
  scope: Scope,
): OwnRow[] {
  const own = new Map<string, OwnRow>();
  for (const entry of ledger) {
    if (!sameScope(entry.scope, scope) || entry.rowSeqDb === null) continue;
    const id = rowId(entry.hostTable, entry.rowSeqDb);
    const row = existing.get(id);
    if (row !== undefined) own.set(id, { table: entry.hostTable, seqDb: entry.rowSeqDb, row });
  }
  return [...own.values()];
}

/** The hand-made rows the planner asked to see: those with the natural key of each row, by its key. */
export async function readByHand(
  db: SqlExecutor,
  lookups: readonly DesiredRow[],
): Promise<Map<string, HostRow[]>> {
  const byHand = new Map<string, HostRow[]>();
  for (const row of lookups)
    byHand.set(row.key, await query<HostRow>(db, selectWhere(row.table, row.naturalKey)));
  return byHand;
}

/**
 * The host rows the ledger points at, keyed by {@link rowId}; none of a host table that `tables`
 * read as gone. A failed read throws: nothing is planned.
 */
async function readLedgerRows(
  db: SqlExecutor,
  ledger: readonly LedgerEntry[],
  tables: InstallerState['tables'] | undefined,
  lock: boolean,
): Promise<Map<string, HostRow>> {
  const byTable = new Map<string, number[]>();
  for (const entry of ledger) {
    // Only the host row tables an entry's key allows are ever read (or written, or deleted from).
    if (entry.rowSeqDb === null || ledgerRowIdentity(entry) === undefined) continue;
    if (tables !== undefined && tableIn({ tables }, entry.hostTable) === undefined) continue;
    byTable.set(entry.hostTable, [...(byTable.get(entry.hostTable) ?? []), entry.rowSeqDb]);
  }
  const rows = new Map<string, HostRow>();
  for (const [table, seqDbs] of byTable) {
    const statement = selectBySeqDb(table, [...new Set(seqDbs)], lock);
    const found = await db.query<HostRow>(statement.sql, statement.params).catch((error: unknown) => {
      if (isNotTheTables(error)) throw error;
      throw new InstallerError(
        'LEDGER_ROWS_UNREADABLE',
        `cannot read the rows the ledger records in ${table} (${error instanceof Error ? error.message : String(error)}): nothing was changed`,
        { path: table, cause: error },
      );
    });
    for (const row of found) rows.set(rowId(table, Number(row.SEQ_DB)), row);
  }
  return rows;
}

/** The menu rows named as parents; none to read when the menu table is missing or has no SEQ_DB. */
async function readMenuParents(
  db: SqlExecutor,
  file: InstallFile,
  tables: InstallerState['tables'],
): Promise<HostRow[]> {
  const menu = tables.get(MENU_TABLE);
  const parents = Object.values(file.menus).flatMap((placement) =>
    placement.father === null ? [] : [placement.father],
  );
  if (menu === undefined || columnOf(menu, 'SEQ_DB') === undefined || parents.length === 0) return [];
  const scoped = SCOPE_COLUMNS.every((column) => columnOf(menu, column) !== undefined);
  return query<HostRow>(db, menuRowsBySeqDb([...new Set(parents)], scoped));
}

/**
 * Of each table uninstall may drop, whether it exists, the foreign keys pointing at it, whether it
 * holds rows: the tables this installation recorded creating under its own name for it, and the
 * shared tables (dropped with the last installation; the planner decides whether this is it). No
 * other table is read.
 */
export async function readDropStates(
  db: SqlExecutor,
  intent: Intent,
  ledger: readonly LedgerEntry[],
): Promise<Map<string, TableState>> {
  const created = new Set(
    ledger
      .filter((entry) => sameScope(entry.scope, intent.file.scope) && entry.key.startsWith(CREATED_PREFIX))
      .map((entry) => entry.hostTable),
  );
  const own = Object.values(installationTableNames(intent.file)).filter((table) => created.has(table));
  const states = new Map<string, TableState>();
  for (const table of [...own, ...SHARED_TABLE_NAMES]) states.set(table, await readDropState(db, table));
  return states;
}

async function readDropState(db: SqlExecutor, table: string): Promise<TableState> {
  // Asked of the server, not of the state's tables: this is read again just before the drops, and
  // a table may have gone since.
  if (!(await tableExists(db, table))) return { exists: false, referencedBy: [], hasRows: false };
  const referencedBy = await referencingKeys(db, table);
  const [row] = await query(db, anyRow(table));
  return { exists: true, referencedBy, hasRows: row !== undefined };
}
