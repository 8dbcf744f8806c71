/** A host row as read: column name → value. */
export type HostRow = Record<string, unknown>;

/** How the rows the ledger points at are keyed once read: `table#SEQ_DB`. */
export function rowId(table: string, seqDb: number): string {
  return `${table}#${seqDb}`;
}
