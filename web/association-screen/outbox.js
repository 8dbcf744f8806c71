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
 *   was (same id, same body), so a save that did arrive is answered and not applied twice; a table's
 *   batch tried so carries its `batch` and goes again whole
 * @property {import('./api.js').SaveSource} [source] the source a tried save was sent with (`screen`
 *   or `copy`), sent again the same; an entry first sent from the outbox goes as `offline`, or as
 *   `copy` when it holds cells copied from another task sheet (`source: 'copy'` here)
 * @property {boolean} [unconfirmed] kept by a page opened offline, whose owner came from the
 *   browser's cache (whoever read the sheet last, not necessarily who typed): never sent until the
 *   person signed in confirms it is theirs, or the page that kept it learns from the server that the
 *   same owner is signed in
 * @property {boolean} [unchecked] kept while the page could not ask who is signed in (offline, or
 *   no answer): filed under the owner the server last confirmed, and sent as theirs while the server
 *   says they are signed in; the page that kept it makes it `unconfirmed` if the server then says
 *   someone else is (they may have signed in before it was typed)
 * @property {string} [page] the page that kept an unconfirmed or unchecked entry
 * @property {string} enteredAt
 * @property {boolean} [withoutDeviceTime] the server refused `enteredAt` (the device's clock is off):
 *   sent without it, the history then holds the server's time only
 * @property {MetricEntry} entry
 * @property {string} label the activity's label, to list it
 * @property {readonly { level: number, id: number }[]} path
 * @property {'pending' | 'conflict' | 'refused'} state
 * @property {{ id: string, size: number }} [batch]
 * @property {MetricConflict[]} [conflicts]
 * @property {string} [problem]
 * @property {string} [problemCode] the server's code of a refusal (`BODY_TOO_LARGE` also for an
 *   entry the outbox did not send, knowing the server would refuse it), for the screen to word it
 * @property {LastTry} [lastTry] what the last try of a waiting entry got, when it left the entry
 *   waiting (no answer, a failure, a host's or a proxy's page): said with the entry until a try
 *   gets the handler's own answer
 */

/**
 * What a try that left an entry waiting got: `status` 0 for no answer, 200 for a success that was
 * not the handler's answer (a sign-in or captive portal's page), else the status and its reason
 * phrase where the answer had one (HTTP/2 has none).
 * @typedef {{ status: number, reason?: string }} LastTry
 */

/** @typedef {Omit<OutboxRecord, 'seq' | 'state'>} NewRecord */

/** The most entries the outbox holds, every user and sheet of this browser together. */
export const MAX_OUTBOX_ENTRIES = 500;

const DB_NAME = 'task-association-outbox';
const STORE = 'entries';
/**
 * A cookie that outlives storage eviction (cookies are kept apart): entries were waiting. Its path
 * is the handler's (the page's own on a host's page elsewhere), so it goes with no other request
 * of the host's site.
 */
const MARK = 'ta-outbox';

/** An outbox that cannot take or keep an entry: `full`, `quota` (the browser refused the space), `unavailable`. */
export class OutboxError extends Error {
  /**
   * @param {'full' | 'quota' | 'unavailable' | 'newer'} code @param {string} message
   * @param {number} [held] `full`: the entries the outbox held when it refused (the room left is
   *   what the refused entries did not fit)
   */
  constructor(code, message, held) {
    super(message);
    this.code = code;
    this.held = held;
  }
}

/**
 * A storage failure as an OutboxError: `quota` when the browser refused the space. Shared with the
 * drafts' store (drafts-store.js), which lives in the same platform storage.
 * @param {unknown} error
 */
export function asOutboxError(error) {
  if (error instanceof OutboxError) return error;
  const name = error instanceof DOMException || error instanceof Error ? error.name : '';
  if (name === 'QuotaExceededError') return new OutboxError('quota', 'the browser refused the space');
  return new OutboxError('unavailable', error instanceof Error ? error.message : String(error));
}

/**
 * Opens a database at whatever version it is (made at version 1 where there is none, `upgrade`
 * then making its store): a newer release may have opened it at a later version since, which an
 * open at version 1 would refuse (VersionError), and this page's records are the same. Refused
 * (OutboxError `newer`) if the store is gone: the newer release has the data its own way. Another
 * tab upgrading later (a new release) must not wait on this one, and the browser clearing the
 * site's storage closes it too: either way `lost` is called, for the next use to open it again.
 * @param {IDBFactory} factory @param {string} name @param {string} store
 * @param {(opening: IDBOpenDBRequest, event: IDBVersionChangeEvent) => void} upgrade
 * @param {() => void} lost
 * @returns {Promise<IDBDatabase>}
 */
export async function openCurrent(factory, name, store, upgrade, lost) {
  const opening = factory.open(name);
  opening.onupgradeneeded = (event) => upgrade(opening, event);
  const db = await done(opening);
  if (!db.objectStoreNames.contains(store)) {
    db.close();
    throw new OutboxError('newer', `a newer version keeps ${name} without ${store}: reload the page`);
  }
  db.onversionchange = () => {
    db.close();
    lost();
  };
  db.onclose = lost;
  return db;
}

/** @template T @param {IDBRequest<T>} request @returns {Promise<T>} */
export function done(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** @param {IDBTransaction} tx @returns {Promise<void>} */
export function finished(tx) {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new DOMException('aborted', 'AbortError'));
  });
}

/**
 * Opens the outbox. `evicted` is true when the database had to be made anew while the cookie says
 * entries were waiting: the browser cleared this site's storage (eviction), and they are lost.
 * Only a page (`doc`) makes the database: where there is none, a worker's opening is refused
 * (OutboxError `unavailable`), so that the page, which reads the cookie, is the one that finds it
 * gone and says so.
 * @param {{ indexedDB?: IDBFactory, doc?: Document, endpoint?: string }} [where] the window's or
 *   the worker's; `endpoint` the handler's URL, whose path the page's cookie is scoped to
 */
export async function openOutbox(where = {}) {
  const factory = where.indexedDB ?? globalThis.indexedDB;
  if (!factory) throw new OutboxError('unavailable', 'this browser has no IndexedDB');
  const doc = where.doc;
  const path = doc ? markPath(doc, where.endpoint) : '/';

  /** Opens the database: made anew (`created`) where there is none, by a page only. */
  async function connect() {
    let created = false;
    try {
      const db = await openCurrent(
        factory,
        DB_NAME,
        STORE,
        (opening, event) => {
          created = event.oldVersion === 0;
          if (created && !doc) opening.transaction?.abort();
          else if (created) opening.result.createObjectStore(STORE, { keyPath: 'seq', autoIncrement: true });
        },
        () => {
          lost = true;
        },
      );
      return { db, evicted: created && doc !== undefined && readMark(doc) > 0 };
    } catch (error) {
      throw asOutboxError(error);
    }
  }

  let lost = false;
  const first = await connect();
  let db = first.db;

  /** The open database; opened again if it was closed under this page, eviction told then. */
  async function database() {
    if (!lost) return db;
    lost = false;
    const again = await connect();
    db = again.db;
    if (again.evicted) outbox.evicted = true;
    if (doc) writeMark(doc, path, await done(db.transaction(STORE, 'readonly').objectStore(STORE).count()));
    return db;
  }

  /** @param {IDBTransactionMode} mode */
  const store = async (mode) => {
    let tx;
    try {
      tx = (await database()).transaction(STORE, mode);
    } catch (error) {
      // Closed without its `close` event reaching us first: opened again, once.
      if (!(error instanceof DOMException && error.name === 'InvalidStateError')) throw error;
      lost = true;
      tx = (await database()).transaction(STORE, mode);
    }
    return { tx, entries: tx.objectStore(STORE) };
  };

  /**
   * Keeps the cookie's count true (the window only: a worker has no cookies to write).
   * @param {number} [known] the outbox's count, when the caller has just read every record
   */
  async function mark(known) {
    if (doc) writeMark(doc, path, known ?? (await outbox.count()));
  }

  const outbox = {
    /** The browser cleared the outbox while entries waited (at opening, or while this page was open). */
    evicted: first.evicted,
    /** Every record, in the order entered. @returns {Promise<OutboxRecord[]>} */
    async all() {
      return /** @type {Promise<OutboxRecord[]>} */ (done((await store('readonly')).entries.getAll()));
    },
    /** How many records there are, of everyone. */
    async count() {
      return done((await store('readonly')).entries.count());
    },
    /**
     * Adds saves, pending, in one transaction: all of them or none (a table's save is one act).
     * Refused (OutboxError `full`) when they would take the outbox past its maximum, `quota` when
     * the browser refuses the space.
     * @param {readonly NewRecord[]} records
     * @returns {Promise<OutboxRecord[]>}
     */
    async add(records) {
      try {
        const { tx, entries } = await store('readwrite');
        const count = await done(entries.count());
        if (count + records.length > MAX_OUTBOX_ENTRIES) {
          tx.abort();
          throw new OutboxError(
            'full',
            `the outbox holds ${count} of ${MAX_OUTBOX_ENTRIES} entries: ${records.length} more do not fit`,
            count,
          );
        }
        const added = [];
        for (const record of records) {
          /** @type {Omit<OutboxRecord, 'seq'>} */
          const pending = { ...record, state: 'pending' };
          added.push({ ...pending, seq: Number(await done(entries.add(pending))) });
        }
        await finished(tx);
        await mark();
        return added;
      } catch (error) {
        throw asOutboxError(error);
      }
    },
    /**
     * Writes back what a sender says of records (a batch id set, a conflict said), each onto the
     * record as stored now and only while it is still there: one discarded (or sent) meanwhile stays
     * out, never brought back by a write of an older copy. Whose a record is (`owner`, `unconfirmed`,
     * `unchecked`, `page`) is the pages' to say ({@link update}), and stays as stored: a page that
     * marked an entry unconfirmed while a sender had it on its way (someone else signed in) keeps
     * the mark, never written over by the copy the sender read before.
     * Resolves with the records as written (those still there).
     * @param {readonly OutboxRecord[]} records
     * @returns {Promise<OutboxRecord[]>}
     */
    async put(records) {
      try {
        const { tx, entries } = await store('readwrite');
        /** @type {OutboxRecord[]} */
        const written = [];
        for (const record of records) {
          const stored = /** @type {OutboxRecord | undefined} */ (await done(entries.get(record.seq)));
          if (stored === undefined) continue;
          const {
            owner: _owner,
            unconfirmed: _unconfirmed,
            unchecked: _unchecked,
            page: _page,
            ...said
          } = record;
          const { owner, unconfirmed, unchecked, page } = stored;
          /** @type {OutboxRecord} */
          const merged = {
            ...said,
            owner,
            ...(unconfirmed === undefined ? {} : { unconfirmed }),
            ...(unchecked === undefined ? {} : { unchecked }),
            ...(page === undefined ? {} : { page }),
          };
          entries.put(merged);
          written.push(merged);
        }
        await finished(tx);
        return written;
      } catch (error) {
        throw asOutboxError(error);
      }
    },
    /**
     * Changes the records `pick` chooses, as they are stored now, in one transaction: nothing
     * written meanwhile (a batch id) is lost to an older copy. Resolves with how many changed.
     * @param {(record: OutboxRecord) => boolean} pick
     * @param {(record: OutboxRecord) => OutboxRecord} change
     */
    async update(pick, change) {
      try {
        const { tx, entries } = await store('readwrite');
        const all = /** @type {OutboxRecord[]} */ (await done(entries.getAll()));
        let changed = 0;
        for (const record of all) {
          if (!pick(record)) continue;
          entries.put(change(record));
          changed++;
        }
        await finished(tx);
        return changed;
      } catch (error) {
        throw asOutboxError(error);
      }
    },
    /**
     * Takes records out (sent, or discarded by the person); resolves with them as they were stored
     * (a batch id written by whoever sends them), those no longer there left out.
     * @param {readonly number[]} seqs
     * @returns {Promise<OutboxRecord[]>}
     */
    async take(seqs) {
      const { tx, entries } = await store('readwrite');
      /** @type {OutboxRecord[]} */
      const taken = [];
      for (const seq of seqs) {
        const record = /** @type {OutboxRecord | undefined} */ (await done(entries.get(seq)));
        if (record === undefined) continue;
        taken.push(record);
        entries.delete(seq);
      }
      await finished(tx);
      await mark();
      return taken;
    },
    /**
     * Takes records out; resolves with how many were still there.
     * @param {readonly number[]} seqs
     */
    async remove(seqs) {
      return (await outbox.take(seqs)).length;
    },
    /**
     * Writes the cookie's count again: the worker (Background Sync) and other pages send and take
     * out entries without writing this page's cookie.
     */
    mark,
    close: () => {
      lost = false;
      db.close();
    },
  };
  // What another page or the worker sent meanwhile, and an eviction just told, leave the count.
  await mark();
  return outbox;
}

/** @typedef {Awaited<ReturnType<typeof openOutbox>>} Outbox */

/** @param {Document} doc */
function readMark(doc) {
  const found = new RegExp(`(?:^|;\\s*)${MARK}=(\\d+)`).exec(doc.cookie);
  return found ? Number(found[1]) : 0;
}

/**
 * The cookie's path: the handler's, where the page is the handler's own (or below it), else the
 * page's own path (a host's page elsewhere reads only cookies of its path). Cut before a `;`, which
 * would end the attribute.
 * @param {Document} doc @param {string | undefined} endpoint
 */
export function markPath(doc, endpoint) {
  const page = doc.location?.pathname ?? '/';
  const handler = endpoint ? new URL(endpoint, doc.baseURI).pathname : undefined;
  const within =
    handler !== undefined &&
    (page === handler || page.startsWith(handler.endsWith('/') ? handler : `${handler}/`));
  const path = within ? handler : page;
  const cut = path.indexOf(';');
  return cut < 0 ? path : path.slice(0, path.lastIndexOf('/', cut) + 1) || '/';
}

/** @param {Document} doc @param {string} path @param {number} count */
function writeMark(doc, path, count) {
  // A year: longer than any entry waits (the server refuses entries older than seven days).
  doc.cookie = `${MARK}=${count}; path=${path}; max-age=${count > 0 ? 31_536_000 : 0}; samesite=strict`;
}

/**
 * Whether the browser keeps this site's storage under pressure (`navigator.storage.persisted()`),
 * asked without a prompt; where the browser cannot say, false.
 */
export async function isPersisted() {
  try {
    return (await globalThis.navigator?.storage?.persisted?.()) === true;
  } catch {
    return false;
  }
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
