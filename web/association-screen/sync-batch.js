// @ts-check
/**
 * How the outbox's pending entries are put in batches for sending (#28): a batch sent before
 * without an answer goes again as it was, under its id, before anything else (entries claimed since
 * may come before its own in the order entered); a new one takes entries in the order entered
 * within the handler's limits (count, body bytes, a key once), its id written on them before it is
 * sent. Its own module because this is the part that decides what one request carries, apart from
 * the sending and the answers (sync.js).
 */

import { newRequestId } from './api.js';
import { BODY_ENVELOPE_BYTES, entryBytes, MAX_BODY_BYTES } from './api-batches.js';
import { keyOf } from './entry-key.js';

/** @typedef {import('./outbox.js').Outbox} Outbox */
/** @typedef {import('./outbox.js').OutboxRecord} OutboxRecord */

/**
 * The next batch: a batch sent before without an answer goes again as it was (same entries, same
 * id), first, wherever its entries sit among the pending ones; else up to `most` pending entries
 * within the handler's body limit, under a new id written on them before sending. An entry tried
 * once from the screen goes alone, as it was tried. An entry discarded while the batch is made, or
 * marked unconfirmed by a page then (someone else signed in), is left out of it: what is sent is
 * what holds the batch id, as its owner's.
 * @param {Outbox} outbox @param {OutboxRecord[]} pending in the order entered
 * @param {number} most
 * @returns {Promise<{ id: string, records: OutboxRecord[], again?: true } | undefined>} undefined:
 *   none left; `again`: a batch sent before without an answer, which may have been stored
 */
export async function nextBatch(outbox, pending, most) {
  const first = pending[0];
  if (first === undefined) return undefined;
  const unanswered = unansweredBatch(pending);
  if (unanswered) return unanswered;
  const records = pack(pending, most);
  const id = records.length === 1 ? first.requestId : newRequestId();
  for (const record of records) record.batch = { id, size: records.length };
  const written = new Map((await outbox.put(records)).map((record) => [record.seq, record]));
  // Discarded meanwhile, or made someone else's to say (a page marked it unconfirmed): not sent. The
  // batch is made again of what is left.
  const gone = new Set(
    records.filter((record) => {
      const now = written.get(record.seq);
      return now === undefined || now.owner !== record.owner || now.unconfirmed === true;
    }),
  );
  if (gone.size === 0) return { id, records };
  for (const record of records) delete record.batch;
  return nextBatch(
    outbox,
    pending.filter((record) => !gone.has(record)),
    most,
  );
}

/**
 * The first batch sent before without an answer (the id stays on its entries until the server
 * answers): it may have been stored, so it goes again under its id, and the server answers it with
 * what it stored rather than applying it twice. Before any other entry: entries that come earlier
 * in the order entered (claimed with "Send them as mine" since, or waiting for their owner when it
 * was sent) would otherwise be packed with some of its entries under a new id. One whose entries do
 * not all wait any more (one discarded, or left to someone else to claim) goes as what is left of
 * it, still under its id: never stored, that is stored; stored, the server knows the id with the
 * whole body and refuses it (`REQUEST_ID_REUSED`), which says those entries were stored by the
 * earlier sending (sync-refusal.js). Under a new id they would be applied a second time, over
 * whatever was stored since with the values they were typed over (someone's undoing of them).
 * @param {OutboxRecord[]} pending in the order entered
 */
function unansweredBatch(pending) {
  const first = pending.find((record) => record.batch !== undefined);
  if (first?.batch === undefined) return undefined;
  const { id } = first.batch;
  return { id, records: pending.filter((one) => one.batch?.id === id), again: /** @type {const} */ (true) };
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
    const key = keyOf(record.entry);
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
export function batchSource(records) {
  const first = records[0];
  if (first?.tried) return first.source ?? 'screen';
  return records.some((record) => record.source === 'copy') ? 'copy' : 'offline';
}

/**
 * What a record sends: its entry with the device's time, or as first tried (or without the time, when
 * the server refused the device's clock). @param {OutboxRecord} record
 */
export function sentEntry(record) {
  return record.tried || record.withoutDeviceTime
    ? record.entry
    : { ...record.entry, enteredAt: record.enteredAt };
}
