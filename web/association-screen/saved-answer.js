// @ts-check
/**
 * What a save's answer says is stored: the one reading of it that every path makes, whoever sent the
 * save (the modal's save and its retry, the table's save, the outbox's senders of this page, of
 * another tab or of the service worker). Each entry of an answer holds its row as the save stored
 * it, taken at once by the tree and the table (the save was stored, once); the entries this module
 * names are then read again, since the answer does not say what is stored now, and are not written
 * into the data kept for offline use (offline-cache.js `keepAnswer` reads their branches again).
 */

import { keyOf } from './entry-key.js';

/** @typedef {import('./api.js').SavedEntry} SavedEntry */

/**
 * A save's answer as the screen reads it: the server's, or one the screen makes itself (a remove
 * whose entry was already gone). `replayed`: the server's record of an earlier sending under the
 * same request id (an answer lost on its way, the save sent again): nothing was applied now.
 * @typedef {{ readonly entries: readonly SavedEntry[], readonly replayed?: boolean }} Answer
 */

/**
 * Whether an entry of a save's answer is to be read again before the screen shows what is stored:
 * every entry of a replayed answer, which holds what the save stored when it was first sent (up to
 * 7 days before: someone may have changed it since, and the recorded answer cannot say so), and an
 * entry without a row now (removed), whose defaults only the server knows.
 * @param {Answer} answer @param {SavedEntry} saved
 */
export function readAgain(answer, saved) {
  return answer.replayed === true || saved.stored === null;
}

/** Each answer's entries by key, made once per answer. @type {WeakMap<Answer, Map<string, SavedEntry>>} */
const byKeys = new WeakMap();

/**
 * The entry of an answer that saved an activity's key, if any: one look-up, however many entries
 * (a table save of a thousand rows takes its answer into a thousand activities).
 * @param {Answer} answer @param {{ activity: number, group?: number | null | undefined }} key
 * @returns {SavedEntry | undefined}
 */
export function entryFor(answer, key) {
  let byKey = byKeys.get(answer);
  if (!byKey) {
    byKey = new Map(answer.entries.map((saved) => [keyOf(saved), saved]));
    byKeys.set(answer, byKey);
  }
  return byKey.get(keyOf(key));
}

/**
 * The keys of an answer's entries to read again (see {@link readAgain}).
 * @param {Answer} answer @returns {Set<string>}
 */
export function keysToReadAgain(answer) {
  return new Set(answer.entries.filter((saved) => readAgain(answer, saved)).map((saved) => keyOf(saved)));
}
