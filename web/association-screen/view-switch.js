// @ts-check
/**
 * The switch between the tree and the table view ("Tree" / "Table", two toggle buttons beside the
 * tree), the sheet's progress above both, and what ties the two views together: a save in the modal
 * makes the table read again, when next shown, the sheet (if it holds no change) or the rows saved; a
 * save in the table shows its values in the tree and in the modal open on one of its activities,
 * a conflict it meets has the tree read those activities again, and either view's save reads the
 * progress again. Changes made in the table stay in it while the tree is shown, kept as the
 * activities' drafts, which the modal shows too; a draft typed, saved or discarded in the modal
 * shows in the table when it is shown again.
 */

import { createCopyPrevious } from './copy-previous.js';
import { BLOCK, button } from './dom.js';
import { keyOf } from './entry-key.js';
import { createProgress } from './progress.js';
import { createTable } from './table.js';

/** @typedef {'tree' | 'table'} ScreenView */

/**
 * @param {import('./dom.js').ScreenContext} ctx
 * @param {object} parts
 * @param {HTMLElement} parts.body the tree's part of the screen
 * @param {() => HTMLElement} parts.search the search field, for the tree
 * @param {import('./tree.js').Tree} parts.tree
 * @param {import('./tree-metrics.js').TreeMetrics} parts.treeMetrics
 * @param {(answer: import('./saved-answer.js').Answer) => void} parts.storedElsewhere the table's
 *   save stored activities: the modal open on one of them starts from it
 */
export function createViews(ctx, parts) {
  const { create, labels } = ctx;
  const root = create('div', `${BLOCK}__views`);
  root.hidden = true;
  const switcher = create('div', `${BLOCK}__switch`);
  switcher.setAttribute('role', 'group');
  switcher.setAttribute('aria-label', labels.viewSwitch);
  const treeButton = button(create, `${BLOCK}__button ${BLOCK}__button--switch`, labels.viewTree);
  const tableButton = button(create, `${BLOCK}__button ${BLOCK}__button--switch`, labels.viewTable);
  switcher.append(treeButton, tableButton);
  const progress = createProgress(
    ctx,
    function* () {
      for (const node of parts.tree.nodes()) {
        if (node.data.kind === 'branch')
          yield { level: node.data.level, id: node.data.id, label: node.data.label };
      }
    },
    (countOf) => parts.tree.setCounts(countOf),
  );
  root.append(switcher, progress.root);

  const tableView = createTable(ctx, {
    saved(answer) {
      // Every activity the tree has read shows the row as stored (once per key: twins follow).
      const done = new Set();
      for (const entry of answer.entries) {
        const key = keyOf(entry);
        if (done.has(key)) continue;
        done.add(key);
        const [node] = parts.tree.tasksOf(entry);
        if (node) parts.treeMetrics.applySaved(node, answer);
      }
      parts.storedElsewhere(answer);
      progress.later();
    },
    conflicted(entries) {
      // What the tree read of them is older than what the conflict met: read again (every copy), as
      // the modal's own conflict has it, so the tree and the modal show what is stored now and the
      // modal's next save starts from it, not from a value nobody holds any more.
      for (const entry of entries) {
        const [node] = parts.tree.tasksOf(entry);
        if (node) void parts.treeMetrics.refresh(node);
      }
    },
    learnPath: (path) => progress.learn(path),
  });
  const copy = createCopyPrevious(ctx, tableView.table);
  tableView.root.querySelector(`.${BLOCK}__table-tools`)?.prepend(copy.open);
  tableView.root.append(copy.dialog);

  /** @type {ScreenView} */
  let current = 'tree';
  treeButton.addEventListener('click', () => show('tree'));
  tableButton.addEventListener('click', () => show('table'));
  press();

  function press() {
    treeButton.setAttribute('aria-pressed', String(current === 'tree'));
    tableButton.setAttribute('aria-pressed', String(current === 'table'));
  }

  /** @param {ScreenView} view */
  function show(view) {
    current = view;
    press();
    parts.body.hidden = view !== 'tree';
    parts.search().hidden = view !== 'tree';
    if (view === 'table') tableView.show();
    else tableView.hide();
  }

  return {
    /** The switch and the progress; the table's section. */
    root,
    tableRoot: tableView.root,
    view: () => current,
    /** This person's drafts were read: the table's rows take theirs. */
    draftsLoaded: tableView.draftsLoaded,
    /** Someone else signed in: the table's rows of the previous person's changes go back now. */
    ownerChanged: tableView.ownerChanged,
    /** The device cannot keep drafts: said in the table. */
    draftProblem: tableView.draftProblem,
    /**
     * A batch of the outbox stored (sent by this page, another or the service worker): the progress
     * is read again, also where the tree never read the activities (entered in the table).
     */
    outboxStored: () => progress.later(),
    /** The screen is ready (its tree shown): the switch shows, the progress is read. */
    ready() {
      root.hidden = false;
      void progress.refresh();
    },
    /**
     * The tree's metrics, told of the modal's saves (and of the outbox's): the progress is read
     * again, and the table reads again, when next shown, the sheet or, holding changes, the row
     * saved (a remove with nothing typed leaves no draft to say it changed) or read again.
     * @returns {import('./tree-metrics.js').TreeMetrics}
     */
    watch: (/** @type {import('./tree-metrics.js').TreeMetrics} */ treeMetrics) => ({
      ...treeMetrics,
      applySaved(node, answer) {
        treeMetrics.applySaved(node, answer);
        tableView.markStale([keyOf({ activity: node.data.id, group: node.data.group })]);
        progress.later();
      },
      // Read again after the modal met a conflict (or an entry removed meanwhile): what the table
      // read of that row is as old as what the modal held, so it reads the row again too.
      refresh(node) {
        tableView.markStale([keyOf({ activity: node.data.id, group: node.data.group })]);
        return treeMetrics.refresh(node);
      },
    }),
    destroy() {
      tableView.destroy();
      if (copy.dialog.open) copy.dialog.close();
    },
  };
}
