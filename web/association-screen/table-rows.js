// @ts-check
/**
 * The table view's rows as elements (see table.js): one row's header (label, path, read-only) and
 * inputs, and each cell's value with what is said of it. Rows are placed by index at a fixed height,
 * so the table can render only the rows in view.
 */

import { BLOCK } from './dom.js';
import { changedNote, fill } from './labels.js';
import { differs, isLocked } from './table-cells.js';
import { isFractional, isWholeNumber, metricLabel } from './values.js';

/** @typedef {import('./dom.js').ScreenContext} ScreenContext */
/** @typedef {import('./table-model.js').TableRow} TableRow */
/** @typedef {import('./table-model.js').TableCell} TableCell */

/**
 * A cell's kind in one word, for narrow screens.
 * @type {Record<string, keyof import('./labels.js').ScreenLabels>}
 */
const MARKS = {
  saved: 'markSaved',
  default: 'markDefault',
  copied: 'markCopied',
  edited: 'markEdited',
  entered: 'markEntered',
  pending: 'markPending',
  stopped: 'markStopped',
  conflict: 'markConflict',
  error: 'markError',
};

/** Every row's height in pixels: rows are placed by index, so none may grow. */
export const ROW_HEIGHT = 64;

/**
 * What a cell says of itself, and its kind (for its colour).
 * @param {ScreenContext} ctx @param {TableCell} cell @param {boolean} edited whether the person changed it
 * @param {boolean} waiting whether its value waits in the outbox
 * @param {boolean} stopped whether its value stopped in the outbox (a conflict, a refusal)
 */
function noteOf(ctx, cell, edited, waiting, stopped) {
  const { labels } = ctx;
  if (cell.conflict !== undefined) {
    const { conflict } = cell;
    // The entry removed meanwhile: what applies is the default, once the row is read again (its
    // preset then), as the modal's conflict says it.
    const theirs =
      conflict.row !== false
        ? ctx.say.value(conflict.theirs, cell.column)
        : cell.source === 'saved'
          ? labels.conflictRemovedUnread
          : fill(labels.conflictRemoved, { value: ctx.say.value(cell.preset, cell.column) });
    return {
      kind: 'conflict',
      text:
        conflict.changedBy === null
          ? fill(labels.tableConflictCellUnknown, { theirs })
          : fill(labels.tableConflictCell, {
              user: ctx.say.changer(conflict.changedBy),
              at: conflict.changedAt ? ctx.say.when(conflict.changedAt) : '',
              theirs,
            }),
    };
  }
  if (cell.error !== undefined) return { kind: 'error', text: cell.error };
  if (cell.copied !== undefined || edited) {
    return changedNote(labels, { copied: cell.copied, entered: cell.confirmed && !differs(cell, ctx.lang) });
  }
  // Its value is the person's, kept in the outbox and stopped there: not what the server holds.
  if (stopped) return { kind: 'stopped', text: labels.sourceStopped };
  if (waiting) return { kind: 'pending', text: labels.sourcePending };
  const kind = cell.source === 'saved' ? 'saved' : cell.source?.startsWith('default') ? 'default' : 'none';
  return { kind, text: ctx.say.source(cell.source, cell.preset) };
}

/** A cell's text field, an `<input>` or, for a text with line breaks, a `<textarea>`. */
export const CELL_CONTROL = `.${BLOCK}__table-input`;

/**
 * Whether `target` is a cell's text field. @param {EventTarget | null} target
 * @returns {target is HTMLInputElement | HTMLTextAreaElement}
 */
export const isCellControl = (target) =>
  (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement) &&
  target.matches(CELL_CONTROL);

/**
 * A cell's text field, named by its metric: a `<textarea>` (`multiline`) while its text has a line
 * break, which an `<input>` would drop from what it shows and from what is typed on from it.
 * @param {ScreenContext} ctx @param {TableCell} cell @param {boolean} multiline
 */
function cellControl(ctx, cell, multiline) {
  const input = multiline
    ? ctx.create('textarea', `${BLOCK}__table-input ${BLOCK}__table-input--lines`)
    : ctx.create('input', `${BLOCK}__table-input`);
  if (input instanceof HTMLInputElement) input.type = 'text';
  else input.rows = 1;
  input.autocomplete = 'off';
  input.spellcheck = false;
  input.setAttribute('aria-label', metricLabel(cell.column));
  input.inputMode = isWholeNumber(cell.column.dataType)
    ? 'numeric'
    : isFractional(cell.column.dataType)
      ? 'decimal'
      : 'text';
  return input;
}

/**
 * The element of one shown row, placed by its place in the view.
 * @param {ScreenContext} ctx @param {TableRow} row @param {number} viewIndex
 * @param {{ saving: boolean, isChanged: (cell: TableCell) => boolean }} state
 */
export function makeRowElement(ctx, row, viewIndex, { saving, isChanged }) {
  const { create } = ctx;
  const element = create('div', `${BLOCK}__table-row`);
  element.setAttribute('role', 'row');
  element.setAttribute('aria-rowindex', String(viewIndex + 2));
  element.style.transform = `translateY(${viewIndex * ROW_HEIGHT}px)`;
  const header = create('div', `${BLOCK}__table-activity`);
  header.setAttribute('role', 'rowheader');
  const label = create('span', `${BLOCK}__table-label`, row.data.label);
  const trail = row.data.path.map((step) => step.label).join(' › ');
  // Cut short on a phone: the whole label and path show on hover (and are the row header's text).
  header.title = trail ? `${row.data.label}\n${trail}` : row.data.label;
  header.append(label);
  if (trail) header.append(create('span', `${BLOCK}__table-path`, trail));
  element.append(header);
  row.cells.forEach((cell, col) => {
    const box = create('div', `${BLOCK}__table-cell`);
    box.setAttribute('role', 'gridcell');
    const input = cellControl(ctx, cell, /[\r\n]/.test(cell.text));
    input.dataset.row = String(viewIndex);
    input.dataset.col = String(col);
    input.tabIndex = -1;
    const said = create('span', `${BLOCK}__table-source`);
    said.id = `${ctx.uid}-cell-${row.index}-${col}`;
    input.setAttribute('aria-describedby', said.id);
    // Where the screen is narrow the sentence gives way to a word (the sentence stays the input's
    // description, and its title).
    const mark = create('span', `${BLOCK}__table-mark`);
    mark.setAttribute('aria-hidden', 'true');
    box.append(input, said, mark);
    element.append(box);
    paintCell(ctx, row, cell, box, isChanged(cell));
  });
  paintLock(ctx, row, element, saving);
  return element;
}

/**
 * Shows whether a row takes changes (see table-cells.js `isLocked`): it may change while the row is
 * shown (read again read-only, a save refused for the row), so it is painted anew with its cells.
 * @param {ScreenContext} ctx @param {TableRow} row @param {Element} element
 * @param {boolean} saving a save is out (every cell read-only meanwhile)
 */
export function paintLock(ctx, row, element, saving) {
  const locked = isLocked(row);
  element.classList.toggle(`${BLOCK}__table-row--read-only`, locked);
  const header = element.querySelector('[role="rowheader"]');
  const lock = header?.querySelector(`.${BLOCK}__lock`);
  if (locked && !lock) header?.append(ctx.create('span', `${BLOCK}__lock`, ctx.labels.readOnly));
  if (!locked) lock?.remove();
  for (const box of element.querySelectorAll('[role="gridcell"]')) {
    if (locked) box.setAttribute('aria-readonly', 'true');
    else box.removeAttribute('aria-readonly');
    const input = box.querySelector(CELL_CONTROL);
    if (!isCellControl(input)) continue;
    input.dataset.locked = String(locked);
    input.readOnly = locked || saving;
  }
}

/**
 * Cell controls put in place of the focused one of the same cell (a line break typed or pasted makes
 * the field a textarea, and back): focused as the same entry of the cell, not a new one.
 * @type {WeakSet<Element>}
 */
const takeovers = new WeakSet();

/**
 * Whether a control took the focus over from its cell's previous control (see `paintCell`): the
 * person is still in the cell. Told once. @param {Element} control
 */
export const tookOver = (control) => takeovers.delete(control);

/**
 * Shows a cell's value and what is said of it (its kind as a class, for its colour).
 * @param {ScreenContext} ctx @param {TableRow} row @param {TableCell} cell @param {Element} box
 * @param {boolean} edited
 */
export function paintCell(ctx, row, cell, box, edited) {
  const found = box.querySelector(CELL_CONTROL);
  const said = box.querySelector(`.${BLOCK}__table-source`);
  const mark = box.querySelector(`.${BLOCK}__table-mark`);
  if (!isCellControl(found) || !(said instanceof HTMLElement) || !(mark instanceof HTMLElement)) return;
  let input = found;
  // A text with a line break takes a textarea (and one without goes back to an input): never shown,
  // nor typed on from, without its line breaks.
  const multiline = /[\r\n]/.test(cell.text);
  if (multiline !== input instanceof HTMLTextAreaElement) {
    const other = cellControl(ctx, cell, multiline);
    Object.assign(other.dataset, input.dataset);
    other.readOnly = input.readOnly;
    other.tabIndex = input.tabIndex;
    const described = input.getAttribute('aria-describedby');
    if (described !== null) other.setAttribute('aria-describedby', described);
    const focused = input.ownerDocument.activeElement === input;
    input.replaceWith(other);
    if (focused) {
      // The new field takes the old one's text and caret (or selection) before it is focused: set
      // after, the value would put the caret at the end, and the next key land there (Backspace
      // joining a note's lines, then a space typed, "Solo úmidorefazer ").
      other.value = cell.text;
      const { selectionStart, selectionEnd, selectionDirection } = input;
      if (selectionStart !== null && selectionEnd !== null)
        other.setSelectionRange(selectionStart, selectionEnd, selectionDirection ?? undefined);
      takeovers.add(other);
      other.focus({ preventScroll: true });
    }
    input = other;
  }
  if (input.value !== cell.text) input.value = cell.text;
  const waiting = ctx.offline?.pendingFields(row.data)?.has(cell.field) === true;
  const stopped = ctx.offline?.stoppedFields(row.data)?.has(cell.field) === true;
  const { kind, text } = noteOf(ctx, cell, edited, waiting, stopped);
  said.textContent = text;
  said.title = text;
  mark.textContent = MARKS[kind] === undefined ? '' : ctx.labels[MARKS[kind]];
  mark.title = text;
  box.className = `${BLOCK}__table-cell ${BLOCK}__table-cell--${kind}`;
  input.setAttribute('aria-invalid', String(kind === 'error' || kind === 'conflict'));
  if (isLocked(row)) box.classList.add(`${BLOCK}__table-cell--locked`);
}
