// @ts-check
/**
 * "Copy from the previous sheet": a dialog (native `<dialog>`, `showModal()`) that fills the table
 * from the values saved on the previous task sheet of the scope (`part=previous`), or on a sheet the
 * person names, leaving the metrics they tick empty. Nothing is saved: the copied cells are marked
 * until the person saves them (with `source: "copy"`). Only activities without values saved on this
 * sheet are filled, and no cell the person changed is copied over. It fills every row of the sheet:
 * a copy pressed while the table still reads its later pages waits for them, and one of a table
 * whose page could not be read (after trying it again) copies nothing and says so, never a part of
 * the sheet said as the whole.
 */

import { problemOf } from './api.js';
import { BLOCK, button } from './dom.js';
import { keyOf } from './entry-key.js';
import { fill } from './labels.js';
import { isLocked, typedInto } from './table-cells.js';
import { formatValue, metricLabel } from './values.js';

/**
 * @param {import('./dom.js').ScreenContext} ctx
 * @param {import('./table.js').Table} table
 */
export function createCopyPrevious(ctx, table) {
  const { create, labels } = ctx;
  const open = button(create, `${BLOCK}__button`, labels.copyPrevious);
  const dialog = create('dialog', `${BLOCK}__modal ${BLOCK}__copy`);
  const form = create('form', `${BLOCK}__form`);
  form.method = 'dialog';
  form.noValidate = true;
  const title = create('h2', `${BLOCK}__modal-title`, labels.copyPrevious);
  title.id = `${ctx.uid}-copy-title`;
  dialog.setAttribute('aria-labelledby', title.id);
  const fromLabel = create('label', `${BLOCK}__field-label`, labels.copyFrom);
  const from = create('input', `${BLOCK}__input`);
  from.id = `${ctx.uid}-copy-from`;
  from.inputMode = 'numeric';
  from.autocomplete = 'off';
  fromLabel.htmlFor = from.id;
  const fields = create('fieldset', `${BLOCK}__copy-empty`);
  const error = create('p', `${BLOCK}__form-error`);
  error.setAttribute('role', 'alert');
  error.hidden = true;
  // What the copy waits for (the rest of the sheet's rows), said while it waits.
  const status = create('p', `${BLOCK}__copy-status`);
  status.setAttribute('role', 'status');
  const actions = create('div', `${BLOCK}__actions`);
  const cancel = button(create, `${BLOCK}__button`, labels.cancel);
  const confirm = create('button', `${BLOCK}__button ${BLOCK}__button--primary`, labels.copyConfirm);
  confirm.type = 'submit';
  actions.append(cancel, confirm);
  form.append(title, fromLabel, from, fields, error, status, actions);
  dialog.append(form);
  let busy = false;
  // While a save is out the cells take nothing (what it sends is fixed): copy once it is answered.
  table.onSaving((saving) => {
    open.disabled = saving;
  });

  open.addEventListener('click', () => {
    fields.replaceChildren(create('legend', '', labels.copyLeaveEmpty));
    for (const column of table.columns()) {
      const label = create('label', `${BLOCK}__copy-choice`);
      const box = create('input', '');
      box.type = 'checkbox';
      box.value = column.field;
      label.append(box, ` ${metricLabel(column)}`);
      fields.append(label);
    }
    error.hidden = true;
    status.textContent = '';
    dialog.showModal();
    from.focus();
  });
  cancel.addEventListener('click', () => dialog.close());
  dialog.addEventListener('cancel', (event) => {
    if (busy) event.preventDefault();
  });
  dialog.addEventListener('close', () => open.focus());
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void copy();
  });

  async function copy() {
    if (busy) return;
    const named = from.value.trim();
    if (named !== '' && !/^[1-9]\d{0,15}$/.test(named)) {
      say(labels.copyBadSheet);
      from.focus();
      return;
    }
    /** @type {Set<string>} */
    const empty = new Set();
    for (const box of fields.querySelectorAll('input:checked')) {
      if (box instanceof HTMLInputElement) empty.add(box.value);
    }
    busy = true;
    confirm.disabled = true;
    error.hidden = true;
    try {
      // Every row of the sheet, read before any is filled: the later pages may still be on their way.
      if (!table.isWhole()) status.textContent = labels.copyReading;
      const [read, previous] = await Promise.all([
        table.whole(),
        ctx.api.previous(named === '' ? undefined : Number(named)),
      ]).finally(() => {
        status.textContent = '';
      });
      if (ctx.destroyed()) return;
      if (!read) {
        say(labels.copyUnread);
        return;
      }
      if (previous.from === null) {
        say(labels.copyNone);
        return;
      }
      const { copied, kept } = fillTable(previous.from.id, previous.entries, empty);
      dialog.close();
      const done =
        copied === 0
          ? fill(labels.copyNothing, { id: previous.from.id })
          : fill(copied === 1 ? labels.copyDoneOne : labels.copyDone, {
              count: copied,
              id: previous.from.id,
            });
      const left = kept === 1 ? labels.copyKeptOne : fill(labels.copyKept, { count: kept });
      table.announce(kept > 0 ? `${done} ${left}` : done);
      table.showAlert(undefined);
    } catch (error) {
      if (ctx.destroyed()) return;
      say(fill(labels.copyError, { message: problemOf(error, labels, ctx.taskSheet) }));
    } finally {
      busy = false;
      confirm.disabled = false;
    }
  }

  /** @param {string} text */
  function say(text) {
    error.hidden = false;
    error.textContent = text;
  }

  /**
   * Fills the rows without values saved here from the entries copied; `empty` metrics are emptied.
   * @param {number} sheet
   * @param {readonly import('../../src/tree/screen/previous.js').CopiedEntry[]} entries
   * @param {ReadonlySet<string>} empty
   */
  function fillTable(sheet, entries, empty) {
    const byKey = new Map(entries.map((entry) => [keyOf(entry), entry]));
    const rows = table.rows();
    let copied = 0;
    let kept = 0;
    for (const row of rows) {
      const entry = byKey.get(row.key);
      if (!entry || isLocked(row)) continue;
      if (row.hasRow) {
        kept++;
        continue;
      }
      let filled = false;
      row.cells.forEach((cell, col) => {
        // What the person typed stays theirs.
        if (typedInto(cell)) return;
        const value = empty.has(cell.field) ? null : entry.values[cell.field];
        if (value === undefined) return;
        const text = value === null ? '' : formatValue(value, cell.column, ctx.lang);
        // Counted only where a cell took it (none does while a save is out).
        if (table.setCell(row, col, text, { copied: sheet })) filled = true;
      });
      if (filled) copied++;
    }
    table.render();
    return { copied, kept };
  }

  return { open, dialog };
}
