// @ts-check
/**
 * Paste into the table: a column or a block copied from a spreadsheet (cells split by tabs, rows by
 * line breaks, a cell holding either in quotes) fills the cells from the focused one down and to the right, one pasted line a row of
 * the table as shown. Read-only rows keep their values, and what falls past the last row or column is
 * left out; both are counted in what is said. A paste reaching past the rows read while the sheet's
 * later pages are on their way waits for them (as Copy from the previous sheet does), and says the
 * cells of rows that could not be read so, never "past the end". A single value without a tab or
 * line break is pasted by the browser into the cell, as in any field; one copied whole from a field
 * of the screen (copy-value.js) fills the one cell, its line breaks kept.
 */

import { ONE_VALUE } from './copy-value.js';
import { fill } from './labels.js';
import { typedInto } from './table-cells.js';
import { isCellControl } from './table-rows.js';

/**
 * A spreadsheet's clipboard text as rows of cells: "a\tb\nc\td\n" → [["a", "b"], ["c", "d"]].
 * Excel and Google Sheets copy a cell holding a line break (Alt+Enter) or a tab in quotes, its own
 * quotes doubled: `"Solo úmido\nrefazer"\t5` is one row of two cells, the first with its line break.
 * A quoted cell is kept as it is inside its quotes; a quote elsewhere is text (`5" cm`, and `"5" cm`,
 * whose quote closes before the cell does). A line break at the very end closes the last row.
 * @param {string} text
 */
export function parseClipboard(text) {
  /** @type {string[][]} */
  const rows = [];
  /** @type {string[]} */
  let row = [];
  let at = 0;
  for (;;) {
    const quoted = text[at] === '"' ? quotedCell(text, at) : undefined;
    let end = quoted?.end ?? at;
    if (quoted === undefined) {
      while (end < text.length && !'\t\r\n'.includes(text.charAt(end))) end++;
    }
    row.push(quoted?.value ?? text.slice(at, end).trim());
    if (text[end] === '\t') {
      at = end + 1;
      continue;
    }
    rows.push(row);
    row = [];
    at = end + (text.startsWith('\r\n', end) ? 2 : 1);
    if (at >= text.length) break;
  }
  return rows;
}

/**
 * The quoted cell starting at `start` (its opening quote): its text, its `""` read as `"`, and where
 * it ends; undefined when it is no quoted cell (no closing quote, or more text after it before the
 * next tab or line break), then read as it is.
 * @param {string} text
 * @param {number} start
 */
function quotedCell(text, start) {
  let value = '';
  let at = start + 1;
  for (;;) {
    const close = text.indexOf('"', at);
    if (close < 0) return undefined;
    value += text.slice(at, close);
    if (text[close + 1] === '"') {
      value += '"';
      at = close + 2;
      continue;
    }
    const end = close + 1;
    return end === text.length || '\t\r\n'.includes(text.charAt(end)) ? { value, end } : undefined;
  }
}

/**
 * What a paste says: how many cells it filled, and how many it left (read-only or past the end; in
 * rows that could not be read; typed in while the paste waited for them), one cell said as one.
 * @param {import('./labels.js').ScreenLabels} labels
 * @param {{ pasted: number, left: number, unread: number, kept?: number }} counts
 */
export function pasteSaid(labels, { pasted, left, unread, kept = 0 }) {
  /** @param {string} one @param {string} many @param {number} count */
  const of = (one, many, count) => (count === 1 ? one : fill(many, { count }));
  const said = [of(labels.pastedOne, labels.pasted, pasted)];
  if (left > 0) said.push(of(labels.pastedSkippedOne, labels.pastedSkipped, left));
  if (unread > 0) said.push(of(labels.pastedUnreadOne, labels.pastedUnread, unread));
  if (kept > 0) said.push(of(labels.pastedKeptOne, labels.pastedKept, kept));
  return said.join(' ');
}

/**
 * @param {import('./dom.js').ScreenContext} ctx
 * @param {import('./table.js').Table} table
 */
export function attachTablePaste(ctx, table) {
  // A paste that waited for the sheet's later pages while a save went out waits for its end too:
  // the cells take nothing while a save is out (see table-model.js `setCell`).
  /** @type {(() => void)[]} */
  let afterSave = [];
  table.onSaving((saving) => {
    if (saving) return;
    const waiting = afterSave;
    afterSave = [];
    for (const go of waiting) go();
  });
  const saveEnded = () =>
    table.isSaving() ? new Promise((resolve) => afterSave.push(() => resolve(undefined))) : Promise.resolve();

  table.grid.addEventListener('paste', (event) => {
    const target = event.target;
    if (!isCellControl(target) || table.isSaving()) return;
    const text = event.clipboardData?.getData('text/plain') ?? '';
    if (!/[\t\n\r]/.test(text)) return;
    event.preventDefault();
    // One value copied whole from a field of the screen (copy-value.js): one cell, its line breaks
    // kept, as a spreadsheet's quoted cell is.
    const one = event.clipboardData?.getData(ONE_VALUE) ?? '';
    const block = one === '' ? parseClipboard(text) : [[one]];
    void pasteBlock(Number(target.dataset.row), Number(target.dataset.col), block);
  });

  /**
   * Fills the cells from (`startRow`, `startCol`) with `block`, once the rows it reaches are read.
   * @param {number} startRow @param {number} startCol @param {string[][]} block
   */
  async function pasteBlock(startRow, startCol, block) {
    const first = table.rows()[table.view()[startRow] ?? -1];
    const waits = startRow + block.length > table.view().length && !table.isWhole();
    /** @param {number} row @param {number} col */
    const cellAt = (row, col) => table.rows()[table.view()[row] ?? -1]?.cells[col];
    // What each cell of the block already read holds as the paste begins: one the person changes
    // while the paste waits for the rows it reaches (typed in, a draft taken from the modal) keeps
    // what they typed last, as Copy from the previous sheet keeps typed cells.
    /** @type {Map<object, string>} */
    const before = new Map();
    if (waits) {
      for (const [down, line] of block.entries()) {
        for (const across of line.keys()) {
          const cell = cellAt(startRow + down, startCol + across);
          if (cell) before.set(cell, cell.text);
        }
      }
    }
    /** Whether a cell was changed while the paste waited: a row read meanwhile, by its preset. */
    const changedMeanwhile = (/** @type {number} */ row, /** @type {number} */ col) => {
      const cell = cellAt(row, col);
      if (!waits || cell === undefined) return false;
      const was = before.get(cell);
      return was === undefined ? typedInto(cell) : cell.text !== was;
    };
    let read = true;
    let at = startRow;
    if (waits) {
      table.announce(ctx.labels.copyReading);
      read = await table.whole();
      await saveEnded();
      if (ctx.destroyed() || !first) return;
      // The view may have changed meanwhile (the filter set): the paste starts where its row is now,
      // and leaves every cell, said so, when the filter hides that row.
      const now = table.placeOfRow(first);
      if (now === undefined) {
        const left = block.reduce((count, line) => count + line.length, 0);
        table.announce(pasteSaid(ctx.labels, { pasted: 0, left, unread: 0 }));
        return;
      }
      at = now;
    }
    const rows = table.view().length;
    const columns = table.columns().length;
    let pasted = 0;
    let left = 0;
    let unread = 0;
    let kept = 0;
    block.forEach((line, down) => {
      line.forEach((value, across) => {
        const row = at + down;
        const col = startCol + across;
        if (row >= rows && !read) unread++;
        else if (row < rows && col < columns && changedMeanwhile(row, col)) kept++;
        else if (row >= rows || col >= columns || !table.setText(row, col, value, { pasted: true })) left++;
        else pasted++;
      });
    });
    // Waited for: the focus goes back to the cell pasted into only if the person is still there.
    const focused = ctx.doc.activeElement;
    if (!waits || (isCellControl(focused) && Number(focused.dataset.row) === at))
      table.focusCell(at, startCol);
    table.announce(pasteSaid(ctx.labels, { pasted, left, unread, kept }));
  }
}
