// @ts-check
/**
 * The table view of the sheet (#29): every activity a row (its label and path), every metric a
 * column, as the WAI-ARIA grid pattern has it (`role="grid"`, rows, column and row headers). Its rows
 * come from `part=sheet` in pages of 1000. Each cell holds an input preset as the modal presets it
 * (saved value, else default) and says where its value came from. This file builds the view and reads
 * the sheet; what the cells hold is in table-model.js, the rows in view in table-window.js, the keys
 * in table-keys.js, paste in table-paste.js, the save in table-save.js, the copy from the previous
 * sheet in copy-previous.js, what the offline outbox holds of the rows in table-outbox.js, what is
 * typed kept on the device as drafts in table-drafts.js.
 */

import { problemOf } from './api.js';
import { BLOCK, button } from './dom.js';
import { fill } from './labels.js';
import { createTableDrafts } from './table-drafts.js';
import { attachFocusNote } from './table-focus-note.js';
import { attachTableKeys } from './table-keys.js';
import { createMeanwhileNames } from './table-meanwhile.js';
import { createTableModel } from './table-model.js';
import { createRowReader, laidOver, watchTableOutbox } from './table-outbox.js';
import { attachTablePaste } from './table-paste.js';
import { ROW_HEIGHT } from './table-rows.js';
import { createTableSave } from './table-save.js';
import { createTableWindow } from './table-window.js';
import { metricLabel } from './values.js';

/** Rows asked per `part=sheet` request: the server's largest page. */
export const SHEET_PAGE_SIZE = 1000;
export { ROW_HEIGHT };

/**
 * @typedef {object} TableHooks
 * @property {(answer: import('./saved-answer.js').Answer) => void} saved a save's answer, for the
 *   tree, the modal and the progress
 * @property {(entries: readonly { activity: number, group?: number | null | undefined }[]) => void} conflicted
 *   a save was refused for conflicts at these activities: what the tree read of them is old
 * @property {(path: readonly import('./api.js').PathStep[]) => void} learnPath the labels of the nodes above an activity
 */

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
  // What the last paste, copy or save came to, then the read under way and the changes waiting.
  const outcomeSaid = create('span', `${BLOCK}__table-outcome`);
  outcomeSaid.hidden = true;
  const countSaid = create('span', `${BLOCK}__table-count`);
  pending.append(outcomeSaid, countSaid);
  // A change of the count is said alone, not with the last outcome again (a status is atomic).
  pending.setAttribute('aria-atomic', 'false');
  const saveButton = button(create, `${BLOCK}__button ${BLOCK}__button--primary`, labels.tableSave);
  toolbar.append(filterLabel, pending, saveButton);
  const alert = create('p', `${BLOCK}__form-error ${BLOCK}__table-alert`);
  alert.setAttribute('role', 'alert');
  alert.hidden = true;
  const retry = button(create, `${BLOCK}__button ${BLOCK}__table-retry`, labels.tableRetry);
  retry.hidden = true;
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
  root.append(toolbar, alert, retry, note, grid);

  /** Bumped by every outcome shown or cleared: an outcome's text is put in after a moment. */
  let outcomes = 0;
  /**
   * What the table's last paste, copy or save came to, beside Save until the person types again or
   * the next save starts (`undefined`: none). Emptied first and put in a moment later, as `speak`
   * does, so the same words said twice (Save pressed again with nothing to save) are said again.
   * @param {string | undefined} text
   */
  function showOutcome(text) {
    const turn = ++outcomes;
    // The status keeps the room the outcome took as it goes (on a phone, a line of its own): the
    // outcome goes at the person's first key, and the grid under their finger must not move up.
    pending.style.minHeight = `${pending.getBoundingClientRect().height}px`;
    outcomeSaid.textContent = '';
    outcomeSaid.hidden = text === undefined;
    if (text !== undefined)
      ctx.timers.later(() => {
        if (turn !== outcomes) return;
        pending.style.minHeight = '';
        outcomeSaid.textContent = text;
      }, 30);
  }

  /** The room an outcome took is kept for its own layout only: a rotation or a resize lays it out anew. */
  const forgetRoom = () => {
    pending.style.minHeight = '';
  };

  const model = createTableModel(ctx, {
    redraw(row, col, fromInput) {
      const at = model.placeOfRow(row);
      if (at === undefined) return;
      if (fromInput && col !== undefined) shown.redrawCell(at, col);
      else shown.refreshRow(at);
    },
    counted: () => {
      showPending();
      drafts.counted();
    },
    met: (row, cells) => void nameMeanwhile(row, cells),
    edited: (row, byPerson) => drafts.follow(row, byPerson),
  });
  /** What is typed, kept on the device as the activities' drafts. */
  const drafts = createTableDrafts(ctx, model);
  note.after(drafts.line);
  const shown = createTableWindow(ctx, { grid, head, body, isShown: () => !root.hidden }, model);
  /** Names who stored the values changed cells met meanwhile, from the activity's history. */
  const nameMeanwhile = createMeanwhileNames(ctx, (row) => {
    const at = model.placeOfRow(row);
    if (at !== undefined) shown.refreshRow(at);
  });

  /** @type {'idle' | 'loading' | 'ready' | 'error'} */
  let state = 'idle';
  /** Counts loads: a page of an older load lands nowhere. */
  let loads = 0;
  /** A save elsewhere (the modal) made the presets old: the next showing reads them again. */
  let stale = false;
  /**
   * The keys of rows made old since the sheet was last read whole (saved or removed in the modal, a
   * read of them that failed): while the table holds changes, it is not read whole, and these rows
   * are read again when it shows. @type {Set<string>}
   */
  const staleKeys = new Set();
  /** The page a read stopped at, failing after earlier ones (0: none): read on from it, not afresh. */
  let resumeAt = 0;
  /** The read of the sheet's pages under way, if any. @type {Promise<void> | undefined} */
  let reading;
  /** Whether every page of the sheet is read: none failed, none still on its way. */
  let complete = false;
  /** Told when a save starts and ends (Copy from the previous sheet waits for it). @type {((saving: boolean) => void)[]} */
  const savingWatchers = [];
  /** Reads rows again from the server (a save's conflict said their entry was removed; the outbox). */
  const readAgain = createRowReader(ctx, {
    model,
    redraw: () => shown.refreshAll(),
    pageSize: SHEET_PAGE_SIZE,
    loads: () => loads,
    stale: (rows) => {
      stale = true;
      for (const row of rows) staleKeys.add(row.key);
    },
  });

  /** What the keys, paste, save and copy work on. */
  const table = {
    root,
    grid,
    labels,
    /** @returns {readonly import('./api.js').MetricColumn[]} */
    columns: () => ctx.columns,
    rows: model.rows,
    view: model.view,
    active: shown.active,
    isSaving: model.isSaving,
    cellAt: model.cellAt,
    focusCell: shown.focusCell,
    setText: model.setText,
    setCell: model.setCell,
    placeOfRow: model.placeOfRow,
    /**
     * A row's place in the view, the filter turned off first when it hides the row (a save's
     * marked cell is to be seen, whatever the filter), which is said after the alert.
     * @param {import('./table-model.js').TableRow} row
     */
    reveal(row) {
      if (model.placeOfRow(row) === undefined && filter.checked) {
        filter.checked = false;
        showRows();
        showAlert(alert.hidden ? labels.tableFilterOff : `${alert.textContent} ${labels.tableFilterOff}`);
      }
      return model.placeOfRow(row);
    },
    /** @param {number} viewIndex @param {number} col */
    undo(viewIndex, col) {
      model.undo(viewIndex, col);
      shown.inputAt(viewIndex, col)?.select();
    },
    showAlert,
    render: shown.render,
    refreshRow: shown.refreshRow,
    changedCount: model.changedCount,
    changedCells: model.changedCells,
    setSaving,
    whole,
    /** Whether every row of the sheet is read (see `whole`). */
    isWhole: () => complete,
    /** @param {(saving: boolean) => void} watcher */
    onSaving: (watcher) => {
      savingWatchers.push(watcher);
    },
    /**
     * A saved entry's row as stored, with what the outbox still keeps of it laid over it: a field
     * whose entry stopped there shows the person's value, marked not sent, not the stored one.
     * @param {import('./api.js').SavedEntry} saved
     */
    markSaved(saved) {
      const row = model.markSaved(saved);
      if (row && ctx.offline?.keptFields(row.data) !== undefined)
        model.represent(row, laidOver(ctx, row.served));
    },
    markQueued: model.markQueued,
    conflicted: model.conflicted,
    entryMade: model.entryMade,
    refuse: model.refuse,
    readAgain,
    /** @param {readonly string[]} [keys] rows saved elsewhere (see `staleKeys`) */
    markStale: (keys = []) => {
      stale = true;
      for (const key of keys) staleKeys.add(key);
    },
    // Shown beside Save (a live region), not only said: a sighted person sees how many cells a
    // paste left out, what a copy took, that a save stored; said aloud if the table is out of sight.
    announce: (/** @type {string} */ text) => {
      showOutcome(text);
      if (root.hidden) ctx.announce(text);
    },
  };
  // The person goes on typing: what the last paste, copy or save came to is behind them.
  grid.addEventListener('input', () => {
    if (!outcomeSaid.hidden) showOutcome(undefined);
  });
  const save = createTableSave(ctx, table, hooks);
  attachTableKeys(table);
  attachTablePaste(ctx, table);
  grid.before(attachFocusNote(ctx, grid));
  saveButton.addEventListener('click', () => void save.run());
  retry.addEventListener('click', () => void load().then(() => shown.render()));
  filter.addEventListener('change', () => {
    showRows({ toTop: true });
    grid.scrollTop = 0;
    shown.render();
  });

  /** The headers: the activity, then each metric by its label. */
  function renderHead() {
    const first = create('div', `${BLOCK}__table-activity`, labels.tableActivity);
    first.setAttribute('role', 'columnheader');
    headRow.replaceChildren(first);
    for (const column of ctx.columns) {
      const header = create('div', `${BLOCK}__table-cell`, metricLabel(column));
      header.setAttribute('role', 'columnheader');
      header.title = metricLabel(column);
      headRow.append(header);
    }
    grid.setAttribute('aria-colcount', String(ctx.columns.length + 1));
  }

  /** Whether a row's kept values stopped in the outbox (and none of it waits to be sent). @param {import('./table-model.js').TableRow} row */
  const stopped = (row) =>
    ctx.offline?.pendingFields(row.data) === undefined && ctx.offline?.stoppedFields(row.data) !== undefined;

  /**
   * The filter's rows, drawn afresh; `from` (a later page read): the rows from that index on are
   * added after those shown, whose elements stay (the focus and an edit under way with them).
   * @param {{ toTop?: boolean, from?: number }} [how]
   */
  function showRows(how = {}) {
    model.filter(filter.checked, stopped, how.from);
    const count = model.view().length;
    grid.setAttribute('aria-rowcount', String(count + 1));
    if (how.from) shown.grow();
    else shown.reset(how);
    note.hidden = count > 0 || state !== 'ready';
    note.textContent = labels.tableEmpty;
  }

  /**
   * Whether every row of the sheet is read: waits for a read under way, and reads on once from a
   * page that could not be read (said with Retry as any failed read). What works on the whole sheet
   * (Copy from the previous sheet) waits for it, and is not done at all when it stays false.
   */
  async function whole() {
    while (reading) await reading;
    if (!complete) await load();
    while (reading) await reading;
    return complete;
  }

  /**
   * Reads every page of the sheet (the first is shown as soon as it arrives), unless it is read
   * already and nothing made it old; a read that stopped at a later page goes on from that page.
   * Kept changes are never read over.
   */
  async function load() {
    if (state === 'loading') return;
    if (state === 'ready' && resumeAt > 0) return readPages(resumeAt, ++loads);
    if (state === 'ready' && (!stale || model.changedCount() > 0)) return;
    const mine = ++loads;
    state = 'loading';
    stale = false;
    staleKeys.clear();
    renderHead();
    model.clear();
    drafts.cleared();
    showRows();
    await readPages(1, mine);
  }

  /**
   * Reads the sheet's pages from `from` on, each added below the rows read before. A page that
   * fails is said, with Retry; the rows read stay, and the next read goes on from it.
   * @param {number} from @param {number} mine this read's count (see `loads`)
   */
  async function readPages(from, mine) {
    const run = readFrom(from, mine);
    reading = run;
    try {
      await run;
    } finally {
      if (reading === run) reading = undefined;
    }
  }

  /** See `readPages`. @param {number} from @param {number} mine */
  async function readFrom(from, mine) {
    complete = false;
    state = 'loading';
    resumeAt = 0;
    retry.hidden = true;
    // Busy only until rows show: from then on they can be read and typed in while the rest is read
    // (the status beside Save says it), and a save out says busy itself (`setSaving`).
    if (model.rows().length === 0) grid.setAttribute('aria-busy', 'true');
    showAlert(undefined);
    showLoading(labels.tableLoading);
    let page = from;
    try {
      for (let pages = from; page <= pages; page++) {
        const data = await ctx.api.sheet(page, SHEET_PAGE_SIZE);
        if (ctx.destroyed() || mine !== loads) return;
        pages = data.pages;
        const added = model.rows().length;
        // What waits in the outbox shows over what the server sent (marked as not sent).
        model.add(data.rows, (served) => laidOver(ctx, served));
        // What the person typed on this device and did not save shows again over them.
        drafts.read(model.rows().slice(added));
        for (const row of data.rows) hooks.learnPath(row.path);
        state = 'ready';
        showRows({ from: added });
        shown.render();
        if (added === 0) grid.removeAttribute('aria-busy');
        if (page < pages) {
          showLoading(fill(labels.tableLoadingMore, { count: model.rows().length, total: data.total }));
        }
      }
      showLoading(undefined);
      note.hidden = model.view().length > 0;
      complete = true;
    } catch (error) {
      if (ctx.destroyed() || mine !== loads) return;
      if (model.rows().length === 0) grid.removeAttribute('aria-busy');
      state = model.rows().length > 0 ? 'ready' : 'error';
      if (state === 'error') stale = true;
      else resumeAt = page;
      showLoading(undefined);
      showAlert(`${labels.tableError} ${problemOf(error, labels, ctx.taskSheet)}`);
      // Beside the alert, and kept while a save's messages take the alert's place.
      retry.hidden = false;
    }
  }

  /**
   * What the status says of the sheet's read under way (undefined: none): it stays until the read
   * ends, a change counted meanwhile said beside it, not in its place.
   * @type {string | undefined}
   */
  let loadingSaid;

  /** @param {string | undefined} text what to say of the read under way (see `loadingSaid`) */
  function showLoading(text) {
    loadingSaid = text;
    showPending();
  }

  /** The status beside Save: the read under way, if any, and how many changes wait. */
  function showPending() {
    const count = model.changedCount();
    const changes =
      count === 0 ? '' : count === 1 ? labels.tableChangedOne : fill(labels.tableChanged, { count });
    countSaid.textContent = loadingSaid === undefined ? changes : `${loadingSaid} ${changes}`.trim();
  }

  /** @param {string | undefined} text */
  function showAlert(text) {
    alert.hidden = text === undefined;
    alert.textContent = text ?? '';
  }

  /** @param {boolean} value */
  function setSaving(value) {
    if (value) showOutcome(undefined);
    model.setSaving(value);
    saveButton.disabled = value;
    saveButton.textContent = value ? labels.saving : labels.tableSave;
    grid.setAttribute('aria-busy', String(value));
    shown.setReadOnly(value);
    for (const watcher of savingWatchers) watcher(value);
    // What the drafts could not bring into the rows while the save held them (the modal typed in
    // an activity of the save meanwhile, or the drafts were read) comes in now.
    if (!value && !root.hidden) followDrafts();
  }

  /**
   * Drafts typed, saved or discarded in the modal meanwhile: the rows follow them. A row whose draft
   * changed may show less than the modal stored (its draft gone, or left with what another tab
   * typed), and a row the modal saved or removed with nothing typed has no draft to say so: both
   * are read again, unless the whole sheet is (it holds no change: `load`). A save out holds the
   * rows: they are read when it ends.
   */
  function followDrafts() {
    const followed = drafts.shown();
    if (!stale || model.changedCount() === 0 || model.isSaving()) return;
    const rows = new Set(followed);
    if (staleKeys.size > 0) {
      for (const row of model.rows()) if (staleKeys.has(row.key)) rows.add(row);
      staleKeys.clear();
    }
    if (rows.size > 0) void readAgain([...rows]);
  }

  /**
   * Stops the page from being left with changes kept nowhere else (the browser asks first): those
   * kept on the device as drafts come back with the page, so leaving asks only while some are not
   * (being written, refused by the device, or no one known to keep them for).
   * @param {BeforeUnloadEvent} event
   */
  function beforeUnload(event) {
    if (!drafts.unkept()) return;
    event.preventDefault();
    event.returnValue = '';
  }
  const win = ctx.doc.defaultView;
  win?.addEventListener('beforeunload', beforeUnload);
  // A read that failed while the device had no network (the sheet's rows are not kept for offline
  // use) is made again once it has, as Load the activities again would: the person had to press it.
  const onOnline = () => {
    if (!retry.hidden) void load().then(() => shown.render());
  };
  win?.addEventListener('online', onOnline);
  win?.addEventListener('resize', forgetRoom);
  /** Whether the table follows the outbox (made after the table: watched from the first showing). */
  let watching = false;
  function watchOutbox() {
    if (watching) return;
    watching = true;
    watchTableOutbox(ctx, {
      model,
      redraw: () => shown.refreshAll(),
      read: readAgain,
      // Someone else is signed in than the page read the sheet as (it opened offline): what it
      // laid over the server's values is not theirs, so the sheet is read again.
      reread: () => {
        stale = true;
        if (!root.hidden) void load().then(() => shown.render());
      },
    });
  }

  /** Rows put back to their presets show what the sheet held when read: read again if made old. @param {boolean} reverted */
  function readIfReverted(reverted) {
    if (reverted && stale && !root.hidden) void load().then(() => shown.render());
  }

  return {
    root,
    /** Shows the table, reading the sheet the first time (and again when a save elsewhere made it old). */
    show() {
      root.hidden = false;
      watchOutbox();
      followDrafts();
      void load().then(() => shown.render());
      shown.render();
    },
    hide() {
      root.hidden = true;
    },
    /** How many cells are changed and not saved. */
    changedCount: model.changedCount,
    /**
     * A save made elsewhere (the modal) of the rows of `keys`: the table reads the sheet again when
     * next shown, or those rows if it holds changes.
     */
    markStale: table.markStale,
    /**
     * This person's drafts were read: the rows read take theirs. Read for someone else signed in,
     * the rows the previous person changed went back to their presets: read again if made old.
     */
    draftsLoaded() {
      readIfReverted(drafts.loaded(!root.hidden));
    },
    /**
     * Someone else signed in: the rows the previous person changed go back to their presets now (what
     * is typed next is the new person's), read again if made old.
     */
    ownerChanged() {
      readIfReverted(drafts.ownerChanged());
    },
    /** The device cannot keep drafts: said in the table, in `text`'s words. @param {string} text */
    draftProblem: (text) => drafts.problem(text),
    /** Fills rows from another sheet's values (see copy-previous.js). */
    table,
    destroy() {
      loads++;
      shown.destroy();
      win?.removeEventListener('beforeunload', beforeUnload);
      win?.removeEventListener('online', onOnline);
      win?.removeEventListener('resize', forgetRoom);
    },
  };
}

/** @typedef {ReturnType<typeof createTable>} TableView */
/** @typedef {ReturnType<typeof createTable>['table']} Table */
