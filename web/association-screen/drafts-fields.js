// @ts-check
/**
 * What the drafts' store (drafts-store.js) and what `localStorage` keeps of drafts (the marks of
 * drafts dropped, drafts-dropped.js, and the drafts typed, drafts-typed.js) all hold to: how long a
 * draft lives, when two states of a draft's field are the same, and where `localStorage` is. No DOM.
 */

/** @typedef {import('./drafts-store.js').DraftField} DraftField */

/**
 * How long a draft is kept: the outbox's own limit, since an entry typed longer ago is no longer
 * sent (the server forgets request ids and refuses device times after seven days).
 */
export const MAX_DRAFT_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Whether two states of a draft's field are the same: what was typed, over which base and preset,
 * copied or not. @param {DraftField} a @param {DraftField} b
 */
export const sameField = (a, b) =>
  a.text === b.text && a.base === b.base && a.preset === b.preset && a.copied === b.copied;

/** Whether a value read back is a field's state as drafts keep it. @param {unknown} state */
export const isState = (state) =>
  state !== null && typeof state === 'object' && typeof (/** @type {DraftField} */ (state).text) === 'string';

/** The page's `localStorage`, or undefined where it has none or refuses it (a sandboxed frame). */
export function localStore() {
  try {
    return globalThis.localStorage ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * The ids after `prefix` of the keys `localStorage` holds under it (none where it is refused).
 * @param {string} prefix @returns {string[]}
 */
export function keysUnder(prefix) {
  const kept = localStore();
  /** @type {string[]} */
  const ids = [];
  try {
    for (let i = 0; i < (kept?.length ?? 0); i++) {
      const key = kept?.key(i);
      if (key?.startsWith(prefix)) ids.push(key.slice(prefix.length));
    }
  } catch {
    return [];
  }
  return ids;
}
