// @ts-check
/**
 * The table's cells as data (see table-model.js): what a row and a cell hold, a row made from a
 * sheet row as the server sent it, a value as a cell shows it, whether a cell is changed. Pure: no
 * state and no element, so the model keeps the rows and what the person made of them, and these
 * only say what one row or cell is.
 */

import { keyOf } from './entry-key.js';
import { checkTyped, formatValue, sameValue } from './values.js';

/** @typedef {import('./api.js').SheetRow} SheetRow */
/** @typedef {import('./api.js').MetricColumn} MetricColumn */
/** @typedef {import('./api.js').MetricValue} MetricValue */
/** @typedef {import('./api.js').MetricConflict} MetricConflict */

/**
 * One cell of the table: what the server preset, what the person has now, and what is said of it.
 * @typedef {object} TableCell
 * @property {string} field
 * @property {MetricColumn} column
 * @property {MetricValue} preset the value the cell was preset with (the server's)
 * @property {string} presetText the preset as the cell shows it
 * @property {MetricValue} base what a save of this cell starts from: the stored value, null where no row
 * @property {MetricValue} stored the server's value of its field (null where no row) as this cell
 *   last knew it, not what the outbox lays over it: whether a value read or answered since is new
 *   (see table-model.js `represent`)
 * @property {string | undefined} source the preset's source, as the server says it
 * @property {string} text what the cell holds now
 * @property {string} entered what it held when the person entered it (Escape goes back to it)
 * @property {number | undefined} enteredCopied the sheet it was copied from when entered (Escape keeps the mark)
 * @property {boolean} enteredConfirmed whether it was `confirmed` when entered (Escape keeps that too)
 * @property {number | undefined} copied the sheet its value was copied from, until saved
 * @property {boolean} confirmed typed (or pasted) into a row without an entry by the person: sent
 *   though it reads as its preset, the default the person means to record (a value other than the
 *   preset is sent anyway). Without it, a supervisor typing a day's 8 over a default of 8 recorded
 *   nothing: the activity kept no entry, and the host's reports, reading the table, showed it empty.
 * @property {string | undefined} error the problem found in it
 * @property {MetricConflict | undefined} conflict what a refused save said of it
 */

/**
 * One activity of the sheet, a row of the table.
 * @typedef {object} TableRow
 * @property {number} index its place among every row loaded
 * @property {string} key activity and group: the metric row's key
 * @property {SheetRow} data
 * @property {TableCell[]} cells in the columns' order
 * @property {boolean} hasRow whether the key has a saved entry (then only changed cells are sent)
 * @property {boolean} filled whether a value is saved on this sheet
 * @property {SheetRow} served the row as the server has it (as read, or as a save here stored it):
 *   what the outbox keeps of it is laid over it to preset its cells (see table-outbox.js)
 * @property {boolean} queued whether its cells show values kept in the outbox (waiting, or stopped)
 * @property {string | undefined} refused why a save was refused for the row itself (no longer in the
 *   sheet's tree, read-only or inactive meanwhile): its cells keep what they show, are not counted
 *   as changed and are never sent, until the table is read again (see table-save.js)
 * @property {boolean} unread a save's conflict said its entry was removed meanwhile, and what applies
 *   now (the defaults) is not read yet: its cells may still show the removed entry's values, which a
 *   save of a key without an entry would send as new ones, so none of it is sent until it is read
 */

/**
 * A value as a cell shows it, in the page's language (empty for none).
 * @param {MetricValue} value @param {MetricColumn} column @param {string} lang
 */
export const cellText = (value, column, lang) => (value === null ? '' : formatValue(value, column, lang));

/** Whether the key has a saved entry (a value of it saved, even empty). @param {SheetRow} data */
export const hasEntry = (data) =>
  data.lastChange !== null || Object.values(data.metrics).some((metric) => metric.source === 'saved');

/**
 * Whether a row takes no change and sends none: read-only or inactive, or refused for itself.
 * @param {TableRow} row
 */
export const isLocked = (row) => row.data.editable === false || row.refused !== undefined;

/** A metric's value as the base of a save: the stored value, null where it is no saved one. @param {import('./api.js').ScreenMetric | undefined} metric */
export const baseOf = (metric) => (metric?.source === 'saved' ? (metric.value ?? null) : null);

/**
 * @param {Pick<import('./dom.js').ScreenContext, 'columns' | 'lang'>} ctx
 * @param {SheetRow} data its values as shown @param {number} index
 * @param {SheetRow} served as the server has it @param {boolean} queued
 * @returns {TableRow}
 */
export function newRow(ctx, data, index, served, queued) {
  const hasRow = hasEntry(data);
  const cells = ctx.columns.map((column) => {
    const metric = data.metrics[column.field];
    const preset = metric?.value ?? null;
    const presetText = cellText(preset, column, ctx.lang);
    return {
      field: column.field,
      column,
      preset,
      presetText,
      base: baseOf(metric),
      stored: baseOf(served.metrics[column.field]),
      source: metric?.source,
      text: presetText,
      entered: presetText,
      enteredCopied: undefined,
      enteredConfirmed: false,
      copied: undefined,
      confirmed: false,
      error: undefined,
      conflict: undefined,
    };
  });
  const key = keyOf(data);
  return {
    index,
    key,
    data,
    cells,
    hasRow,
    filled: data.filled,
    served,
    queued,
    refused: undefined,
    unread: false,
  };
}

/**
 * Whether a cell differs from its preset (a copied or confirmed cell always counts: it is meant to
 * be saved, and so does one refused for a conflict: Save again keeps it).
 * @param {TableCell} cell @param {string} lang
 */
export const cellChanged = (cell, lang) =>
  cell.copied !== undefined || cell.confirmed || cell.conflict !== undefined || differs(cell, lang);

/**
 * Whether what a cell holds reads as other than its preset, by value (`8` is `8.0` in a decimal
 * column); what cannot be read as a value differs. @param {TableCell} cell @param {string} lang
 */
export function differs(cell, lang) {
  if (cell.text === cell.presetText) return false;
  const checked = checkTyped(cell.column, cell.text, lang);
  return !checked.ok || !sameValue(cell.column, checked.value, cell.preset);
}

/**
 * Whether what a cell holds is the person's typing (or pasting), which Copy from the previous sheet
 * and a paste waiting for rows leave as it is: other than its preset, or confirmed; not copied.
 * @param {TableCell} cell
 */
export const typedInto = (cell) =>
  cell.copied === undefined && (cell.confirmed || cell.text !== cell.presetText);
