import { parseIdentifier, quoteIdentifier } from '../model/identifier.js';
import type { Scope } from '../model/scope.js';
import { LEDGER_TABLE_NAME } from '../model/table-names.js';
import { PACKAGE_VERSION } from '../model/version.js';
import type { SqlExecutor } from './driver.js';
import { tableExists } from './host-table.js';
import type { Statement } from './row-statements.js';

/**
 * The installer's own record of what it created: one entry per installation (scope) and stable key
 * (`menu:activities`, `link-field`, `parameter:TREE_VIEW`, `table:OPER`), pointing at the row's
 * SEQ_DB in the host table. Entries are written in the same transaction as the rows they describe,
 * so an installer killed at any point leaves both or neither: the next run finds exactly what exists.
 * Rows without an entry were not made by us and are never updated or deleted.
 */
export const LEDGER_TABLE = parseIdentifier(LEDGER_TABLE_NAME, 'ledger table');
const LEDGER = quoteIdentifier(LEDGER_TABLE);

export const LEDGER_DDL = `CREATE TABLE IF NOT EXISTS ${LEDGER} (
  SEQ_DB bigint unsigned NOT NULL AUTO_INCREMENT,
  EMPRESA int NOT NULL,
  FILIAL int NOT NULL,
  LOCAL int NOT NULL,
  ENTRY_KEY varchar(100) NOT NULL,
  HOST_TABLE varchar(64) NOT NULL,
  ROW_SEQ_DB bigint unsigned DEFAULT NULL,
  INS_USUARIO_SEQ_DB bigint unsigned NOT NULL,
  INS_DH timestamp NULL DEFAULT CURRENT_TIMESTAMP,
  UPD_DH timestamp NULL DEFAULT NULL ON UPDATE CURRENT_TIMESTAMP,
  PACKAGE_VERSION varchar(40) DEFAULT NULL,
  PRIMARY KEY (SEQ_DB),
  UNIQUE KEY task_association_ledger_entry (EMPRESA, FILIAL, LOCAL, ENTRY_KEY)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`;

/**
 * Columns a ledger made by an older version lacks, and the statement adding each (status reports
 * when and by which version an installation was written). Run before the first write to the ledger.
 */
const LEDGER_COLUMNS_ADDED = [
  {
    column: 'UPD_DH',
    sql: `ALTER TABLE ${LEDGER} ADD COLUMN UPD_DH timestamp NULL DEFAULT NULL ON UPDATE CURRENT_TIMESTAMP`,
  },
  {
    column: 'PACKAGE_VERSION',
    sql: `ALTER TABLE ${LEDGER} ADD COLUMN PACKAGE_VERSION varchar(40) DEFAULT NULL`,
  },
] as const;

/** The statements that bring an existing ledger to this version's columns ([] when it has them, or is absent). */
export async function ledgerUpgrades(db: SqlExecutor): Promise<string[]> {
  const rows = await db.query<{ COLUMN_NAME: string }>(
    'SELECT COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?',
    [LEDGER_TABLE],
  );
  if (rows.length === 0) return [];
  const present = new Set(rows.map((row) => row.COLUMN_NAME.toUpperCase()));
  return LEDGER_COLUMNS_ADDED.filter(({ column }) => !present.has(column)).map(({ sql }) => sql);
}

export interface LedgerEntry {
  readonly scope: Scope;
  readonly key: string;
  readonly hostTable: string;
  /** The host row's SEQ_DB; null for a `table:` entry (a table we created). */
  readonly rowSeqDb: number | null;
}

interface LedgerRow {
  EMPRESA: number;
  FILIAL: number;
  LOCAL: number;
  ENTRY_KEY: string;
  HOST_TABLE: string;
  ROW_SEQ_DB: number | null;
}

/** Every entry of every installation (shared rows need the others'); none while the table is absent. */
export async function readLedger(db: SqlExecutor): Promise<LedgerEntry[]> {
  if (!(await tableExists(db, LEDGER_TABLE))) return [];
  const rows = await db.query<LedgerRow>(
    `SELECT EMPRESA, FILIAL, LOCAL, ENTRY_KEY, HOST_TABLE, ROW_SEQ_DB FROM ${LEDGER} ORDER BY SEQ_DB`,
  );
  return rows.map((row) => ({
    scope: { EMPRESA: row.EMPRESA, FILIAL: row.FILIAL, LOCAL: row.LOCAL },
    key: row.ENTRY_KEY,
    hostTable: row.HOST_TABLE,
    rowSeqDb: row.ROW_SEQ_DB === null ? null : Number(row.ROW_SEQ_DB),
  }));
}

export function sameScope(a: Scope, b: Scope): boolean {
  return a.EMPRESA === b.EMPRESA && a.FILIAL === b.FILIAL && a.LOCAL === b.LOCAL;
}

/**
 * Records (or re-points, after the row was re-created) one entry. `LAST_INSERT_ID` points it at the
 * row the statement just before inserted on the same connection.
 */
export function ledgerWriteStatement(
  entry: Omit<LedgerEntry, 'rowSeqDb'> & { readonly rowSeqDb: number | null | typeof LAST_INSERT_ID },
  actingUser: number,
): Statement {
  const lastInsert = entry.rowSeqDb === LAST_INSERT_ID;
  const params = [entry.scope.EMPRESA, entry.scope.FILIAL, entry.scope.LOCAL, entry.key, entry.hostTable];
  return {
    sql: `INSERT INTO ${LEDGER} (EMPRESA, FILIAL, LOCAL, ENTRY_KEY, HOST_TABLE, ROW_SEQ_DB, INS_USUARIO_SEQ_DB, PACKAGE_VERSION) VALUES (?, ?, ?, ?, ?, ${lastInsert ? 'LAST_INSERT_ID()' : '?'}, ?, ?) ON DUPLICATE KEY UPDATE HOST_TABLE = VALUES(HOST_TABLE), ROW_SEQ_DB = VALUES(ROW_SEQ_DB), PACKAGE_VERSION = VALUES(PACKAGE_VERSION)`,
    params: [...params, ...(lastInsert ? [] : [entry.rowSeqDb]), actingUser, PACKAGE_VERSION],
  };
}

/** Stands for "the SEQ_DB the previous INSERT made" in {@link ledgerWriteStatement}. */
export const LAST_INSERT_ID = Symbol('LAST_INSERT_ID()');

export function ledgerDeleteStatement(scope: Scope, key: string): Statement {
  return {
    sql: `DELETE FROM ${LEDGER} WHERE EMPRESA = ? AND FILIAL = ? AND LOCAL = ? AND ENTRY_KEY = ?`,
    params: [scope.EMPRESA, scope.FILIAL, scope.LOCAL, key],
  };
}

export async function writeLedgerEntry(
  tx: SqlExecutor,
  entry: LedgerEntry,
  actingUser: number,
): Promise<void> {
  const statement = ledgerWriteStatement(entry, actingUser);
  await tx.execute(statement.sql, statement.params);
}

export async function deleteLedgerEntry(tx: SqlExecutor, scope: Scope, key: string): Promise<void> {
  const statement = ledgerDeleteStatement(scope, key);
  await tx.execute(statement.sql, statement.params);
}
