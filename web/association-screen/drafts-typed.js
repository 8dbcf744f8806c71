// @ts-check
/**
 * Drafts typed and maybe not yet written to IndexedDB: each write of a draft is also kept in
 * `localStorage`, at the call. A draft's write is a read-write transaction that waits behind any
 * other on the drafts' store (another tab's, or the store still opening), and a page left at once (a
 * phone closing it right after a keystroke: phones do not ask before leaving) may be unloaded before
 * it commits: the last keystrokes were lost with the page, the draft's older state coming back.
 * `localStorage` is written before the call returns, so the record outlives the page; the next read
 * of the drafts (drafts-store.js) lays it over what IndexedDB holds, and it goes once its own write
 * committed (or that read's). No DOM. Where the page keeps no `localStorage` (or refuses a write)
 * nothing is kept here, and a write is only as safe as IndexedDB's.
 *
 *   `task-association-drafts-typed:<draft id>` → { [page]: { n, draft, known } }
 *
 * One key per draft, holding each page's latest write of it (two tabs typing in the same activity
 * each keep theirs), so that a drop finds the writes of its draft in one read. `draft`: the record
 * the write asked for; `known`: the state of each of its fields the page last read or wrote (what
 * that write drops when it lacks one, drafts-store.js). `n` tells a record from a later one of the
 * same page and draft, which the first write's commit must not clear. Two tabs changing the same
 * draft's key at the same moment (each reads, changes and writes it) can lose one of the two
 * changes, as with the marks of drafts dropped.
 */

import { isState, keysUnder, localStore, MAX_DRAFT_AGE_MS, sameField } from './drafts-fields.js';

/** @typedef {import('./drafts-store.js').Draft} Draft */
/** @typedef {import('./drafts-fields.js').DraftField} DraftField */
/** @typedef {{ n: string, draft: Draft, known: Record<string, DraftField> }} TypedRecord */

const PREFIX = 'task-association-drafts-typed:';

/** This page, among the pages whose writes a draft's key holds. */
const PAGE = `${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;

let made = 0;

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
 * Whether a page's entry under a draft's key is a record as this module writes it, of that draft.
 * @param {unknown} value @param {string} id @returns {value is TypedRecord}
 */
function isRecord(value, id) {
  if (value === null || typeof value !== 'object') return false;
  const record = /** @type {Record<string, unknown>} */ (value);
  return (
    typeof record.n === 'string' &&
    isDraft(record.draft) &&
    record.draft.id === id &&
    recordOf(record.known, isState)
  );
}

/**
 * A draft's key as kept: each page's entry, as read (those not in this module's shape, another
 * script's or release's, are left as they are); undefined when the key is not an object.
 * @param {string} id @returns {Record<string, unknown> | undefined}
 */
function entriesOf(id) {
  try {
    const entries = JSON.parse(localStore()?.getItem(PREFIX + id) ?? '{}');
    return entries !== null && typeof entries === 'object' && !Array.isArray(entries) ? entries : undefined;
  } catch {
    return undefined;
  }
}

/** @param {string} id @param {Record<string, unknown>} entries */
function write(id, entries) {
  try {
    if (Object.keys(entries).length === 0) localStore()?.removeItem(PREFIX + id);
    else localStore()?.setItem(PREFIX + id, JSON.stringify(entries));
  } catch {
    // Not kept: the write is only as safe as IndexedDB's, as without a record.
  }
}

/**
 * Changes a draft's key: `change` is handed each page's record of it (in this module's shape) and
 * answers what it becomes (undefined: gone), or the record itself to leave it.
 * @param {string} id @param {(record: TypedRecord, page: string) => TypedRecord | undefined} change
 */
function update(id, change) {
  const entries = entriesOf(id);
  if (entries === undefined) return;
  let changed = false;
  for (const [page, entry] of Object.entries(entries)) {
    if (!isRecord(entry, id)) continue;
    const next = change(entry, page);
    if (next === entry) continue;
    changed = true;
    if (next === undefined) delete entries[page];
    else entries[page] = next;
  }
  if (changed) write(id, entries);
}

/**
 * Keeps this page's write of a draft, with the state of each field the page knew of it (over its
 * earlier record); returns the record's `n`, for {@link clearTyped} once that write committed.
 * @param {Draft} draft @param {ReadonlyMap<string, DraftField>} known
 */
export function keepTyped(draft, known) {
  const n = `${PAGE}-${++made}`;
  const entries = entriesOf(draft.id);
  if (entries !== undefined)
    write(draft.id, { ...entries, [PAGE]: { n, draft, known: Object.fromEntries(known) } });
  return n;
}

/**
 * Clears a page's record of a draft (this page's by default): its write committed, or a read laid
 * it over the device's drafts and wrote it (`n`: only if it is still that record; a later write of
 * the same draft keeps its own), or the page dropped the draft (no `n`: the drop's mark,
 * drafts-dropped.js, now says what the device may hold of it).
 * @param {string} id @param {string} [n] @param {string} [page]
 */
export function clearTyped(id, n, page = PAGE) {
  update(id, (record, at) => (at === page && (n === undefined || record.n === n) ? undefined : record));
}

/**
 * Every page's records (this page's too: its writes under way), with their pages; those of drafts
 * older than a draft can be (which the store prunes anyway) are removed.
 * @param {number} [now] @returns {Array<TypedRecord & { page: string }>}
 */
export function typedDrafts(now = Date.now()) {
  /** @type {Array<TypedRecord & { page: string }>} */
  const records = [];
  for (const id of keysUnder(PREFIX)) {
    update(id, (record, page) => {
      const at = Date.parse(record.draft.typedAt);
      if (Number.isNaN(at) || now - at > MAX_DRAFT_AGE_MS) return undefined;
      records.push({ ...record, page });
      return record;
    });
  }
  return records;
}

/**
 * Takes the states a drop marks (drafts-dropped.js) out of every page's record of that draft, as
 * that drop's write would have taken them out of the device's draft had the records' writes
 * committed before it: the mark goes once the drop is written, and a record of a page left before
 * its write committed must not bring them back at the next read. A record left with no field goes.
 * @param {string} id @param {ReadonlyMap<string, readonly DraftField[]>} states
 */
export function droppedFromTyped(id, states) {
  update(id, (record) => {
    const fields = Object.entries(record.draft.fields).filter(
      ([field, value]) => !states.get(field)?.some((state) => sameField(state, value)),
    );
    if (fields.length === Object.keys(record.draft.fields).length) return record;
    if (fields.length === 0) return undefined;
    return { ...record, draft: { ...record.draft, fields: Object.fromEntries(fields) } };
  });
}
