import type { Identifier } from '../model/identifier.js';
import type { ValueColumn } from './column-types.js';
import type { SqlExecutor } from './driver.js';
import { columnOf, type FoundColumn, type FoundTable, readTable } from './information-schema.js';

/**
 * What the installer needs to know of a host table's column to write a row into it: whether it must
 * be given a value, and what a value must be to fit it.
 */
export type HostColumn = Pick<FoundColumn, 'columnType' | 'fillsItself'> & ValueColumn;

/** A host table's columns, looked up by name case-insensitively (as MySQL does). */
export interface HostTable {
  readonly name: Identifier;
  readonly columns: readonly HostColumn[];
  column(name: string): HostColumn | undefined;
}

/** Reads the columns of `table` in the current database, or `undefined` when there is no such table. */
export async function readHostTable(db: SqlExecutor, table: Identifier): Promise<HostTable | undefined> {
  const found = await readTable(db, table);
  return found === undefined ? undefined : hostTableOf(table, found);
}

/** The host table `table` as read into `found`. */
export function hostTableOf(table: Identifier, found: FoundTable): HostTable {
  return { name: table, columns: [...found.columns.values()], column: (name) => columnOf(found, name) };
}
