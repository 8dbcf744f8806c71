// @ts-check
/**
 * Drafts dropped and not yet removed from IndexedDB: a mark per draft in `localStorage`, written at
 * the drop. A draft's removal is a read-write transaction that first reads the draft (to keep the
 * fields another tab typed, drafts-store.js), and a page left at once (a reload right after Escape,
 * or after the save that stored the draft) may be unloaded before it commits: the draft then came
 * back with the page. `localStorage` is written before the call returns, so the mark outlives the
 * page; the store lays the marks over what it reads, and a mark goes once its removal committed.
 * No DOM. Where the page keeps no `localStorage` (or refuses a write) nothing is marked, and a
 * removal is only as safe as IndexedDB's.
 *
 *   { [draft id]: { n, known: { [field]: DraftField[] } } }
 *
 * `known`: each field in every state the device may hold of it from the dropping page (as the page
 * last read it, and each state it wrote since whose write had not committed: a page left drops
 * those writes too). Those the mark drops; a field typed in another tab since differs, and stays, as
 * the removal itself would keep it. `n` tells a mark from a later one of the same draft, which the
 * first removal's commit must not clear.
 */

/** @typedef {import('./drafts-store.js').DraftField} DraftField */
/** @typedef {{ n: string, known: Record<string, DraftField[]> }} DropMark */

const KEY = 'task-association-drafts-dropped';

/** The page's `localStorage`, or undefined where it has none or refuses it (a sandboxed frame). */
function storage() {
  try {
    return globalThis.localStorage ?? undefined;
  } catch {
    return undefined;
  }
}

/** Every mark kept. @returns {Record<string, DropMark>} */
export function dropMarks() {
  try {
    const kept = JSON.parse(storage()?.getItem(KEY) ?? '{}');
    return kept !== null && typeof kept === 'object' && !Array.isArray(kept) ? kept : {};
  } catch {
    return {};
  }
}

/** @param {Record<string, DropMark>} marks */
function keep(marks) {
  try {
    if (Object.keys(marks).length === 0) storage()?.removeItem(KEY);
    else storage()?.setItem(KEY, JSON.stringify(marks));
  } catch {
    // Not kept: the removal is only as safe as IndexedDB's, as without a mark.
  }
}

let made = 0;

/**
 * Marks a draft dropped, with the states of its fields the device may hold from this page; returns
 * the mark's `n`, for {@link clearDropped} once the removal committed.
 * @param {string} id @param {ReadonlyMap<string, DraftField[]>} known
 */
export function markDropped(id, known) {
  const n = `${Date.now()}-${Math.random().toString(36).slice(2)}-${++made}`;
  const marks = dropMarks();
  // A mark of an earlier drop still there (its removal not committed) joins this one.
  const states = { ...marks[id]?.known };
  for (const [field, values] of known) states[field] = [...(states[field] ?? []), ...values];
  keep({ ...marks, [id]: { n, known: states } });
  return n;
}

/**
 * A draft written after its drop: the fields it writes are newer than the drop, which no longer
 * drops them (IndexedDB runs the two in the order they were made, the write last).
 * @param {string} id @param {Readonly<Record<string, DraftField>>} fields
 */
export function writtenAfterDrop(id, fields) {
  const marks = dropMarks();
  const mark = marks[id];
  if (mark === undefined) return;
  const known = Object.fromEntries(
    Object.entries(mark.known).filter(([field]) => !Object.hasOwn(fields, field)),
  );
  if (Object.keys(known).length === 0) delete marks[id];
  else marks[id] = { ...mark, known };
  keep(marks);
}

/**
 * Clears marks whose work is done, each only if it is still the mark `n` (a later drop of the same
 * draft marks it again): a removal committed, or the store wrote what a mark it read drops.
 * @param {Iterable<[string, string]>} done ids and their marks' `n`
 */
export function clearDropped(done) {
  const marks = dropMarks();
  let changed = false;
  for (const [id, n] of done) {
    if (marks[id]?.n !== n) continue;
    delete marks[id];
    changed = true;
  }
  if (changed) keep(marks);
}
