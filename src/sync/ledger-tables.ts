import { sameName } from '../model/identifier.js';
import { LOGICAL_TABLES, type LogicalTable, type TableNames } from '../model/table-names.js';
import { CREATED_PREFIX, type LedgerEntry, USES_PREFIX } from '../store/ledger.js';

/** A table the ledger records an installation as having made or using, as the logical table it is. */
export interface RecordedTable {
  readonly entry: LedgerEntry;
  /** The logical table it was recorded as (`OPER`, `OPER_GRUPO_METRICA`, ...), as the key spells it. */
  readonly recordedAs: string;
}

/** The ledger's table entries (`table:OPER`, `uses:OPER`), in its order. */
export function recordedTables(ledger: readonly LedgerEntry[]): RecordedTable[] {
  return ledger.flatMap((entry) => {
    const prefix = [USES_PREFIX, CREATED_PREFIX].find((start) => entry.key.startsWith(start));
    return prefix === undefined ? [] : [{ entry, recordedAs: entry.key.slice(prefix.length) }];
  });
}

/** A logical name given a table some installation keeps as another logical table. */
export interface TableOfAnotherKind extends RecordedTable {
  readonly logical: LogicalTable;
}

/**
 * The names that give a table an installation keeps as one logical table to another (an OPER named
 * where an installation's metrics live): syncing it would reshape that table into a hybrid of both
 * layouts, its rows then read as the other kind. The same table under the same logical name is how
 * installations share tables, and is fine. Names compare as the server compares them (without case).
 */
export function tablesOfAnotherKind(names: TableNames, ledger: readonly LedgerEntry[]): TableOfAnotherKind[] {
  return recordedTables(ledger).flatMap((recorded) =>
    LOGICAL_TABLES.filter(
      (logical) => logical !== recorded.recordedAs && sameName(names[logical], recorded.entry.hostTable),
    ).map((logical) => ({ ...recorded, logical })),
  );
}
