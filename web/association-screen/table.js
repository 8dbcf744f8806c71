// @ts-check
/**
 * The table view of the sheet (#29): every activity a row (its label and path), every metric a
 * column, as the WAI-ARIA grid pattern has it (`role="grid"`, rows, column and row headers). Its rows
 * come from `part=sheet` in pages of 1000; only the rows in view (and a few around them) have
 * elements, so a sheet of 5,000 activities stays quick to scroll. Each cell holds an input preset as
 * the modal presets it (saved value, else default) and says where its value came from; what the
 * person types is kept in the table's own model, not in the elements, so it survives scrolling,
 * filtering and switching views. Keys are in table-keys.js, paste in table-paste.js, the save in
 * table-save.js, the copy from the previous sheet in copy-previous.js.
 */

import { problemOf } from './api.js';
import { BLOCK, button } from './dom.js';
import { fill } from './labels.js';
import { attachTableKeys } from './table-keys.js';
import { attachTablePaste } from './table-paste.js';
import { makeRowElement, paintCell, ROW_HEIGHT } from './table-rows.js';
import { createTableSave } from './table-save.js';
import { checkTyped, formatValue, metricLabel, sameValue } from './values.js';

/** @typedef {import('./api.js').SheetRow} SheetRow */
/** @typedef {import('./api.js').MetricColumn} MetricColumn */
/** @typedef {import('./api.js').MetricValue} MetricValue */
/** @typedef {import('./api.js').MetricConflict} MetricConflict */
/** @typedef {import('./api.js').SavedEntry} SavedEntry */

/** Rows asked per `part=sheet` request: the server's largest page. */
export const SHEET_PAGE_SIZE = 1000;
export { ROW_HEIGHT };

/** Rows rendered beyond each edge of the view, so a quick scroll or a key press finds them ready. */
const OVERSCAN = 8;

/**
 * One cell of the table: what the server preset, what the person has now, and what is said of it.
 * @typedef {object} TableCell
 * @property {string} field
 * @property {MetricColumn} column
 * @property {MetricValue} preset the value the cell was preset with (the server's)
 * @property {string} presetText the preset as the cell shows it
 * @property {MetricValue} base what a save of this cell starts from: the stored value, null where no row
 * @property {string | undefined} source the preset's source, as the server says it
 * @property {string} text what the cell holds now
 * @property {string} entered what it held when the person entered it (Escape goes back to it)
 * @property {number | undefined} copied the sheet its value was copied from, until saved
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
 */

/**
 * @typedef {object} TableHooks
 * @property {(answer: { readonly entries: readonly SavedEntry[] }) => void} saved a save's answer, for the tree and the progress
 * @property {(path: readonly import('./api.js').PathStep[]) => void} learnPath the labels of the nodes above an activity
 */

/** A metric row's key in the table. @param {number} activity @param {number | null} group */
export const keyOf = (activity, group) => `${activity}:${group ?? ''}`;

/**
 * @param {import('./dom.js').ScreenContext} ctx
 * @param {TableHooks} hooks
 */
export function createTable(ctx, hooks) {
  const { create, labels } = ctx;
  const root = create('section', `${BLOCK}__table-view`);
  root.hidden = true;
  root.setAttribute('aria-label', labels.table);
  const toolbar = create('div', `${BLOCK}__table-tools`);
  const filterLabel = create('label', `${BLOCK}__table-filter`);
  const filter = create('input', '');
  filter.type = 'checkbox';
  filterLabel.append(filter, ` ${labels.tableFilterEmpty}`);
  const pending = create('p', `${BLOCK}__table-pending`);
  pending.setAttribute('role', 'status');
  const saveButton = button(create, `${BLOCK}__button ${BLOCK}__button--primary`, labels.tableSave);
  toolbar.append(filterLabel, pending, saveButton);
  const alert = create('p', `${BLOCK}__form-error ${BLOCK}__table-alert`);
  alert.setAttribute('role', 'alert');
  alert.hidden = true;
  const note = create('p', `${BLOCK}__table-note`);
  note.hidden = true;

  const grid = create('div', `${BLOCK}__grid`);
  grid.setAttribute('role', 'grid');
  grid.setAttribute('aria-label', labels.table);
  const head = create('div', `${BLOCK}__grid-head`);
  head.setAttribute('role', 'rowgroup');
  const headRow = create('div', `${BLOCK}__table-row ${BLOCK}__table-row--head`);
  headRow.setAttribute('role', 'row');
  headRow.setAttribute('aria-rowindex', '1');
  head.append(headRow);
  const body = create('div', `${BLOCK}__grid-body`);
  body.setAttribute('role', 'rowgroup');
  grid.append(head, body);
  root.append(toolbar, alert, note, grid);

  /** @type {TableRow[]} */
  let rows = [];
  /** Indexes into `rows` of the rows shown, in order (the filter keeps some). */
  /** @type {number[]} */
  let view = [];
  /** Each shown row's place in `view`, by its index in `rows`. */
  /** @type {Map<number, number>} */
  const placeInView = new Map();
  /** The rendered rows' elements by their place in `view`. */
  /** @type {Map<number, HTMLElement>} */
  const rendered = new Map();
  /** Cells changed and not saved, as `rowIndex:column`. */
  /** @type {Set<string>} */
  const changed = new Set();
  /** The cell with the grid's tab stop: a place in `view` and a column. */
  let active = { row: 0, col: 0 };
  /** @type {'idle' | 'loading' | 'ready' | 'error'} */
  let state = 'idle';
  /** Counts loads: a page of an older load lands nowhere. */
  let loads = 0;
  /** A save elsewhere (the modal) made the presets old: the next showing reads them again. */
  let stale = false;
  let saving = false;
  let frame = 0;

  const table = {
    root,
    grid,
    labels,
    /** @returns {readonly MetricColumn[]} */
    columns: () => ctx.columns,
    rows: () => rows,
    view: () => view,
    active: () => active,
    isSaving: () => saving,
    cellAt,
    focusCell,
    setText,
    setCell,
    /** @param {TableRow} row */
    placeOfRow: (row) => placeInView.get(row.index),
    undo,
    showAlert,
    render,
    refreshRow,
    changedCount: () => changed.size,
    changedCells,
    setSaving,
    markSaved,
    markStale: () => {
      stale = true;
    },
    announce: (/** @type {string} */ text) => ctx.announce(text),
  };
  const save = createTableSave(ctx, table, hooks);
  attachTableKeys(table);
  attachTablePaste(ctx, table);
  saveButton.addEventListener('click', () => void save.run());
  filter.addEventListener('change', () => {
    applyFilter();
    active = { row: 0, col: active.col };
    grid.scrollTop = 0;
    render();
  });
  grid.addEventListener('scroll', () => {
    if (frame !== 0) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      render();
    });
  });
  grid.addEventListener('focusin', (event) => {
    const place = placeOf(event.target);
    if (!place) return;
    active = place;
    const cell = cellAt(place.row, place.col);
    if (cell) cell.entered = cell.text;
    const input = /** @type {HTMLInputElement} */ (event.target);
    // Typing replaces the cell, as in a spreadsheet: the whole value is selected on entering it.
    input.select();
    setTabStop(input);
  });
  grid.addEventListener('input', (event) => {
    const place = placeOf(event.target);
    if (!place) return;
    const input = /** @type {HTMLInputElement} */ (event.target);
    setText(place.row, place.col, input.value, { fromInput: true });
  });

  /** @param {EventTarget | null} target */
  function placeOf(target) {
    if (!(target instanceof HTMLInputElement) || !grid.contains(target)) return undefined;
    const row = Number(target.dataset.row);
    const col = Number(target.dataset.col);
    return Number.isInteger(row) && Number.isInteger(col) ? { row, col } : undefined;
  }

  /** @param {number} viewIndex @param {number} col */
  function cellAt(viewIndex, col) {
    const index = view[viewIndex];
    return index === undefined ? undefined : rows[index]?.cells[col];
  }

  /** The headers: the activity, then each metric by its label. */
  function renderHead() {
    const first = create('div', `${BLOCK}__table-activity`, labels.tableActivity);
    first.setAttribute('role', 'columnheader');
    headRow.replaceChildren(first);
    for (const column of ctx.columns) {
      const header = create('div', `${BLOCK}__table-cell`, metricLabel(column));
      header.setAttribute('role', 'columnheader');
      headRow.append(header);
    }
    grid.setAttribute('aria-colcount', String(ctx.columns.length + 1));
  }

  /** @param {SheetRow} data @param {number} index @returns {TableRow} */
  function makeRow(data, index) {
    const hasRow =
      data.lastChange !== null || Object.values(data.metrics).some((metric) => metric.source === 'saved');
    const cells = ctx.columns.map((column) => {
      const metric = data.metrics[column.field];
      const preset = metric?.value ?? null;
      const presetText = preset === null ? '' : formatValue(preset, column, ctx.lang);
      return {
        field: column.field,
        column,
        preset,
        presetText,
        base: metric?.source === 'saved' ? preset : null,
        source: metric?.source,
        text: presetText,
        entered: presetText,
        copied: undefined,
        error: undefined,
        conflict: undefined,
      };
    });
    return { index, key: keyOf(data.activity, data.group), data, cells, hasRow, filled: data.filled };
  }

  function applyFilter() {
    view = [];
    placeInView.clear();
    for (const row of rows) {
      if (filter.checked && row.filled) continue;
      placeInView.set(row.index, view.length);
      view.push(row.index);
    }
    grid.setAttribute('aria-rowcount', String(view.length + 1));
    body.style.height = `${view.length * ROW_HEIGHT}px`;
    for (const element of rendered.values()) element.remove();
    rendered.clear();
    note.hidden = view.length > 0 || state !== 'ready';
    note.textContent = labels.tableEmpty;
  }

  /**
   * Reads every page of the sheet (the first is shown as soon as it arrives), unless it is read
   * already and nothing made it old. Kept changes are never read over.
   */
  async function load() {
    if (state === 'loading' || (state === 'ready' && (!stale || changed.size > 0))) return;
    const mine = ++loads;
    state = 'loading';
    stale = false;
    grid.setAttribute('aria-busy', 'true');
    renderHead();
    rows = [];
    changed.clear();
    applyFilter();
    showPending(labels.tableLoading);
    try {
      for (let page = 1, pages = 1; page <= pages; page++) {
        const data = await ctx.api.sheet(page, SHEET_PAGE_SIZE);
        if (ctx.destroyed() || mine !== loads) return;
        pages = data.pages;
        for (const row of data.rows) {
          rows.push(makeRow(row, rows.length));
          hooks.learnPath(row.path);
        }
        if (page === 1) state = 'ready';
        applyFilter();
        render();
        if (page < pages) {
          showPending(fill(labels.tableLoadingMore, { count: rows.length, total: data.total }));
        }
      }
      grid.removeAttribute('aria-busy');
      showPending(undefined);
      note.hidden = view.length > 0;
    } catch (error) {
      if (ctx.destroyed() || mine !== loads) return;
      grid.removeAttribute('aria-busy');
      state = rows.length > 0 ? 'ready' : 'error';
      if (state === 'error') stale = true;
      showPending(undefined);
      showAlert(`${labels.tableError} ${problemOf(error, labels, ctx.taskSheet)}`);
    }
  }

  /** The status beside Save: loading, or how many changes wait. @param {string | undefined} loading */
  function showPending(loading) {
    pending.textContent =
      loading ??
      (changed.size === 0
        ? ''
        : changed.size === 1
          ? labels.tableChangedOne
          : fill(labels.tableChanged, { count: changed.size }));
  }

  /** @param {string | undefined} text */
  function showAlert(text) {
    alert.hidden = text === undefined;
    alert.textContent = text ?? '';
  }

  /** Whether a cell differs from its preset (a copied cell always counts: it is meant to be saved). @param {TableCell} cell */
  function isChanged(cell) {
    if (cell.copied !== undefined || cell.conflict !== undefined) return true;
    if (cell.text === cell.presetText) return false;
    const checked = checkTyped(cell.column, cell.text, ctx.lang);
    return !checked.ok || !sameValue(cell.column, checked.value, cell.preset);
  }

  /**
   * Sets what a cell holds (typed, pasted, copied or undone) and redraws its row if rendered.
   * @param {number} viewIndex @param {number} col @param {string} text
   * @param {{ fromInput?: boolean, copied?: number | undefined }} [how]
   */
  function setText(viewIndex, col, text, how = {}) {
    const index = view[viewIndex];
    const row = index === undefined ? undefined : rows[index];
    return row ? setCell(row, col, text, how) : false;
  }

  /**
   * The same for a row of the model, shown or not (a filter may hide it).
   * @param {TableRow} row @param {number} col @param {string} text
   * @param {{ fromInput?: boolean, copied?: number | undefined }} [how]
   */
  function setCell(row, col, text, how = {}) {
    const cell = row.cells[col];
    if (!cell || row.data.editable === false || saving) return false;
    cell.text = text;
    cell.error = undefined;
    cell.copied = how.copied;
    track(row, cell);
    const at = placeInView.get(row.index);
    if (at !== undefined && how.fromInput) redrawCell(at, col);
    else if (at !== undefined) refreshRow(at);
    return true;
  }

  /** @param {TableRow} row @param {TableCell} cell */
  function track(row, cell) {
    const name = `${row.index}:${cell.field}`;
    if (isChanged(cell)) changed.add(name);
    else changed.delete(name);
    showPending(undefined);
  }

  /**
   * Escape: a conflicted cell takes the stored value; else the cell goes back to what it held when
   * entered, and, pressed again, to its preset.
   * @param {number} viewIndex @param {number} col
   */
  function undo(viewIndex, col) {
    const cell = cellAt(viewIndex, col);
    if (!cell) return;
    if (cell.conflict !== undefined) {
      const theirs = cell.conflict.theirs;
      cell.conflict = undefined;
      setText(viewIndex, col, theirs === null ? '' : formatValue(theirs, cell.column, ctx.lang));
    } else if (cell.text !== cell.entered) setText(viewIndex, col, cell.entered, { copied: cell.copied });
    else setText(viewIndex, col, cell.presetText);
    cell.entered = cell.text;
    inputAt(viewIndex, col)?.select();
  }

  /** Every changed cell, by row, in the table's order. */
  function changedCells() {
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
  }

  /** @param {boolean} value */
  function setSaving(value) {
    saving = value;
    saveButton.disabled = value;
    saveButton.textContent = value ? labels.saving : labels.tableSave;
    grid.setAttribute('aria-busy', String(value));
    for (const element of rendered.values()) {
      for (const input of element.querySelectorAll('input'))
        input.readOnly = value || input.dataset.locked === 'true';
    }
  }

  /**
   * A saved entry's row as stored: its cells preset from it, nothing of them changed or copied.
   * @param {SavedEntry} saved
   */
  function markSaved(saved) {
    const row = rows.find((found) => found.key === keyOf(saved.activity, saved.group));
    if (!row) return;
    const stored = saved.stored;
    row.hasRow = stored !== null;
    row.data = { ...row.data, lastChange: saved.lastChange };
    if (stored !== null) row.filled = Object.values(stored).some((value) => value !== null);
    for (const cell of row.cells) {
      if (stored === null || !(cell.field in stored)) continue;
      const value = stored[cell.field] ?? null;
      cell.preset = value;
      cell.presetText = value === null ? '' : formatValue(value, cell.column, ctx.lang);
      cell.base = value;
      cell.source = 'saved';
      cell.text = cell.presetText;
      cell.entered = cell.text;
      cell.copied = undefined;
      cell.conflict = undefined;
      cell.error = undefined;
      track(row, cell);
    }
    const at = placeInView.get(row.index);
    if (at !== undefined) refreshRow(at);
  }

  /** The element of one row of `view`. @param {number} viewIndex */
  function rowElement(viewIndex) {
    const row = /** @type {TableRow} */ (rows[/** @type {number} */ (view[viewIndex])]);
    return makeRowElement(ctx, row, viewIndex, { saving, isChanged });
  }

  /** @param {TableRow} row @param {TableCell} cell @param {Element} box */
  function drawCell(row, cell, box) {
    paintCell(ctx, row, cell, box, isChanged(cell));
  }

  /** @param {number} viewIndex @param {number} col */
  function redrawCell(viewIndex, col) {
    const element = rendered.get(viewIndex);
    const row = rows[/** @type {number} */ (view[viewIndex])];
    const cell = row?.cells[col];
    const box = element?.querySelectorAll('[role="gridcell"]')[col];
    if (row && cell && box) drawCell(row, cell, box);
  }

  /** Redraws a rendered row's cells from the model. @param {number} viewIndex */
  function refreshRow(viewIndex) {
    const row = rows[/** @type {number} */ (view[viewIndex])];
    if (!row) return;
    for (let col = 0; col < row.cells.length; col++) redrawCell(viewIndex, col);
  }

  /** @param {number} viewIndex @param {number} col */
  function inputAt(viewIndex, col) {
    const input = rendered.get(viewIndex)?.querySelectorAll('input')[col];
    return input instanceof HTMLInputElement ? input : undefined;
  }

  /** Renders the rows in view (and a few around), keeps the focused one, drops the rest. */
  function render() {
    if (root.hidden) return;
    const height = grid.clientHeight || 600;
    const top = Math.max(0, grid.scrollTop - head.offsetHeight);
    const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(view.length - 1, Math.ceil((top + height) / ROW_HEIGHT) + OVERSCAN);
    const focused = ctx.doc.activeElement;
    for (const [at, element] of rendered) {
      if ((at < first || at > last) && !element.contains(focused)) {
        element.remove();
        rendered.delete(at);
      }
    }
    const fragment = ctx.doc.createDocumentFragment();
    for (let at = first; at <= last; at++) {
      if (rendered.has(at)) continue;
      const element = rowElement(at);
      rendered.set(at, element);
      fragment.append(element);
    }
    body.append(fragment);
    // One tab stop in the grid: the active cell, or the first rendered one when it is scrolled away.
    const stop = inputAt(active.row, active.col) ?? inputAt(first, 0);
    if (stop) setTabStop(stop);
  }

  /** @param {HTMLInputElement} input */
  function setTabStop(input) {
    for (const other of body.querySelectorAll('input[tabindex="0"]')) {
      if (other !== input && other instanceof HTMLInputElement) other.tabIndex = -1;
    }
    input.tabIndex = 0;
  }

  /**
   * Moves the focus to a cell, scrolling its row into view first (and rendering it).
   * @param {number} viewIndex @param {number} col
   */
  function focusCell(viewIndex, col) {
    if (view.length === 0) return;
    const at = Math.max(0, Math.min(view.length - 1, viewIndex));
    const column = Math.max(0, Math.min(ctx.columns.length - 1, col));
    const rowTop = at * ROW_HEIGHT + head.offsetHeight;
    const visibleTop = grid.scrollTop + head.offsetHeight;
    if (rowTop < visibleTop) grid.scrollTop = at * ROW_HEIGHT;
    else if (rowTop + ROW_HEIGHT > grid.scrollTop + grid.clientHeight) {
      grid.scrollTop = rowTop + ROW_HEIGHT - grid.clientHeight;
    }
    active = { row: at, col: column };
    render();
    const input = inputAt(at, column);
    if (!input) return;
    setTabStop(input);
    input.focus({ preventScroll: true });
    input.select();
  }

  /** Stops the page from being left with changes not saved (the browser asks first). @param {BeforeUnloadEvent} event */
  function beforeUnload(event) {
    if (changed.size === 0) return;
    event.preventDefault();
    event.returnValue = '';
  }
  const win = ctx.doc.defaultView;
  win?.addEventListener('beforeunload', beforeUnload);

  return {
    root,
    /** Shows the table, reading the sheet the first time (and again when a save elsewhere made it old). */
    show() {
      root.hidden = false;
      void load().then(() => render());
      render();
    },
    hide() {
      root.hidden = true;
    },
    /** How many cells are changed and not saved. */
    changedCount: () => changed.size,
    /** A save made elsewhere (the modal): the table reads the sheet again when next shown, if it holds no change. */
    markStale: table.markStale,
    /** Fills rows from another sheet's values (see copy-previous.js). */
    table,
    destroy() {
      loads++;
      if (frame !== 0) cancelAnimationFrame(frame);
      win?.removeEventListener('beforeunload', beforeUnload);
      rendered.clear();
    },
  };
}

/** @typedef {ReturnType<typeof createTable>} TableView */
/** @typedef {ReturnType<typeof createTable>['table']} Table */
