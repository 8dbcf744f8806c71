// @ts-check
/**
 * Drafts (or fields of drafts) dropped and maybe not yet removed from IndexedDB: a mark per draft
 * in `localStorage`, written at the drop. A draft's removal (or its write without a field taken
 * back) is a read-write transaction that first reads the draft (to keep the fields another tab
 * typed, drafts-store.js), and a page left at once (a reload right after Escape, or after the save
 * that stored the draft; or while another tab's transaction holds the database) may be unloaded
 * before it commits: what was dropped then came back with the page. `localStorage` is written
 * before the call returns, so the mark outlives the page; the store lays the marks over what it
 * reads, and a mark goes once the write that dropped it committed. No DOM. Where the
 * page keeps no `localStorage` (or refuses a write) nothing is marked, and a removal is only as safe
 * as IndexedDB's.
 *
 *   `task-association-drafts-dropped:<draft id>` → { n, at, states: { [field]: DraftField[] } }
 *
 * One key per draft, so two tabs marking different drafts at once do not write over each other.
 * `states`: each field in every state the device may hold of it from the dropping page (as the page
 * last read it, and each state it wrote since whose write had not committed: a page left loses
 * those writes too). Those the mark drops; a state written after the drop is taken out of it. `n`
 * tells a mark from a later one of the same draft, which the first write's commit must not clear;
 * `at` bounds a mark whose write was never seen to commit (the page left at that moment).
 */

import { isState, keysUnder, localStore, MAX_DRAFT_AGE_MS, sameField } from './drafts-fields.js';

/** @typedef {import('./drafts-fields.js').DraftField} DraftField */
/** @typedef {{ n: string, at: number, states: Record<string, DraftField[]> }} DropMark */

const PREFIX = 'task-association-drafts-dropped:';

/**
 * A draft's mark, or undefined: none, or not in the shape this module writes (another script's
 * key, or an older release's), which is then left alone.
 * @param {string} id @returns {DropMark | undefined}
 */
export function dropMarkOf(id) {
  try {
    const mark = JSON.parse(localStore()?.getItem(PREFIX + id) ?? 'null');
    if (
      mark === null ||
      typeof mark !== 'object' ||
      typeof mark.n !== 'string' ||
      typeof mark.at !== 'number'
    )
      return undefined;
    if (mark.states === null || typeof mark.states !== 'object') return undefined;
    const fine = Object.values(mark.states).every((states) => Array.isArray(states) && states.every(isState));
    return fine ? mark : undefined;
  } catch {
    return undefined;
  }
}

/** @param {string} id @param {DropMark | undefined} mark */
function write(id, mark) {
  try {
    if (mark === undefined || Object.keys(mark.states).length === 0) localStore()?.removeItem(PREFIX + id);
    else localStore()?.setItem(PREFIX + id, JSON.stringify(mark));
  } catch {
    // Not kept: the removal is only as safe as IndexedDB's, as without a mark.
  }
}

/**
 * Every mark kept, by draft id; marks older than a draft can be (whose drafts the store prunes
 * anyway) are removed.
 * @param {number} [now] @returns {Map<string, DropMark>}
 */
export function dropMarks(now = Date.now()) {
  /** @type {Map<string, DropMark>} */
  const marks = new Map();
  for (const id of keysUnder(PREFIX)) {
    const mark = dropMarkOf(id);
    if (mark !== undefined && now - mark.at > MAX_DRAFT_AGE_MS) write(id, undefined);
    else if (mark !== undefined) marks.set(id, mark);
  }
  return marks;
}

let marksMade = 0;

/**
 * Marks a draft (or some of its fields) dropped, with the states of those fields the device may
 * hold from this page (joined to an earlier mark of it still there); returns the mark's `n`, for
 * {@link clearDropped} once the write that drops them committed.
 * @param {string} id @param {ReadonlyMap<string, readonly DraftField[]>} states
 */
export function markDropped(id, states) {
  const n = `${Date.now()}-${Math.random().toString(36).slice(2)}-${++marksMade}`;
  const joined = { ...dropMarkOf(id)?.states };
  for (const [field, more] of states) {
    const known = [...(joined[field] ?? [])];
    for (const state of more) if (!known.some((one) => sameField(one, state))) known.push(state);
    joined[field] = known;
  }
  write(id, { n, at: Date.now(), states: joined });
  return n;
}

/**
 * A draft written after its drop: the state it writes of each field is newer than the drop, which
 * no longer drops that state (the older ones it still drops: the write may be lost with the page).
 * @param {string} id @param {Readonly<Record<string, DraftField>>} fields
 */
export function writtenAfterDrop(id, fields) {
  const mark = dropMarkOf(id);
  if (mark === undefined) return;
  /** @type {Record<string, DraftField[]>} */
  const states = {};
  for (const [field, known] of Object.entries(mark.states)) {
    const written = fields[field];
    const left = written === undefined ? known : known.filter((state) => !sameField(state, written));
    if (left.length > 0) states[field] = left;
  }
  write(id, { ...mark, states });
}

/**
 * Clears a draft's mark once the write that dropped it committed, if it is still the mark `n` (a
 * later drop of the same draft marks it again). @param {string} id @param {string} n
 */
export function clearDropped(id, n) {
  if (dropMarkOf(id)?.n === n) write(id, undefined);
}

/**
 * The fields of a stored draft that dropped `states` (a mark's, or those a page dropped while it read
 * the drafts, drafts.js) do not drop: those in none of the states held of them.
 * @param {Readonly<Record<string, DraftField>>} fields
 * @param {Readonly<Record<string, readonly DraftField[]>>} states
 */
export const undropped = (fields, states) =>
  Object.entries(fields).filter(([field, value]) => !states[field]?.some((state) => sameField(state, value)));
