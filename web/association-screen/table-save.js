// @ts-check
/**
 * The table's one save: every changed cell goes in one PUT batch (split in batches of 1000 entries
 * and 1 MB, the server's most, beyond that; a batch a proxy before the server refuses as too large
 * is sent again in halves), each with its base and the batch with a request id, as the modal's
 * save does. Values are checked first exactly as the modal checks them (`checkTyped`), the problem at
 * its cell. A batch the server refuses writes nothing: a conflict (409 `METRIC_CONFLICT`) is shown at
 * its cells, which keep the person's values and now start from the stored ones, so Save again keeps
 * them and Escape in a cell takes the stored value. A batch refused for one row itself (no longer in
 * the sheet's tree, read-only or inactive meanwhile: 400 with the path `entries.<n>`) marks that row:
 * its cells keep what they show and say why, the row is read again and no later save sends it, so
 * Save again saves the others. A batch carrying cells copied from another sheet
 * is sent with `source: "copy"` (typed cells saved in the same batch are recorded as a copy too:
 * one request, one source), any other with `source: "screen"`.
 *
 * Offline, or with entries of this sheet waiting in the outbox before it, the save goes to the
 * outbox (offline.js), all of it or none, and is sent from there in the order entered (recorded with
 * `source: "offline"` and the device's time). A batch sent without an answer goes to the outbox as it
 * was sent (its request id and source), so it is applied once whether or not it had arrived; one too
 * large for the room left there stays in its changed cells, said to be perhaps stored, and Save
 * changes sends it again under the same request id.
 */

import { failureOf, problemOf } from './api.js';
import { inBatches } from './api-batches.js';
import { fill } from './labels.js';
import { keysToReadAgain } from './saved-answer.js';
import { isLocked } from './table-cells.js';
import { checkTyped } from './values.js';

/** @typedef {import('./api.js').MetricEntry} MetricEntry */
/** @typedef {import('./api.js').MetricValue} MetricValue */
/** @typedef {import('./table-model.js').TableRow} TableRow */
/** @typedef {import('./table-model.js').TableCell} TableCell */

/**
 * What is said at the cells of a row a save was refused for, by the refusal's code: the row itself
 * can no longer be changed (the server names it by its entry, `entries.<n>`).
 * @type {Readonly<Record<string, 'tableRowNotInTree' | 'tableRowReadOnly' | 'tableRowInactive'>>}
 */
const ROW_REFUSALS = {
  NOT_IN_TREE: 'tableRowNotInTree',
  READ_ONLY_ROW: 'tableRowReadOnly',
  INACTIVE_ROW: 'tableRowInactive',
};

/**
 * @param {import('./dom.js').ScreenContext} ctx
 * @param {import('./table.js').Table} table
 * @param {import('./table.js').TableHooks} hooks
 */
export function createTableSave(ctx, table, hooks) {
  const { labels } = ctx;
  /** What is said of `count` cells: `one`, or `many` with the count. @param {string} one @param {string} many @param {number} count */
  const ofCells = (one, many, count) => (count === 1 ? one : fill(many, { count }));

  /**
   * The entries to send, one per row with changes, or the cells whose values are refused. A key
   * with a saved entry sends only its changed cells; one without sends every cell it shows (the
   * defaults the person saw and kept become saved values), as the modal does.
   */
  /** @param {ReadonlySet<TableRow>} held rows kept out of this save: what they met is to be seen first */
  function entries(held) {
    /** @type {{ row: TableRow, entry: MetricEntry, copied: boolean }[]} */
    const list = [];
    /** @type {{ row: TableRow, cell: TableCell }[]} */
    const bad = [];
    /** Rows left out until what applies to them now is known (read, or after their own remove). @type {{ row: TableRow, cell: TableCell }[]} */
    const unread = [];
    for (const [row, cells] of table.changedCells()) {
      if (isLocked(row) || held.has(row)) continue;
      // Its entry removed meanwhile (`unread`), or its remove waiting in the outbox: what applies
      // without the entry is not known here, and the cells left alone would be stored empty.
      // Its own remove kept in the outbox: waiting to be sent, or stopped there for a decision.
      const removeWaits = ctx.offline?.removeKept(row.data) === true;
      const removeStopped = !removeWaits && ctx.offline?.removeKept(row.data, { stopped: true }) === true;
      if (removeWaits || removeStopped || row.unread) {
        const why = removeWaits
          ? labels.tableRowRemoveWaits
          : removeStopped
            ? labels.tableRowRemoveStopped
            : labels.tableRowUnread;
        for (const cell of cells) {
          cell.error = why;
          unread.push({ row, cell });
        }
        continue;
      }
      /** @type {Record<string, MetricValue>} */
      const values = {};
      /** @type {Record<string, MetricValue>} */
      const base = {};
      let copied = false;
      for (const cell of row.hasRow ? cells : row.cells) {
        const checked = checkTyped(cell.column, cell.text, ctx.lang);
        if (!checked.ok) {
          cell.error = fill(labels[checked.problem], checked.params);
          bad.push({ row, cell });
          continue;
        }
        values[cell.field] = checked.value;
        base[cell.field] = cell.base;
        if (cell.copied !== undefined) copied = true;
      }
      if (Object.keys(values).length > 0) {
        list.push({
          row,
          entry: { activity: row.data.activity, group: row.data.group, values, base, row: row.hasRow },
          copied,
        });
      }
    }
    return { list, bad, unread };
  }

  /**
   * Focuses the first of some cells (marked: refused, in conflict, not sent), its row shown first
   * when the filter hid it: what the alert asks the person to look at is never out of reach.
   * @param {{ row: TableRow, cell: TableCell }[]} cells
   */
  function focusFirst(cells) {
    const first = cells[0];
    if (!first) return;
    const at = table.reveal(first.row);
    if (at !== undefined) table.focusCell(at, first.row.cells.indexOf(first.cell));
  }

  /** @param {TableRow} row */
  function redraw(row) {
    const at = table.placeOfRow(row);
    if (at !== undefined) table.refreshRow(at);
  }

  async function run() {
    if (table.isSaving()) return;
    table.showAlert(undefined);
    if (table.changedCount() === 0) {
      table.announce(labels.tableNothing);
      return;
    }
    table.setSaving(true);
    // Rows whose entry a conflict said was removed, and whose read after it failed: read now, or
    // left out of this save (the removed entry's values would be sent as new ones). A value the read
    // finds stored meanwhile is shown at its cell as a conflict (table-model.js `represent`), and
    // the row is left out too: the person's choice was made over what they were shown then, not
    // over this value, which this save would otherwise write over unseen.
    const unreadRows = table
      .changedCells()
      .map(([row]) => row)
      .filter((row) => row.unread && !isLocked(row));
    const shown = new Map(unreadRows.map((row) => [row, row.cells.map((cell) => cell.conflict)]));
    if (unreadRows.length > 0) await table.readAgain(unreadRows);
    if (ctx.destroyed()) return;
    /** Cells whose read found a value stored meanwhile. @type {{ row: TableRow, cell: TableCell }[]} */
    const met = [];
    for (const [row, before] of shown) {
      row.cells.forEach((cell, col) => {
        if (cell.conflict !== undefined && cell.conflict !== before[col]) met.push({ row, cell });
      });
    }
    const { list, bad, unread } = entries(new Set(met.map(({ row }) => row)));
    if (bad.length > 0) {
      table.setSaving(false);
      for (const { row } of bad) redraw(row);
      table.showAlert(ofCells(labels.tableCheckOne, labels.tableCheck, bad.length));
      focusFirst(bad);
      return;
    }
    const leftOut = new Set(unread.map(({ row }) => row));
    for (const row of leftOut) redraw(row);
    if (met.length > 0) table.showAlert(ofCells(labels.tableConflictsOne, labels.tableConflicts, met.length));
    else if (leftOut.size > 0) {
      table.showAlert(
        leftOut.size === 1
          ? labels.tableRowsUnreadOne
          : fill(labels.tableRowsUnread, { count: leftOut.size }),
      );
    }
    let saved = 0;
    try {
      if (list.length === 0) {
        focusFirst([...met, ...unread]);
        return;
      }
      if (ctx.offline?.shouldQueue()) {
        await keep(list, undefined, 0);
        return;
      }
      const batches = inBatches(list, (item) => item.entry);
      for (let batch = batches.shift(); batch !== undefined; batch = batches.shift()) {
        const source = batch.some((item) => item.copied) ? 'copy' : 'screen';
        try {
          const answer = await ctx.api.putBatch(
            batch.map((item) => item.entry),
            source,
          );
          if (ctx.destroyed()) return;
          ctx.offline?.stored();
          for (const entry of answer.entries) table.markSaved(entry);
          // A replayed answer (this save sent again after its answer was lost) says what was stored
          // then: the rows are read again for what is stored now.
          const again = keysToReadAgain(answer);
          void table.readAgain(table.rows().filter((row) => again.has(row.key)));
          hooks.saved(answer);
          saved += batch.length;
        } catch (error) {
          if (ctx.destroyed()) return;
          const failure = failureOf(error, labels.networkError);
          if (failure.status === 413 && batch.length > 1) {
            // Too large for a proxy before the server (its limit lower than the server's): nothing
            // was written, so the batch goes again in halves.
            const half = Math.ceil(batch.length / 2);
            batches.unshift(batch.slice(0, half), batch.slice(half));
            continue;
          }
          const requestId = ctx.api.batchAttemptId();
          if (failure.status === 0 && ctx.offline && requestId !== undefined) {
            // No answer: this batch into the outbox as it was sent, the batches after it as new saves.
            if (await keep(batch, { requestId, source }, saved)) {
              ctx.api.forgetBatchAttempt();
              await keep(batches.flat(), undefined, saved + batch.length);
            }
            return;
          }
          // Someone else signed in elsewhere on this browser: nothing of it written. The page
          // learns who, and the rows typed go back to their presets, their typing kept as the
          // person's who typed it.
          if (failure.code === 'OWNER_CHANGED' && ctx.offline) {
            await ctx.offline.signedInElsewhere();
            if (ctx.destroyed()) return;
          }
          await refused(batch, failure, saved);
          return;
        }
      }
      table.announce(saved === 1 ? labels.tableSavedOne : fill(labels.tableSaved, { count: saved }));
    } finally {
      if (!ctx.destroyed()) table.setSaving(false);
    }
  }

  /**
   * Keeps saves in the outbox: their cells then show the values kept, marked as not sent. False
   * when the outbox refused them (full, no space): said in the alert, the cells keep their changes.
   * @param {{ row: TableRow, entry: MetricEntry, copied: boolean }[]} items
   * @param {{ requestId: string, source: import('./api.js').SaveSource } | undefined} tried
   * @param {number} saved activities saved by earlier batches of this save
   */
  async function keep(items, tried, saved) {
    const offline = /** @type {import('./offline.js').Offline} */ (ctx.offline);
    if (items.length === 0) return true;
    try {
      await offline.queue(
        items.map(({ row, entry, copied }) => ({
          entry,
          copied,
          label: row.data.label,
          path: [
            ...row.data.path.map(({ level, id }) => ({ level, id })),
            { level: row.data.level, id: row.data.activity },
          ],
        })),
        tried,
      );
    } catch (error) {
      if (ctx.destroyed()) return false;
      const failure = failureOf(error, labels.networkError);
      if (tried && failure.code?.startsWith('OUTBOX_')) {
        // Sent without an answer, and not kept in the outbox: too large for the room left (one
        // request id is never split: the server would answer a part with the first part's answer
        // unapplied), or the browser refused the space. It may be stored: never said "not saved".
        // Its cells stay changed, and Save changes sends it again under the same request id (the
        // api keeps it), applied once.
        const before = saved === 0 ? '' : `${ofCells(labels.tableSavedOne, labels.tableSaved, saved)} `;
        table.showAlert(`${before}${labels.tableAnswerLost}`);
        return false;
      }
      const message = problemOf(failure, labels, ctx.taskSheet);
      table.showAlert(
        saved > 0 ? fill(labels.tablePartly, { saved, message }) : fill(labels.saveError, { message }),
      );
      return false;
    }
    if (ctx.destroyed()) return false;
    for (const { row, entry } of items) table.markQueued(row, entry.values ?? {});
    table.announce(ofCells(labels.tableQueuedOne, labels.tableQueued, items.length));
    return true;
  }

  /**
   * A refused batch: nothing of it was written. Its conflicts go to their cells, a field's problem
   * to its cell, anything else to the alert; earlier batches of the same save stay saved.
   * @param {{ row: TableRow, entry: MetricEntry }[]} batch
   * @param {import('./api.js').RequestError} failure
   * @param {number} saved activities saved by earlier batches of this save
   */
  async function refused(batch, failure, saved) {
    /** @type {{ row: TableRow, cell: TableCell }[]} */
    const marked = [];
    /** @type {Promise<void> | undefined} */
    let readingAgain;
    /** What the alert says of a row refused for itself, instead of the refusal's own words. @type {string | undefined} */
    let rowProblem;
    const whole = failure.path?.match(/^entries\.(\d+)$/);
    const said = failure.code === undefined ? undefined : ROW_REFUSALS[failure.code];
    const refusedRow = whole && said ? batch[Number(whole[1])] : undefined;
    if (failure.conflicted) {
      // Rows sent without an entry sent every value they showed (see `entries`).
      const without = new Set(batch.filter(({ row }) => !row.hasRow).map(({ row }) => row));
      const withEntry = batch.filter(({ row }) => row.hasRow).map(({ row }) => row);
      for (const conflict of failure.conflicts) {
        const row = batch[conflict.entry]?.row;
        const cell = row?.cells.find((found) => found.field === conflict.field);
        if (!row || !cell) continue;
        // Keep mine by saving again: the cell keeps the person's value and starts from what is stored.
        table.conflicted(row, cell, conflict);
        marked.push({ row, cell });
      }
      // Their entry was made meanwhile: what it holds as sent is stored, the rest was named above.
      for (const { row, entry } of batch) {
        if (without.has(row) && row.hasRow) table.entryMade(row, entry.values ?? {});
      }
      // Their entry was removed meanwhile: the next save sends every cell the row shows, so a cell
      // that met no conflict is to show what applies now (the defaults, the server's to say), not
      // the removed entry's values, as the modal reads the activity again. The table stays busy
      // until they are read: a Save meanwhile would send the removed entry's values as new ones.
      const removed = withEntry.filter((row) => !row.hasRow);
      for (const row of removed) row.unread = true;
      readingAgain = table.readAgain(removed);
      // The tree (and the modal, which starts from it) read these before what the conflicts met.
      hooks.conflicted([...new Set(marked.map(({ row }) => row))].map((row) => row.data));
    } else if (refusedRow && said) {
      // The row itself can no longer be changed: nothing else of the batch was refused. Its cells
      // keep what the person made of them, marked, and are not sent again, so the next Save saves
      // the other rows; the row is read again to show what applies now (read-only; a row no longer
      // in the sheet stays as it is, marked).
      const { row, entry } = refusedRow;
      const sent = new Set(Object.keys(entry.values ?? {}));
      table.refuse(row, labels[said], sent);
      for (const cell of row.cells) if (sent.has(cell.field)) marked.push({ row, cell });
      const others = table.changedCount() > 0 ? ` ${labels.tableRowOthers}` : '';
      rowProblem = `${fill(labels.tableRowRefused, { label: row.data.label })}${others}`;
      readingAgain = table.readAgain([row]);
    } else if (failure.status === 413 && batch.length === 1) {
      // One activity's values too large for one request alone: said at each of its cells sent.
      const [{ row, entry }] = /** @type {[{ row: TableRow, entry: MetricEntry }]} */ (batch);
      for (const cell of row.cells) {
        if (!(cell.field in (entry.values ?? {}))) continue;
        cell.error = problemOf(failure, labels, ctx.taskSheet);
        marked.push({ row, cell });
      }
    } else {
      const at = failure.path?.match(/^entries\.(\d+)\.(?:values|base)\.(.+)$/);
      const row = at ? batch[Number(at[1])]?.row : undefined;
      const cell = row?.cells.find((found) => found.field === at?.[2]);
      if (row && cell) {
        cell.error = problemOf(failure, labels, ctx.taskSheet);
        marked.push({ row, cell });
      }
    }
    for (const { row } of marked) redraw(row);
    const problem = rowProblem ?? problemOf(failure, labels, ctx.taskSheet);
    const message = failure.conflicted
      ? ofCells(labels.tableConflictsOne, labels.tableConflicts, marked.length)
      : rowProblem !== undefined
        ? fill(labels.saveError, { message: rowProblem })
        : marked.length > 0
          ? ofCells(labels.tableCheckOne, labels.tableCheck, marked.length)
          : fill(labels.saveError, { message: problem });
    table.showAlert(saved > 0 ? fill(labels.tablePartly, { saved, message: problem }) : message);
    await readingAgain;
    if (ctx.destroyed()) return;
    table.setSaving(false);
    focusFirst(marked);
  }

  return { run };
}
