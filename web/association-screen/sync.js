// @ts-check
/**
 * Sending the outbox: its pending entries of one task sheet, in the order entered, in batches of up
 * to {@link MAX_BATCH} entries and {@link MAX_BODY_BYTES} bytes (the handler's limits), each batch
 * under one request id written on its entries before it is sent, so a batch whose answer was lost
 * goes again as the same request and is applied once. Only the entries of the user and scope the
 * server says this session is (`part=owner`) are sent: someone else's stay. A conflict (409
 * `METRIC_CONFLICT`) or a refusal at one entry stops that entry (`conflict`, `refused`); the rest go
 * on. A body refused as too large (413, a proxy's lower limit) is sent again in halves; an entry too
 * large alone stops (`refused`, `BODY_TOO_LARGE`). No answer, or a server failure: tried again
 * later, with backoff.
 *
 * Whoever sends (a page, the service worker) tells the other pages on {@link CHANNEL} what came of
 * each batch (see {@link SentMessage}): the pages that did not send it show what was stored, and a
 * page that discarded an entry while it was on its way says whether it was stored.
 *
 * `replayOutbox` has no DOM: the service worker runs it on Background Sync. `createSync` drives it
 * in a page: the `online` event, retries with backoff, and Background Sync registered where the
 * browser has it.
 */

import { BODY_ENVELOPE_BYTES, entryBytes, MAX_BODY_BYTES, newRequestId } from './api.js';

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
/** Longest wait between two tries. */
const MAX_BACKOFF_MS = 60_000;
const REQUEST_TIMEOUT_MS = 20_000;

/**
 * What a sender says on {@link CHANNEL} of one batch of a sheet (besides `{ type: 'changed' }`, what
 * waits changed, and `{ type: 'owner', endpoint, owner }`, a page read who is signed in):
 * `sent`, stored, with the server's answer and the seqs taken out of the outbox meanwhile
 * (`gone`: discarded while on its way); `unsent`, not stored: refused, or `maybe` (no answer: it
 * may have been stored).
 * @typedef {{ type: 'sent', endpoint: string, taskSheet: number, seqs: number[], gone: number[], answer: SaveResult }
 *   | { type: 'unsent', endpoint: string, taskSheet: number, seqs: number[], maybe: boolean }} SentMessage
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

/** The server could not be reached or failed: try again later. `status` 0 for no answer. */
export class RetryLater extends Error {
  /** @param {number} status @param {string} message */
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/**
 * @typedef {object} ReplayTarget
 * @property {string} endpoint the handler's absolute URL
 * @property {number} taskSheet
 * @property {typeof fetch} [fetch]
 * @property {(records: OutboxRecord[], answer: SaveResult, gone: number[]) => void} [onSent] a batch
 *   was stored; `gone`: the seqs of it no longer in the outbox when it was (discarded on its way)
 * @property {(records: OutboxRecord[], maybe: boolean) => void} [onUnsent] a batch was not stored:
 *   refused (its entries stopped, or sent again otherwise), or not answered (`maybe` stored)
 */

/**
 * One answer of the handler, as JSON (or null) with its status; no answer is a RetryLater.
 * @param {typeof fetch} send @param {string | URL} url @param {RequestInit} [init]
 * @param {number} [timeoutMs]
 */
async function ask(send, url, init = {}, timeoutMs = REQUEST_TIMEOUT_MS) {
  /** @type {Response} */
  let response;
  try {
    response = await send(url, {
      ...init,
      credentials: 'same-origin',
      headers: { accept: 'application/json', ...(init.headers ?? {}) },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw new RetryLater(0, error instanceof Error ? error.message : String(error));
  }
  /** @type {any} */
  let body = null;
  try {
    body = await response.json();
  } catch {
    // A proxy's page: the status says enough.
  }
  return { status: response.status, body };
}

/**
 * The next batch: a batch sent before without an answer goes again as it was (same entries, same
 * id); else up to `most` pending entries within the handler's body limit, under a new id written on
 * them before sending. An entry tried once from the screen goes alone, as it was tried. An entry
 * discarded while the batch is made is left out of it: what is sent is what holds the batch id.
 * @param {Outbox} outbox @param {OutboxRecord[]} pending in the order entered
 * @param {number} most
 * @returns {Promise<{ id: string, records: OutboxRecord[] } | undefined>} undefined: none left
 */
async function nextBatch(outbox, pending, most) {
  const first = pending[0];
  if (first === undefined) return undefined;
  if (first.batch) {
    const id = first.batch.id;
    const same = pending.filter((record) => record.batch?.id === id);
    if (same.length === first.batch.size) return { id, records: same };
  }
  const records = pack(pending, most);
  const id = records.length === 1 ? first.requestId : newRequestId();
  for (const record of records) record.batch = { id, size: records.length };
  const written = new Set(await outbox.put(records));
  if (written.size === records.length) return { id, records };
  // Discarded meanwhile: never sent. The batch is made again of what is left.
  const gone = new Set(records.filter((record) => !written.has(record.seq)));
  for (const record of records) delete record.batch;
  return nextBatch(
    outbox,
    pending.filter((record) => !gone.has(record)),
    most,
  );
}

/**
 * The pending entries one new batch takes, in order: up to `most`, within the handler's body limit
 * (one entry at least: one too large alone is refused before it is sent). A key saved twice while
 * offline (its second save starting from the first) ends the batch at its second entry: the server
 * refuses a key twice in one batch, and sent in turn both apply.
 * @param {OutboxRecord[]} pending @param {number} most
 */
function pack(pending, most) {
  const first = /** @type {OutboxRecord} */ (pending[0]);
  if (first.tried) return [first];
  /** @type {OutboxRecord[]} */
  const records = [];
  const keys = new Set();
  let bytes = BODY_ENVELOPE_BYTES;
  for (const record of pending) {
    const key = `${record.entry.activity}:${record.entry.group ?? ''}`;
    if (records.length === most || record.tried || keys.has(key)) break;
    const size = entryBytes(sentEntry(record));
    if (records.length > 0 && bytes + size > MAX_BODY_BYTES) break;
    keys.add(key);
    records.push(record);
    bytes += size;
  }
  return records;
}

/**
 * The source a batch is sent with: a tried save's as it was tried; else `copy` when an entry holds
 * copied cells (as the table's own save says of a batch with copies), else `offline`. Either way the
 * history keeps each entry's device time.
 * @param {readonly OutboxRecord[]} records
 * @returns {import('./api.js').SaveSource}
 */
function batchSource(records) {
  const first = records[0];
  if (first?.tried) return first.source ?? 'screen';
  return records.some((record) => record.source === 'copy') ? 'copy' : 'offline';
}

/**
 * What a record sends: its entry with the device's time, or as first tried (or without the time, when
 * the server refused the device's clock). @param {OutboxRecord} record
 */
function sentEntry(record) {
  return record.tried || record.withoutDeviceTime
    ? record.entry
    : { ...record.entry, enteredAt: record.enteredAt };
}

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
 * @returns {Promise<{ owner: string, sent: number, stopped: number }>}
 */
export async function replayOutbox(outbox, target) {
  const send = target.fetch ?? globalThis.fetch.bind(globalThis);
  const url = new URL(target.endpoint);
  url.searchParams.set('taskSheet', String(target.taskSheet));
  const owner = await askOwner(target);
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
    const body = JSON.stringify({
      requestId: id,
      source: batchSource(records),
      entries: records.map(sentEntry),
    });
    if (records.length === 1 && new TextEncoder().encode(body).length > MAX_BODY_BYTES) {
      // Alone over the handler's limit: it would be refused whatever is tried, so it is not sent.
      stopped += await settleTooLarge(outbox, records, `the entry is larger than ${MAX_BODY_BYTES} bytes`);
      target.onUnsent?.(records, false);
      continue;
    }
    /** @type {{ status: number, body: any }} */
    let answer;
    try {
      answer = await ask(send, url, { method: 'PUT', headers: { 'content-type': 'application/json' }, body });
    } catch (error) {
      target.onUnsent?.(records, true);
      throw error;
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
    if (answer.status === 0 || answer.status >= 500 || answer.status === 429 || answer.status === 401) {
      target.onUnsent?.(records, answer.status === 0 || answer.status >= 500);
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
      target.onUnsent?.(records, false);
      continue;
    }
    stopped += await settleRefusal(outbox, records, answer);
    target.onUnsent?.(records, false);
  }
  return { owner, sent, stopped };
}

/**
 * A batch that wrote nothing goes again as new saves: without its batch id, and a tried entry under
 * a new id of its own (the request it was tried as may be answered with the refusal again).
 * @param {Outbox} outbox @param {OutboxRecord[]} records
 */
async function sendAgainAsNew(outbox, records) {
  for (const record of records) {
    delete record.batch;
    if (!record.tried) continue;
    record.tried = false;
    record.requestId = newRequestId();
  }
  await outbox.put(records);
}

/**
 * Stops an entry too large to send alone (`refused`, `BODY_TOO_LARGE`): shorter values have to be
 * entered again. @param {Outbox} outbox @param {OutboxRecord[]} records one @param {string} message
 * @returns {Promise<number>} how many were stopped
 */
async function settleTooLarge(outbox, records, message) {
  for (const record of records) {
    delete record.batch;
    record.state = 'refused';
    record.problem = message;
    record.problemCode = 'BODY_TOO_LARGE';
  }
  await outbox.put(records);
  return records.length;
}

/**
 * A batch the server refused. Conflicts and problems at one entry stop that entry (the others are
 * sent again in a new batch); a refusal of the whole batch stops all of it; a request id the server
 * knows with another body (an entry discarded since) gets a new one.
 * @param {Outbox} outbox @param {OutboxRecord[]} records @param {{ status: number, body: any }} answer
 * @returns {Promise<number>} how many entries were stopped
 */
async function settleRefusal(outbox, records, answer) {
  const error = answer.body?.error ?? {};
  const message = typeof error.message === 'string' ? error.message : `HTTP ${answer.status}`;
  for (const record of records) delete record.batch;
  /** @type {Set<OutboxRecord>} */
  const stop = new Set();
  /** Whether a record was changed so that the batch's next sending differs. */
  let changed = false;
  if (error.code === 'REQUEST_ID_REUSED') {
    for (const record of records) {
      record.tried = false;
      record.requestId = newRequestId();
    }
  } else if (error.code === 'METRIC_CONFLICT' && Array.isArray(error.conflicts)) {
    for (const conflict of error.conflicts) {
      const record = records[conflict.entry];
      if (record === undefined) continue;
      record.state = 'conflict';
      record.conflicts = [...(stop.has(record) ? (record.conflicts ?? []) : []), { ...conflict, entry: 0 }];
      stop.add(record);
    }
  } else {
    const at = typeof error.path === 'string' ? /^entries\.(\d+)(\.enteredAt)?/.exec(error.path) : null;
    const record = at ? records[Number(at[1])] : undefined;
    if (record && at?.[2] && !record.withoutDeviceTime) {
      // The device's clock is off (ahead of the server's, or set back to an old date): the entry
      // goes again without its time of entry rather than stopping for good over it.
      record.withoutDeviceTime = true;
      changed = true;
    } else {
      for (const refused of record ? [record] : records) {
        refused.state = 'refused';
        refused.problem = message;
        stop.add(refused);
      }
    }
  }
  // Refused whole, the batch wrote nothing: a tried entry that goes on goes as a new save, not as
  // the refused request (whose id the server may answer with this refusal again).
  if (error.code !== 'REQUEST_ID_REUSED') {
    for (const record of records) {
      if (stop.has(record) || !record.tried) continue;
      record.tried = false;
      record.requestId = newRequestId();
    }
  }
  // Nothing stopped and nothing to change: the same batch would be refused again.
  if (stop.size === 0 && !changed && error.code !== 'REQUEST_ID_REUSED') {
    for (const record of records) {
      record.state = 'refused';
      record.problem = message;
      stop.add(record);
    }
  }
  await outbox.put(records);
  return stop.size;
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

/**
 * Sends the outbox of one screen when it can: now, on the `online` event, and again after a
 * failure with backoff (1 s, 2 s, 4 s, ... up to a minute). Background Sync is registered too where
 * the page has a service worker, so the browser sends it even after the page is closed.
 * @param {{ outbox: Outbox, endpoint: string, taskSheet: number, win: Window,
 *   onSent: (records: OutboxRecord[], answer: SaveResult, gone: number[]) => void,
 *   onUnsent: (records: OutboxRecord[], maybe: boolean) => void,
 *   onSettled: (outcome: { owner: string, sent: number, stopped: number } | RetryLater) => void }} options
 */
export function createSync(options) {
  const { win } = options;
  let backoff = 0;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  /** @type {Promise<void> | undefined} */
  let running;
  let again = false;
  let stopped = false;

  async function run() {
    try {
      const outcome = await alone(() =>
        replayOutbox(options.outbox, {
          endpoint: options.endpoint,
          taskSheet: options.taskSheet,
          onSent: options.onSent,
          onUnsent: options.onUnsent,
        }),
      );
      backoff = 0;
      options.onSettled(outcome);
    } catch (error) {
      if (!(error instanceof RetryLater)) throw error;
      options.onSettled(error);
      if (stopped) return;
      backoff = Math.min(backoff === 0 ? 1000 : backoff * 2, MAX_BACKOFF_MS);
      clearTimeout(timer);
      timer = setTimeout(kick, backoff);
    }
  }

  /** Sends now (or right after the send under way). */
  function kick() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    clearTimeout(timer);
    running = run().finally(() => {
      running = undefined;
      if (again && !stopped) {
        again = false;
        kick();
      }
    });
  }

  const online = () => {
    backoff = 0;
    kick();
  };
  win.addEventListener('online', online);

  return {
    kick,
    /** Asks the browser to send the outbox when it is online again, even with the page closed. */
    async registerBackground() {
      try {
        const registration = await win.navigator.serviceWorker?.getRegistration(options.endpoint);
        // @ts-expect-error Background Sync is not in TypeScript's DOM types (Chromium only).
        await registration?.sync?.register(SYNC_TAG);
      } catch {
        // No service worker, or no permission: the online event and the retries still send it.
      }
    },
    /** Whether a send is under way (tests and the bench wait for it). */
    busy: () => running !== undefined,
    destroy() {
      stopped = true;
      clearTimeout(timer);
      win.removeEventListener('online', online);
    },
  };
}

/** @typedef {ReturnType<typeof createSync>} Sync */
