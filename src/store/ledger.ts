import { parseIdentifier } from '../model/identifier.js';
import type { Scope } from '../model/scope.js';
import { LEDGER_TABLE_NAME } from '../model/table-names.js';
import { PACKAGE_VERSION } from '../model/version.js';
import type { LedgerRow as LedgerTableRow } from '../schema/ledger.js';
import type { SqlExecutor } from './driver.js';
import { readTable, tableExists } from './information-schema.js';
import { query, type Sql, sql } from './sql.js';

/**
 * The installer's own record of what it created: one entry per installation (scope) and stable key
 * (`menu:activities`, `link-field`, `parameter:TREE_VIEW`, `table:OPER`), pointing at the row's
 * SEQ_DB in the host table. Entries are written in the same transaction as the rows they describe,
 * so an installer killed at any point leaves both or neither: the next run finds exactly what exists.
 * Rows without an entry were not made by us and are never updated or deleted.
 */
export const LEDGER_TABLE = parseIdentifier(LEDGER_TABLE_NAME, 'ledger table');
const LEDGER = sql.identifier(LEDGER_TABLE);

/** The names of the ledger's columns in this database, upper case; undefined when it has no ledger. */
export async function ledgerColumns(db: SqlExecutor): Promise<ReadonlySet<string> | undefined> {
  const ledger = await readTable(db, LEDGER_TABLE);
  return ledger === undefined
    ? undefined
    : new Set([...ledger.columns.keys()].map((name) => name.toUpperCase()));
}

export interface LedgerEntry {
  readonly scope: Scope;
  readonly key: string;
  readonly hostTable: string;
  /** The host row's SEQ_DB; null for a `table:` entry (a table we created). */
  readonly rowSeqDb: number | null;
}

type LedgerRow = Pick<
  LedgerTableRow,
  'EMPRESA' | 'FILIAL' | 'LOCAL' | 'ENTRY_KEY' | 'HOST_TABLE' | 'ROW_SEQ_DB'
>;

/** The ledger key saying the installation created a table (written before the DDL). */
export const CREATED_PREFIX = 'table:';
/** The ledger key saying the installation uses a table, whoever created it. */
export const USES_PREFIX = 'uses:';

/** Every entry, in the order written. */
export const LEDGER_ENTRIES = sql`SELECT EMPRESA, FILIAL, LOCAL, ENTRY_KEY, HOST_TABLE, ROW_SEQ_DB FROM ${LEDGER} ORDER BY SEQ_DB`;

/** Every entry of every installation (shared rows need the others'); none while the table is absent. */
export async function readLedger(db: SqlExecutor): Promise<LedgerEntry[]> {
  if (!(await tableExists(db, LEDGER_TABLE))) return [];
  const rows = await query<LedgerRow>(db, LEDGER_ENTRIES);
  return rows.map((row) => ({
    scope: { EMPRESA: row.EMPRESA, FILIAL: row.FILIAL, LOCAL: row.LOCAL },
    key: row.ENTRY_KEY,
    hostTable: row.HOST_TABLE,
    rowSeqDb: row.ROW_SEQ_DB === null ? null : Number(row.ROW_SEQ_DB),
  }));
}

/**
 * Records (or re-points, after the row was re-created) one entry. `LAST_INSERT_ID` points it at the
 * row the statement just before inserted on the same connection.
 */
export function ledgerWriteStatement(
  entry: Omit<LedgerEntry, 'rowSeqDb'> & { readonly rowSeqDb: number | null | typeof LAST_INSERT_ID },
  actingUser: number,
): Sql {
  const { scope } = entry;
  const row = entry.rowSeqDb === LAST_INSERT_ID ? sql.raw('LAST_INSERT_ID()') : sql`${entry.rowSeqDb}`;
  return sql`INSERT INTO ${LEDGER} (EMPRESA, FILIAL, LOCAL, ENTRY_KEY, HOST_TABLE, ROW_SEQ_DB, INS_USUARIO_SEQ_DB, PACKAGE_VERSION) VALUES (${scope.EMPRESA}, ${scope.FILIAL}, ${scope.LOCAL}, ${entry.key}, ${entry.hostTable}, ${row}, ${actingUser}, ${PACKAGE_VERSION}) ON DUPLICATE KEY UPDATE HOST_TABLE = VALUES(HOST_TABLE), ROW_SEQ_DB = VALUES(ROW_SEQ_DB), PACKAGE_VERSION = VALUES(PACKAGE_VERSION)`;
}

/** Stands for "the SEQ_DB the previous INSERT made" in {@link ledgerWriteStatement}. */
export const LAST_INSERT_ID = Symbol('LAST_INSERT_ID()');

export function ledgerDeleteStatement(scope: Scope, key: string): Sql {
  return sql`DELETE FROM ${LEDGER} WHERE EMPRESA = ${scope.EMPRESA} AND FILIAL = ${scope.FILIAL} AND LOCAL = ${scope.LOCAL} AND ENTRY_KEY = ${key}`;
}

/** Every ledger row with the columns `status` shows, those of `optional` the ledger has among them. */
export function ledgerStatusStatement(optional: readonly ('UPD_DH' | 'PACKAGE_VERSION')[]): Sql {
  const more = sql.raw(optional.map((column) => `, ${column}`).join(''));
  return sql`SELECT EMPRESA, FILIAL, LOCAL, ENTRY_KEY, HOST_TABLE, ROW_SEQ_DB, INS_DH${more} FROM ${LEDGER} ORDER BY EMPRESA, FILIAL, LOCAL, SEQ_DB`;
}
