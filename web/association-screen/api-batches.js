// @ts-check
/**
 * The handler's limits on one PUT (entries, body bytes), and saves cut into batches within them.
 * Its own module because the table's save (table-save.js) and the outbox's sending (sync-batch.js,
 * run by the service worker too) size their batches by the same numbers, and these need nothing
 * of the requests themselves (api.js).
 */

/** Most entries one PUT carries (the server's MetricBatch): a larger table's save is split. */
export const MAX_BATCH_ENTRIES = 1000;

/**
 * Most bytes a PUT's body may have: the handler refuses a larger one whole (413 `BODY_TOO_LARGE`,
 * `MAX_BODY_BYTES` in src/http/association-handler.ts). Batches are cut below it by size as well
 * as by count: a few long texts reach it long before 1000 entries do.
 */
export const MAX_BODY_BYTES = 1_000_000;

/** What a batch's body holds besides its entries (`{"requestId":"…","source":"…","entries":[]}`), with room to spare. */
export const BODY_ENVELOPE_BYTES = 256;

const utf8 = new TextEncoder();

/** How many bytes an entry adds to a batch's body: its JSON in UTF-8, and the comma after it. @param {unknown} entry */
export function entryBytes(entry) {
  return utf8.encode(JSON.stringify(entry)).length + 1;
}

/**
 * Cuts items into batches, in order, of at most `maxCount` items whose entries' body stays within
 * {@link MAX_BODY_BYTES}. An item too large for any batch goes alone (the server says so).
 * @template T @param {readonly T[]} items @param {(item: T) => unknown} entryOf
 * @param {number} [maxCount]
 * @returns {T[][]}
 */
export function inBatches(items, entryOf, maxCount = MAX_BATCH_ENTRIES) {
  /** @type {T[][]} */
  const batches = [];
  /** @type {T[]} */
  let batch = [];
  let bytes = BODY_ENVELOPE_BYTES;
  for (const item of items) {
    const size = entryBytes(entryOf(item));
    if (batch.length > 0 && (batch.length === maxCount || bytes + size > MAX_BODY_BYTES)) {
      batches.push(batch);
      batch = [];
      bytes = BODY_ENVELOPE_BYTES;
    }
    batch.push(item);
    bytes += size;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}
