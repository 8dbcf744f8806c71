// @ts-check
/**
 * The table's keys, as a spreadsheet has them: Tab / Shift+Tab along a row (on to the next row at
 * its end), Enter / Shift+Enter and the arrows Up / Down between rows, Page Up / Page Down by a
 * screenful, Ctrl+Home / Ctrl+End to the first and last row, Escape undoes the cell's edit. Left and
 * Right move the caret inside the cell; typing replaces the cell (its value is selected on entering).
 */

import { isCellControl, ROW_HEIGHT } from './table-rows.js';

/** @param {import('./table.js').Table} table */
export function attachTableKeys(table) {
  table.grid.addEventListener('keydown', (event) => {
    const target = event.target;
    if (!isCellControl(target) || event.altKey || event.metaKey) return;
    // A key that ends an input method's composition (Enter choosing the word typed with a Japanese,
    // Chinese or Korean keyboard, or a phone's) belongs to the composition, not to the grid.
    if (event.isComposing) return;
    const row = Number(target.dataset.row);
    const col = Number(target.dataset.col);
    if (!Number.isInteger(row) || !Number.isInteger(col)) return;
    const last = table.view().length - 1;
    const columns = table.columns().length;
    const page = Math.max(1, Math.floor(table.grid.clientHeight / ROW_HEIGHT) - 1);
    /** @type {[number, number] | undefined} */
    let to;
    switch (event.key) {
      case 'Tab':
        if (event.ctrlKey) return;
        if (event.shiftKey) to = col > 0 ? [row, col - 1] : row > 0 ? [row - 1, columns - 1] : undefined;
        else to = col < columns - 1 ? [row, col + 1] : row < last ? [row + 1, 0] : undefined;
        // At the grid's first or last cell, Tab leaves the grid as it leaves any field.
        if (to === undefined) return;
        break;
      case 'Enter':
        to = [event.shiftKey ? row - 1 : row + 1, col];
        break;
      // In a note of several lines, Up and Down move between its lines first, as in any text box;
      // from its first (last) line, to the row above (below).
      case 'ArrowDown':
        if (lineAfter(target)) return;
        to = [row + 1, col];
        break;
      case 'ArrowUp':
        if (lineBefore(target)) return;
        to = [row - 1, col];
        break;
      // Within a screenful of the end (or the start), by what is left: to the last (first) row.
      case 'PageDown':
        to = [Math.min(last, row + page), col];
        break;
      case 'PageUp':
        to = [Math.max(0, row - page), col];
        break;
      case 'Home':
      case 'End':
        if (!event.ctrlKey) return;
        to = [event.key === 'Home' ? 0 : last, col];
        break;
      case 'Escape':
        event.preventDefault();
        table.undo(row, col);
        return;
      default:
        return;
    }
    event.preventDefault();
    const [toRow, toCol] = to;
    if (toRow < 0 || toRow > last) return;
    table.focusCell(toRow, toCol);
  });
}

/**
 * Whether a line of the cell's text lies above the caret (a note's field, a textarea).
 * @param {HTMLInputElement | HTMLTextAreaElement} field
 */
const lineBefore = (field) =>
  field instanceof HTMLTextAreaElement && field.value.slice(0, field.selectionStart).includes('\n');

/**
 * Whether a line of the cell's text lies below the caret (a note's field, a textarea).
 * @param {HTMLInputElement | HTMLTextAreaElement} field
 */
const lineAfter = (field) =>
  field instanceof HTMLTextAreaElement && field.value.slice(field.selectionEnd).includes('\n');
