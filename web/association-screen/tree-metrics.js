// @ts-check
/**
 * The metric values beside each activity in the tree (chips, each with where its value came from),
 * and keeping them true after a save: every copy of the activity shows the row as stored, and an
 * activity whose defaults only the server knows is read again.
 */

import { BLOCK } from './dom.js';
import { entryFor, readAgain } from './saved-answer.js';
import { formatValue, metricLabel } from './values.js';

/** @typedef {import('./dom.js').ScreenContext} ScreenContext */
/** @typedef {import('./tree.js').TreeNode} TreeNode */
/** @typedef {import('./api.js').ScreenMetric} ScreenMetric */

/**
 * The metric values beside an activity's label, each with its source.
 * @param {ScreenContext} ctx @param {TreeNode} node @param {HTMLElement} into
 */
export function renderChips(ctx, node, into) {
  const { create, labels } = ctx;
  into.replaceChildren();
  // What waits in the outbox is shown over what the server sent, marked as not sent yet.
  const data = ctx.offline?.overlay(node.data) ?? node.data;
  const waiting = ctx.offline?.pendingFields({ activity: node.data.id, group: node.data.group });
  node.item.classList.toggle(`${BLOCK}__item--pending`, waiting !== undefined);
  for (const column of ctx.columns) {
    const metric = data.metrics?.[column.field];
    const unsent = waiting?.has(column.field) === true;
    const chip = create(
      'span',
      `${BLOCK}__chip ${BLOCK}__chip--${unsent ? 'pending' : (metric?.source ?? 'none').replace(':', '-')}`,
    );
    const value =
      metric?.value === null || metric?.value === undefined
        ? labels.empty_value
        : formatValue(metric.value, column, ctx.lang);
    chip.append(
      create('span', `${BLOCK}__chip-name`, metricLabel(column)),
      create('span', `${BLOCK}__chip-value`, value),
    );
    const source = unsent
      ? labels.pendingChip
      : metric?.source === 'saved'
        ? labels.chipSaved
        : metric?.source?.startsWith('default')
          ? labels.chipDefault
          : '';
    if (source) chip.append(create('span', `${BLOCK}__chip-source`, source));
    into.append(chip);
  }
  // An entry of it stopped in the outbox (a conflict, a refusal): it waits for the person's decision,
  // in the list of waiting entries, which is hidden until asked for. Read with the item's name.
  if (ctx.offline?.isStopped({ activity: node.data.id, group: node.data.group }))
    into.append(create('span', `${BLOCK}__stopped`, labels.stoppedChip));
  // Typed in the modal and not sent (a draft kept on this device): seen and read with the item's
  // name, so nothing typed is forgotten in a closed branch. A read-only activity shows no draft (its
  // modal shows what is stored, nothing to discard): marked, it would be one nobody can see or
  // discard; it stays on the device, shown again if the activity may be changed again.
  if (node.data.editable !== false && ctx.drafts?.has({ activity: node.data.id, group: node.data.group })) {
    into.append(create('span', `${BLOCK}__draft`, labels.draftChip));
  }
  if (node.data.editable === false) {
    into.append(create('span', `${BLOCK}__lock`, labels.readOnly));
    node.item.classList.add(`${BLOCK}__item--read-only`);
  }
}

/** Draws an activity's chips again, from its data. @param {ScreenContext} ctx @param {TreeNode} node */
function redrawChips(ctx, node) {
  const details = node.item.querySelector(`.${BLOCK}__metrics`);
  if (details instanceof HTMLElement) renderChips(ctx, node, details);
}

/**
 * @param {ScreenContext} ctx
 * @param {import('./tree.js').Tree} tree
 */
export function createTreeMetrics(ctx, tree) {
  /**
   * Copies whose entry was removed and that were not read again since: what applies to them now
   * (their defaults) only the server knows, so they show no values until it says.
   * @type {WeakSet<TreeNode>}
   */
  const unread = new WeakSet();

  /**
   * Every node showing the same metric row as `node` (same activity, same parent group), itself
   * included: the tree shows an activity under each node its group hangs from.
   * @param {TreeNode} node
   */
  function twinsOf(node) {
    const twins = tree.tasksOf({ activity: node.data.id, group: node.data.group });
    return twins.includes(node) ? twins : [node, ...twins];
  }

  /**
   * Marks a copy whose entry was removed as not read since. Until a read answers, nothing of it is
   * shown as saved, and the modal saves nothing of it without reading it first (modal.js
   * `awaitDefaults`, `readWhatApplies`): only the server knows the defaults that apply again.
   * @param {TreeNode} twin
   */
  function markUnread(twin) {
    unread.add(twin);
    /** @type {Record<string, ScreenMetric>} */
    const metrics = {};
    for (const column of ctx.columns) metrics[column.field] = { value: null, source: 'none' };
    twin.data = { ...twin.data, metrics, lastChange: null };
  }

  /**
   * Reads an activity's metrics again: after a remove its defaults apply, which only the server
   * knows, and after a refused save the tree shows what others stored meanwhile. One request (the
   * activity's branch); on failure the chips keep what they showed. Resolves whether the node now
   * holds what the server has (read now, or a save's answer newer than the read).
   * @param {TreeNode} node @returns {Promise<boolean>}
   */
  async function refreshMetrics(node) {
    const saves = node.saves;
    try {
      const data = await ctx.api.children(node.parent?.data ?? null, { fresh: true });
      const fresh = data.nodes.find((child) => child.kind === 'task' && child.id === node.data.id);
      // A save made meanwhile is newer than this read: its values stay.
      if (node.saves !== saves) return true;
      if (fresh === undefined || ctx.destroyed()) return false;
      node.data = fresh;
      unread.delete(node);
      redrawChips(ctx, node);
      return true;
    } catch {
      // What was saved stays shown; the next load of the screen shows the default.
      return false;
    }
  }

  /**
   * Reads every copy of an activity again; resolves when they show what is stored, with whether
   * `node` was read (without an answer it shows what it showed before).
   * @param {TreeNode} node @returns {Promise<boolean>}
   */
  async function refresh(node) {
    const twins = twinsOf(node);
    const read = await Promise.all(twins.map((twin) => refreshMetrics(twin)));
    return read[twins.indexOf(node)] === true;
  }

  /**
   * Takes a save's answer into the tree: every copy of the activity shows the row as the save
   * stored it (and starts its next save from it), with who changed it. What the answer cannot say
   * is stored now is read again (saved-answer.js): an entry without a row any more (removed), whose
   * defaults only the server knows, and a replayed answer's, which says what was stored when the
   * save was first sent. That read also brings the branch kept for offline use up to date.
   * @param {TreeNode} node
   * @param {import('./saved-answer.js').Answer} answer
   */
  function applySaved(node, answer) {
    const saved = entryFor(answer, { activity: node.data.id, group: node.data.group });
    for (const twin of twinsOf(node)) {
      twin.saves = (twin.saves ?? 0) + 1;
      if (saved?.stored) {
        const stored = saved.stored;
        /** @type {Record<string, ScreenMetric>} */
        const metrics = { ...twin.data.metrics };
        for (const column of ctx.columns) {
          if (column.field in stored)
            metrics[column.field] = { value: stored[column.field] ?? null, source: 'saved' };
        }
        twin.data = { ...twin.data, metrics, lastChange: saved.lastChange ?? null };
        unread.delete(twin);
      } else if (saved) markUnread(twin);
      redrawChips(ctx, twin);
      if (saved === undefined || readAgain(answer, saved)) void refreshMetrics(twin);
    }
  }

  return {
    applySaved,
    refresh,
    /**
     * A save of `node` was refused because its entry was removed meanwhile, and the read after the
     * refusal got no answer: every copy shows as after a remove of one's own, its values not read
     * (the removed entry's values, still shown, would be taken for what is stored, and sent as
     * such). @param {TreeNode} node
     */
    removedUnread(node) {
      for (const twin of twinsOf(node)) {
        markUnread(twin);
        redrawChips(ctx, twin);
      }
    },
    /** Whether a copy's entry was removed and what applies now is not read yet. @param {TreeNode} node */
    isUnread: (node) => unread.has(node),
    /** Draws every copy of an activity again (the outbox changed). @param {TreeNode} node */
    redraw: (node) => redrawChips(ctx, node),
  };
}

/** @typedef {ReturnType<typeof createTreeMetrics>} TreeMetrics */
