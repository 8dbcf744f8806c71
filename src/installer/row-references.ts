import { sameName, sameTableName } from '../model/identifier.js';
import { InstallerError } from '../model/installer-errors.js';
import { MENU_TABLE } from '../model/menu.js';
import type { SqlExecutor } from '../store/driver.js';
import { isNotTheTables } from '../store/failure.js';
import { type ReferencingForeignKey, referencingForeignKeys } from '../store/information-schema.js';
import { referringRows } from '../store/row-statements.js';
import { query } from '../store/sql.js';
import { HOST_ROW_TABLES } from './install-file.js';
import { type HostRow, rowId } from './ledger-keys.js';

/*
 * The rows that refer to the installer's own host rows: a menu entry of the host's placed under one
 * of ours (FATHER), or a row of any table whose foreign key points at one. Deleting such a row of ours
 * would delete theirs (ON DELETE CASCADE), change them (SET NULL) or leave them pointing at nothing,
 * so it stays: the installer only ever removes what it made, and nothing of the host's.
 */

/** Rows of one table that refer to one of the installer's rows. */
export interface RowReference {
  /** The table holding them (one of the installer's host tables under the installer's name for it). */
  readonly table: string;
  /** How they refer to it: a foreign key's name, or FATHER (the menu tree, with or without a key). */
  readonly via: string;
  readonly rows: number;
  /**
   * Their SEQ_DB where they are rows of a table the installer removes rows from (they may be its
   * own, going in the same plan); `undefined` elsewhere, where every one of them counts.
   */
  readonly seqDbs?: readonly number[];
}

/** The rows referring to each row of `rows`, keyed by {@link rowId}; a row nothing refers to is absent. */
export type RowReferences = ReadonlyMap<string, readonly RowReference[]>;

/** One of the installer's host rows, as read. */
export interface OwnRow {
  readonly table: string;
  readonly seqDb: number;
  readonly row: HostRow;
}

/** How the rows of a table refer to rows of the referenced one: columns paired with columns. */
interface Link {
  readonly table: string;
  readonly via: string;
  readonly columns: readonly string[];
  readonly referencedColumns: readonly string[];
  readonly foldsNames: boolean;
}

/**
 * Reads the rows referring to each of `rows`: through every foreign key of this database pointing at
 * its table, and, for menu rows, through FATHER whether a key says so or not. A failed read throws:
 * nothing is planned. `lock`: in the transaction that writes, with `rows` locked already: locking
 * reads, which see a host row committed since the transaction's snapshot (one inserted under a
 * foreign key waited for the lock on our row, and would be deleted with it by a cascade).
 */
export async function readRowReferences(
  db: SqlExecutor,
  rows: readonly OwnRow[],
  lock = false,
): Promise<RowReferences> {
  const references = new Map<string, RowReference[]>();
  for (const table of new Set(rows.map((own) => own.table))) {
    const ofTable = rows.filter((own) => own.table === table);
    const links = linksTo(table, await readKeys(db, table), ofTable);
    for (const own of ofTable) {
      for (const link of links) {
        const found = await referring(db, table, own, link, lock);
        if (found !== undefined && found.rows > 0) {
          const id = rowId(own.table, own.seqDb);
          references.set(id, [...(references.get(id) ?? []), found]);
        }
      }
    }
  }
  return references;
}

async function readKeys(db: SqlExecutor, table: string): Promise<ReferencingForeignKey[]> {
  return referencingForeignKeys(db, table).catch((error: unknown) => {
    throw unreadable(table, table, error);
  });
}

/** The keys pointing at `table`, and the menu tree's FATHER unless a key of the menu table covers it. */
function linksTo(table: string, keys: readonly ReferencingForeignKey[], rows: readonly OwnRow[]): Link[] {
  const links: Link[] = keys.map((key) => ({ ...key, via: `foreign key ${key.constraint}` }));
  if (table !== MENU_TABLE) return links;
  const father = rows.flatMap((own) => Object.keys(own.row)).find((column) => sameName(column, 'FATHER'));
  const covered = keys.some(
    (key) =>
      sameTableName(key.table, MENU_TABLE, key.foldsNames) &&
      key.columns.length === 1 &&
      sameName(key.columns[0] ?? '', 'FATHER') &&
      sameName(key.referencedColumns[0] ?? '', 'SEQ_DB'),
  );
  if (father === undefined || covered) return links;
  return [
    ...links,
    { table: MENU_TABLE, via: father, columns: [father], referencedColumns: ['SEQ_DB'], foldsNames: false },
  ];
}

/** The rows of `link.table` referring to `own`; none when the key's values are NULL (nothing matches NULL). */
async function referring(
  db: SqlExecutor,
  table: string,
  own: OwnRow,
  link: Link,
  lock: boolean,
): Promise<RowReference | undefined> {
  const values: Record<string, unknown> = {};
  for (const [index, column] of link.columns.entries()) {
    const referenced = link.referencedColumns[index] ?? '';
    const value = own.row[Object.keys(own.row).find((name) => sameName(name, referenced)) ?? referenced];
    if (value === null || value === undefined) return undefined;
    values[column] = value;
  }
  // Under the installer's name for the table, so its SEQ_DBs match the rows it keys by that name.
  const hostTable = HOST_ROW_TABLES.find((name) => sameTableName(name, link.table, link.foldsNames));
  const statement = referringRows(link.table, values, hostTable !== undefined, lock);
  const found = await query<{ SEQ_DB?: unknown; n?: unknown }>(db, statement).catch((error: unknown) => {
    throw unreadable(link.table, table, error);
  });
  if (hostTable === undefined) return { table: link.table, via: link.via, rows: Number(found[0]?.n ?? 0) };
  const seqDbs = found.map((row) => Number(row.SEQ_DB));
  return { table: hostTable, via: link.via, rows: seqDbs.length, seqDbs };
}

function unreadable(table: string, referenced: string, error: unknown): unknown {
  if (isNotTheTables(error)) return error;
  return new InstallerError(
    'REFERRING_ROWS_UNREADABLE',
    `cannot read the rows of ${table} that refer to the installer's rows in ${referenced} (${error instanceof Error ? error.message : String(error)}): nothing was changed`,
    { path: table, cause: error },
  );
}

/**
 * Of the rows a plan would delete (by {@link rowId}), those that must stay, each with the first
 * reference keeping it: rows refer to it that the plan does not delete. A row kept keeps in turn the
 * rows it refers to, so this is decided until nothing more changes.
 */
export function keptForReferences(
  deleting: readonly string[],
  references: RowReferences,
): Map<string, RowReference> {
  const kept = new Map<string, RowReference>();
  let changed = true;
  while (changed) {
    changed = false;
    const going = new Set(deleting.filter((id) => !kept.has(id)));
    for (const id of going) {
      const blocker = (references.get(id) ?? []).find((reference) => remaining(reference, going) > 0);
      if (blocker === undefined) continue;
      kept.set(id, { ...blocker, rows: remaining(blocker, going) });
      changed = true;
    }
  }
  return kept;
}

/** How many rows of `reference` stay when the rows of `going` are deleted. */
function remaining(reference: RowReference, going: ReadonlySet<string>): number {
  if (reference.seqDbs === undefined) return reference.rows;
  return reference.seqDbs.filter((seqDb) => !going.has(rowId(reference.table, seqDb))).length;
}

/**
 * `deleting` in an order that deletes a row before any row it refers to (a child menu before its
 * parent): a foreign key without ON DELETE CASCADE would refuse the parent first. Rows that refer
 * to each other in a circle keep their order.
 */
export function childrenFirst(deleting: readonly string[], references: RowReferences): string[] {
  const left = [...deleting];
  const ordered: string[] = [];
  while (left.length > 0) {
    const referredTo = (id: string) =>
      (references.get(id) ?? []).some((reference) =>
        (reference.seqDbs ?? []).some((seqDb) => {
          const child = rowId(reference.table, seqDb);
          return child !== id && left.includes(child);
        }),
      );
    const next = left.findIndex((id) => !referredTo(id));
    const [id] = left.splice(next < 0 ? 0 : next, 1);
    if (id !== undefined) ordered.push(id);
  }
  return ordered;
}
