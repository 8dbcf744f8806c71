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
 * copied or not, confirmed or not. @param {DraftField} a @param {DraftField} b
 */
export const sameField = (a, b) => sameTyping(a, b) && a.base === b.base && a.preset === b.preset;

/**
 * Whether a form's state of a field (`now`) is still the state the form last kept or took of it
 * (`kept`): not typed in since, it takes the state a join of the draft holds (drafts-store.js
 * `joined`: another tab's later typing of it), where what was typed since stays the person's.
 * @param {DraftField | undefined} now @param {DraftField | undefined} kept
 */
export const asKept = (now, kept) => now !== undefined && kept !== undefined && sameField(kept, now);

/**
 * When a draft's field was typed: its own time, or the draft's where it has none (kept by a release
 * before fields had one). @param {DraftField} field @param {{ typedAt: string }} draft
 */
export const typedAtOf = (field, draft) => field.at ?? draft.typedAt;

/**
 * Whether two states of a field hold the same typing: what the person typed (and whether it was
 * copied or confirmed), not what it is sent over (a base or preset moved by a read is no typing).
 * @param {DraftField | undefined} a @param {DraftField | undefined} b
 */
export function sameTyping(a, b) {
  return (
    a !== undefined &&
    b !== undefined &&
    a.text === b.text &&
    a.copied === b.copied &&
    a.confirmed === b.confirmed
  );
}

/**
 * A row's fields as typed `now` (ISO 8601), each holding the typing one of the drafts `before`
 * holds keeping the time it was typed then: the row's draft as the page holds it, and the one the
 * form last kept or showed (a form that did not take what another tab lent the page, busy saving,
 * still shows its own older typing, which is not typed anew). Typing in one field of a row does not
 * make the row's other fields later, so two drafts of the row join field by field, the later typing
 * winning (drafts-store.js).
 * @param {Readonly<Record<string, DraftField>>} fields
 * @param {ReadonlyArray<{ fields: Readonly<Record<string, DraftField>>, typedAt: string } | undefined>} before
 * @param {string} now @returns {Record<string, DraftField>}
 */
export function stamped(fields, before, now) {
  return Object.fromEntries(
    Object.entries(fields).map(([name, field]) => {
      const was = before.find((draft) => sameTyping(draft?.fields[name], field));
      const kept = was?.fields[name];
      return [name, { ...field, at: was && kept ? typedAtOf(kept, was) : now }];
    }),
  );
}

/**
 * Two drafts of one row joined field by field: each field both hold in the state typed later (`b`'s
 * where both were typed at the same time), the others as the one holding them has them; each with
 * its time, and the join's `typedAt` the later of the two.
 * @param {{ fields: Readonly<Record<string, DraftField>>, typedAt: string }} a
 * @param {{ fields: Readonly<Record<string, DraftField>>, typedAt: string }} b
 * @returns {{ fields: Record<string, DraftField>, typedAt: string }}
 */
export function laterTyped(a, b) {
  /** @type {Record<string, DraftField>} */
  const fields = {};
  for (const [name, field] of Object.entries(a.fields)) fields[name] = { ...field, at: typedAtOf(field, a) };
  for (const [name, field] of Object.entries(b.fields)) {
    const at = typedAtOf(field, b);
    const other = fields[name];
    if (other === undefined || at >= (other.at ?? '')) fields[name] = { ...field, at };
  }
  return { fields, typedAt: a.typedAt > b.typedAt ? a.typedAt : b.typedAt };
}

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
