// @ts-check
/**
 * The table view's windowed rendering (see table.js): only the rows in view, and a few around them,
 * have elements, so a sheet of 5,000 activities scrolls as quickly as one of 30. It keeps the grid's
 * single tab stop (the active cell), moves the focus to a cell (rendering its row first), and redraws
 * cells from the model (table-model.js) when they change.
 */

import {
  CELL_CONTROL,
  isCellControl,
  makeRowElement,
  paintCell,
  paintLock,
  ROW_HEIGHT,
  tookOver,
} from './table-rows.js';

/** Rows rendered beyond each edge of the view, so a quick scroll or a key press finds them ready. */
const OVERSCAN = 8;

/**
 * @param {import('./dom.js').ScreenContext} ctx
 * @param {{ grid: HTMLElement, head: HTMLElement, body: HTMLElement, isShown: () => boolean }} parts
 * @param {import('./table-model.js').TableModel} model
 */
export function createTableWindow(ctx, { grid, head, body, isShown }, model) {
  /** The rendered rows' elements by their place in the view. */
  /** @type {Map<number, HTMLElement>} */
  const rendered = new Map();
  /** The cell with the grid's tab stop: a place in the view and a column. */
  let active = { row: 0, col: 0 };
  let frame = 0;

  grid.addEventListener('scroll', () => {
    if (frame !== 0) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      render();
    });
  });
  /**
   * The cell that had the focus when the window lost it (another window or tab was brought up): the
   * browser focuses it again when the window comes back, which is no new entry into the cell.
   * @type {Element | null}
   */
  let leftWindowFrom = null;
  const win = ctx.doc.defaultView;
  const onWindowBlur = () => {
    leftWindowFrom = ctx.doc.activeElement;
  };
  // The window's focus comes just before the browser focuses that cell again, in the same task:
  // forgotten after it, so a later click into the cell (the window back with the focus elsewhere:
  // the table hidden meanwhile) is an entry again.
  const onWindowFocus = () => {
    ctx.timers.later(() => {
      leftWindowFrom = null;
    }, 0);
  };
  win?.addEventListener('blur', onWindowBlur);
  win?.addEventListener('focus', onWindowFocus);
  grid.addEventListener('focusin', (event) => {
    const back = event.target === leftWindowFrom;
    leftWindowFrom = null;
    const place = placeOf(event.target);
    if (!place) return;
    const input = /** @type {HTMLInputElement | HTMLTextAreaElement} */ (event.target);
    active = place;
    setTabStop(input);
    // Back from another window: what was typed stays, the caret where it was, and Escape still
    // goes back to what the cell held before (entering it afresh selected it all, and the next key
    // replaced what had been typed).
    if (back) return;
    // The control of the cell being typed in, replaced (a line break typed or pasted makes it a
    // textarea, and back) and focused again: the person is still in the cell, and what Escape goes
    // back to is still what it held when they entered it.
    if (tookOver(input)) return;
    // Focus from outside the grid (Tab, a screen reader) is scrolled by the browser, which does not
    // know of the header row and the activity column stuck over the cells: the cell may sit under
    // them, typed in out of sight.
    scrollToCell(place.row, input);
    model.enter(place.row, place.col);
    // Typing replaces the cell, as in a spreadsheet: the whole value is selected on entering it.
    input.select();
  });
  grid.addEventListener('input', (event) => {
    const place = placeOf(event.target);
    if (!place) return;
    const input = /** @type {HTMLInputElement | HTMLTextAreaElement} */ (event.target);
    model.setText(place.row, place.col, input.value, { fromInput: true });
  });

  /** @param {EventTarget | null} target */
  function placeOf(target) {
    if (!isCellControl(target) || !grid.contains(target)) return undefined;
    const row = Number(target.dataset.row);
    const col = Number(target.dataset.col);
    return Number.isInteger(row) && Number.isInteger(col) ? { row, col } : undefined;
  }

  /** @param {number} viewIndex @param {number} col */
  function inputAt(viewIndex, col) {
    const input = rendered.get(viewIndex)?.querySelectorAll(CELL_CONTROL)[col] ?? null;
    return isCellControl(input) ? input : undefined;
  }

  /** @param {number} viewIndex @param {number} col */
  function redrawCell(viewIndex, col) {
    const row = model.rowAt(viewIndex);
    const cell = row?.cells[col];
    const box = rendered.get(viewIndex)?.querySelectorAll('[role="gridcell"]')[col];
    if (row && cell && box) paintCell(ctx, row, cell, box, model.isChanged(cell));
  }

  /** Redraws a rendered row's cells from the model. @param {number} viewIndex */
  function refreshRow(viewIndex) {
    const row = model.rowAt(viewIndex);
    if (!row) return;
    const element = rendered.get(viewIndex);
    if (element) paintLock(ctx, row, element, model.isSaving());
    for (let col = 0; col < row.cells.length; col++) redrawCell(viewIndex, col);
  }

  /** Renders the rows in view (and a few around), keeps the focused one, drops the rest. */
  function render() {
    if (!isShown()) return;
    const view = model.view();
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
    const saving = model.isSaving();
    // Each new row goes before the nearest drawn one below it: the body's rows stay in the order of
    // their aria-rowindex, the order a screen reader reads them and moves between them in (rows
    // drawn above those kept, scrolling up, would otherwise follow them).
    /** @type {HTMLElement | null} */
    let next = null;
    let nextAt = Number.POSITIVE_INFINITY;
    for (const [at, element] of rendered) {
      if (at > last && at < nextAt) {
        next = element;
        nextAt = at;
      }
    }
    for (let at = last; at >= first; at--) {
      const drawn = rendered.get(at);
      if (drawn) {
        next = drawn;
        continue;
      }
      const row = model.rowAt(at);
      if (!row) continue;
      const element = makeRowElement(ctx, row, at, { saving, isChanged: model.isChanged });
      rendered.set(at, element);
      body.insertBefore(element, next);
      next = element;
    }
    // One tab stop in the grid: the active cell, or the first rendered one when it is scrolled away.
    const stop = inputAt(active.row, active.col) ?? inputAt(first, 0);
    if (stop) setTabStop(stop);
  }

  /** Scrolls the grid up or down so that the view's row `at` shows whole, below the header row. @param {number} at */
  function scrollToRow(at) {
    const rowTop = at * ROW_HEIGHT + head.offsetHeight;
    const visibleTop = grid.scrollTop + head.offsetHeight;
    if (rowTop < visibleTop) grid.scrollTop = at * ROW_HEIGHT;
    else if (rowTop + ROW_HEIGHT > grid.scrollTop + grid.clientHeight) {
      grid.scrollTop = rowTop + ROW_HEIGHT - grid.clientHeight;
    }
  }

  /**
   * Scrolls the grid so that the cell of `input`, in the view's row `at`, shows whole.
   * @param {number} at @param {HTMLInputElement | HTMLTextAreaElement} input
   */
  function scrollToCell(at, input) {
    scrollToRow(at);
    scrollAcross(input);
  }

  /**
   * Scrolls the grid sideways so that a cell's whole box shows, clear of the activity column, which
   * stays at the left over the cells scrolled under it: on a phone held sideways or a narrow window
   * the last metrics are off to the right, and a cell's value is right-aligned, so a cell focused
   * there would take what is typed out of sight.
   * @param {HTMLInputElement | HTMLTextAreaElement} input
   */
  function scrollAcross(input) {
    const box = input.closest('[role="gridcell"]');
    const header = input.closest('[role="row"]')?.querySelector('[role="rowheader"]');
    if (!(box instanceof HTMLElement) || !(header instanceof HTMLElement)) return;
    // Rows start at the grid's left edge: a cell's offset in its row is its offset in the grid.
    const left = box.offsetLeft;
    const right = left + box.offsetWidth;
    if (left < grid.scrollLeft + header.offsetWidth) grid.scrollLeft = left - header.offsetWidth;
    else if (right > grid.scrollLeft + grid.clientWidth) grid.scrollLeft = right - grid.clientWidth;
  }

  /** @param {HTMLInputElement | HTMLTextAreaElement} input */
  function setTabStop(input) {
    for (const other of body.querySelectorAll(`${CELL_CONTROL}[tabindex="0"]`)) {
      if (other !== input && isCellControl(other)) other.tabIndex = -1;
    }
    input.tabIndex = 0;
  }

  return {
    render,
    refreshRow,
    /** Redraws every rendered row from the model. */
    refreshAll() {
      for (const at of rendered.keys()) refreshRow(at);
    },
    redrawCell,
    inputAt,
    active: () => active,
    /**
     * The view changed (a new read, a filter): every row element goes, the body takes its new
     * height; `toTop` (a new filter) also moves the active cell to the first row.
     * @param {{ toTop?: boolean }} [how]
     */
    reset(how = {}) {
      for (const element of rendered.values()) element.remove();
      rendered.clear();
      if (how.toTop) active = { row: 0, col: active.col };
      body.style.height = `${model.view().length * ROW_HEIGHT}px`;
    },
    /**
     * Rows were added after those the view had (a page read): the body takes its new height, and
     * the rows drawn stay, the focused one with the edit under way in it.
     */
    grow() {
      body.style.height = `${model.view().length * ROW_HEIGHT}px`;
    },
    /** Inputs are read-only while a save is out (and always on read-only rows). @param {boolean} value */
    setReadOnly(value) {
      for (const element of rendered.values()) {
        for (const input of element.querySelectorAll(CELL_CONTROL)) {
          if (isCellControl(input)) input.readOnly = value || input.dataset.locked === 'true';
        }
      }
    },
    /**
     * Moves the focus to a cell, scrolling its row into view first (and rendering it).
     * @param {number} viewIndex @param {number} col
     */
    focusCell(viewIndex, col) {
      const count = model.view().length;
      if (count === 0) return;
      const at = Math.max(0, Math.min(count - 1, viewIndex));
      const column = Math.max(0, Math.min(ctx.columns.length - 1, col));
      scrollToRow(at);
      active = { row: at, col: column };
      render();
      const input = inputAt(at, column);
      if (!input) return;
      scrollAcross(input);
      setTabStop(input);
      input.focus({ preventScroll: true });
      // The grid shows the cell; the page must too: the grid may run below the screen's edge (on a
      // phone one row down, under the keyboard), and a cell typed in out of sight is typed blind.
      // Shown whole in the grid already, it moves the grid no further.
      input.closest('[role="gridcell"]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
      input.select();
    },
    destroy() {
      win?.removeEventListener('blur', onWindowBlur);
      win?.removeEventListener('focus', onWindowFocus);
      if (frame !== 0) cancelAnimationFrame(frame);
      rendered.clear();
    },
  };
}
