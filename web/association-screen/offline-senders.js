// @ts-check
/**
 * What the senders say of the outbox (#28), heard and told: a batch this page sent came to (stored,
 * refused, no answer, a remove found already done), told on the channel to the other pages; what another page or the service
 * worker says of its own batches (the tree and the table show what was stored), that what waits
 * changed, or that someone found another person signed in; and what the page says once a sending is
 * settled. Its own module because it is the one place that talks across tabs and the worker.
 */

import { RetryLater } from './ask.js';
import { keyOf } from './entry-key.js';
import { fill } from './labels.js';
import { keepAnswer } from './offline-cache.js';
import { doneMessage, sentMessage, unsentMessage } from './sync.js';

/** @typedef {import('./outbox.js').OutboxRecord} OutboxRecord */

/**
 * @param {import('./dom.js').ScreenContext} ctx
 * @param {object} parts
 * @param {string} parts.endpoint the handler's absolute URL
 * @param {Window} parts.win
 * @param {BroadcastChannel | undefined} parts.channel
 * @param {import('./tree.js').Tree} parts.tree
 * @param {import('./tree-metrics.js').TreeMetrics} parts.treeMetrics
 * @param {() => readonly OutboxRecord[]} parts.mine this person's entries of this sheet, at the last reading
 * @param {readonly import('./offline.js').Watcher[]} parts.watchers told of what the server stored
 * @param {import('./offline-owner.js').Owner} parts.who
 * @param {import('./offline-discard.js').Discards} parts.discards
 * @param {() => Promise<void>} parts.refresh reads the outbox again and draws what changed
 */
export function followSenders(ctx, parts) {
  const { labels } = ctx;
  const { endpoint, win, channel, refresh } = parts;
  /**
   * Keys whose stored values the tree took from a sender's answer (this page's or another's) since
   * the last reading of the outbox: those leaving what waits need no reading again.
   * @type {Set<string>}
   */
  const answeredKeys = new Set();
  /** What to say with the next announcement of this page's sending. @type {string[]} */
  const toSay = [];

  /**
   * A batch this page sent and the server stored: the tree and the table show it as stored, and so
   * does the data kept for offline use; an entry of it discarded here on its way is said to be
   * saved, and the other pages are told.
   * @param {OutboxRecord[]} records @param {import('./api.js').SaveResult} answer @param {number[]} gone
   */
  function onSent(records, answer, gone) {
    const seqs = records.map((record) => record.seq);
    toSay.push(...parts.discards.storedDespite(seqs));
    // Kept for offline use by the one who had the answer (the other pages only show it).
    void keepAnswer({ endpoint, taskSheet: ctx.taskSheet }, answer);
    takeAnswer(seqs, answer);
    channel?.postMessage(sentMessage({ endpoint, taskSheet: ctx.taskSheet }, records, answer, gone));
  }

  /**
   * A batch this page sent that the server did not store (refused, or no answer): an entry of it
   * discarded here on its way is said to be discarded, or to be maybe stored; the others are told.
   * @param {OutboxRecord[]} records @param {boolean} maybe
   */
  function onUnsent(records, maybe) {
    toSay.push(
      ...parts.discards.notStored(
        records.map((record) => record.seq),
        maybe,
      ),
    );
    channel?.postMessage(unsentMessage({ endpoint, taskSheet: ctx.taskSheet }, records, maybe));
  }

  /**
   * Entries this page sent that the server found already done (a remove with no entry left to
   * remove; a save an earlier sending of its batch stored): the person hears it (a remove in the
   * modal's words), and the other pages are told. The activity's stored
   * values are read again (offline.js `refresh`: they left the outbox with no answer to show).
   * @param {OutboxRecord[]} records
   */
  function onDone(records) {
    toSay.push(...alreadyDone(records.map((record) => record.seq)));
    channel?.postMessage(doneMessage({ endpoint, taskSheet: ctx.taskSheet }, records));
  }

  /**
   * What is said of this person's entries found already done, by their seqs: a remove whose entry
   * was gone, or a save an earlier sending of its batch stored (its answer lost).
   * @param {readonly number[]} seqs
   */
  function alreadyDone(seqs) {
    const done = new Set(seqs);
    return parts
      .mine()
      .filter((record) => done.has(record.seq))
      .map((record) => `${record.label}: ${record.entry.remove ? labels.entryGone : labels.savedEarlier}`);
  }

  /**
   * What the server stored of a batch, whoever sent it: every copy of each activity in the tree
   * shows the row as stored, and the table its rows (a key with a later entry still waiting on this
   * page goes on showing that one: it is what will be stored).
   * @param {readonly number[]} seqs @param {import('./api.js').SaveResult} answer
   */
  function takeAnswer(seqs, answer) {
    if (!Array.isArray(answer?.entries)) return;
    const sent = new Set(seqs);
    const later = new Set(
      parts
        .mine()
        .filter((record) => !sent.has(record.seq) && record.state === 'pending')
        .map((record) => keyOf(record.entry)),
    );
    for (const watcher of parts.watchers) watcher.sent(answer, later);
    const done = new Set();
    for (const saved of answer.entries) {
      const key = keyOf(saved);
      if (done.has(key)) continue;
      done.add(key);
      answeredKeys.add(key);
      // One node of the key: the tree takes the answer into its twins.
      const [node] = parts.tree.tasksOf(saved);
      if (node) parts.treeMetrics.applySaved(node, answer);
    }
  }

  /**
   * A message of another page or the service worker: what one of its batches came to, what waits
   * changed, or who a page found signed in. A batch of this person's entries it could not send
   * because they stopped (a conflict, a refusal) is said as this page's own sending says it: they
   * wait for the person's decision now, not for the network.
   * @param {any} message
   */
  async function heard(message) {
    if (ctx.destroyed()) return;
    const thisSheet = message?.endpoint === endpoint && message?.taskSheet === ctx.taskSheet;
    if (message?.type === 'unsent' && thisSheet && Array.isArray(message.seqs)) {
      const said = parts.discards.notStored(message.seqs, message.maybe === true);
      await refresh();
      if (ctx.destroyed()) return;
      const seqs = new Set(message.seqs);
      const stopped = parts
        .mine()
        .filter((record) => seqs.has(record.seq) && record.state !== 'pending').length;
      if (stopped > 0) said.push(notSent(stopped));
      if (said.length > 0) ctx.announce(said.join(' '));
      return;
    }
    /** @type {string[]} */
    let said = [];
    if (message?.type === 'sent' && thisSheet && Array.isArray(message.seqs)) {
      said = parts.discards.storedDespite(message.seqs);
      takeAnswer(message.seqs, message.answer);
    } else if (message?.type === 'done' && thisSheet && Array.isArray(message.seqs)) {
      said = alreadyDone(message.seqs);
    } else if (
      message?.type === 'owner' &&
      message.endpoint === endpoint &&
      message.owner !== parts.who.key()
    ) {
      void parts.who.check();
    }
    if (said.length > 0) ctx.announce(said.join(' '));
    await refresh();
  }

  /** That `count` entries stopped (a conflict, a refusal): not sent, they need the person's decision. @param {number} count */
  const notSent = (count) => (count === 1 ? labels.notSentOne : fill(labels.notSent, { count }));

  /**
   * A sending of this page settled: what it sent is said, and what it stopped (a conflict, a
   * refusal), which waits for the person's decision now, not for the network.
   * @param {{ owner: string, sent: number, stopped: number } | RetryLater} outcome
   */
  function onSettled(outcome) {
    if (ctx.destroyed()) return;
    if (!(outcome instanceof RetryLater)) parts.who.seen(outcome.owner);
    void refresh();
    const said = toSay.splice(0);
    if (outcome instanceof RetryLater) {
      if (parts.mine().some((record) => record.state === 'pending') && win.navigator.onLine)
        said.unshift(labels.sendFailed);
    } else {
      if (outcome.stopped > 0) said.unshift(notSent(outcome.stopped));
      if (outcome.sent > 0)
        said.unshift(outcome.sent === 1 ? labels.sentOne : fill(labels.sentAll, { count: outcome.sent }));
    }
    if (said.length > 0) ctx.announce(said.join(' '));
  }

  return {
    onSent,
    onUnsent,
    onDone,
    onSettled,
    heard,
    /** The keys the tree took a sender's answer for since the last call. */
    takeAnswered() {
      const answered = new Set(answeredKeys);
      answeredKeys.clear();
      return answered;
    },
  };
}
