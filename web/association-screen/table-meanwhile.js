// @ts-check
/**
 * Who stored the value that a changed cell of the table met meanwhile (table-model.js `represent`:
 * a value stored by someone else came with a sent entry's answer or a row read again, and is shown
 * as a conflict at the cell). The answer or the read says only who changed the row last, which is
 * often this device's own sending of another of its fields, so the activity's history
 * (`part=history`) is asked who changed that field last. Until it answers, or when it cannot, the
 * cell says "Changed meanwhile" alone.
 */

import { lastChangesOf } from './changed-by.js';

/** @typedef {import('./table-cells.js').TableRow} TableRow */
/** @typedef {import('./table-cells.js').TableCell} TableCell */

/**
 * @param {import('./dom.js').ScreenContext} ctx
 * @param {(row: TableRow) => void} redraw redraws a row, where it is shown
 * @returns {(row: TableRow, cells: readonly TableCell[]) => Promise<void>}
 */
export function createMeanwhileNames(ctx, redraw) {
  return async function name(row, cells) {
    // Each cell's conflict as raised: one changed since (saved, Escape, raised again) is left alone.
    const raised = new Map(cells.map((cell) => [cell, cell.conflict]));
    const changes = await lastChangesOf(
      ctx,
      row.data,
      cells.map((cell) => cell.field),
    );
    if (ctx.destroyed()) return;
    let named = false;
    for (const [cell, conflict] of raised) {
      const last = changes.get(cell.field);
      if (conflict === undefined || cell.conflict !== conflict || !last) continue;
      cell.conflict = { ...conflict, changedBy: last.user, changedAt: last.at };
      named = true;
    }
    if (named) redraw(row);
  };
}
