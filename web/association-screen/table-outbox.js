// @ts-check
/**
 * The table view and the offline outbox (offline.js). Each row is preset from what the server holds
 * of it with what waits in the outbox laid over it, and follows what becomes of that: what this page
 * sends shows as stored; after any change in what waits (a save the modal kept, an entry discarded,
 * a batch of another tab), each row is preset anew from the server's values and what waits now, a
 * cell the person changed keeping what they made of it.
 */

import { keyOf } from './table-model.js';

/** @typedef {import('./api.js').SheetRow} SheetRow */

/**
 * A row as the server sent it, shown with what the outbox keeps of it laid over it; `queued`:
 * whether it keeps anything of it (waiting, or stopped for a decision).
 * @param {import('./dom.js').ScreenContext} ctx @param {SheetRow} served
 * @returns {{ data: SheetRow, queued: boolean }}
 */
export function laidOver(ctx, served) {
  const { offline } = ctx;
  if (!offline) return { data: served, queued: false };
  return {
    data: offline.overlayRow(served),
    queued: offline.pendingFields(served) !== undefined || offline.stoppedFields(served) !== undefined,
  };
}

/**
 * Has the table follow the outbox (nothing without one).
 * @param {import('./dom.js').ScreenContext} ctx
 * @param {object} parts
 * @param {import('./table-model.js').TableModel} parts.model
 * @param {() => void} parts.redraw redraws the rows shown from the model
 * @param {() => void} parts.reread someone else is signed in than the sheet was read as
 */
export function watchTableOutbox(ctx, parts) {
  const { offline } = ctx;
  if (!offline) return;
  const { model } = parts;

  offline.watch({
    sent(answer, later) {
      for (const entry of answer.entries) {
        // A key with a later entry still waiting goes on showing it: preset anew at the next change.
        if (later.has(keyOf(entry.activity, entry.group))) model.store(entry);
        else model.markSaved(entry, { keepEdits: true });
      }
      parts.redraw();
    },
    changed() {
      for (const row of model.rows()) {
        // What stopped is the person's to decide: the row shows it until then.
        if (offline.stoppedFields(row.data) !== undefined) continue;
        model.represent(row, offline.overlayRow(row.served), offline.pendingFields(row.data) !== undefined);
      }
      parts.redraw();
    },
    reread: parts.reread,
  });
}
