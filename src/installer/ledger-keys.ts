/** The ledger key saying the installation created a table (written before the DDL). */
export const CREATED_PREFIX = 'table:';
/** The ledger key saying the installation uses a table, whoever created it. */
export const USES_PREFIX = 'uses:';

/** A host row as read: column name → value. */
export type HostRow = Record<string, unknown>;

/** How the rows the ledger points at are keyed once read: `table#SEQ_DB`. */
export function rowId(table: string, seqDb: number): string {
  return `${table}#${seqDb}`;
}
