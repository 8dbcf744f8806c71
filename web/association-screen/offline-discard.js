// @ts-check
/**
 * Discarding an entry that waits in the outbox (#28), and what the page says of it. An entry a
 * sender (this page, another tab, the service worker) has on its way is taken out of the outbox
 * too, so nothing sends it again, but the server may still store it: the page says so, and once the
 * sender tells what came of its batch, says whether it was stored. Its own module because that
 * follow-up (entries on their way, their last word) is state of its own, apart from what waits.
 */

import { keyOf } from './entry-key.js';
import { fill } from './labels.js';
import { alone, SYNC_TAG } from './sync.js';

/** @typedef {import('./outbox.js').OutboxRecord} OutboxRecord */

/**
 * After the senders let go of the outbox, how long a page waits for the word of an entry it
 * discarded on its way (the sender's message may come just after) before saying it may be stored.
 */
const LAST_WORD_MS = 1000;

/**
 * @param {import('./dom.js').ScreenContext} ctx
 * @param {object} parts
 * @param {Window} parts.win
 * @param {BroadcastChannel | undefined} parts.channel where the other pages hear that what waits changed
 * @param {() => import('./outbox.js').Outbox | undefined} parts.outbox once opened
 * @param {() => Promise<void>} parts.refresh reads the outbox again and draws what changed
 */
export function createDiscards(ctx, parts) {
  const { labels } = ctx;
  const { win, channel, refresh } = parts;
  /**
   * Entries discarded on this page while a sender had them on their way, until the sender says
   * what came of them (stored, or not). @type {Map<number, { label: string }>}
   */
  const onTheirWay = new Map();
  /** Keys of entries discarded on this page since the watchers were last told of a change. @type {Set<string>} */
  const discardedKeys = new Set();

  /**
   * Drops an entry, as it is stored now (its copy in the list may be older). One a sender has on
   * its way is out of the outbox too, so nothing sends it again, but the server may still store it:
   * the page says so, and says what came of it once the sender tells (see `heard` in offline-senders.js).
   * @param {OutboxRecord} record
   */
  async function discard(record) {
    const outbox = parts.outbox();
    if (!outbox) return;
    const [stored] = await outbox.take([record.seq]);
    if (stored) discardedKeys.add(keyOf(stored.entry));
    let said = labels.discarded;
    if (!stored) said = labels.sentBeforeDiscard;
    else if (stored.batch && (await sending())) {
      said = labels.discardedOnItsWay;
      onTheirWay.set(stored.seq, { label: stored.label });
      void lastWord(stored.seq);
    } else if (stored.batch) {
      // Its batch went out without an answer, and no one sends it now: it may have been stored.
      said = labels.discardedMaybeSent;
    }
    channel?.postMessage({ type: 'changed' });
    await refresh();
    ctx.announce(fill(said, { label: record.label }));
  }

  /** Whether a sender (this page, another, the service worker) has the outbox now. */
  async function sending() {
    try {
      const state = await win.navigator.locks?.query();
      return state?.held?.some((lock) => lock.name === SYNC_TAG) === true;
    } catch {
      return false;
    }
  }

  /**
   * Once the senders let go of the outbox, an entry discarded on its way whose fate no sender told
   * (it was not in the batch on its way after all: one sent before without an answer) may have been
   * stored: said so. @param {number} seq
   */
  async function lastWord(seq) {
    await alone(async () => undefined);
    await new Promise((resolve) => win.setTimeout(resolve, LAST_WORD_MS));
    const discarded = onTheirWay.get(seq);
    if (!discarded || ctx.destroyed()) return;
    onTheirWay.delete(seq);
    ctx.announce(fill(labels.discardedMaybeSent, { label: discarded.label }));
  }

  /** What to say of entries discarded here on their way, stored all the same. @param {readonly number[]} seqs */
  function storedDespite(seqs) {
    return lastWords(seqs, labels.sentBeforeDiscard);
  }

  /**
   * What to say of entries discarded here on their way, not stored: discarded, or maybe stored.
   * @param {readonly number[]} seqs @param {boolean} maybe
   */
  function notStored(seqs, maybe) {
    return lastWords(seqs, maybe ? labels.discardedMaybeSent : labels.discarded);
  }

  /** @param {readonly number[]} seqs @param {string} template */
  function lastWords(seqs, template) {
    /** @type {string[]} */
    const said = [];
    for (const seq of seqs) {
      const discarded = onTheirWay.get(seq);
      if (!discarded) continue;
      onTheirWay.delete(seq);
      said.push(fill(template, { label: discarded.label }));
    }
    return said;
  }

  return {
    discard,
    storedDespite,
    notStored,
    /** The keys of entries discarded here since the last call (the watchers are told of them once). */
    takeDiscarded() {
      const discarded = new Set(discardedKeys);
      discardedKeys.clear();
      return discarded;
    },
  };
}

/** @typedef {ReturnType<typeof createDiscards>} Discards */
