// @ts-check
/**
 * The metric modal's elements: the native `<dialog>` and its form (title, the activity's path, who
 * changed it last, the read-only notice, that an entry of it waits in the outbox for a decision, the
 * fields, History and Remove entry, the form's alert, the actions and the dialog's own live region).
 * What they do is modal.js's.
 */

import { BLOCK, button, statusRegion } from './dom.js';

/**
 * @param {import('./dom.js').ScreenContext} ctx
 * @param {import('./fields.js').Fields} fields
 * @param {{ toggle: HTMLElement, section: HTMLElement }} history
 */
export function createModalView(ctx, fields, history) {
  const { create, labels } = ctx;
  const dialog = create('dialog', `${BLOCK}__modal`);
  const form = create('form', `${BLOCK}__form`);
  form.method = 'dialog';
  form.noValidate = true;
  const title = create('h2', `${BLOCK}__modal-title`);
  title.id = `${ctx.uid}-modal-title`;
  // Where the focus waits while a save or a remove is out (modal.js `setBusy`).
  title.tabIndex = -1;
  dialog.setAttribute('aria-labelledby', title.id);
  const trail = create('p', `${BLOCK}__modal-path`);
  // Who wrote the entry last, and when: a person about to change it knows whose values these are.
  const lastChangeLine = create('p', `${BLOCK}__last-change`);
  const notice = create('p', `${BLOCK}__notice`, labels.readOnlyNotice);
  notice.hidden = true;
  // An entry of this activity stopped in the outbox (a conflict, a refusal) waits for a decision.
  const stoppedNotice = create('p', `${BLOCK}__notice ${BLOCK}__notice--stopped`, labels.stoppedNotice);
  stoppedNotice.hidden = true;
  const tools = create('div', `${BLOCK}__tools`);
  const removeButton = button(create, `${BLOCK}__button ${BLOCK}__button--danger`, labels.remove);
  tools.append(history.toggle, removeButton);
  const formError = create('p', `${BLOCK}__form-error`);
  formError.setAttribute('role', 'alert');
  formError.hidden = true;
  // Visible as well as spoken: after "Save and next" it is the only sign, for a sighted person,
  // that the previous activity was saved (the tree behind the dialog is dimmed).
  const dialogStatus = statusRegion(create, `${BLOCK}__dialog-status`);
  const actions = create('div', `${BLOCK}__actions`);
  const cancel = button(create, `${BLOCK}__button`, labels.cancel);
  const saveNext = button(create, `${BLOCK}__button`, labels.saveNext);
  const save = create('button', `${BLOCK}__button ${BLOCK}__button--primary`, labels.save);
  save.type = 'submit';
  actions.append(cancel, saveNext, save);
  form.append(
    title,
    trail,
    lastChangeLine,
    notice,
    stoppedNotice,
    fields.root,
    tools,
    history.section,
    formError,
    actions,
    dialogStatus,
  );
  dialog.append(form);
  return {
    dialog,
    form,
    title,
    trail,
    lastChangeLine,
    notice,
    stoppedNotice,
    removeButton,
    formError,
    dialogStatus,
    actions,
    cancel,
    saveNext,
    save,
  };
}
