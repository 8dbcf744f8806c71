// @ts-check
/**
 * How the modal sends one entry: to the server, or into the offline outbox when the page is offline,
 * when entries wait before it, or when a save got no answer (kept to be sent again under the same
 * request id, applied once either way). An outbox entry the modal was deciding (a conflict met while
 * sending it) leaves the outbox once this send is done.
 */

import { failureOf, RequestError } from './api.js';

/** @typedef {import('./tree.js').TreeNode} TreeNode */
/** @typedef {import('./api.js').MetricEntry} MetricEntry */

/**
 * What a send came to, or undefined once the screen is destroyed. `stillOpen`: whether the dialog
 * still shows the opening it was sent from. `read`: after a conflict, whether the activity was read
 * again (`conflicted`) before the refusal is shown. `maybeStored`: the failure came after the save was sent
 * without an answer (and could not be kept in the outbox, or there is none): it may be stored, and
 * Save sends it again under the same request id (the api keeps it), applied once.
 * @typedef {{ answer: import('./api.js').SaveResult, stillOpen: boolean }
 *   | { queued: true, stillOpen: boolean }
 *   | { failure: ReturnType<typeof failureOf>, stillOpen: boolean, maybeStored?: true, read?: boolean }
 *   | undefined} Sent
 */

/**
 * @param {import('./dom.js').ScreenContext} ctx
 * @param {TreeNode} node @param {MetricEntry} entry
 * @param {{ deciding: import('./outbox.js').OutboxRecord | undefined, stillOpen: () => boolean,
 *   conflicted: (node: TreeNode) => Promise<boolean>, copied?: boolean }} how `copied`: the entry
 *   carries a value copied from another sheet, sent (and kept) as a copy, as the table's are
 * @returns {Promise<Sent>}
 */
export async function sendEntry(ctx, node, entry, { deciding, stillOpen, conflicted, copied = false }) {
  const { labels, offline } = ctx;
  const source = copied ? 'copy' : 'screen';
  /**
   * @param {string | undefined} requestId the id it was sent under without an answer (the server
   *   may have it already): kept, so it is applied once; undefined for a save not sent yet
   */
  const queue = async (requestId) => {
    if (!offline) return undefined;
    /** @type {{ level: number, id: number }[]} */
    const path = [];
    for (let up = /** @type {TreeNode | null} */ (node); up; up = up.parent)
      path.unshift({ level: up.data.level, id: up.data.id });
    try {
      await offline.queue(
        [{ entry, label: node.data.label, path, copied }],
        requestId === undefined ? undefined : { requestId, source },
      );
      if (requestId !== undefined) ctx.api.forgetAttempt(requestId);
      if (deciding) await offline.resolved(deciding);
      return ctx.destroyed() ? undefined : { queued: /** @type {const} */ (true), stillOpen: stillOpen() };
    } catch (error) {
      if (ctx.destroyed()) return undefined;
      const failure = failureOf(error, labels.networkError);
      return requestId === undefined
        ? { failure, stillOpen: stillOpen() }
        : { failure, stillOpen: stillOpen(), maybeStored: /** @type {const} */ (true) };
    }
  };
  if (offline?.shouldQueue()) return queue(undefined);
  try {
    const answer = await ctx.api.put(entry, source);
    offline?.stored();
    if (deciding) await offline?.resolved(deciding);
    return ctx.destroyed() ? undefined : { answer, stillOpen: stillOpen() };
  } catch (error) {
    if (ctx.destroyed()) return undefined;
    const failure = failureOf(error, labels.networkError);
    // Under the id this save was sent with, not whichever save the api tried last.
    if (failure.status === 0 && offline)
      return queue(error instanceof RequestError ? error.requestId : undefined);
    if (failure.status === 0) return { failure, stillOpen: stillOpen(), maybeStored: true };
    // Someone else signed in elsewhere on this browser: nothing written; the page learns who, and
    // the form, closed, keeps what was typed as the person's who typed it.
    if (failure.code === 'OWNER_CHANGED' && offline) {
      await offline.signedInElsewhere();
      if (ctx.destroyed()) return undefined;
    }
    // The activity as stored now, before the conflict is shown: the form starts again from it.
    if (!failure.conflicted) return { failure, stillOpen: stillOpen() };
    const read = await conflicted(node);
    return ctx.destroyed() ? undefined : { failure, stillOpen: stillOpen(), read };
  }
}
