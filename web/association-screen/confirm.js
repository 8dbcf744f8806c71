// @ts-check
/**
 * The remove's confirmation: a modal dialog of its own above the metric modal (role `alertdialog`,
 * the platform's focus trap; Esc keeps the entry), never `window.confirm`, which a host page may have
 * silenced. "Keep it" has the focus: Enter pressed at once keeps the entry.
 */

import { BLOCK, button } from './dom.js';
import { fill } from './labels.js';

/**
 * @param {import('./dom.js').ScreenContext} ctx
 * @param {() => void} onRemove the person confirmed
 */
export function createConfirm(ctx, onRemove) {
  const { create, labels } = ctx;
  const dialog = create('dialog', `${BLOCK}__confirm`);
  dialog.setAttribute('role', 'alertdialog');
  const title = create('h3', `${BLOCK}__confirm-title`, labels.removeTitle);
  title.id = `${ctx.uid}-confirm-title`;
  const text = create('p', `${BLOCK}__confirm-text`);
  text.id = `${ctx.uid}-confirm-text`;
  dialog.setAttribute('aria-labelledby', title.id);
  dialog.setAttribute('aria-describedby', text.id);
  const actions = create('div', `${BLOCK}__confirm-actions`);
  const keep = button(create, `${BLOCK}__button`, labels.removeCancel);
  const remove = button(create, `${BLOCK}__button ${BLOCK}__button--danger-primary`, labels.removeConfirm);
  actions.append(keep, remove);
  dialog.append(title, text, actions);
  /** @type {HTMLElement | undefined} */
  let returnTo;

  keep.addEventListener('click', () => {
    dialog.close();
    returnTo?.focus();
  });
  remove.addEventListener('click', () => {
    dialog.close();
    onRemove();
  });

  return {
    dialog,
    /**
     * Asks whether the entry of `label` is to be removed; "Keep it" gives the focus back to `from`.
     * @param {string} label @param {HTMLElement} from
     */
    ask(label, from) {
      returnTo = from;
      text.textContent = fill(labels.removeText, { label });
      dialog.showModal();
      keep.focus();
    },
    close() {
      if (dialog.open) dialog.close();
    },
  };
}
