// @ts-check
/**
 * Paste into the table: a column or a block copied from a spreadsheet (cells split by tabs, rows by
 * line breaks) fills the cells from the focused one down and to the right, one pasted line a row of
 * the table as shown. Read-only rows keep their values, and what falls past the last row or column is
 * left out; both are counted in what is said. A single value without a tab or line break is pasted
 * by the browser into the cell, as in any field.
 */

import { fill } from './labels.js';
import { isCellControl } from './table-rows.js';

/**
 * A spreadsheet's clipboard text as rows of cells: "a\tb\nc\td\n" → [["a", "b"], ["c", "d"]].
 * @param {string} text
 */
export function parseClipboard(text) {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  return lines.map((line) => line.split('\t').map((cell) => cell.trim()));
}

/**
 * @param {import('./dom.js').ScreenContext} ctx
 * @param {import('./table.js').Table} table
 */
export function attachTablePaste(ctx, table) {
  table.grid.addEventListener('paste', (event) => {
    const target = event.target;
    if (!isCellControl(target) || table.isSaving()) return;
    const text = event.clipboardData?.getData('text/plain') ?? '';
    if (!/[\t\n\r]/.test(text)) return;
    event.preventDefault();
    const startRow = Number(target.dataset.row);
    const startCol = Number(target.dataset.col);
    const block = parseClipboard(text);
    const rows = table.view().length;
    const columns = table.columns().length;
    let pasted = 0;
    let left = 0;
    block.forEach((line, down) => {
      line.forEach((value, across) => {
        const row = startRow + down;
        const col = startCol + across;
        if (row >= rows || col >= columns || !table.setText(row, col, value)) left++;
        else pasted++;
      });
    });
    table.focusCell(startRow, startCol);
    const said = fill(ctx.labels.pasted, { count: pasted });
    table.announce(left > 0 ? `${said} ${fill(ctx.labels.pastedSkipped, { count: left })}` : said);
  });
}
