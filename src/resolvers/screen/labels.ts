import { type Identifier, parseIdentifier } from '../../identifier.js';
import type { Row } from '../metric-defaults.js';
import type { PlannedLevel } from '../tree-plan.js';

/** What labels a node when its layer names no `labelColumns`: `CODIGO — DESCRICAO`. */
export const DEFAULT_LABEL_COLUMNS: readonly Identifier[] = [
  parseIdentifier('CODIGO', 'label column'),
  parseIdentifier('DESCRICAO', 'label column'),
];

/** The label columns of a level: its layer's `labelColumns`, else {@link DEFAULT_LABEL_COLUMNS}. */
export function labelColumnsOf(level: PlannedLevel): readonly Identifier[] {
  return level.labelColumns ?? DEFAULT_LABEL_COLUMNS;
}

/**
 * A node's label: the non-empty values of `columns` joined by " — " (a host table without one of the
 * default columns simply has a shorter label), else `#<SEQ_DB>` so no node is ever blank.
 */
export function nodeLabel(row: Row, columns: readonly string[]): string {
  const parts: string[] = [];
  for (const column of columns) {
    const value = row[column];
    if (value === null || value === undefined) continue;
    const text = (value instanceof Date ? value.toISOString().slice(0, 10) : String(value)).trim();
    if (text !== '') parts.push(text);
  }
  return parts.length > 0 ? parts.join(' — ') : `#${String(row.SEQ_DB)}`;
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** Sorts nodes by label as a person reads them ("A-2" before "A-10"), then by SEQ_DB for ties. */
export function byLabel(a: { label: string; id: number }, b: { label: string; id: number }): number {
  return collator.compare(a.label, b.label) || a.id - b.id;
}
