// @ts-check
/**
 * Sending the outbox: its pending entries of one task sheet, in the order entered, in batches of up
 * to {@link MAX_BATCH} entries and {@link MAX_BODY_BYTES} bytes (the handler's limits), each batch
 * under one request id written on its entries before it is sent, so a batch whose answer was lost
 * goes again as the same request and is applied once. Only the entries of the user and scope the
 * server says this session is (`part=owner`) are sent: someone else's stay. Each batch names that
 * owner, so a batch that would ride the cookie of someone who signed in after the asking is refused
 * (409 `OWNER_CHANGED`, nothing written): the owner is asked again, and only theirs go on. A conflict (409
 * `METRIC_CONFLICT`) or a refusal at one entry stops that entry (`conflict`, `refused`); the rest go
 * on. A remove refused for an entry no longer there (404 `ENTRY_NOT_FOUND`) is done: it leaves the
 * outbox. A body refused as too large (413, a proxy's lower limit) is sent again in halves; an entry
 * too large alone stops (`refused`, `BODY_TOO_LARGE`). No answer, a server failure, a 200 that is
 * not the handler's answer (a sign-in or captive portal's page), or a refusal that is not the
 * handler's own (a session ended: 401 or 403; a host's or a proxy's page): tried again later, with
 * backoff, what the last try got noted on the entries. The handler's own 403 (a save taken for
 * another site's) stops them as any refusal of the whole batch does.
 *
 * Whoever sends (a page, the service worker) tells the other pages on {@link CHANNEL} what came of
 * each batch (see {@link SentMessage}): the pages that did not send it show what was stored, and a
 * page that discarded an entry while it was on its way says whether it was stored.
 *
 * `replayOutbox` has no DOM: the service worker runs it on Background Sync. `createSync`
 * (sync-driver.js) drives it in a page: the `online` event, retries with backoff, and Background
 * Sync registered where the browser has it. What one batch carries is decided in sync-batch.js, what
 * a refusal does to its entries in sync-refusal.js; here, the asking and the answers.
 */

import { isHandlerRefusal } from './api.js';
import { MAX_BODY_BYTES } from './api-batches.js';
import { ask, RetryLater } from './ask.js';
import { batchSource, nextBatch, sentEntry } from './sync-batch.js';
import { noteLastTry, sendAgainAsNew, settleRefusal, settleTooLarge } from './sync-refusal.js';

/** @typedef {import('./outbox.js').Outbox} Outbox */
/** @typedef {import('./outbox.js').OutboxRecord} OutboxRecord */
/** @typedef {import('./api.js').MetricEntry} MetricEntry */
/** @typedef {import('./api.js').SaveResult} SaveResult */

/** The most entries one PUT carries: the handler's batch limit. */
export const MAX_BATCH = 1000;
/** The tag of the Background Sync the screen registers, and of the lock senders take turns by. */
export const SYNC_TAG = 'task-association-outbox';
/** The channel pages and the service worker say "the outbox changed" on. */
export const CHANNEL = 'task-association-outbox';

/**
 * What a sender says on {@link CHANNEL} of one batch of a sheet (besides `{ type: 'changed' }`, what
 * waits changed, and `{ type: 'owner', endpoint, owner }`, a page read who is signed in):
 * `sent`, stored, with the server's answer and the seqs taken out of the outbox meanwhile
 * (`gone`: discarded while on its way); `unsent`, not stored: refused, or `maybe` (no answer: it
 * may have been stored); `done`, entries of a refused batch that were already so (a remove of an
 * entry no longer there), taken out of the outbox.
 * @typedef {{ type: 'sent', endpoint: string, taskSheet: number, seqs: number[], gone: number[], answer: SaveResult }
 *   | { type: 'unsent', endpoint: string, taskSheet: number, seqs: number[], maybe: boolean }
 *   | { type: 'done', endpoint: string, taskSheet: number, seqs: number[] }} SentMessage
 */

/**
 * A sender's report of a batch stored, for {@link CHANNEL}.
 * @param {{ endpoint: string, taskSheet: number }} sheet @param {readonly OutboxRecord[]} records
 * @param {SaveResult} answer @param {readonly number[]} gone
 * @returns {SentMessage}
 */
export function sentMessage(sheet, records, answer, gone) {
  const { endpoint, taskSheet } = sheet;
  return {
    type: 'sent',
    endpoint,
    taskSheet,
    seqs: records.map((record) => record.seq),
    gone: [...gone],
    answer,
  };
}

/**
 * A sender's report of a batch not stored, for {@link CHANNEL}.
 * @param {{ endpoint: string, taskSheet: number }} sheet @param {readonly OutboxRecord[]} records
 * @param {boolean} maybe no answer came: the server may have stored it
 * @returns {SentMessage}
 */
export function unsentMessage(sheet, records, maybe) {
  const { endpoint, taskSheet } = sheet;
  return { type: 'unsent', endpoint, taskSheet, seqs: records.map((record) => record.seq), maybe };
}

/**
 * A sender's report of entries already so (a remove of an entry no longer there), taken out of the
 * outbox, for {@link CHANNEL}.
 * @param {{ endpoint: string, taskSheet: number }} sheet @param {readonly OutboxRecord[]} records
 * @returns {SentMessage}
 */
export function doneMessage(sheet, records) {
  const { endpoint, taskSheet } = sheet;
  return { type: 'done', endpoint, taskSheet, seqs: records.map((record) => record.seq) };
}

/**
 * @typedef {object} ReplayTarget
 * @property {string} endpoint the handler's absolute URL
 * @property {number} taskSheet
 * @property {typeof fetch} [fetch]
 * @property {(records: OutboxRecord[], answer: SaveResult, gone: number[]) => void} [onSent] a batch
 *   was stored; `gone`: the seqs of it no longer in the outbox when it was (discarded on its way)
 * @property {(records: OutboxRecord[], maybe: boolean) => void} [onUnsent] a batch was not stored
 *   now: refused (its entries stopped, or sent again otherwise), or not answered (`maybe` stored;
 *   so too a batch sent before without an answer, refused before its id was looked up)
 * @property {(records: OutboxRecord[]) => void} [onDone] entries of a refused batch that were
 *   already so, taken out of the outbox: removes of an entry with no live row (`ENTRY_NOT_FOUND`),
 *   saves an earlier sending of their batch stored (`REQUEST_ID_REUSED`);
 *   told after `onUnsent` of their batch
 */

/**
 * Asks the handler whose entries this session may send (`part=owner`): the key of the user and
 * scope signed in. Throws RetryLater when it cannot be asked.
 * @param {{ endpoint: string, taskSheet: number, fetch?: typeof fetch, timeoutMs?: number }} target
 * @returns {Promise<string>}
 */
export async function askOwner(target) {
  const send = target.fetch ?? globalThis.fetch.bind(globalThis);
  const whose = new URL(target.endpoint);
  whose.searchParams.set('taskSheet', String(target.taskSheet));
  whose.searchParams.set('part', 'owner');
  const asked = await ask(send, whose, {}, target.timeoutMs);
  if (asked.status !== 200 || typeof asked.body?.owner !== 'string')
    throw new RetryLater(asked.status, 'whose entries these are could not be asked');
  return asked.body.owner;
}

/**
 * Sends the pending entries of one task sheet that belong to this session's user and scope, batch
 * after batch, until none is left. Throws RetryLater when the server cannot be reached or fails
 * (the entries stay, their batch id kept).
 * @param {Outbox} outbox @param {ReplayTarget} target
 * @returns {Promise<{ owner: string, sent: number, stopped: number }>} `owner`: who the server said
 *   was signed in when last asked (asked again when a batch was refused for another owner)
 */
export async function replayOutbox(outbox, target) {
  const send = target.fetch ?? globalThis.fetch.bind(globalThis);
  const url = new URL(target.endpoint);
  url.searchParams.set('taskSheet', String(target.taskSheet));
  let owner = await askOwner(target);
  let sent = 0;
  let stopped = 0;
  /** The most entries of the next batch: halved after a body refused as too large. */
  let most = MAX_BATCH;
  // Each round sends one batch or stops at least one entry; the bound only guards against a loop.
  for (let round = 0; round < 10_000; round++) {
    const pending = (await outbox.all()).filter(
      (record) =>
        record.state === 'pending' &&
        record.owner === owner &&
        !record.unconfirmed &&
        record.endpoint === target.endpoint &&
        record.taskSheet === target.taskSheet,
    );
    const batch = await nextBatch(outbox, pending, most);
    if (batch === undefined) break;
    const { id, records } = batch;
    // Sent before without an answer (`again`): a refusal that comes before the server looks its id
    // up (a host's or a proxy's, a limit, someone else signed in) leaves it as it was, maybe stored.
    const again = batch.again === true;
    // The owner goes with the batch: the server refuses it (OWNER_CHANGED) if someone else has
    // signed in on this browser since it was asked, whose cookie the request would ride.
    const body = JSON.stringify({
      requestId: id,
      source: batchSource(records),
      owner,
      entries: records.map(sentEntry),
    });
    if (records.length === 1 && new TextEncoder().encode(body).length > MAX_BODY_BYTES) {
      // Alone over the handler's limit: it would be refused whatever is tried, so it is not sent.
      stopped += await settleTooLarge(outbox, records, `the entry is larger than ${MAX_BODY_BYTES} bytes`);
      target.onUnsent?.(records, false);
      continue;
    }
    /** @type {{ status: number, reason: string, body: any }} */
    let answer;
    try {
      answer = await ask(send, url, { method: 'PUT', headers: { 'content-type': 'application/json' }, body });
    } catch (error) {
      await noteLastTry(outbox, records, { status: 0 });
      target.onUnsent?.(records, true);
      throw error;
    }
    if (answer.status === 200 && !isSaveAnswer(answer.body, records.length)) {
      // A 200 that is not the handler's answer (a sign-in page, a captive portal's or a proxy's
      // page, reached through a redirect): whether the batch reached the server is not known, so
      // its entries stay and go again later under its id, as after no answer.
      await noteLastTry(outbox, records, { status: 200 });
      target.onUnsent?.(records, true);
      throw new RetryLater(200, 'HTTP 200 with no save answer in its body');
    }
    if (answer.status === 200) {
      const taken = new Set(
        (await outbox.take(records.map((record) => record.seq))).map((record) => record.seq),
      );
      sent += records.length;
      most = Math.min(MAX_BATCH, most * 2);
      target.onSent?.(
        records,
        answer.body,
        records.filter((record) => !taken.has(record.seq)).map((record) => record.seq),
      );
      continue;
    }
    // No answer, a failure, too many requests, or a refusal that is not the handler's own (a
    // session ended: 401, or 403 as many hosts answer it; a node being deployed): nothing was
    // wrong with the entries, which wait, their batch id kept, and go once the server takes them.
    // Each says what its last try got: a page that stays in the way (a firewall's) is then seen.
    // The handler's own 403 (`CROSS_SITE_REQUEST`: a host set up so that its pages' saves look
    // cross-site) is its refusal like any other: no later try changes it, so its entries stop.
    if (
      answer.status === 0 ||
      answer.status >= 500 ||
      answer.status === 429 ||
      (answer.status !== 413 && !isHandlerRefusal(answer.body?.error))
    ) {
      await noteLastTry(outbox, records, answer);
      target.onUnsent?.(records, again || answer.status === 0 || answer.status >= 500);
      throw new RetryLater(answer.status, `HTTP ${answer.status}`);
    }
    if (answer.status === 413) {
      // Too large for the handler, or for a proxy before it with a lower limit: nothing was written.
      // Sent again in halves; one entry too large alone stops, saying so.
      const message = answer.body?.error?.message;
      if (records.length > 1) {
        most = Math.max(1, Math.floor(records.length / 2));
        await sendAgainAsNew(outbox, records);
      } else
        stopped += await settleTooLarge(outbox, records, typeof message === 'string' ? message : 'HTTP 413');
      target.onUnsent?.(records, again);
      continue;
    }
    if (answer.status === 409 && answer.body?.error?.code === 'OWNER_CHANGED') {
      // Someone else signed in meanwhile: nothing was written, and the entries, untouched (their
      // batch id kept, in case an earlier sending of it was stored), wait for their owner. The
      // sending goes on with the entries of whoever is signed in now.
      target.onUnsent?.(records, again);
      const now = await askOwner(target);
      // The same person again (signed out and in, or a host's session that flips): tried later.
      if (now === owner) throw new RetryLater(409, 'the server refused the owner it names itself');
      owner = now;
      continue;
    }
    const settled = await settleRefusal(outbox, records, answer, again);
    stopped += settled.stopped;
    target.onUnsent?.(records, false);
    if (settled.done.length > 0) target.onDone?.(settled.done);
  }
  return { owner, sent, stopped };
}

/**
 * Whether a 200's body is the handler's answer to a batch of `count` entries: each entry as stored
 * now, one per entry sent (`SaveResult.entries`, in the batch's order).
 * @param {any} body @param {number} count
 */
function isSaveAnswer(body, count) {
  return Array.isArray(body?.entries) && body.entries.length === count;
}

/**
 * Runs `work` alone among this browser's senders (tabs, the service worker): two sending the same
 * batch at once would only make the server answer it twice, but a lock keeps the order simple.
 * @template T @param {() => Promise<T>} work @returns {Promise<T>}
 */
export function alone(work) {
  const locks = globalThis.navigator?.locks;
  return locks ? locks.request(SYNC_TAG, work) : work();
}
