import type { Row } from './metric-defaults.js';

/** A key's saved metric row (its lowest ID) and whether a save may change it. */
export interface SavedRow {
  readonly row: Row;
  /** False when any row of the key is read-only (RO=1) or inactive (ATIVO=0): a save refuses the key. */
  readonly editable: boolean;
}

/**
 * `kept` with another row of the same key taken in. If a host ever stored a key twice, the row of
 * lowest ID is shown, as saving updates that one; the key is editable only while none of its rows is
 * locked, as saving refuses it otherwise. The tree and the screen's branches read keys alike.
 */
export function withSavedRow(kept: SavedRow | undefined, row: Row): SavedRow {
  const editable = Number(row.RO ?? 0) !== 1 && Number(row.ATIVO ?? 1) === 1;
  if (kept === undefined) return { row, editable };
  return {
    row: Number(row.ID) < Number(kept.row.ID) ? row : kept.row,
    editable: kept.editable && editable,
  };
}

/** Who last changed a metric row, and when (ISO 8601, UTC). */
export interface LastChange {
  readonly user: number;
  readonly at: string;
}

/**
 * The last change of a saved row: its update where it has one, else its insertion (the table's own
 * audit columns; the history table says it per field). Null without a row, or without a time.
 */
export function lastChangeOf(row: Row | undefined): LastChange | null {
  if (row === undefined) return null;
  const updated = row.UPD_DH !== null && row.UPD_DH !== undefined && row.UPD_USUARIO_SEQ_DB != null;
  const user = updated ? row.UPD_USUARIO_SEQ_DB : row.INS_USUARIO_SEQ_DB;
  const at = isoTime(updated ? row.UPD_DH : row.INS_DH);
  return user === null || user === undefined || at === null ? null : { user: Number(user), at };
}

/** A time as the driver reads it (a Date, or text from a host pool with dateStrings), as ISO 8601 text. */
export function isoTime(value: unknown): string | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (typeof value === 'string' && value !== '') {
    const date = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value.replace(' ', 'T')}Z`);
    return Number.isNaN(date.getTime()) ? null : date.toISOString();
  }
  return null;
}
