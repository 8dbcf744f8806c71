// @ts-check
/**
 * The table view and the offline outbox (offline.js). Each row is preset from what the server holds
 * of it with what waits in the outbox laid over it, and follows what becomes of that: what this page
 * sends shows as stored (and is read again where the answer cannot say what is stored now:
 * saved-answer.js); after any change in what waits (a save the modal kept, an entry discarded,
 * a batch of another tab), each row is preset anew from the server's values and what waits now, a
 * cell the person changed keeping what they made of it. A row whose kept values left the outbox
 * other than by this page sending or discarding them (the service worker or another tab sent them,
 * a decision in the modal settled them), or that had stopped there (the server holds something
 * else), is read again: only the server knows what it holds now. The table's save reads rows
 * again the same way (`createRowReader`) when a conflict says their entry was removed meanwhile,
 * and when its answer was replayed.
 */

import { keyOf } from './entry-key.js';
import { keysToReadAgain } from './saved-answer.js';

/** @typedef {import('./table-model.js').TableRow} TableRow */
/** @typedef {import('./api.js').SheetRow} SheetRow */

/**
 * A row as the server sent it, shown with what the outbox keeps of it laid over it (waiting, or
 * stopped for a decision: the person's value, marked not sent); `queued`: whether it keeps
 * anything of it; `kept`: the fields whose values it keeps (this device's own, not the server's:
 * see table-model.js `represent`).
 * @param {import('./dom.js').ScreenContext} ctx @param {SheetRow} served
 * @returns {import('./table-model.js').Laid}
 */
export function laidOver(ctx, served) {
  const { offline } = ctx;
  if (!offline) return { data: served, queued: false };
  const kept = offline.keptFields(served);
  return { data: offline.overlayRow(served), queued: kept !== undefined, kept };
}

/**
 * Reads rows of the table again from the server, each from the page of the sheet it was read in,
 * and presets them anew from what it holds now (table-model.js `serve`: a cell the person changed
 * keeps what they made of it). Only the server knows what applies to a row whose entry was removed
 * (the defaults) or whose kept values left the outbox other than by this page.
 * @param {import('./dom.js').ScreenContext} ctx
 * @param {object} parts
 * @param {import('./table-model.js').TableModel} parts.model
 * @param {() => void} parts.redraw redraws the rows shown from the model
 * @param {number} parts.pageSize the rows of a page of the sheet, as the table reads it
 * @param {() => number} parts.loads the table's reads so far: a row of an older read lands nowhere
 * @param {(rows: readonly TableRow[]) => void} parts.stale the table is to be read again when next
 *   shown: `rows`, which could not be read, at least
 */
export function createRowReader(ctx, parts) {
  const { model } = parts;
  /** Keys being read again. @type {Set<string>} */
  const reading = new Set();
  /**
   * Rows to read once more when their read is done, with the table's read they belong to: asked for
   * while being read, or reached meanwhile by something newer than the read's answer.
   * @type {Map<string, { row: TableRow, load: number }>}
   */
  const again = new Map();

  /**
   * Reads rows again. Unread (no network), a row keeps what it shows and is read with the table's
   * next reading (or at the outbox's next change). An answer lands only on a row that nothing from
   * the server reached meanwhile (a save's answer, a conflict: `row.served` replaced), which it
   * could put back to what was stored before: such a row is read once more instead.
   * @param {TableRow[]} rows
   */
  async function read(rows) {
    const load = parts.loads();
    /** @type {Map<number, TableRow[]>} */
    const pages = new Map();
    for (const row of rows) {
      if (reading.has(row.key)) {
        again.set(row.key, { row, load });
        continue;
      }
      reading.add(row.key);
      const page = Math.floor(row.index / parts.pageSize) + 1;
      pages.set(page, [...(pages.get(page) ?? []), row]);
    }
    if (pages.size === 0) return;
    // The table read anew (or gone) meanwhile: its rows are others, nothing lands.
    const old = () => ctx.destroyed() || load !== parts.loads();
    for (const [page, list] of pages) {
      const asked = new Map(list.map((row) => [row, row.served]));
      try {
        if (old()) continue;
        const answer = await ctx.api.sheet(page, parts.pageSize);
        if (old()) continue;
        const byKey = new Map(answer.rows.map((served) => [keyOf(served), served]));
        for (const row of list) {
          const served = byKey.get(row.key);
          if (row.served !== asked.get(row)) again.set(row.key, { row, load });
          else if (served) model.serve(row, served, laidOver(ctx, served));
          else parts.stale([]);
        }
      } catch {
        parts.stale(list);
      } finally {
        for (const row of list) reading.delete(row.key);
      }
    }
    if (ctx.destroyed()) return;
    if (!old()) parts.redraw();
    // Rows asked for while these were out are read now, for the table as it is now (this read may
    // be of an older one: a row of the new table asked for meanwhile waited for it all the same).
    const now = parts.loads();
    /** @type {TableRow[]} */
    const next = [];
    for (const [key, wanted] of again) {
      if (reading.has(key)) continue;
      again.delete(key);
      if (wanted.load === now) next.push(wanted.row);
    }
    if (next.length > 0) await read(next);
  }
  return read;
}

/**
 * Has the table follow the outbox (nothing without one).
 * @param {import('./dom.js').ScreenContext} ctx
 * @param {object} parts
 * @param {import('./table-model.js').TableModel} parts.model
 * @param {() => void} parts.redraw redraws the rows shown from the model
 * @param {(rows: TableRow[]) => Promise<void>} parts.read reads rows again (`createRowReader`)
 * @param {() => void} parts.reread someone else is signed in than the sheet was read as
 */
export function watchTableOutbox(ctx, parts) {
  const { offline } = ctx;
  if (!offline) return;
  const { model, read } = parts;
  /** Keys whose kept entry had stopped (a conflict, a refusal) at the last change. @type {Set<string>} */
  const stopped = new Set();

  offline.watch({
    sent(answer, later) {
      for (const entry of answer.entries) {
        // A key with a later entry still waiting goes on showing it: preset anew at the next change.
        if (later.has(keyOf(entry))) model.store(entry);
        else model.markSaved(entry, { keepEdits: true });
      }
      parts.redraw();
      // What the answer cannot say is stored now (a removed entry's defaults, a replayed answer's
      // values of back then) is the server's to say.
      const again = keysToReadAgain(answer);
      void read(model.rows().filter((row) => again.has(row.key)));
    },
    changed(discarded) {
      /** @type {TableRow[]} */
      const gone = [];
      for (const row of model.rows()) {
        // What stopped is the person's to decide: the row shows it until then.
        if (offline.stoppedFields(row.data) !== undefined) {
          stopped.add(row.key);
          continue;
        }
        const laid = laidOver(ctx, row.served);
        const hadStopped = stopped.delete(row.key);
        if (row.queued && !laid.queued && (hadStopped || !discarded.has(row.key))) gone.push(row);
        else model.represent(row, laid);
      }
      parts.redraw();
      void read(gone);
    },
    reread: parts.reread,
  });
}
