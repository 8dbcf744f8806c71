// @ts-check
/**
 * What the drafts' store (drafts-store.js) and the marks of drafts dropped (drafts-dropped.js) both
 * hold to: how long a draft lives, and when two states of a draft's field are the same. No DOM.
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
