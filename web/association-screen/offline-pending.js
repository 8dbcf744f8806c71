// @ts-check
/**
 * What waits in the outbox, as the views show it: the values each activity waits to send (merged in
 * the order entered), laid over what the server sent of it, and the fields waiting or stopped there.
 * Pure: plain records and columns in, plain data out, so offline.js keeps the state and these only
 * decide what a row or a node shows.
 */

import { keyOf } from './entry-key.js';
import { asStored } from './values.js';

/** @typedef {import('./outbox.js').OutboxRecord} OutboxRecord */
/** @typedef {import('./api.js').ScreenMetric} ScreenMetric */
/** @typedef {readonly import('./api.js').MetricColumn[]} Columns the sheet's metric columns */

/**
 * The values each activity waits to send: what its pending entries set, merged in order (a remove
 * clears what came before it). Keyed by `keyOf` (entry-key.js).
 * @typedef {Map<string, { values: Record<string, unknown>, remove: boolean }>} Pending
 */

/** What this person's pending entries wait to send, per key. @param {readonly OutboxRecord[]} mine @returns {Pending} */
export const pendingOf = (mine) => merged(mine.filter((record) => record.state === 'pending'));

/**
 * What this person's entries keep, per key: those waiting and those stopped for a decision (a
 * conflict, a refusal). The table shows a stopped entry's values as the person's, marked not sent:
 * the server holds something else, and a reload must not put that in their place.
 * @param {readonly OutboxRecord[]} mine @returns {Pending}
 */
export const keptOf = (mine) => merged(mine);

/** `records`' values merged per key, in order (a remove clears what came before it). @param {readonly OutboxRecord[]} records @returns {Pending} */
function merged(records) {
  /** @type {Pending} */
  const pending = new Map();
  for (const record of records) {
    const key = keyOf(record.entry);
    const before = pending.get(key) ?? { values: {}, remove: false };
    if (record.entry.remove) pending.set(key, { values: {}, remove: true });
    else pending.set(key, { values: { ...before.values, ...record.entry.values }, remove: before.remove });
  }
  return pending;
}

/**
 * What waits in the outbox for one key, laid over its metrics, or undefined when nothing waits.
 * @param {Columns} columns @param {Pending} pending
 * @param {{ activity: number, group?: number | null | undefined }} key
 * @param {Readonly<Record<string, ScreenMetric>> | undefined} shown
 */
export function overlay(columns, pending, key, shown) {
  const waiting = pending.get(keyOf(key));
  if (!waiting) return undefined;
  /** @type {Record<string, ScreenMetric>} */
  const metrics = {};
  if (!waiting.remove) Object.assign(metrics, shown);
  let filled = false;
  for (const column of columns) {
    if (waiting.remove && !(column.field in waiting.values))
      metrics[column.field] = { value: null, source: 'none' };
    if (column.field in waiting.values) {
      const value = /** @type {import('./api.js').MetricValue} */ (waiting.values[column.field]);
      // As the column will store it: "21.50" for the "21.5" typed, as the tree shows a saved value.
      metrics[column.field] = { value: value === null ? null : asStored(value, column), source: 'saved' };
      filled ||= value !== null;
    }
  }
  return { metrics, filled, removed: waiting.remove, ...(waiting.remove ? { lastChange: null } : {}) };
}

/**
 * The fields of an activity whose values wait to be sent (every field for a remove), or undefined
 * when nothing of it waits.
 * @param {Columns} columns @param {Pending} pending
 * @param {{ activity: number, group?: number | null | undefined }} key @returns {Set<string> | undefined}
 */
export function pendingFields(columns, pending, key) {
  const waiting = pending.get(keyOf(key));
  if (!waiting) return undefined;
  return new Set(waiting.remove ? columns.map((column) => column.field) : Object.keys(waiting.values));
}

/**
 * The fields of an activity whose entry stopped in the outbox (a conflict, a refusal: every field
 * for a remove), or undefined when none did: the table shows them as not sent.
 * @param {Columns} columns @param {readonly OutboxRecord[]} mine
 * @param {{ activity: number, group?: number | null | undefined }} key @returns {Set<string> | undefined}
 */
export function stoppedFields(columns, mine, key) {
  const wanted = keyOf(key);
  /** @type {Set<string> | undefined} */
  let fields;
  for (const record of mine) {
    if (record.state === 'pending' || keyOf(record.entry) !== wanted) continue;
    fields ??= new Set();
    for (const field of record.entry.remove
      ? columns.map((column) => column.field)
      : Object.keys(record.entry.values ?? {}))
      fields.add(field);
  }
  return fields;
}
