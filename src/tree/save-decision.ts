import { type ColumnType, sameStored, storedText, storedValue } from '../model/column-values.js';
import type { Identifier } from '../model/identifier.js';
import type { MetricValue } from '../model/metrics.js';
import {
  InvalidRequestError,
  type MetricConflict,
  NotFoundError,
  ReadOnlyRowError,
} from '../model/request-errors.js';
import type { HistoryChange } from '../store/history.js';
import type { MetricWrite, RowUpdate } from '../store/metric-writes.js';
import type { LastChange } from './saved-row.js';

/*
 * What a save does, decided purely over what its locking read found: which keys insert, which rows
 * change which fields, which are removed, what the history records, which fields conflict, and what
 * the answer says. The caller reads, asks this, then writes (or refuses) in the same transaction.
 */

/** An entry of a batch, checked: its values and bases by metric column, in the column's own form. */
export interface CheckedEntry extends MetricWrite {
  /** Its index in the batch, for paths and conflicts. */
  readonly index: number;
  readonly key: string;
  /** Per field, the value the client started from; a field without one is written whatever is stored. */
  readonly base: ReadonlyMap<Identifier, MetricValue>;
  readonly remove: boolean;
  /** Whether the client read a live row of the key; undefined when it did not say (bases alone decide). */
  readonly row: boolean | undefined;
  /** The device's time of entry, whole seconds since the epoch (see `HistoryChange.deviceAt`); null when not sent. */
  readonly deviceAt: number | null;
}

/** A key's live rows as the locking read found them. */
export interface LockedKey {
  /** Every live row of the key (a host may have stored one twice): all are changed alike. */
  readonly ids: readonly number[];
  /** The SEQ_DB of the row of lowest ID, the one the screen shows. */
  readonly seqDb: number;
  /**
   * The key's other live rows (stored twice by a writer outside the package), each with its metric
   * values as read: changed alike with the shown row, and each change of theirs in the history too.
   */
  readonly twins: readonly { readonly seqDb: number; readonly stored: ReadonlyMap<Identifier, unknown> }[];
  readonly readOnly: boolean;
  readonly inactive: boolean;
  /** The shown row's metric values by column, as read. */
  readonly stored: ReadonlyMap<Identifier, unknown>;
  readonly lastChange: LastChange | null;
}

/** One entry as the answer gives it back: what its key stores now (null: no live row, the defaults apply). */
export interface SavedEntry {
  readonly activity: number;
  readonly group: number | null;
  readonly stored: Readonly<Record<string, MetricValue>> | null;
  readonly lastChange: LastChange | null;
}

export interface SaveDecision {
  readonly conflicts: readonly MetricConflict[];
  readonly inserts: readonly MetricWrite[];
  /** Rows whose fields change, only the fields that change. */
  readonly updates: readonly RowUpdate[];
  /** Rows to soft-delete. */
  readonly removes: readonly RowUpdate[];
  readonly history: readonly HistoryChange[];
  /** The answer's entries; a new row's fields that took a default of their own are in `readBack`. */
  readonly entries: readonly SavedEntry[];
  /** New rows whose answer waits for what their columns' defaults put there: read back once inserted. */
  readonly readBack: readonly ReadBack[];
  readonly counts: { inserted: number; updated: number; removed: number; unchanged: number };
}

/** A new row to read back: the answer's entry at `entry`, and the `fields` its defaults filled. */
export interface ReadBack {
  readonly entry: number;
  readonly activity: number;
  readonly group: number | null;
  readonly fields: readonly Identifier[];
}

/** What the decision needs besides the entries and their rows. */
export interface DecisionContext {
  /** The configured metric columns the table has, with their types, in the TREE_VIEW's order. */
  readonly columns: ReadonlyMap<Identifier, ColumnType>;
  /** The acting user and the server's time: the last change of what this save writes. */
  readonly user: number;
  readonly now: string;
}

const DELETED = 'DELETED' as Identifier;

/**
 * Decides a batch over its keys' locked rows. Throws for an entry the package may not apply (RO or
 * inactive row, removing a key that has no row), naming it; returns the conflicts rather than throw,
 * so the caller can find who made each change before refusing.
 *
 * A field conflicts when it has a base, the stored value differs from it, and the stored value is not
 * already what the entry sends (the same change made twice is no conflict). An entry that says it
 * read no live row (`row: false`) of a key that has one now conflicts instead at every sent field the
 * row does not hold as sent; one that read a row (`row: true`) of a key without one now, at every
 * sent field. A field whose stored value is what the entry sends is not written and leaves no history.
 */
export function decideSave(
  entries: readonly CheckedEntry[],
  locked: ReadonlyMap<string, LockedKey>,
  context: DecisionContext,
): SaveDecision {
  const { columns, user, now } = context;
  const conflicts: MetricConflict[] = [];
  const inserts: MetricWrite[] = [];
  const updates: RowUpdate[] = [];
  const removes: RowUpdate[] = [];
  const history: HistoryChange[] = [];
  const saved: SavedEntry[] = [];
  const readBack: ReadBack[] = [];
  const counts = { inserted: 0, updated: 0, removed: 0, unchanged: 0 };
  const mine: LastChange = { user, at: now };
  for (const entry of entries) {
    const row = locked.get(entry.key);
    const { index, activity, group } = entry;
    const where = `activity ${activity} under node ${group}`;
    if (row?.readOnly) {
      throw new ReadOnlyRowError(
        'READ_ONLY_ROW',
        `entry ${index}: the metrics of ${where} are read-only (RO=1) and cannot be changed; nothing was saved`,
        { path: `entries.${index}` },
      );
    }
    // Updating would change values no screen shows, reactivating would undo an operator's decision,
    // inserting would give the key two rows: refuse, and let the operator reactivate the row.
    if (row?.inactive) {
      throw new ReadOnlyRowError(
        'INACTIVE_ROW',
        `entry ${index}: the metrics of ${where} are inactive (ATIVO=0) and cannot be changed; reactivate the row first; nothing was saved`,
        { path: `entries.${index}` },
      );
    }
    const storedOf = (field: Identifier) => row?.stored.get(field) ?? null;
    const conflict = (field: Identifier, column: ColumnType, base: MetricValue, yours: MetricValue) =>
      conflicts.push({
        entry: index,
        activity,
        group,
        field,
        base,
        theirs: storedValue(column, storedOf(field)),
        row: row !== undefined,
        yours,
        changedBy: row?.lastChange?.user ?? null,
        changedAt: row?.lastChange?.at ?? null,
      });
    if (!entry.remove && entry.row !== undefined && entry.row !== (row !== undefined)) {
      // The key's row was made or removed since the client read it. A base of null cannot say so (no
      // row, or a row holding NULL), so every sent field conflicts that the key does not now hold as
      // sent: none does without a row, whose defaults differ from "saved empty" or a value.
      for (const [field, yours] of entry.values) {
        const column = columns.get(field);
        if (column === undefined) continue;
        if (row !== undefined && sameStored(column, storedOf(field), yours)) continue;
        conflict(field, column, entry.base.get(field) ?? null, yours);
      }
    } else {
      // Each sent field's base against what is stored now.
      for (const [field, base] of entry.base) {
        const column = columns.get(field);
        if (column === undefined) continue;
        const theirs = storedOf(field);
        const yours = entry.remove ? null : (entry.values.get(field) ?? null);
        if (sameStored(column, theirs, base)) continue;
        if (!entry.remove && sameStored(column, theirs, yours)) continue;
        conflict(field, column, base, yours);
      }
    }
    if (entry.remove) {
      if (row === undefined) {
        throw new NotFoundError(
          'ENTRY_NOT_FOUND',
          `entry ${index}: ${where} has no saved entry on this task sheet to remove (never saved, or removed already)`,
          { path: `entries.${index}` },
        );
      }
      removes.push({ ids: row.ids, values: new Map([[DELETED, 1]]) });
      // Only the fields the row held: a NULL field goes to no entry (the defaults apply again)
      // from nothing, no change of its own. A row saved empty, every field NULL, still changes: from
      // "saved empty" to no entry. Its one row is the first metric's, NULL to NULL.
      for (const { seqDb, stored } of [row, ...row.twins]) {
        const held = [...columns].filter(([field]) => (stored.get(field) ?? null) !== null);
        const recorded = held.length > 0 ? held : [...columns].slice(0, 1);
        for (const [field, column] of recorded) {
          history.push(
            change(seqDb, entry, field, 'remove', storedText(column, stored.get(field) ?? null), null),
          );
        }
      }
      counts.removed++;
      saved.push({ activity, group, stored: null, lastChange: null });
      continue;
    }
    if (row === undefined) {
      // A new row holds what the entry sends; a field it leaves out is the column's default, which
      // the history does not record (the entry did not write it) and the answer reads back from the
      // row, or NULL for a column without one. A NOT NULL column without a default cannot be left out.
      inserts.push(entry);
      const stored: Record<string, MetricValue> = {};
      const defaulted: Identifier[] = [];
      for (const [field, column] of columns) {
        if (entry.values.has(field)) {
          const value = entry.values.get(field) ?? null;
          stored[field] = storedValue(column, value);
          history.push(change(null, entry, field, 'insert', null, storedText(column, value)));
          continue;
        }
        if (column.leftOut === 'refused') {
          throw new InvalidRequestError(
            'METRIC_VALUE_REQUIRED',
            `entry ${index}: ${where} has no saved entry yet, and a new row needs ${field} (its column is NOT NULL without a default): send a value for it; nothing was saved`,
            { path: `entries.${index}.values.${field}` },
          );
        }
        stored[field] = null;
        if (column.leftOut === 'default') defaulted.push(field);
      }
      if (defaulted.length > 0) readBack.push({ entry: saved.length, activity, group, fields: defaulted });
      counts.inserted++;
      saved.push({ activity, group, stored, lastChange: mine });
      continue;
    }
    const changed = new Map<Identifier, MetricValue>();
    const stored: Record<string, MetricValue> = {};
    for (const [field, column] of columns) {
      const before = storedOf(field);
      if (!entry.values.has(field) || sameStored(column, before, entry.values.get(field))) {
        stored[field] = storedValue(column, before);
        continue;
      }
      const value = entry.values.get(field) ?? null;
      changed.set(field, value);
      stored[field] = storedValue(column, value);
      const action = value === null ? 'clear' : 'update';
      history.push(
        change(row.seqDb, entry, field, action, storedText(column, before), storedText(column, value)),
      );
      // The key's twin rows take the value too: each one that held another is a change of its own.
      for (const twin of row.twins) {
        const held = twin.stored.get(field) ?? null;
        if (sameStored(column, held, value)) continue;
        history.push(
          change(twin.seqDb, entry, field, action, storedText(column, held), storedText(column, value)),
        );
      }
    }
    if (changed.size === 0) {
      counts.unchanged++;
      saved.push({ activity, group, stored, lastChange: row.lastChange });
      continue;
    }
    updates.push({ ids: row.ids, values: changed });
    counts.updated++;
    saved.push({ activity, group, stored, lastChange: mine });
  }
  return { conflicts, inserts, updates, removes, history, entries: saved, readBack, counts };
}

/**
 * The answer's entries with the fields of `readBack` as the rows read back hold them: `rows[i]` is
 * the new row of `readBack[i]`, by column (as read, in any form {@link storedValue} takes).
 */
export function withReadBack(
  entries: readonly SavedEntry[],
  readBack: readonly ReadBack[],
  rows: readonly ReadonlyMap<Identifier, unknown>[],
  columns: ReadonlyMap<Identifier, ColumnType>,
): SavedEntry[] {
  const read = new Map(readBack.map((back, index) => [back.entry, { back, row: rows[index] }]));
  return entries.map((entry, position) => {
    const found = read.get(position);
    if (found === undefined || entry.stored === null) return entry;
    const stored = { ...entry.stored };
    for (const field of found.back.fields) {
      const column = columns.get(field);
      if (column !== undefined) stored[field] = storedValue(column, found.row?.get(field) ?? null);
    }
    return { ...entry, stored };
  });
}

function change(
  row: number | null,
  entry: CheckedEntry,
  field: Identifier,
  action: HistoryChange['action'],
  old: string | null,
  now: string | null,
): HistoryChange {
  return {
    row,
    activity: entry.activity,
    group: entry.group,
    field,
    action,
    old,
    new: now,
    deviceAt: entry.deviceAt,
  };
}
