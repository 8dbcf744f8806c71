// @ts-check
/**
 * The modal's questions before what cannot be taken back (removing the entry, discarding what was
 * typed): a modal dialog of its own above the metric modal (role `alertdialog`, the platform's
 * focus trap; Esc answers no), never `window.confirm`, which a host page may have silenced. The
 * answer that keeps has the focus: Enter pressed at once keeps what there is.
 */

import { BLOCK, button } from './dom.js';

/**
 * A question's words.
 * @typedef {object} Question
 * @property {string} title
 * @property {string} text
 * @property {string} keep the answer that keeps (focused)
 * @property {string} yes the answer that acts
 */

/** @param {import('./dom.js').ScreenContext} ctx */
export function createConfirm(ctx) {
  const { create } = ctx;
  const dialog = create('dialog', `${BLOCK}__confirm`);
  dialog.setAttribute('role', 'alertdialog');
  const title = create('h3', `${BLOCK}__confirm-title`);
  title.id = `${ctx.uid}-confirm-title`;
  const text = create('p', `${BLOCK}__confirm-text`);
  text.id = `${ctx.uid}-confirm-text`;
  dialog.setAttribute('aria-labelledby', title.id);
  dialog.setAttribute('aria-describedby', text.id);
  const actions = create('div', `${BLOCK}__confirm-actions`);
  const keep = button(create, `${BLOCK}__button`, '');
  const yes = button(create, `${BLOCK}__button ${BLOCK}__button--danger-primary`, '');
  actions.append(keep, yes);
  dialog.append(title, text, actions);
  /** @type {HTMLElement | undefined} */
  let returnTo;
  /** What the open question does when answered yes. @type {(() => void) | undefined} */
  let onYes;

  keep.addEventListener('click', () => {
    dialog.close();
    returnTo?.focus();
  });
  yes.addEventListener('click', () => {
    const act = onYes;
    dialog.close();
    act?.();
  });
  dialog.addEventListener('close', () => {
    onYes = undefined;
  });

  return {
    dialog,
    /**
     * Asks `question`; `act` runs on its yes. Its keep gives the focus back to `from`.
     * @param {Question} question @param {HTMLElement} from @param {() => void} act
     */
    ask(question, from, act) {
      returnTo = from;
      onYes = act;
      title.textContent = question.title;
      text.textContent = question.text;
      keep.textContent = question.keep;
      yes.textContent = question.yes;
      dialog.showModal();
      keep.focus();
    },
    close() {
      if (dialog.open) dialog.close();
    },
  };
}
