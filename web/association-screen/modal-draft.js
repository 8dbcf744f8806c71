// @ts-check
/**
 * The modal's draft: what the person types is kept on the device as they type (drafts.js), and an
 * activity opened again (after a reload, a closed page, or the dialog closed) shows it, said to be
 * not saved yet, over the bases it was typed over: a save then meets, as a conflict at the field,
 * any value stored meanwhile. The draft goes once its values are stored or taken into the outbox,
 * once the entry is removed, or when the person discards it (Cancel). Esc, the backdrop and a
 * phone's Back close the dialog and keep it: they are no decision. While something typed is kept
 * nowhere (being written, or the device refused it), leaving the page asks first.
 */

import { BLOCK } from './dom.js';
import { asKept, sameField } from './drafts-fields.js';
import { fill } from './labels.js';
import { startsFromNow } from './values.js';

/** @typedef {import('./tree.js').TreeNode} TreeNode */
/** @typedef {import('./drafts-store.js').DraftField} DraftField */
/** @typedef {import('./drafts-store.js').Draft} Draft */
/** @typedef {import('./api.js').MetricValue} MetricValue */

/**
 * @param {import('./dom.js').ScreenContext} ctx
 * @param {object} parts
 * @param {import('./fields.js').Fields} parts.fields
 * @param {HTMLDialogElement} parts.dialog
 * @param {HTMLElement} parts.after the element the draft's line follows
 * @param {() => TreeNode | undefined} parts.current the activity the dialog shows
 * @param {() => boolean} parts.hasRow whether the form read a live entry (the draft's `row`)
 * @param {(field: string) => { value: MetricValue } | undefined} parts.stored the server's value of
 *   a field whose base is a value the outbox keeps, as the form read it (modal-presets.js)
 * @param {() => boolean | undefined} parts.storedRow whether the server had a live entry, while the
 *   outbox keeps one
 * @param {() => boolean} parts.fresh whether the opening shows what it was opened with: editable,
 *   nothing typed, no save out, nothing being decided (a draft read late may be shown then)
 * @param {(row: boolean) => void} parts.restored a draft was shown: the form's `row` is the draft's
 * @param {() => boolean} parts.editing whether the form takes typing now: editable, no save out,
 *   nothing being decided
 * @param {() => boolean} parts.deciding whether the form decides an outbox entry: it shows the
 *   entry's values, not the activity's draft, so it neither writes nor drops that draft
 */
export function createModalDraft(ctx, parts) {
  const { labels } = ctx;
  const { fields, dialog } = parts;
  const line = ctx.create('p', `${BLOCK}__draft-line`);
  line.hidden = true;
  parts.after.after(line);
  /** Typed values this page could not hand to the drafts (no outbox, or no owner known yet). */
  let notKept = false;
  /**
   * The fields of the activity's draft as the form last kept or showed them: one still in that state
   * when the drafts are read again was not typed in since, and takes the draft's state then.
   * @type {Readonly<Record<string, DraftField>>}
   */
  let kept = {};
  /** When the form's `kept` draft was typed (its fields' time where they have none). */
  let keptAt = '';
  /**
   * Whether the opening's draft was settled (stored, queued, discarded): the form keeps nothing
   * more until the next opening. A "Save and next" walk shows the values just saved over their old
   * presets meanwhile; the page hidden then would keep them as typed again.
   */
  let settledHere = false;
  /**
   * Whose the opening's typing is: the page's owner when it opened. Someone else signing in on this
   * browser meanwhile does not make it theirs (drafts.js keeps it as the one who typed it).
   * @type {import('./drafts.js').Owner | undefined}
   */
  let typedAs;

  /**
   * The fields the person typed in whose value differs from what the field showed: as values, as
   * the field's line says it, so 0.8 typed back over 0.80 (or 12,5 over 12,50) is no draft. A value
   * the table copied or confirmed counts though it equals the preset: it is the person's to save.
   */
  function typedFields() {
    /** @type {Record<string, DraftField>} */
    const typed = {};
    for (const [field, entry] of fields.inputs) {
      if (fields.untouched(field) || !fields.changed(field)) continue;
      const preset = fields.presets.get(field) ?? null;
      const stored = parts.stored(field);
      const from = fields.copiedFrom(field);
      typed[field] = {
        text: entry.input.value,
        base: fields.bases.get(field) ?? null,
        preset,
        // Copied in the table and not typed over since: still a copy, said and saved as one.
        ...(from === undefined ? {} : { copied: from }),
        ...(fields.isConfirmed(field) ? { confirmed: true } : {}),
        ...(stored === undefined ? {} : { stored: stored.value }),
      };
    }
    return typed;
  }

  /** The draft's record of the form: its fields, and whether the form and the server had an entry. */
  function typedNow() {
    const storedRow = parts.storedRow();
    return { row: parts.hasRow(), ...(storedRow === undefined ? {} : { storedRow }), fields: typedFields() };
  }

  /**
   * What a draft's field is sent over now: what the form starts from now where the draft may start
   * from it (values.js `startsFromNow`, the table's cells' rule); else the base it was typed over,
   * so the save meets what was stored meanwhile as a conflict at the field.
   * @param {string} field @param {DraftField} typedField @param {Set<string> | undefined} pending
   */
  function baseNow(field, typedField, pending) {
    const column = fields.inputs.get(field)?.column;
    const now = fields.bases.get(field) ?? null;
    if (!column) return typedField.base;
    const change = { base: typedField.base, under: typedField.stored, kept: pending?.has(field) === true };
    return startsFromNow(column, now, change) ? now : typedField.base;
  }

  /**
   * Shows a draft's field as typed (copied, where the table copied it), over its preset and the
   * base it is sent over now. @param {string} field @param {DraftField} typedField
   * @param {Set<string> | undefined} pending
   */
  function show(field, typedField, pending) {
    const base = baseNow(field, typedField, pending);
    const { text, preset, copied, confirmed } = typedField;
    fields.restoreTyped(field, text, preset, base, copied, confirmed === true);
  }

  /**
   * Whether a draft is sent as over a live entry now: as typed, but where the form reads what the
   * server had when the outbox laid an entry over (discarded since), or the outbox keeps one now.
   * @param {Draft} draft @param {Set<string> | undefined} pending
   */
  function rowNow(draft, pending) {
    const now = parts.hasRow();
    return pending !== undefined || draft.storedRow === now ? now : draft.row;
  }

  /** Keeps what the open activity's form holds now (or forgets its draft when it holds nothing typed). */
  function typed() {
    const node = parts.current();
    if (!node || !dialog.open || node.data.editable === false || parts.deciding() || settledHere) return;
    const now = typedNow();
    const empty = Object.keys(now.fields).length === 0;
    const drafts = ctx.drafts;
    if (empty) {
      drafts?.drop(key(node), typedAs);
      // Dropped: what the form kept is no typing of it any more (the same text typed again is new).
      unkeep();
      notKept = false;
      line.hidden = true;
      return;
    }
    const draft = drafts?.keep(key(node), now, typedAs, { fields: kept, typedAt: keptAt });
    notKept = !draft;
    kept = draft?.fields ?? now.fields;
    keptAt = draft?.typedAt ?? '';
  }

  /**
   * Shows `node`'s draft in the fields, if it has one: each typed field as typed, over its preset
   * and base. Returns whether one was shown.
   * @param {TreeNode} node
   */
  function restore(node) {
    reset();
    const draft = node.data.editable === false ? undefined : ctx.drafts?.get(key(node));
    if (!draft) return false;
    const pending = pendingOf(node);
    for (const [field, typedField] of Object.entries(draft.fields)) show(field, typedField, pending);
    kept = draft.fields;
    keptAt = draft.typedAt;
    parts.restored(rowNow(draft, pending));
    const at = ctx.say.when(draft.typedAt);
    const from = Object.values(draft.fields).find((typedField) => typedField.copied !== undefined)?.copied;
    line.textContent =
      from === undefined ? fill(labels.draftRestored, { at }) : fill(labels.draftCopied, { id: from, at });
    line.hidden = false;
    return true;
  }

  /**
   * What of `node`'s draft its form never showed (read while the form was busy, a save out): a
   * settled save neither showed nor sent it, so it stays the draft, for the next opening. Undefined
   * when the form showed all of it, or is not `node`'s, or the page is someone else's now.
   * @param {TreeNode} node
   */
  function unshown(node) {
    const drafts = ctx.drafts;
    if (!drafts || parts.current() !== node || typedAs?.key !== drafts.owner()?.key) return undefined;
    const draft = drafts.get(key(node));
    if (!draft) return undefined;
    const left = Object.entries(draft.fields).filter(
      ([field]) => !fields.inputs.has(field) || fields.untouched(field),
    );
    if (left.length === 0) return undefined;
    return {
      row: draft.row,
      ...(draft.storedRow === undefined ? {} : { storedRow: draft.storedRow }),
      fields: Object.fromEntries(left),
    };
  }

  /** The fields of `node` whose values wait in the outbox. @param {TreeNode} node */
  const pendingOf = (node) => ctx.offline?.pendingFields(key(node));

  /** The form holds no kept typing (a new opening, its draft dropped or settled). */
  function unkeep() {
    kept = {};
    keptAt = '';
  }

  /** A new opening: nothing of the last one's draft is said; what is typed is the page's owner's. */
  function reset() {
    line.hidden = true;
    notKept = false;
    unkeep();
    settledHere = false;
    typedAs = ctx.drafts?.owner();
  }

  /** @param {BeforeUnloadEvent} event */
  function beforeUnload(event) {
    if (!(notKept || ctx.drafts?.unkept())) return;
    event.preventDefault();
    event.returnValue = '';
  }
  // A phone may never unload a page it hides: what the form holds is kept as it is hidden.
  const onHidden = () => {
    if (ctx.doc.visibilityState === 'hidden') typed();
  };
  /** @param {Event} event */
  const onButton = (event) => {
    if (event.target instanceof HTMLButtonElement) typed();
  };
  const win = ctx.doc.defaultView;
  // Typing, and Keep mine / Use theirs at a conflict (a field's base changes).
  fields.root.addEventListener('input', typed);
  fields.root.addEventListener('click', onButton);
  win?.addEventListener('beforeunload', beforeUnload);
  win?.addEventListener('pagehide', typed);
  ctx.doc.addEventListener('visibilitychange', onHidden);

  return {
    restore,
    reset,
    typed,
    /**
     * Whether the open activity's form holds typing its Cancel would drop (not a decided entry's
     * values, which are the outbox's, nor an opening already settled).
     */
    hasTyping() {
      const node = parts.current();
      if (!node || node.data.editable === false || parts.deciding() || settledHere) return false;
      return Object.keys(typedFields()).length > 0;
    },
    /**
     * The activity's draft is done with: stored, taken into the outbox, its entry removed, or
     * discarded. @param {TreeNode} node
     */
    settled(node) {
      // A decided entry is the outbox's: a draft typed apart from it stays for the next opening.
      if (parts.deciding()) return;
      const left = unshown(node);
      // Stored or discarded: the form, where it still shows this opening, holds none of its
      // typing any more.
      if (parts.current() === node) {
        unkeep();
        settledHere = true;
      }
      if (left) notKept = !ctx.drafts?.keep(key(node), left, typedAs);
      else {
        ctx.drafts?.drop(key(node), typedAs);
        notKept = false;
      }
      if (parts.current() === node) line.hidden = true;
    },
    /**
     * The drafts were read after the dialog opened: the activity's is shown if nothing happened yet.
     * Typed in meanwhile, the fields left alone take what the draft holds of them (typed on another
     * page: drafts.js joined it to what is typed here), and the whole is kept.
     */
    loaded() {
      const node = parts.current();
      if (!node || !dialog.open) return;
      if (parts.fresh()) {
        restore(node);
        return;
      }
      if (!parts.editing() || node.data.editable === false) return;
      const draft = ctx.drafts?.get(key(node));
      if (!draft) return;
      let took = false;
      const pending = pendingOf(node);
      const now = typedFields();
      for (const [field, typedField] of Object.entries(draft.fields)) {
        // Typed in since the form last kept or showed it: the person's, and it stays. As kept, it
        // takes the draft's state now (a join may hold a later typing of it in another tab or on
        // a page opened offline: drafts-store.js).
        const mine = now[field];
        const untyped = asKept(mine, kept[field]);
        if (!fields.untouched(field) && !untyped) continue;
        if (untyped && mine && sameField(mine, typedField)) continue;
        show(field, typedField, pending);
        took = true;
      }
      if (took) typed();
    },
    /**
     * Someone else signed in on this browser: the open form is the previous person's. Kept as theirs,
     * it closes, so the new person neither sees nor files it.
     */
    ownerChanged() {
      if (!dialog.open) return;
      typed();
      dialog.close();
    },
    /** The device cannot keep drafts: said, and shown in the open dialog, in `text`'s words. @param {string} text */
    problem(text) {
      ctx.announce(text);
      if (!dialog.open) return;
      line.textContent = text;
      line.hidden = false;
    },
    destroy() {
      fields.root.removeEventListener('input', typed);
      fields.root.removeEventListener('click', onButton);
      win?.removeEventListener('beforeunload', beforeUnload);
      win?.removeEventListener('pagehide', typed);
      ctx.doc.removeEventListener('visibilitychange', onHidden);
      line.remove();
    },
  };
}

/** @param {TreeNode} node */
const key = (node) => ({ activity: node.data.id, group: node.data.group ?? null });

/** @typedef {ReturnType<typeof createModalDraft>} ModalDraft */
