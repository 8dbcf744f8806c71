// @ts-check
/**
 * Drafts typed and maybe not yet written to IndexedDB: each write of a draft is also kept in
 * `localStorage`, at the call. A draft's write is a read-write transaction that waits behind any
 * other on the drafts' store (another tab's, or the store still opening), and a page left at once (a
 * phone closing it right after a keystroke: phones do not ask before leaving) may be unloaded before
 * it commits: the last keystrokes were lost with the page, the draft's older state coming back.
 * `localStorage` is written before the call returns, so the record outlives the page; the next read
 * of the drafts (drafts-store.js) lays it over what IndexedDB holds, as if its write had committed
 * then, and it goes once its own write committed. No DOM. Where the page keeps no `localStorage`
 * (or refuses a write) nothing is kept here, and a write is only as safe as IndexedDB's.
 *
 *   `task-association-drafts-typed:<page>:<draft id>` → { n, draft, known }
 *
 * One key per page and draft, so two tabs typing in the same activity do not write over each
 * other's record. `draft`: the record the write asked for; `known`: the state of each of its fields
 * the page last read or wrote (what that write drops when it lacks one, drafts-store.js). `n` tells
 * a record from a later one of the same page and draft, which the first write's commit must not
 * clear.
 */

import { isState, keysUnder, localStore, MAX_DRAFT_AGE_MS, sameField } from './drafts-fields.js';

/** @typedef {import('./drafts-store.js').Draft} Draft */
/** @typedef {import('./drafts-fields.js').DraftField} DraftField */
/** @typedef {{ n: string, draft: Draft, known: Record<string, DraftField> }} TypedRecord */

const PREFIX = 'task-association-drafts-typed:';

/** This page's part of its keys: a page left leaves its records to the next read. */
const PAGE = `${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;

let made = 0;

/** The draft id of a key (after the prefix): what follows its page's part. @param {string} key */
const idOf = (key) => key.slice(key.indexOf(':') + 1);

/** @param {unknown} value @param {(value: unknown) => boolean} each */
const recordOf = (value, each) =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && Object.values(value).every(each);

/**
 * Whether a value read back is a draft as the store keeps it. @param {unknown} value
 * @returns {value is Draft}
 */
function isDraft(value) {
  if (value === null || typeof value !== 'object') return false;
  const draft = /** @type {Record<string, unknown>} */ (value);
  return (
    typeof draft.id === 'string' &&
    typeof draft.owner === 'string' &&
    typeof draft.endpoint === 'string' &&
    typeof draft.taskSheet === 'number' &&
    typeof draft.activity === 'number' &&
    (draft.group === null || typeof draft.group === 'number') &&
    typeof draft.row === 'boolean' &&
    typeof draft.typedAt === 'string' &&
    recordOf(draft.fields, isState)
  );
}

/**
 * The record under a key (after the prefix), or undefined: none, or not in the shape this module
 * writes (another script's key, or another release's), which is then left alone.
 * @param {string} key @returns {TypedRecord | undefined}
 */
function recordAt(key) {
  try {
    const record = JSON.parse(localStore()?.getItem(PREFIX + key) ?? 'null');
    if (record === null || typeof record !== 'object' || typeof record.n !== 'string') return undefined;
    if (!isDraft(record.draft) || !recordOf(record.known, isState)) return undefined;
    return idOf(key) === record.draft.id ? record : undefined;
  } catch {
    return undefined;
  }
}

/** @param {string} key @param {TypedRecord} [record] */
function write(key, record) {
  try {
    if (record === undefined) localStore()?.removeItem(PREFIX + key);
    else localStore()?.setItem(PREFIX + key, JSON.stringify(record));
  } catch {
    // Not kept: the write is only as safe as IndexedDB's, as without a record.
  }
}

/**
 * Keeps this page's write of a draft, with the state of each field the page knew of it (over its
 * earlier record); returns the record's `n`, for {@link clearTyped} once that write committed.
 * @param {Draft} draft @param {ReadonlyMap<string, DraftField>} known
 */
export function keepTyped(draft, known) {
  const n = `${PAGE}-${++made}`;
  write(`${PAGE}:${draft.id}`, { n, draft, known: Object.fromEntries(known) });
  return n;
}

/**
 * Clears this page's record of a draft: its write committed (`n`: only if it is still that write's
 * record; a later write of the same draft keeps its own), or the page dropped the draft (no `n`: the
 * drop's mark, drafts-dropped.js, now says what the device may hold of it).
 * @param {string} id @param {string} [n]
 */
export function clearTyped(id, n) {
  const key = `${PAGE}:${id}`;
  if (n === undefined || recordAt(key)?.n === n) write(key, undefined);
}

/**
 * Every page's records (this page's too: its writes under way), with their keys; those of drafts
 * older than a draft can be (which the store prunes anyway) are removed.
 * @param {number} [now] @returns {Array<TypedRecord & { key: string }>}
 */
export function typedDrafts(now = Date.now()) {
  /** @type {Array<TypedRecord & { key: string }>} */
  const records = [];
  for (const key of keysUnder(PREFIX)) {
    const record = recordAt(key);
    if (record === undefined) continue;
    const at = Date.parse(record.draft.typedAt);
    if (Number.isNaN(at) || now - at > MAX_DRAFT_AGE_MS) write(key, undefined);
    else records.push({ ...record, key });
  }
  return records;
}

/**
 * Clears a record a read laid over the drafts, once that read's writing committed: the device's
 * drafts hold it now. Not if the page wrote a later one under the same key since.
 * @param {string} key @param {string} n
 */
export function clearTypedRecord(key, n) {
  if (recordAt(key)?.n === n) write(key, undefined);
}

/**
 * Takes the states a drop marks (drafts-dropped.js) out of every page's record of that draft, as
 * that drop's write would have taken them out of the device's draft had the records' writes
 * committed before it: the mark goes once the drop is written, and a record of a page left before
 * its write committed must not bring them back at the next read. A record left with no field goes.
 * @param {string} id @param {ReadonlyMap<string, readonly DraftField[]>} states
 */
export function droppedFromTyped(id, states) {
  for (const key of keysUnder(PREFIX)) {
    if (idOf(key) !== id) continue;
    const record = recordAt(key);
    if (record === undefined) continue;
    const fields = Object.entries(record.draft.fields).filter(
      ([field, value]) => !states.get(field)?.some((state) => sameField(state, value)),
    );
    if (fields.length === Object.keys(record.draft.fields).length) continue;
    write(
      key,
      fields.length === 0
        ? undefined
        : { ...record, draft: { ...record.draft, fields: Object.fromEntries(fields) } },
    );
  }
}
