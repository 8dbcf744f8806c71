// @ts-check
/**
 * What the modal's fields start from: an activity's values as stored (or its defaults), with what
 * waits in the outbox laid over and said so, when it opens, again after a save refused for a
 * conflict (the tree has read the activity again by then), and after the table's save stored it.
 */

import { checkTyped, sameValue } from './values.js';

/** @typedef {import('./api.js').ScreenNode} ScreenNode */
/** @typedef {import('./api.js').MetricConflict} MetricConflict */
/** @typedef {import('./api.js').MetricValue} MetricValue */
/** @typedef {import('./tree.js').TreeNode} TreeNode */

/**
 * @param {import('./dom.js').ScreenContext} ctx
 * @param {import('./fields.js').Fields} fields
 * @param {(node: TreeNode) => boolean} unread whether the activity's entry was removed and what
 *   applies now is not read yet (tree-metrics.js `isUnread`)
 */
export function createPresets(ctx, fields, unread) {
  const { inputs } = fields;
  /**
   * The server's value of each field as the form last read it, where the form starts from a value
   * the outbox keeps (sent first, so the next save's base): a draft typed over it goes back to the
   * server's once no entry keeps it (a discarded entry), as the table's cell does (`stored`).
   * @type {Map<string, MetricValue>}
   */
  const stored = new Map();
  /** Whether the server had a live entry as the form last read it, while the outbox laid one over. @type {boolean | undefined} */
  let storedRow;

  /**
   * Learns what the server holds of a field under what the outbox keeps for it (`kept`).
   * @param {TreeNode} node @param {string} field @param {boolean} kept
   */
  function learn(node, field, kept) {
    if (!kept) {
      stored.delete(field);
      return;
    }
    const metric = node.data.metrics?.[field];
    stored.set(field, metric?.source === 'saved' ? (metric.value ?? null) : null);
  }

  /** Learns whether the server has a live entry, where the outbox keeps one (`pending`). @param {TreeNode} node @param {Set<string> | undefined} pending */
  function learnRow(node, pending) {
    storedRow = pending === undefined ? undefined : rowIn(node.data);
  }

  /**
   * Where a field's preset comes from, as said under it: a value the outbox keeps (`kept`), nothing
   * read since the entry was removed, else what the read says.
   * @param {TreeNode} node @param {import('./api.js').ScreenMetric | undefined} metric @param {boolean} kept
   */
  const sourceOf = (node, metric, kept) => (kept ? 'pending' : unread(node) ? 'unread' : metric?.source);

  /** The activity as the modal shows it: what waits in the outbox laid over what was read. @param {TreeNode} node */
  function dataOf(node) {
    return ctx.offline?.overlay(node.data) ?? node.data;
  }

  /** Whether `data` says the key has a live row: who changed it last, or a saved field. @param {ScreenNode} data */
  function rowIn(data) {
    return (
      (data.lastChange ?? null) !== null ||
      [...inputs.keys()].some((field) => data.metrics?.[field]?.source === 'saved')
    );
  }

  /**
   * Presets the fields `which` picks from `data`: the stored value with its source, else the
   * default; a value kept in the outbox says so (it is what the next save starts from, not yet the
   * server's).
   * @param {TreeNode} node @param {ScreenNode} data @param {(field: string) => boolean} which
   */
  function fill(node, data, which) {
    const pending = ctx.offline?.pendingFields({ activity: node.data.id, group: node.data.group ?? null });
    learnRow(node, pending);
    for (const field of inputs.keys()) {
      if (!which(field)) continue;
      learn(node, field, pending?.has(field) === true);
      const metric = data.metrics?.[field];
      const preset = metric?.value ?? null;
      // A default is no stored value: a save of a key without a row starts from nothing.
      fields.preset(
        field,
        preset,
        metric?.source === 'saved' ? preset : null,
        sourceOf(node, metric, pending?.has(field) === true),
      );
    }
  }

  /**
   * A field's conflict as the activity's last read from the server has it: the value stored now
   * (none without a live row), against `base` and the person's `yours`, for the conflict view to
   * show as it shows a refused save's. Who stored it is not the read's to say (it names whoever
   * changed the entry last, maybe in another field): the conflict view asks the history.
   * @param {TreeNode} node @param {string} field @param {MetricValue} base @param {MetricValue} yours
   * @returns {MetricConflict}
   */
  function readConflict(node, field, base, yours) {
    const metric = node.data.metrics?.[field];
    return {
      entry: 0,
      activity: node.data.id,
      group: node.data.group ?? null,
      field,
      base,
      theirs: metric?.source === 'saved' ? (metric.value ?? null) : null,
      row: rowIn(node.data),
      yours,
      changedBy: null,
      changedAt: null,
    };
  }

  /**
   * After a save refused for a conflict: the fields the person left alone and that met no conflict
   * show what is stored now. The row may have been made or removed meanwhile: a field still showing
   * its old preset would neither be what is stored nor, with the row's coming or going, be sent as
   * shown. A field the person typed in that was sent and met no conflict keeps what they typed and
   * now starts from what is stored, when that is the base it was sent with (the server found it still
   * stored at the refusal) or the value sent: the next Save sends it when it differs, so what the
   * form shows is what is stored (a default the person typed over, on an activity whose entry someone
   * else made meanwhile, is not dropped). Anything else was stored after the refusal, before the read
   * (nobody checked it against the base, nobody here saw it): taken as the base unseen, the next Save
   * would write over it unrefused, so it is returned as a conflict at the field, to be shown as the
   * refused save's are. A typed field that was not sent (its value the same as its preset) is shown
   * as stored now, as if left alone: nobody checked its base, and what the person typed did not
   * change it. Returns whether the key has a row now, and those conflicts.
   * @param {TreeNode} node @param {readonly MetricConflict[]} refused
   * @param {{ values: Readonly<Record<string, MetricValue>>, base: Readonly<Record<string, MetricValue>> }} sent
   *   the values the refused save sent, and their bases
   * @returns {{ hasRow: boolean, conflicts: MetricConflict[] }}
   */
  function afterConflict(node, refused, sent) {
    const conflicted = new Set(refused.filter((conflict) => conflict.entry === 0).map((c) => c.field));
    const data = dataOf(node);
    const kept = (/** @type {string} */ field) =>
      !fields.untouched(field) && Object.hasOwn(sent.values, field);
    fill(node, data, (field) => !conflicted.has(field) && !kept(field));
    const pending = ctx.offline?.pendingFields({ activity: node.data.id, group: node.data.group ?? null });
    /** @type {MetricConflict[]} */
    const found = [];
    for (const [field, { column }] of inputs) {
      if (conflicted.has(field) || !kept(field)) continue;
      const metric = data.metrics?.[field];
      const value = metric?.value ?? null;
      const base = metric?.source === 'saved' ? value : null;
      const sentBase = sent.base[field] ?? null;
      const yours = sent.values[field] ?? null;
      // A value this device keeps is its own, not the server's: the outbox sends it from its base.
      if (!pending?.has(field) && !sameValue(column, base, sentBase) && !sameValue(column, base, yours)) {
        found.push(readConflict(node, field, sentBase, yours));
        continue;
      }
      learn(node, field, pending?.has(field) === true);
      fields.rebase(field, value, base, sourceOf(node, metric, pending?.has(field) === true));
    }
    return { hasRow: rowIn(data), conflicts: found };
  }

  /**
   * After a save made elsewhere on this page (the table's) stored the activity the open form shows,
   * the tree having taken its answer, or what waits in the outbox changed (an entry sent, or
   * discarded, here or in another tab): the form starts from what is stored, as if opened now, and
   * what the person typed in it stays typed. A field left alone shows what is stored. A typed field
   * holding the value stored has nothing left to save: it shows it as stored (and leaves the draft).
   * Any other typed field keeps what was typed, and starts from what is stored when that is what the
   * person typed over (its preset: a default the table's save stored as they saw it) or its base
   * already, or a value the outbox keeps for it now (sent first), or what the server held under the
   * outbox's value it was typed over (that entry discarded: the base goes back to it, as a table
   * cell's does); a value that is none of these (stored by someone else in a field the table's save
   * did not send) is not taken as its base unseen: the field keeps the base it had, and a save meets
   * that value as a conflict, shown at the field. Returns whether the key has a row now.
   * @param {TreeNode} node
   */
  function afterStored(node) {
    const data = dataOf(node);
    const pending = ctx.offline?.pendingFields({ activity: node.data.id, group: node.data.group ?? null });
    fill(node, data, (field) => fields.untouched(field));
    for (const [field, { column, input }] of inputs) {
      if (fields.untouched(field)) continue;
      // What the server held under a value the outbox kept for the field, before it is learnt anew.
      const known = stored.has(field) ? { value: stored.get(field) ?? null } : undefined;
      const metric = data.metrics?.[field];
      const value = metric?.value ?? null;
      const base = metric?.source === 'saved' ? value : null;
      const source = sourceOf(node, metric, pending?.has(field) === true);
      const typed = checkTyped(column, input.value, ctx.lang);
      if (metric?.source === 'saved' && typed.ok && sameValue(column, typed.value, value)) {
        learn(node, field, pending?.has(field) === true);
        fields.preset(field, value, base, source);
      } else if (
        sameValue(column, base, fields.bases.get(field) ?? null) ||
        sameValue(column, base, fields.presets.get(field) ?? null) ||
        pending?.has(field) === true ||
        (known !== undefined && sameValue(column, base, known.value))
      ) {
        learn(node, field, pending?.has(field) === true);
        fields.rebase(field, value, base, source);
      }
    }
    return rowIn(data);
  }

  return {
    dataOf,
    rowIn,
    fill,
    readConflict,
    afterConflict,
    afterStored,
    /**
     * What the server holds under what the outbox keeps, as the form last read it: each such
     * field's value, and whether it had a live entry (undefined where nothing of it is kept).
     * @param {string} field
     */
    stored: (field) => (stored.has(field) ? { value: stored.get(field) ?? null } : undefined),
    storedRow: () => storedRow,
  };
}
