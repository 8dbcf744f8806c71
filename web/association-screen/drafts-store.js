// @ts-check
/**
 * The drafts' store: what a person typed (in the metric modal or the table) and has not sent yet,
 * kept in IndexedDB (the platform storage the outbox uses, in a database of its own: the outbox's
 * keeps its version and the service worker's opening unchanged), so it survives a reload, a closed
 * page and a restarted browser. No DOM. One record per activity and person:
 *
 *   { id, owner, endpoint, taskSheet, activity, group, row, storedRow?, fields, typedAt, unconfirmed? }
 *
 * `owner` is the outbox's owner key (offline-owner.js): a draft is only ever shown to, and sent as,
 * the person it was typed by. `fields` holds each typed field's text as typed (a half-typed `12,`
 * too) with what it was typed over: its `base` (sent with it) and its `preset` (what the field
 * showed). `row`: whether the activity had a live entry when the form read it.
 */

import { dropMarkOf, dropMarks, undropped } from './drafts-dropped.js';
import { MAX_DRAFT_AGE_MS, sameField, sameTyping } from './drafts-fields.js';
import { clearTyped, typedDrafts } from './drafts-typed.js';
import { asOutboxError, done, finished, OutboxError, openCurrent } from './outbox.js';

/** @typedef {import('./api.js').MetricValue} MetricValue */

/**
 * @typedef {object} DraftField
 * @property {string} text what the input shows, as typed
 * @property {MetricValue} base the value a save sends it over
 * @property {MetricValue} preset what the field showed before the person typed
 * @property {number} [copied] a value the table copied from that sheet, not typed over since (its
 *   save, from the table or the modal, says so)
 * @property {true} [confirmed] typed into the table's row of an activity without an entry: sent
 *   though it reads as its preset (table-cells.js `confirmed`)
 * @property {MetricValue} [stored] the server's value of the field when `base` is a value the
 *   outbox keeps (sent first): once no entry keeps it (discarded), the base goes back to it
 * @property {string} [at] when this state was typed (the device's time, ISO 8601; drafts-fields.js
 *   `stamped`): the draft's `typedAt` where a release before kept none
 */

/**
 * @typedef {object} Draft
 * @property {string} id owner, handler, sheet, metric row and the unconfirmed mark in one key
 *   ({@link draftId})
 * @property {string} owner
 * @property {string} endpoint the handler's absolute URL
 * @property {number} taskSheet
 * @property {number} activity
 * @property {number | null} group the node the activity hangs under
 * @property {boolean} row whether the activity had a live entry when the form read it
 * @property {boolean} [storedRow] whether the server had one, where the outbox laid an entry over
 *   (`row` says what the form showed): once no entry keeps it, `row` goes back to it
 * @property {Record<string, DraftField>} fields
 * @property {string} typedAt when it was last typed in (the device's time, ISO 8601)
 * @property {boolean} [unconfirmed] typed on a page opened offline, whose owner came from the
 *   browser's cache: shown again only on such a page of the same owner, never to a confirmed one
 */

const DB_NAME = 'task-association-drafts';
const STORE = 'drafts';

/**
 * One key for a draft, so a person's draft of one metric row is one record, and the one typed on a
 * page opened offline (unconfirmed) another: such a page, which never reads the confirmed one, must
 * not overwrite or remove it (a confirmed page joins the two, drafts.js).
 * @param {{ owner: string, endpoint: string, taskSheet: number, activity: number, group: number | null, unconfirmed?: boolean }} of
 */
export const draftId = (of) =>
  JSON.stringify([
    of.owner,
    of.endpoint,
    of.taskSheet,
    of.activity,
    of.group,
    ...(of.unconfirmed === true ? ['unconfirmed'] : []),
  ]);

/**
 * Whether two drafts' fields are the same, field by field.
 * @param {Readonly<Record<string, DraftField>>} a @param {Readonly<Record<string, DraftField>>} b
 */
export function sameFields(a, b) {
  const names = Object.keys(a);
  if (names.length !== Object.keys(b).length) return false;
  return names.every((name) => {
    const other = b[name];
    const field = a[name];
    return other !== undefined && field !== undefined && sameField(field, other);
  });
}

/**
 * Whether a stored field is the state the page last knew of it (`knew`: what it read or wrote),
 * not typed since in another tab.
 * @param {DraftField | undefined} knew @param {DraftField} stored
 */
const unchanged = (knew, stored) => knew !== undefined && sameField(knew, stored);

/**
 * The fields of the `stored` draft that `newer` lacks and the writer did not drop on purpose: those
 * it never knew of, and those another tab typed since (`known`: the state of each field the writer
 * last read or wrote; a field it knew as stored and lacks now, it dropped).
 * @param {Draft} stored @param {Record<string, DraftField>} newer
 * @param {ReadonlyMap<string, DraftField>} [known]
 */
const lentBy = (stored, newer, known) =>
  Object.entries(stored.fields).filter(
    ([field, value]) => !Object.hasOwn(newer, field) && !unchanged(known?.get(field), value),
  );

/**
 * A stored draft as what it lends may show it: without the states a drop's mark drops (dropped in a
 * tab left before its removal was written), which are not to come back through another tab's write.
 * @param {Draft | undefined} stored
 */
function visible(stored) {
  const mark = stored && dropMarkOf(stored.id);
  return mark ? { ...stored, fields: Object.fromEntries(undropped(stored.fields, mark.states)) } : stored;
}

/**
 * The fields of the `stored` draft typed in another tab after the state `newer` holds of them. A
 * field typed in `newer`'s own write (its time is the write's) is the person's latest typing of it
 * and is never one. Of the others (states the writer holds from before: a form that did not take
 * what another tab typed, busy saving), the stored state is later where another tab typed it since
 * the writer knew the field (`known`) and the writer did not type it since, whatever the clocks say
 * (a device's clock may be set back), or else where it was typed later by the device's clock. A
 * field kept by a release before fields had a time is never later than one that has.
 * @param {Draft} stored @param {Draft} newer @param {ReadonlyMap<string, DraftField>} [known]
 */
const typedLaterIn = (stored, newer, known) =>
  Object.entries(stored.fields).filter(([field, value]) => {
    const mine = newer.fields[field];
    if (mine?.at === undefined || mine.at === newer.typedAt || value.at === undefined) return false;
    if (sameTyping(mine, value)) return false;
    const knew = known?.get(field);
    return (!unchanged(knew, value) && sameTyping(knew, mine)) || value.at > mine.at;
  });

/**
 * `newer` joined with the `stored` draft field by field: lent the fields it lacks ({@link lentBy}),
 * and holding those typed later in another tab ({@link typedLaterIn}) in that later state; `newer`
 * itself when neither changes it. Its `typedAt` is the later of the two.
 * @param {Draft} newer @param {Draft} stored @param {ReadonlyMap<string, DraftField>} [known]
 * @returns {Draft}
 */
export function joined(newer, stored, known) {
  const lent = lentBy(stored, newer.fields, known);
  const later = typedLaterIn(stored, newer, known);
  if (lent.length === 0 && later.length === 0) return newer;
  return {
    ...newer,
    fields: { ...Object.fromEntries(lent), ...newer.fields, ...Object.fromEntries(later) },
    typedAt: newer.typedAt > stored.typedAt ? newer.typedAt : stored.typedAt,
  };
}

/**
 * A draft's record with a write kept in `localStorage` laid over it (drafts-typed.js): as if that
 * write had committed now, where the record is not newer (a write of the same page, or older than
 * it: the write's fields win but for those another tab typed later, and the record lends it those
 * the writing page did not know); a record typed since in another tab keeps its fields but for
 * those the write typed later, and is lent those it lacks (that tab could not have known a write
 * never committed). Field by field ({@link joined}): the person's latest typing of each wins.
 * @param {Draft | undefined} stored @param {import('./drafts-typed.js').TypedRecord} typed
 */
function laidOver(stored, typed) {
  if (!stored) return typed.draft;
  if (stored.typedAt <= typed.draft.typedAt)
    return joined(typed.draft, stored, new Map(Object.entries(typed.known)));
  return joined(stored, typed.draft);
}

/**
 * Opens the drafts' store. Rejects with an OutboxError (`unavailable`) where the browser keeps no
 * IndexedDB for the page; a write refused for space rejects with `quota`.
 * @param {{ indexedDB?: IDBFactory }} [where]
 */
export async function openDrafts(where = {}) {
  const factory = where.indexedDB ?? globalThis.indexedDB;
  if (!factory) throw new OutboxError('unavailable', 'this browser has no IndexedDB');
  /** Whether the database was closed under this page: opened again at its next use. */
  let lost = false;

  /** Opens the database at its current version (a newer release's too), its store made where new. */
  async function connect() {
    try {
      return await openCurrent(
        factory,
        DB_NAME,
        STORE,
        (opening) => opening.result.createObjectStore(STORE, { keyPath: 'id' }),
        () => {
          lost = true;
        },
      );
    } catch (error) {
      throw asOutboxError(error);
    }
  }

  /** The database, or its opening again: every caller meanwhile waits for the same one. */
  let db = connect();
  await db;

  /** The open database; opened again if it was closed under this page. */
  function database() {
    if (!lost) return db;
    lost = false;
    db = connect();
    // Not opened: the next use tries again.
    db.catch(() => {
      lost = true;
    });
    return db;
  }

  /**
   * Runs `work` in one transaction of the store, to its end.
   * @template T @param {IDBTransactionMode} mode @param {(store: IDBObjectStore) => Promise<T>} work
   */
  async function within(mode, work) {
    try {
      const tx = (await database()).transaction(STORE, mode);
      const result = await work(tx.objectStore(STORE));
      await finished(tx);
      return result;
    } catch (error) {
      throw asOutboxError(error);
    }
  }

  return {
    /**
     * Keeps a draft over its earlier state, joined field by field ({@link joined}; `known`: the
     * state of each field this page read or wrote of it): another tab of the same person may have
     * typed fields it lacks, or typed one it holds later than the state it holds (a tab showing a
     * field's older draft, typing in another), and a blind write would lose them. Read and written
     * in one transaction, made at the call: a page left at once (a reload right after typing) has
     * its write under way already. Resolves with what was written.
     * @param {Draft} draft @param {ReadonlyMap<string, DraftField>} known
     * @returns {Promise<Draft>}
     */
    put: (draft, known) =>
      within('readwrite', async (store) => {
        const stored = visible(/** @type {Draft | undefined} */ (await done(store.get(draft.id))));
        const record = stored ? joined(draft, stored, known) : draft;
        await committed(store, store.put(record));
        return record;
      }),
    /**
     * Removes a draft, at the call as `put` does (a discarded draft does not come back), but for the
     * fields another tab typed that this page did not know as stored ({@link lentBy}): those stay,
     * the draft's record holding them alone. Resolves with that record, or undefined once removed.
     * @param {string} id @param {ReadonlyMap<string, DraftField>} known
     * @returns {Promise<Draft | undefined>}
     */
    remove: (id, known) =>
      within('readwrite', async (store) => {
        const stored = visible(/** @type {Draft | undefined} */ (await done(store.get(id))));
        const left = stored ? lentBy(stored, {}, known) : [];
        if (!stored || left.length === 0) {
          await committed(store, store.delete(id));
          return undefined;
        }
        const record = { ...stored, fields: Object.fromEntries(left) };
        await committed(store, store.put(record));
        return record;
      }),
    /**
     * Reads every draft, first laying over them the writes kept in `localStorage` (drafts-typed.js:
     * a page left before they committed; {@link laidOver}), which it writes as they would have been.
     * Removes the drafts typed more than {@link MAX_DRAFT_AGE_MS} before `now`, everyone's (nobody
     * could send them any more), and what the marks of drafts dropped (drafts-dropped.js) drop, as
     * their removals would have: a page left before its removal committed. The marks stay until
     * their own removals clear them: a removal may still be on its way (this page's, waiting for
     * the store to open, or another tab's). Resolves with those left.
     * @param {number} [now]
     * @returns {Promise<Draft[]>}
     */
    prune: async (now = Date.now()) => {
      /** The writes kept in `localStorage` this read lays over the store's. @type {TypedRecords} */
      let typed = [];
      /**
       * @param {boolean} write whether the drafts laid are written (not where the device refuses
       *   the space)
       */
      const read = (write) =>
        within('readwrite', async (store) => {
          // Read as the transaction is made: a write whose transaction was made before it is in the
          // store by its turn (or lost with its page, and laid over here); one made after writes its
          // draft again over what this read lays.
          typed = typedDrafts(now);
          const marks = dropMarks(now);
          const drafts = new Map(
            /** @type {Draft[]} */ (await done(store.getAll())).map((draft) => [draft.id, draft]),
          );
          /** Drafts a kept write was laid over: written again, as that write would have. */
          const laid = new Set();
          for (const record of [...typed].sort((a, b) => a.draft.typedAt.localeCompare(b.draft.typedAt))) {
            drafts.set(record.draft.id, laidOver(drafts.get(record.draft.id), record));
            laid.add(record.draft.id);
          }
          const left = [];
          for (const draft of drafts.values()) {
            const at = Date.parse(draft.typedAt);
            const mark = marks.get(draft.id);
            const fields = mark ? undropped(draft.fields, mark.states) : undefined;
            if (Number.isNaN(at) || now - at > MAX_DRAFT_AGE_MS || fields?.length === 0)
              store.delete(draft.id);
            else if (fields === undefined || fields.length === Object.keys(draft.fields).length) {
              if (laid.has(draft.id) && write) store.put(draft);
              left.push(draft);
            } else {
              const record = { ...draft, fields: Object.fromEntries(fields) };
              if (write) store.put(record);
              left.push(record);
            }
          }
          return left;
        });
      try {
        const left = await read(true);
        // Written: the device's drafts hold them now.
        for (const record of typed) clearTyped(record.draft.id, record.n, record.page);
        return left;
      } catch (error) {
        if (!(error instanceof OutboxError && error.code === 'quota')) throw error;
        // The space refused (one write refused would abort the whole read, and no page would show
        // any draft): read again, the kept writes laid over what is shown only; they stay until a
        // read can write them.
        return await read(false);
      }
    },
    close: () => {
      db.then(
        (open) => open.close(),
        () => undefined,
      );
    },
  };
}

/**
 * Asks the store's transaction to commit now, not once its request's answer was handed back to the
 * page (a round trip a page being left may not see: an uncommitted transaction is then dropped).
 * @param {IDBObjectStore} store @param {IDBRequest} request
 */
async function committed(store, request) {
  store.transaction.commit?.();
  await done(request);
}

/** @typedef {Awaited<ReturnType<typeof openDrafts>>} DraftStore */
/** @typedef {ReturnType<typeof typedDrafts>} TypedRecords */
