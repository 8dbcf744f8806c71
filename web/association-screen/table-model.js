// @ts-check
/**
 * The table view's model (see table.js): every activity of the sheet as a row of cells (each row and
 * cell as data: table-cells.js), what each cell was preset with and what the person has made of it,
 * which cells are changed, and the rows the filter shows. It knows no element: what the person types
 * lives here, so it survives the windowed rendering dropping a row's elements, a filter hiding it and
 * a switch of views. Whoever draws is told of each change through `redraw`.
 */

import { keyOf } from './entry-key.js';
import { baseOf, cellChanged, cellText, hasEntry, isLocked, newRow } from './table-cells.js';
import { asStored, checkTyped, sameValue, startsFromNow } from './values.js';

/** @typedef {import('./api.js').SheetRow} SheetRow */
/** @typedef {import('./api.js').MetricColumn} MetricColumn */
/** @typedef {import('./api.js').MetricValue} MetricValue */
/** @typedef {import('./api.js').MetricConflict} MetricConflict */
/** @typedef {import('./api.js').SavedEntry} SavedEntry */
/** @typedef {import('./table-cells.js').TableCell} TableCell */
/** @typedef {import('./table-cells.js').TableRow} TableRow */
/** @typedef {import('./drafts-store.js').DraftField} DraftField */

/**
 * A row as the table shows it (table-outbox.js `laidOver`): `data`, what the server has of it with
 * what the outbox keeps laid over it; `queued`, whether it keeps anything of it (waiting, or
 * stopped); `kept`, the fields whose values it keeps waiting there (laid over the server's).
 * @typedef {{ data: SheetRow, queued: boolean, kept?: ReadonlySet<string> | undefined }} Laid
 */

/**
 * How a cell's text was set: typed into its input (the input already shows it), pasted, or copied
 * from a sheet (marked until saved); `confirmed`, Escape putting back what the cell held (see
 * table-cells.js `confirmed`), where typing and pasting say it from the row.
 * @typedef {{ fromInput?: boolean, pasted?: boolean, copied?: number | undefined, confirmed?: boolean }} SetHow
 */

/**
 * What the model tells whoever draws it.
 * @typedef {object} ModelHooks
 * @property {(row: TableRow, col: number | undefined, fromInput: boolean) => void} redraw a row's cell (or all its cells, `col` undefined) changed
 * @property {() => void} counted the number of changed cells may have changed
 * @property {(row: TableRow, cells: TableCell[]) => void} met changed cells of a row met a value
 *   stored meanwhile (`represent`): each shows it as a conflict, who stored it not known yet
 * @property {(row: TableRow, byPerson: boolean) => void} edited what a row's cells hold may have
 *   changed: by the person (typed, pasted, copied, undone), or by what came of a save or a read
 *   (its draft follows: table-drafts.js)
 */

/**
 * @param {Pick<import('./dom.js').ScreenContext, 'columns' | 'lang'>} ctx
 * @param {ModelHooks} hooks
 */
export function createTableModel(ctx, hooks) {
  /** @type {TableRow[]} */
  let rows = [];
  /** The keys of `rows`. @type {Set<string>} */
  const keys = new Set();
  /** Indexes into `rows` of the rows shown, in order (the filter keeps some). */
  /** @type {number[]} */
  let view = [];
  /** Each shown row's place in `view`, by its index in `rows`. */
  /** @type {Map<number, number>} */
  const placeInView = new Map();
  /** Cells changed and not saved, as `rowIndex:field`. */
  /** @type {Set<string>} */
  const changed = new Set();
  let saving = false;
  /** The cell Escape was last pressed in, nothing typed since: a further Escape takes its preset. @type {TableCell | undefined} */
  let escaped;

  /** @param {MetricValue} value @param {MetricColumn} column */
  const formatted = (value, column) => cellText(value, column, ctx.lang);

  /** Whether a cell differs from its preset (see `cellChanged`). @param {TableCell} cell */
  const isChanged = (cell) => cellChanged(cell, ctx.lang);

  /**
   * Counts a cell as changed or not; a locked row's cells never count: nothing of it is sent.
   * @param {TableRow} row @param {TableCell} cell
   */
  function track(row, cell) {
    const name = `${row.index}:${cell.field}`;
    if (isChanged(cell) && !isLocked(row)) changed.add(name);
    else changed.delete(name);
    hooks.counted();
  }

  /** @param {number} viewIndex */
  const rowAt = (viewIndex) => {
    const index = view[viewIndex];
    return index === undefined ? undefined : rows[index];
  };

  /**
   * Sets what a cell holds (typed, pasted, copied or undone); refused on a read-only row and while
   * a save is out.
   * @param {TableRow} row @param {number} col @param {string} text @param {SetHow} [how]
   */
  function setCell(row, col, text, how = {}) {
    const cell = row.cells[col];
    if (!cell || isLocked(row) || saving) return false;
    cell.text = text;
    cell.error = undefined;
    cell.copied = how.copied;
    const byPerson = how.fromInput === true || how.pasted === true;
    cell.confirmed = how.confirmed ?? (byPerson && !row.hasRow && text.trim() !== '');
    if (how.fromInput) escaped = undefined;
    track(row, cell);
    hooks.redraw(row, how.fromInput ? col : undefined, how.fromInput === true);
    hooks.edited(row, true);
    return true;
  }

  /**
   * A row preset anew from `laid` (what the server has of it with what the outbox keeps laid over
   * it). A cell whose preset changes shows the new one, unless the person changed it: it keeps what
   * they made of it, and its base (what its next save starts from) moves to the new one silently
   * only where that hides nothing from them: a value this device keeps for the field (laid over
   * from the outbox), the base it has already (what this device sent comes back stored as the value
   * it was kept with), or the server's value of the field as the cell knew it (a kept entry
   * discarded: the base goes back to it), as values.js `startsFromNow` says for the modal's drafts
   * too. Anything else is a value stored meanwhile that nobody
   * here saw, whatever brought it (the answer to an entry of the row that this page, another tab
   * or the service worker sent, with later entries still waiting or not, or the row read again):
   * taken as the base, the next save would write over it unrefused. It is shown as a conflict at
   * the cell instead (stored now; who stored it, `hooks.met`), as a refused save shows one, for
   * the person to keep theirs (Save again) or take the stored value (Escape). A typed value the
   * same as the one stored is no conflict: the cell then holds what is stored.
   * @param {TableRow} row @param {Laid} laid
   */
  function represent(row, laid) {
    const { data, queued, kept } = laid;
    const wasLocked = isLocked(row);
    row.data = data;
    row.queued = queued;
    row.hasRow = hasEntry(data);
    row.filled = data.filled;
    // Locked or unlocked now (read-only, read again): its changed cells count, or no longer do.
    const relocked = isLocked(row) !== wasLocked;
    let moved = relocked;
    /** @type {TableCell[]} */
    const met = [];
    for (const cell of row.cells) {
      const metric = data.metrics[cell.field];
      const value = metric?.value ?? null;
      const base = baseOf(metric);
      const own = kept?.has(cell.field) === true;
      const known = cell.stored;
      if (!own) cell.stored = base;
      if (cell.preset === value && cell.base === base && cell.source === metric?.source) {
        if (relocked) track(row, cell);
        continue;
      }
      const typed = isChanged(cell);
      const { column } = cell;
      const typedValue = checkTyped(column, cell.text, ctx.lang);
      const unseen =
        typed &&
        !isLocked(row) &&
        !startsFromNow(column, base, { base: cell.base, under: known, kept: own }) &&
        !(typedValue.ok && sameValue(column, typedValue.value, value));
      if (unseen) {
        cell.conflict = {
          entry: 0,
          activity: row.data.activity,
          group: row.data.group,
          field: cell.field,
          base: cell.base,
          theirs: base,
          row: row.hasRow,
          yours: cell.text,
          changedBy: null,
          changedAt: null,
        };
        met.push(cell);
      }
      cell.preset = value;
      cell.presetText = formatted(value, column);
      cell.base = base;
      cell.source = metric?.source;
      // An entry made meanwhile holding what the person confirmed: nothing of theirs is left to send.
      if (row.hasRow && !unseen) cell.confirmed = false;
      if (!typed) {
        cell.text = cell.presetText;
        cell.entered = cell.text;
        cell.enteredCopied = undefined;
        cell.enteredConfirmed = false;
      }
      track(row, cell);
      moved = true;
    }
    if (moved) {
      changedUnasked(row);
    }
    if (met.length > 0) hooks.met(row, met);
  }

  /**
   * What a save stored, as the server's values of its row (the cells are not preset from it here).
   * @param {SavedEntry} saved @returns {TableRow | undefined} its row
   */
  function store(saved) {
    const row = rows.find((found) => found.key === keyOf(saved));
    if (!row) return undefined;
    const { stored } = saved;
    /** @type {Record<string, import('./api.js').ScreenMetric>} */
    const metrics = { ...row.served.metrics };
    for (const [field, value] of Object.entries(stored ?? {})) metrics[field] = { value, source: 'saved' };
    const filled = Object.values(metrics).some(
      (metric) => metric.source === 'saved' && metric.value !== null,
    );
    row.served = { ...row.served, metrics, lastChange: saved.lastChange, filled };
    return row;
  }

  /**
   * A row changed by what came of a save or a read, not by the person: drawn again, and its draft
   * follows (table-drafts.js touches only a draft the row holds).
   * @param {TableRow} row
   */
  function changedUnasked(row) {
    hooks.redraw(row, undefined, false);
    hooks.edited(row, false);
  }

  /** A cell preset anew with a value stored (or about to be). @param {TableRow} row @param {TableCell} cell @param {MetricValue} value */
  function preset(row, cell, value) {
    cell.preset = value;
    cell.presetText = formatted(value, cell.column);
    cell.base = value;
    cell.source = 'saved';
    untyped(row, cell);
  }

  /** A cell showing its preset again, nothing of the person's or of a save's left on it. @param {TableRow} row @param {TableCell} cell */
  function untyped(row, cell) {
    cell.text = cell.presetText;
    cell.entered = cell.text;
    cell.enteredCopied = undefined;
    cell.enteredConfirmed = false;
    cell.copied = undefined;
    cell.confirmed = false;
    cell.conflict = undefined;
    cell.error = undefined;
    track(row, cell);
  }

  return {
    rows: () => rows,
    view: () => view,
    rowAt,
    /** @param {number} viewIndex @param {number} col */
    cellAt: (viewIndex, col) => rowAt(viewIndex)?.cells[col],
    /** @param {TableRow} row */
    placeOfRow: (row) => placeInView.get(row.index),
    isChanged,
    isSaving: () => saving,
    /** @param {boolean} value */
    setSaving: (value) => {
      saving = value;
    },
    changedCount: () => changed.size,
    /** Forgets every row and change: a new read of the sheet. */
    clear() {
      rows = [];
      keys.clear();
      changed.clear();
    },
    /**
     * Adds a page of the sheet's rows as the server sent them, each shown as `laid` says (what the
     * outbox keeps of it laid over it); a key it holds already is left out (a page read again after
     * a failure, the sheet's rows moved meanwhile).
     * @param {readonly SheetRow[]} page
     * @param {(served: SheetRow) => { data: SheetRow, queued: boolean }} [laid]
     */
    add(page, laid = (served) => ({ data: served, queued: false })) {
      for (const served of page) {
        const key = keyOf(served);
        if (keys.has(key)) continue;
        keys.add(key);
        const { data, queued } = laid(served);
        rows.push(newRow(ctx, data, rows.length, served, queued));
      }
    },
    /**
     * Shows every row, or only those without a value saved or on its way. A row whose kept values
     * stopped in the outbox (`stopped`: a conflict or a refusal waiting for the person) counts as the
     * server has it: those values are not stored until someone decides. `from`: the rows from that
     * index on were added (a page read), the view keeps what it shows and takes them after it.
     * @param {boolean} onlyEmpty @param {(row: TableRow) => boolean} [stopped] @param {number} [from]
     */
    filter(onlyEmpty, stopped = () => false, from = 0) {
      if (from === 0) {
        view = [];
        placeInView.clear();
      }
      for (const row of rows.slice(from)) {
        const filled = stopped(row) ? row.served.filled : row.filled;
        if (onlyEmpty && filled) continue;
        placeInView.set(row.index, view.length);
        view.push(row.index);
      }
    },
    setCell,
    /** The same, for a row of the view. @param {number} viewIndex @param {number} col @param {string} text @param {SetHow} [how] */
    setText(viewIndex, col, text, how = {}) {
      const row = rowAt(viewIndex);
      return row ? setCell(row, col, text, how) : false;
    },
    /**
     * Escape: a conflicted cell takes what applies now, its preset: the stored value the conflict
     * set (`conflicted`), or, once the row was read again, what that read says (the defaults, for an
     * entry removed meanwhile); else the cell goes back to what it held when entered (nothing, when
     * nothing was edited since), and, pressed again, to its preset.
     * @param {number} viewIndex @param {number} col
     */
    undo(viewIndex, col) {
      const row = rowAt(viewIndex);
      const cell = row?.cells[col];
      // The cell takes nothing while a save is out or on a locked row: its conflict stays too.
      if (!row || !cell || saving || isLocked(row)) return;
      if (cell.conflict !== undefined) {
        cell.conflict = undefined;
        setCell(row, col, cell.presetText);
      } else if (cell.text !== cell.entered || cell.confirmed !== cell.enteredConfirmed) {
        setCell(row, col, cell.entered, { copied: cell.enteredCopied, confirmed: cell.enteredConfirmed });
      } else if (escaped === cell) setCell(row, col, cell.presetText);
      // Else nothing was edited since the cell was entered: this Escape has nothing to undo, and what
      // the person typed before (or copied) stays; the next one takes the preset.
      escaped = cell;
      cell.entered = cell.text;
      cell.enteredCopied = cell.copied;
      cell.enteredConfirmed = cell.confirmed;
    },
    /**
     * The person entered a cell (not its control replaced while they type in it): Escape goes back
     * to what it holds now. @param {number} viewIndex @param {number} col
     */
    enter(viewIndex, col) {
      const cell = rowAt(viewIndex)?.cells[col];
      if (!cell) return;
      cell.entered = cell.text;
      cell.enteredCopied = cell.copied;
      cell.enteredConfirmed = cell.confirmed;
      escaped = undefined;
    },
    /** Every changed cell, by row, in the table's order. */
    changedCells() {
      /** @type {Map<TableRow, TableCell[]>} */
      const byRow = new Map();
      for (const name of changed) {
        const [index = '', field] = name.split(':');
        const row = rows[Number(index)];
        const cell = row?.cells.find((found) => found.field === field);
        if (!row || !cell) continue;
        const list = byRow.get(row) ?? [];
        list.push(cell);
        byRow.set(row, list);
      }
      return [...byRow].sort(([a], [b]) => a.index - b.index);
    },
    /**
     * A cell of a save refused for a conflict: it keeps what it shows (Save again keeps it) and
     * now starts from what is stored, its preset too (Escape, pressed twice, goes back to the stored
     * value, not to one the server no longer holds). Changed whether typed or not: a value kept from
     * a default is the person's as much as a typed one, and Save again sends it (as the modal does).
     * @param {TableRow} row @param {TableCell} cell @param {MetricConflict} conflict
     */
    conflicted(row, cell, conflict) {
      cell.conflict = conflict;
      cell.preset = conflict.theirs;
      cell.presetText = formatted(conflict.theirs, cell.column);
      cell.source = 'saved';
      cell.base = conflict.theirs;
      cell.stored = conflict.theirs;
      // Made or removed meanwhile, as the conflict says: the next save says so.
      row.hasRow = conflict.row;
      // What the server holds now: the outbox's changes are laid over it from now on.
      row.served = {
        ...row.served,
        metrics: { ...row.served.metrics, [cell.field]: { value: conflict.theirs, source: 'saved' } },
      };
      track(row, cell);
      hooks.edited(row, false);
    },
    /**
     * After a save of a row without an entry (`row: false`) was refused for a conflict because the
     * entry was made meanwhile: the server refuses every field sent that the new entry holds
     * otherwise, so each cell `sent` that the conflict did not name is stored as sent. Those cells
     * show it as stored from now on: not sent again, and Escape stays on it (their preset was the
     * default the row showed before the entry existed, their base empty).
     * @param {TableRow} row @param {Readonly<Record<string, MetricValue>>} sent
     */
    entryMade(row, sent) {
      for (const cell of row.cells) {
        if (cell.conflict !== undefined || !(cell.field in sent)) continue;
        const value = sent[cell.field] ?? null;
        preset(row, cell, value);
        cell.stored = value;
        row.served = {
          ...row.served,
          metrics: { ...row.served.metrics, [cell.field]: { value, source: 'saved' } },
        };
      }
      changedUnasked(row);
    },
    /**
     * A saved entry's row as stored: its cells preset from it, nothing of them changed or copied.
     * `keepEdits` (the outbox sent it while the table was open): a cell the person changed since
     * keeps what they typed, and its base moves only when the row is presented anew (`represent`),
     * which shows a value stored meanwhile as a conflict.
     * Returns the row (undefined: not in the table).
     * @param {SavedEntry} saved @param {{ keepEdits?: boolean }} [how]
     * @returns {TableRow | undefined}
     */
    markSaved(saved, how = {}) {
      const row = store(saved);
      if (!row) return undefined;
      const stored = saved.stored;
      row.hasRow = stored !== null;
      row.queued = false;
      row.data = { ...row.data, lastChange: saved.lastChange };
      if (stored !== null) row.filled = Object.values(stored).some((value) => value !== null);
      for (const cell of row.cells) {
        if (stored === null || !(cell.field in stored) || (how.keepEdits && isChanged(cell))) continue;
        preset(row, cell, stored[cell.field] ?? null);
        cell.stored = cell.base;
      }
      changedUnasked(row);
      return row;
    },
    store,
    represent,
    /**
     * A row read again from the server: `served`, shown as `laid` says (what the outbox keeps of it
     * laid over it). @param {TableRow} row @param {SheetRow} served @param {Laid} laid
     */
    serve(row, served, laid) {
      row.served = served;
      // Read at last: the cells' "not sent, could not be read" marks (table-save.js) are done with.
      if (row.unread) for (const cell of row.cells) cell.error = undefined;
      row.unread = false;
      represent(row, laid);
    },
    /**
     * A save refused for the row itself (no longer in the sheet's tree, read-only or inactive
     * meanwhile): the row is locked, its cells keep what they show and are not sent any more, and
     * each cell it sent says `problem`.
     * @param {TableRow} row @param {string} problem @param {ReadonlySet<string>} sent
     */
    refuse(row, problem, sent) {
      row.refused = problem;
      for (const cell of row.cells) {
        if (sent.has(cell.field)) cell.error = problem;
        track(row, cell);
      }
      hooks.redraw(row, undefined, false);
    },
    /**
     * A row's values kept in the outbox: its cells preset from them as the server will store them
     * (the next save starts from them), nothing of them changed.
     * @param {TableRow} row @param {Readonly<Record<string, MetricValue>>} values
     */
    markQueued(row, values) {
      row.queued = true;
      row.hasRow = true;
      for (const cell of row.cells) {
        if (!(cell.field in values)) continue;
        const value = values[cell.field] ?? null;
        preset(row, cell, value === null ? null : asStored(value, cell.column));
        if (value !== null) row.filled = true;
      }
      changedUnasked(row);
    },
    /**
     * What the person typed earlier and kept on the device (a draft: table-drafts.js) shown again in
     * a row: each cell of `fields` as typed, over the preset and the base it was typed over; then the
     * row is presented anew from `laid` (`represent`), so a value stored meanwhile over a draft's base
     * shows as a conflict at its cell, never taken silently as the base.
     * @param {TableRow} row @param {Readonly<Record<string, DraftField>>} fields @param {Laid} laid
     */
    restore(row, fields, laid) {
      for (const cell of row.cells) {
        const typed = fields[cell.field];
        if (typed === undefined) continue;
        cell.preset = typed.preset;
        cell.presetText = formatted(typed.preset, cell.column);
        cell.base = typed.base;
        // What the server held as the person typed (under a value the outbox kept, its `stored`):
        // a value other than it is new to them.
        cell.stored = typed.stored === undefined ? typed.base : typed.stored;
        cell.text = typed.text;
        cell.entered = typed.text;
        cell.copied = typed.copied;
        cell.enteredCopied = typed.copied;
        cell.confirmed = typed.confirmed === true;
        cell.enteredConfirmed = cell.confirmed;
        cell.error = undefined;
        cell.conflict = undefined;
        track(row, cell);
      }
      represent(row, laid);
      hooks.redraw(row, undefined, false);
    },
    /**
     * Every changed cell of a row back to its preset (its draft went elsewhere: stored, queued or
     * discarded in the modal): nothing of it is changed any more.
     * @param {TableRow} row
     */
    revert(row) {
      for (const cell of row.cells) if (isChanged(cell)) untyped(row, cell);
      hooks.redraw(row, undefined, false);
    },
  };
}

/** @typedef {ReturnType<typeof createTableModel>} TableModel */
