// @ts-check
/**
 * The outbox: saves made without network, kept in IndexedDB until they are sent, so they survive a
 * reload, the page being closed and the browser being restarted. No DOM: the service worker uses it
 * too (Background Sync). Bounded ({@link MAX_OUTBOX_ENTRIES}); a full outbox and a browser that
 * refuses to store (quota) are errors with a code, never a silent loss.
 *
 * One object store, `entries`, keyed by `seq` (auto-increment: the order entered). A record:
 *
 *   { seq, owner, endpoint, taskSheet, requestId, enteredAt, entry, label, path, state,
 *     batch?, conflicts?, problem? }
 *
 * `owner` is the server's key of the acting user and scope (`part=owner`), `endpoint` the handler's
 * absolute URL, `entry` the MetricEntry as the modal built it (fields, values and their bases),
 * `requestId` the entry's own id (its batch's id when it is sent alone), `enteredAt` the device's time (ISO 8601), `path` the tree's path
 * to the activity (to open it for a conflict), `state` `pending`, `conflict` (the server refused it
 * for a field changed meanwhile: `conflicts` says which) or `refused` (`problem` says why). `batch`
 * is set before a batch is sent: `{ id, size }`, so a batch whose answer was lost is sent again as
 * the same request, under the same id (the server answers it once).
 */

/** @typedef {import('./api.js').MetricEntry} MetricEntry */
/** @typedef {import('./api.js').MetricConflict} MetricConflict */

/**
 * @typedef {object} OutboxRecord
 * @property {number} seq
 * @property {string} owner
 * @property {string} endpoint
 * @property {number} taskSheet
 * @property {string} requestId
 * @property {boolean} [tried] sent once from the screen without an answer: sent again alone, as it
 *   was (same id, same body), so a save that did arrive is answered and not applied twice
 * @property {string} enteredAt
 * @property {MetricEntry} entry
 * @property {string} label the activity's label, to list it
 * @property {readonly { level: number, id: number }[]} path
 * @property {'pending' | 'conflict' | 'refused'} state
 * @property {{ id: string, size: number }} [batch]
 * @property {MetricConflict[]} [conflicts]
 * @property {string} [problem]
 */

/** @typedef {Omit<OutboxRecord, 'seq' | 'state'>} NewRecord */

/** The most entries the outbox holds, every user and sheet of this browser together. */
export const MAX_OUTBOX_ENTRIES = 500;

const DB_NAME = 'task-association-outbox';
const STORE = 'entries';
/** A cookie that outlives storage eviction (cookies are kept apart): entries were waiting. */
const MARK = 'ta-outbox';

/** An outbox that cannot take or keep an entry: `full`, `quota` (the browser refused the space), `unavailable`. */
export class OutboxError extends Error {
  /** @param {'full' | 'quota' | 'unavailable'} code @param {string} message */
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/** @param {unknown} error */
function asOutboxError(error) {
  if (error instanceof OutboxError) return error;
  const name = error instanceof DOMException || error instanceof Error ? error.name : '';
  if (name === 'QuotaExceededError') return new OutboxError('quota', 'the browser refused the space');
  return new OutboxError('unavailable', error instanceof Error ? error.message : String(error));
}

/** @template T @param {IDBRequest<T>} request @returns {Promise<T>} */
function done(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** @param {IDBTransaction} tx @returns {Promise<void>} */
function finished(tx) {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new DOMException('aborted', 'AbortError'));
  });
}

/**
 * Opens the outbox. `evicted` is true when the database had to be made anew while the cookie says
 * entries were waiting: the browser cleared this site's storage (eviction), and they are lost.
 * @param {{ indexedDB?: IDBFactory, doc?: Document }} [where] the window's or the worker's
 */
export async function openOutbox(where = {}) {
  const factory = where.indexedDB ?? globalThis.indexedDB;
  if (!factory) throw new OutboxError('unavailable', 'this browser has no IndexedDB');
  let created = false;
  const opening = factory.open(DB_NAME, 1);
  opening.onupgradeneeded = (event) => {
    created = event.oldVersion === 0;
    if (created) opening.result.createObjectStore(STORE, { keyPath: 'seq', autoIncrement: true });
  };
  /** @type {IDBDatabase} */
  let db;
  try {
    db = await done(opening);
  } catch (error) {
    throw asOutboxError(error);
  }
  // Another tab upgrading later (a new release) must not wait on this one.
  db.onversionchange = () => db.close();
  const doc = where.doc;
  const evicted = created && doc !== undefined && readMark(doc) > 0;
  if (evicted && doc) writeMark(doc, 0);

  /** @param {IDBTransactionMode} mode */
  const store = (mode) => {
    const tx = db.transaction(STORE, mode);
    return { tx, entries: tx.objectStore(STORE) };
  };

  /** Keeps the cookie's count true (the window only: a worker has no cookies to write). */
  async function mark() {
    if (doc) writeMark(doc, await outbox.count());
  }

  const outbox = {
    evicted,
    /** Every record, in the order entered. @returns {Promise<OutboxRecord[]>} */
    async all() {
      return /** @type {Promise<OutboxRecord[]>} */ (done(store('readonly').entries.getAll()));
    },
    /** How many records there are, of everyone. */
    async count() {
      return done(store('readonly').entries.count());
    },
    /**
     * Adds a save, pending. Refused (OutboxError `full`) when the outbox holds its maximum already,
     * `quota` when the browser refuses the space.
     * @param {NewRecord} record
     * @returns {Promise<OutboxRecord>}
     */
    async add(record) {
      try {
        const { tx, entries } = store('readwrite');
        const count = await done(entries.count());
        if (count >= MAX_OUTBOX_ENTRIES) {
          tx.abort();
          throw new OutboxError('full', `the outbox holds ${MAX_OUTBOX_ENTRIES} entries already`);
        }
        /** @type {Omit<OutboxRecord, 'seq'>} */
        const pending = { ...record, state: 'pending' };
        const seq = Number(await done(entries.add(pending)));
        await finished(tx);
        await mark();
        return { ...pending, seq };
      } catch (error) {
        throw asOutboxError(error);
      }
    },
    /** Writes records back (a batch id set, a conflict said). @param {readonly OutboxRecord[]} records */
    async put(records) {
      try {
        const { tx, entries } = store('readwrite');
        for (const record of records) entries.put(record);
        await finished(tx);
      } catch (error) {
        throw asOutboxError(error);
      }
    },
    /** Takes records out (sent, or discarded by the person). @param {readonly number[]} seqs */
    async remove(seqs) {
      const { tx, entries } = store('readwrite');
      for (const seq of seqs) entries.delete(seq);
      await finished(tx);
      await mark();
    },
    close: () => db.close(),
  };
  return outbox;
}

/** @typedef {Awaited<ReturnType<typeof openOutbox>>} Outbox */

/** @param {Document} doc */
function readMark(doc) {
  const found = new RegExp(`(?:^|;\\s*)${MARK}=(\\d+)`).exec(doc.cookie);
  return found ? Number(found[1]) : 0;
}

/** @param {Document} doc @param {number} count */
function writeMark(doc, count) {
  // A year: longer than any entry waits (the server refuses entries older than seven days).
  doc.cookie = `${MARK}=${count}; path=/; max-age=${count > 0 ? 31_536_000 : 0}; samesite=strict`;
}

/**
 * Asks the browser to keep this site's storage under pressure (`navigator.storage.persist()`);
 * true when it will. Where the browser has no such thing, false.
 */
export async function askToPersist() {
  try {
    return (await globalThis.navigator?.storage?.persist?.()) === true;
  } catch {
    return false;
  }
}
