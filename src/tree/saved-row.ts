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
