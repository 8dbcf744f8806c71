import { type Identifier, parseIdentifier } from '../../model/identifier.js';
import type { PlannedLevel } from '../../model/tree-plan.js';
import { columnKey, type Row } from '../metric-defaults.js';

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
    let value = row[column];
    if (value === undefined) {
      // Named in another case than the table's (see columnKey): looked up only when missing.
      const key = columnKey(row, column);
      value = key === undefined ? undefined : row[key];
    }
    if (value === null || value === undefined) continue;
    const text = (value instanceof Date ? value.toISOString().slice(0, 10) : String(value)).trim();
    if (text !== '') parts.push(text);
  }
  return parts.length > 0 ? parts.join(' — ') : `#${String(row.SEQ_DB)}`;
}

/**
 * The key nodes sort by, as a person reads labels: case and accents ignored, numbers by value
 * ("A-2" before "A-10"). A key per node and plain comparisons, rather than Intl.Collator's compare
 * in the sort: on a 1,000-child branch that is a tenth of the time. Plain ASCII labels (most codes)
 * skip the Unicode decomposition, and digits are padded in one pass over the text, not a regular
 * expression callback per number: the key is built for every node of every expand.
 */
export function sortKey(label: string): string {
  const text = PLAIN.test(label)
    ? label.toLowerCase()
    : label.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  let key = '';
  let start = 0;
  const end = text.length;
  while (start < end) {
    let stop = start;
    while (stop < end && !isDigit(text.charCodeAt(stop))) stop++;
    key += text.slice(start, stop);
    if (stop === end) break;
    // A run of digits: leading zeros dropped (one kept for zero itself), then padded to a fixed width.
    let first = stop;
    while (first < end - 1 && text.charCodeAt(first) === ZERO && isDigit(text.charCodeAt(first + 1))) first++;
    let after = first;
    while (after < end && isDigit(text.charCodeAt(after))) after++;
    const digits = text.slice(first, after);
    key += digits.length >= NUMBER_WIDTH ? digits : PADDING.slice(digits.length) + digits;
    start = after;
  }
  return key;
}

/** Printable ASCII and the labels' own " — " separator: nothing for NFD to decompose. */
const PLAIN = /^[\x20-\x7e\u2014]*$/;
const ZERO = 48;
const NUMBER_WIDTH = 20;
const PADDING = '0'.repeat(NUMBER_WIDTH);

function isDigit(code: number): boolean {
  return code >= ZERO && code <= ZERO + 9;
}

/** Orders nodes by {@link sortKey}, then by SEQ_DB for equal keys. */
export function byLabel(a: { key: string; id: number }, b: { key: string; id: number }): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : a.id - b.id;
}
