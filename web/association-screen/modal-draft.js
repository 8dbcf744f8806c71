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
import { fill } from './labels.js';
import { formatValue } from './values.js';

/** @typedef {import('./tree.js').TreeNode} TreeNode */
/** @typedef {import('./drafts-store.js').DraftField} DraftField */

/**
 * @param {import('./dom.js').ScreenContext} ctx
 * @param {object} parts
 * @param {import('./fields.js').Fields} parts.fields
 * @param {HTMLDialogElement} parts.dialog
 * @param {HTMLElement} parts.after the element the draft's line follows
 * @param {() => TreeNode | undefined} parts.current the activity the dialog shows
 * @param {() => boolean} parts.hasRow whether the form read a live entry (the draft's `row`)
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
   * Whose the opening's typing is: the page's owner when it opened. Someone else signing in on this
   * browser meanwhile does not make it theirs (drafts.js keeps it as the one who typed it).
   * @type {import('./drafts.js').Owner | undefined}
   */
  let typedAs;

  /** The fields the person typed in whose text differs from what the field showed. */
  function typedFields() {
    /** @type {Record<string, DraftField>} */
    const typed = {};
    for (const [field, entry] of fields.inputs) {
      if (fields.untouched(field)) continue;
      const preset = fields.presets.get(field) ?? null;
      const shown = preset === null ? '' : formatValue(preset, entry.column, ctx.lang);
      if (entry.input.value === shown) continue;
      typed[field] = { text: entry.input.value, base: fields.bases.get(field) ?? null, preset };
    }
    return typed;
  }

  /** Keeps what the open activity's form holds now (or forgets its draft when it holds nothing typed). */
  function typed() {
    const node = parts.current();
    if (!node || !dialog.open || node.data.editable === false || parts.deciding()) return;
    const typedNow = typedFields();
    const empty = Object.keys(typedNow).length === 0;
    const drafts = ctx.drafts;
    if (empty) {
      drafts?.drop(key(node), typedAs);
      notKept = false;
      line.hidden = true;
      return;
    }
    notKept = !drafts?.keep(key(node), { row: parts.hasRow(), fields: typedNow }, typedAs);
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
    for (const [field, typedField] of Object.entries(draft.fields))
      fields.restoreTyped(field, typedField.text, typedField.preset, typedField.base);
    parts.restored(draft.row);
    line.textContent = fill(labels.draftRestored, { at: ctx.say.when(draft.typedAt) });
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
    return left.length === 0 ? undefined : { row: draft.row, fields: Object.fromEntries(left) };
  }

  /** A new opening: nothing of the last one's draft is said; what is typed is the page's owner's. */
  function reset() {
    line.hidden = true;
    notKept = false;
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
     * The activity's draft is done with: stored, taken into the outbox, its entry removed, or
     * discarded. @param {TreeNode} node
     */
    settled(node) {
      // A decided entry is the outbox's: a draft typed apart from it stays for the next opening.
      if (parts.deciding()) return;
      const left = unshown(node);
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
      for (const [field, typedField] of Object.entries(draft.fields)) {
        if (!fields.untouched(field)) continue;
        fields.restoreTyped(field, typedField.text, typedField.preset, typedField.base);
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
