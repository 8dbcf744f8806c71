// @ts-check
/**
 * What a batch the server did not store does to its entries (#28): a conflict or a problem at one
 * entry stops that entry and the rest go again (a remove of an entry no longer there is done); a
 * body too large goes again in halves, or stops alone; a tried entry that goes on goes as a new save;
 * a try that leaves them waiting is noted on them (`lastTry`). Its own module because these are the rules
 * of an outbox entry's state after a refusal, apart from the sending itself (sync.js).
 */

import { newRequestId } from './api.js';

/** @typedef {import('./outbox.js').Outbox} Outbox */
/** @typedef {import('./outbox.js').OutboxRecord} OutboxRecord */

/** The longest reason phrase kept: a host's own phrase is its text, not ours to keep whole. */
const MAX_REASON = 64;

/**
 * Keeps on waiting entries what their last try got (`lastTry`), when it left them waiting: the
 * screen says it with each, across reloads, until a try gets the handler's own answer. Only said:
 * a device that cannot write it now goes on sending all the same.
 * @param {Outbox} outbox @param {readonly OutboxRecord[]} records
 * @param {{ status: number, reason?: string }} got
 */
export async function noteLastTry(outbox, records, got) {
  const seqs = new Set(records.map((record) => record.seq));
  const reason = got.reason?.trim().slice(0, MAX_REASON);
  /** @type {import('./outbox.js').LastTry} */
  const lastTry = reason ? { status: got.status, reason } : { status: got.status };
  try {
    await outbox.update(
      (record) => seqs.has(record.seq),
      (record) => ({ ...record, lastTry }),
    );
  } catch {
    // The entries wait as they did; only the words about their last try are missing.
  }
}

/**
 * A batch that wrote nothing goes again as new saves: without its batch id, and a tried entry under
 * a new id of its own (the request it was tried as may be answered with the refusal again).
 * @param {Outbox} outbox @param {OutboxRecord[]} records
 */
export async function sendAgainAsNew(outbox, records) {
  for (const record of records) {
    delete record.batch;
    delete record.lastTry;
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
export async function settleTooLarge(outbox, records, message) {
  for (const record of records) {
    delete record.batch;
    delete record.lastTry;
    record.state = 'refused';
    record.problem = message;
    record.problemCode = 'BODY_TOO_LARGE';
  }
  // Only what is still stored counts: an entry discarded on its way is not waiting for anyone.
  return (await outbox.put(records)).length;
}

/**
 * A batch the handler refused, by a refusal of its own (`isHandlerRefusal`: anything else, a
 * session ended say, waits in sync.js and never comes here). Conflicts and problems at one entry stop that entry (the others are
 * sent again in a new batch); a refusal of the whole batch stops all of it. A request id the server
 * knows with another body is one an earlier sending of the batch was stored under, whole (sent
 * again as what is left of it: an entry discarded since, sync-batch.js `unansweredBatch`; a refused
 * save records no id): its entries were stored then, and are done, as below. A remove of an entry with no
 * live row (404 `ENTRY_NOT_FOUND` at it) is done, not refused: someone else removed the entry
 * meanwhile, or this remove was stored in a batch whose answer was lost and was then sent again
 * under another id. What the person asked for is so: it leaves the outbox (`done`), as the modal
 * treats the same answer, and the others go again in a new batch (the refused one wrote nothing).
 * A time of entry refused in a batch sent before without an answer (`again`) is no wrong clock: the
 * server has forgotten the batch's id (past its 7-day retention), so the earlier sending may have
 * stored it; sent again without its time under a new id, it would be applied a second time over
 * whatever was stored since. Every entry of the batch stops as refused instead, for the person to
 * discard or enter again.
 * @param {Outbox} outbox @param {OutboxRecord[]} records @param {{ status: number, body: any }} answer
 * @param {boolean} [again] the batch was sent before without an answer
 * @returns {Promise<{ stopped: number, done: OutboxRecord[] }>} how many entries were stopped, and
 *   the entries taken out as done (those still in the outbox)
 */
export async function settleRefusal(outbox, records, answer, again = false) {
  const error = answer.body?.error ?? {};
  const message = typeof error.message === 'string' ? error.message : `HTTP ${answer.status}`;
  // The handler answered: what an earlier try got is no longer the last.
  for (const record of records) {
    delete record.batch;
    delete record.lastTry;
  }
  /** @type {Set<OutboxRecord>} */
  const stop = new Set();
  /** Removes whose entry was not there to remove: done. @type {Set<OutboxRecord>} */
  const done = new Set();
  /** Whether a record was changed so that the batch's next sending differs. */
  let changed = false;
  /** Stops entries for the person (Discard, or open the activity), with the server's words. @param {OutboxRecord[]} some */
  const refuse = (some) => {
    for (const record of some) {
      record.state = 'refused';
      record.problem = message;
      if (typeof error.code === 'string') record.problemCode = error.code;
      stop.add(record);
    }
  };
  if (error.code === 'REQUEST_ID_REUSED') {
    for (const record of records) done.add(record);
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
    if (record && !at?.[2] && error.code === 'ENTRY_NOT_FOUND' && record.entry.remove) {
      done.add(record);
    } else if (record && at?.[2] && again) {
      // The batch's id forgotten: every entry of it may have been stored by the earlier sending.
      refuse(records);
    } else if (record && at?.[2] && !record.withoutDeviceTime) {
      // The device's clock is off (ahead of the server's, or set back to an old date): the entry
      // goes again without its time of entry rather than stopping for good over it.
      record.withoutDeviceTime = true;
      changed = true;
    } else {
      refuse(record ? [record] : records);
    }
  }
  // Refused whole, the batch wrote nothing: a tried entry that goes on goes as a new save, not as
  // the refused request (whose id the server may answer with this refusal again).
  for (const record of records) {
    if (stop.has(record) || done.has(record) || !record.tried) continue;
    record.tried = false;
    record.requestId = newRequestId();
  }
  // Nothing stopped and nothing to change: the same batch would be refused again.
  if (stop.size === 0 && done.size === 0 && !changed) refuse(records);
  const written = await outbox.put(records.filter((record) => !done.has(record)));
  const taken = done.size === 0 ? [] : await outbox.take([...done].map((record) => record.seq));
  // Only what is still stored counts as stopped: an entry discarded on its way waits for no decision.
  const kept = new Set(written.map((record) => record.seq));
  return { stopped: [...stop].filter((record) => kept.has(record.seq)).length, done: taken };
}
