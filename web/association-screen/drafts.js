// @ts-check
/**
 * The screen's drafts: what the person signed in typed (in the modal or the table) and has not sent,
 * one draft per activity whichever view typed it, kept on the device (drafts-store.js) under the
 * outbox's owner key, so a draft is never shown to or sent as someone else. Holds this page's drafts
 * (this person, this sheet) in memory, so the tree marks an activity with a draft and the modal and
 * the table find it at once; every change is written at once, in the order asked, the latest state
 * of each draft winning. Storage that is unavailable or full is said once (`onProblem`) and never
 * stops typing or saving: the drafts then live as long as the page. Storage a newer release of the
 * screen keeps its own way is said as the outbox says it: the page must be reloaded.
 */

import { clearDropped, markDropped, undropped, writtenAfterDrop } from './drafts-dropped.js';
import { laterTyped, sameField, stamped } from './drafts-fields.js';
import { draftId, joined, openDrafts } from './drafts-store.js';
import { clearTyped, droppedFromTyped, keepTyped } from './drafts-typed.js';
import { keyOf } from './entry-key.js';
import { OutboxError } from './outbox.js';

/** @typedef {import('./drafts-store.js').Draft} Draft */
/** @typedef {import('./drafts-store.js').DraftField} DraftField */
/** @typedef {import('./tree.js').TreeNode} TreeNode */
/** @typedef {{ activity: number, group?: number | null | undefined }} RowKey */
/** @typedef {{ key: string, confirmed: boolean }} Owner */

/**
 * Each field with the states of it a drop mark names (drafts-dropped.js), from one state each.
 * @param {Iterable<[string, DraftField]>} fields @returns {Map<string, DraftField[]>}
 */
const statesOf = (fields) => new Map([...fields].map(([field, value]) => [field, [value]]));

/**
 * Marks states of a draft dropped (drafts-dropped.js), and takes them out of the writes of it kept
 * in `localStorage` (drafts-typed.js): a page left before its write committed does not bring them
 * back once the mark went. Returns the mark's `n`.
 * @param {string} id @param {ReadonlyMap<string, readonly DraftField[]>} states
 */
function dropStates(id, states) {
  droppedFromTyped(id, states);
  return markDropped(id, states);
}

/**
 * @param {import('./dom.js').ScreenContext} ctx
 * @param {object} parts
 * @param {string} parts.endpoint the handler's URL
 * @param {() => { key: string | undefined, confirmed: boolean } | undefined} parts.owner whose
 *   entries the page files (the outbox's owner), undefined without an outbox
 * @param {(key: RowKey) => void} parts.redraw draws again the tree's copies of an activity
 * @param {() => void} parts.loaded this person's drafts were read (the modal and the table may show them now)
 * @param {(text: string) => void} parts.onProblem the device could not keep a draft: said once by
 *   the caller, in `text`'s words
 */
export function createDrafts(ctx, parts) {
  const endpoint = new URL(parts.endpoint, ctx.doc.baseURI).href;
  /** Why the store could not be opened. @type {unknown} */
  let refused;
  const opened = openDrafts().then(
    (store) => store,
    (error) => {
      refused = error;
      return undefined;
    },
  );
  /** This person's drafts of this sheet by metric row. @type {Map<string, Draft>} */
  const mine = new Map();
  /**
   * Drafts asked to be kept whose writing has not succeeded (not kept anywhere but this page).
   * @type {Set<string>}
   */
  const unkept = new Set();
  /**
   * The store once open (null: unavailable). Until then writes wait in `early`, in the order asked;
   * after, each is made at once: IndexedDB runs a store's read-write transactions in the order they
   * were made, so the latest state of a draft wins, and a page left right after a change (a reload
   * after Escape or Cancel) has its write under way already, not waiting behind another.
   * @type {import('./drafts-store.js').DraftStore | null | undefined}
   */
  let store;
  /** @type {(() => void)[]} */
  const early = [];
  /**
   * The fields of each draft this page read or wrote (by id), as it last knew them: a write or a
   * removal lacking one still stored so drops it on purpose; a field stored by another tab of the
   * same person, unknown here or typed there since, is kept (drafts-store.js).
   * @type {Map<string, Map<string, DraftField>>}
   */
  const known = new Map();
  /** @param {Draft} draft */
  const learn = (draft) => {
    const fields = known.get(draft.id) ?? new Map();
    for (const [field, value] of Object.entries(draft.fields)) fields.set(field, value);
    known.set(draft.id, fields);
  };
  /** Writes made and not finished. @type {Set<Promise<void>>} */
  const out = new Set();
  /**
   * The latest write asked of each draft, by id (a put succeeded keeps it only if no later one was
   * asked). @type {Map<string, number>}
   */
  const latest = new Map();
  /**
   * While writes of a draft are under way, every state of each field the device may hold from this
   * page (a page left now loses the writes not committed): what a removal's mark drops.
   * @type {Map<string, Map<string, DraftField[]>>}
   */
  const mayHold = new Map();
  /**
   * Drafts typed on a page opened offline that the last read joined into the person's draft, by
   * id, while their removal is not written: dropping the joined draft drops them too.
   * (`dropped`: that mark's `n`).
   * @type {Map<string, { into: string, stored: Draft, dropped?: string }>}
   */
  const joins = new Map();
  let asked = 0;
  /**
   * Drafts written while the store was opening (kept in `localStorage` meanwhile, drafts-typed.js):
   * another tab's read may have laid them on the device, so their drops are marked even where this
   * page's store then failed to open.
   * @type {Set<string>}
   */
  const keptOpening = new Set();
  void opened.then((opening) => {
    store = opening ?? null;
    // Open: every drop is marked from here on (the set matters only where the store failed to open).
    if (store !== null) keptOpening.clear();
    // A load waiting for the store reads first, then makes them: what it reads is older than them.
    if (!reading) flush();
  });
  const flush = () => {
    for (const run of early.splice(0)) run();
  };
  let problemSaid = false;
  /** Bumped by every load: an older load's answer is not laid over a newer state. */
  let loads = 0;
  /**
   * Activities kept or dropped since the running load began: the page's state of them is newer
   * than its read. @type {Set<string>}
   */
  const touched = new Set();
  /** Whether a load's read is out (what is kept or dropped meanwhile is `touched`). */
  let reading = false;
  /**
   * The states of each draft's fields this page dropped while the read was out (by id): the read,
   * made before, may have found one of them (a cell typed over and taken back meanwhile, its older
   * state), which is not lent back to what the page holds.
   * @type {Map<string, Map<string, DraftField[]>>}
   */
  const droppedReading = new Map();
  /**
   * A stored draft read by a load without the states this page dropped while that read was out,
   * as draft `ids` (its own, and the one it joins). @param {Draft} stored @param {string[]} ids
   */
  const undroppedReading = (stored, ...ids) => {
    /** @type {Record<string, DraftField[]>} */
    const gone = {};
    for (const id of ids)
      for (const [field, states] of droppedReading.get(id) ?? [])
        gone[field] = [...(gone[field] ?? []), ...states];
    if (Object.keys(gone).length === 0) return stored;
    return { ...stored, fields: Object.fromEntries(undropped(stored.fields, gone)) };
  };
  /** Whose drafts `mine` holds (the last load's owner): someone else signed in, none are shown until read. */
  let readFor = /** @type {string | undefined} */ (undefined);

  /**
   * Whose drafts this page shows and files, or undefined (no outbox, or the start not read).
   * @returns {Owner | undefined}
   */
  function who() {
    const owner = parts.owner();
    return owner?.key === undefined ? undefined : { key: owner.key, confirmed: owner.confirmed };
  }

  /**
   * The device could not keep a draft: said once, as the outbox says the same cause (a newer release
   * of the screen keeping the storage its own way: reload), else that the device cannot keep it.
   * @param {unknown} [error]
   */
  function problem(error) {
    if (problemSaid || ctx.destroyed()) return;
    problemSaid = true;
    const newer = error instanceof OutboxError && error.code === 'newer';
    parts.onProblem(newer ? ctx.labels.outboxNewer : ctx.labels.draftUnkept);
  }

  /**
   * Reads this person's drafts of this sheet, dropping everyone's too old to send. What is kept or
   * dropped while the read is out is newer than it: it stays as the page holds it, and a stored
   * draft of the same activity read meanwhile lends it only the fields it lacks (typed on another
   * page, never discarded). A page whose owner the server confirmed takes that owner's drafts typed
   * where the page could not tell who was signed in (the same person: the key is theirs), and they
   * lose that mark, each joined into that person's draft of the same activity (field by field, the
   * later typing winning) and its own record removed; a page that cannot tell shows, writes and removes only
   * those (records of their own), never a confirmed person's.
   */
  async function load() {
    const mark = ++loads;
    reading = true;
    // What the page knew of each draft as the read began: what it writes from here on comes after
    // the read's transaction, which cannot have seen it, so the read's older state of a field the
    // page typed meanwhile is not "typed in another tab since the page knew it".
    const knewAtRead = new Map([...known].map(([id, fields]) => [id, new Map(fields)]));
    const opening = await opened;
    const owner = who();
    /** @type {Draft[]} */
    let all = [];
    try {
      const pruning = opening ? opening.prune() : Promise.resolve([]);
      flush();
      all = await pruning;
    } catch (error) {
      problem(error);
    }
    if (mark !== loads || ctx.destroyed()) return;
    const before = new Map(mine);
    mine.clear();
    /** The owner's drafts typed on pages opened offline, a confirmed page joining them. @type {Draft[]} */
    const offline = [];
    if (owner !== undefined) {
      for (const stored of all) {
        if (stored.owner !== owner.key || stored.endpoint !== endpoint || stored.taskSheet !== ctx.taskSheet)
          continue;
        if (stored.unconfirmed !== true && !owner.confirmed) continue;
        if (owner.confirmed && stored.unconfirmed === true) {
          offline.push(stored);
          continue;
        }
        const key = keyOf(stored);
        const newer = touched.has(key) ? before.get(key) : undefined;
        if (touched.has(key) && newer?.owner !== owner.key) continue;
        // What the page dropped of it (known as stored, and lacking now, or dropped during the
        // read) is not lent back.
        mine.set(
          key,
          newer ? joined(newer, undroppedReading(stored, stored.id), knewAtRead.get(stored.id)) : stored,
        );
      }
      // Kept meanwhile with nothing stored before it.
      for (const key of touched) {
        const newer = before.get(key);
        if (newer?.owner === owner.key && !mine.has(key)) mine.set(key, newer);
      }
      // Typed offline before this read, each joins the confirmed draft of its activity field by
      // field, the later typing winning (a page opened offline and still open may write its record
      // again after a join, with fields typed before the confirmed draft's), and its own record
      // goes; what this page typed during the read is later still.
      offline.sort((a, b) => a.typedAt.localeCompare(b.typedAt));
      for (const stored of offline) {
        const key = keyOf(stored);
        const into = mine.get(key);
        const { unconfirmed: _unconfirmed, ...adopted } = stored;
        const id = draftId({ ...stored, unconfirmed: false });
        if (into && touched.has(key)) {
          // Typed in during the read: the page's fields typed then are the latest; its older ones
          // join the offline draft's field by field too. What the page dropped of that draft on
          // purpose (known as stored, lacking now) is not lent back.
          mine.set(
            key,
            joined(into, undroppedReading(stored, stored.id, into.id), knewAtRead.get(stored.id)),
          );
        } else if (into) mine.set(key, { ...adopted, id, ...laterTyped(into, stored) });
        else mine.set(key, { ...adopted, id });
      }
      for (const [key, draft] of mine) {
        if (draft === before.get(key) || all.includes(draft)) {
          learn(draft);
          continue;
        }
        // A join to write: what the page knew of the device's draft is that draft as this read
        // found it (the join ruled on it: an older typing there lost to a later one joined in), and
        // the write learns the join. Learnt first, the join's own states would make the device's
        // older ones look typed since, and win the write.
        const read = all.find((stored) => stored.id === draft.id);
        if (read) learn(read);
        unkept.add(draft.id);
        write(draft.id, draft);
      }
      // After the joined drafts are written (in that order), so a page left between keeps both.
      // One kept before the mark was part of the id is the joined draft's own record: it stays.
      for (const stored of offline) {
        const into = mine.get(keyOf(stored));
        if (into === undefined || stored.id === into.id) continue;
        learn(stored);
        // Marked dropped only in the states the joined draft does not hold (typed over on this page
        // during the read): the others live on in it, whose write may be lost with the page as this
        // removal may, and the next read then joins the two again. Until the removal is written, a
        // drop of the joined draft drops them too.
        const superseded = Object.entries(stored.fields).filter(
          ([field, value]) => !(into.fields[field] && sameField(into.fields[field], value)),
        );
        joins.set(stored.id, { into: into.id, stored });
        write(stored.id, stored.id, statesOf(superseded));
      }
    }
    touched.clear();
    droppedReading.clear();
    reading = false;
    readFor = owner?.key;
    for (const key of new Set([...before.keys(), ...mine.keys()])) {
      const [activity, group] = key.split(':');
      parts.redraw({ activity: Number(activity), group: group === '' ? null : Number(group) });
    }
    parts.loaded();
  }

  /**
   * Writes a draft (a Draft) or removes it (its id). What the write drops (the draft, or the fields
   * a put leaves out) is marked dropped first, at the call (drafts-dropped.js): a page left before
   * its transaction commits does not bring it back.
   * @param {string} id @param {Draft | string} what
   * @param {ReadonlyMap<string, readonly DraftField[]>} [drops] the states a removal marks dropped
   *   (all the device may hold from this page, by default)
   */
  function write(id, what, drops) {
    const turn = ++asked;
    // The states the device may hold of the draft's fields from this page: as known before its
    // writes under way, and what each of them writes (kept until they are all done: a page left
    // now loses those not committed, a removal's too).
    if (!latest.has(id)) mayHold.set(id, statesOf(known.get(id) ?? []));
    latest.set(id, turn);
    const knew = new Map(known.get(id));
    const held = mayHold.get(id) ?? new Map();
    // What this write drops: the whole draft (a removal), or the fields a put leaves out (one cell
    // taken back in a row with others typed). Marked at once (not where the device keeps no
    // drafts), and the states written from here on are the next drop's: those before it are
    // marked (a mark another tab took a state out of since must not get it back from this page).
    /** @type {Map<string, DraftField[]>} */
    let states;
    if (typeof what === 'string') {
      known.delete(id);
      states = new Map(drops ?? held);
      mayHold.set(id, new Map());
    } else {
      learn(what);
      writtenAfterDrop(id, what.fields);
      states = new Map([...held].filter(([field]) => !Object.hasOwn(what.fields, field)));
      for (const field of states.keys()) held.delete(field);
      for (const [field, value] of Object.entries(what.fields))
        held.set(field, [...(held.get(field) ?? []), value]);
    }
    if (reading && states.size > 0) {
      const dropped = droppedReading.get(id) ?? new Map();
      for (const [field, values] of states) dropped.set(field, [...(dropped.get(field) ?? []), ...values]);
      droppedReading.set(id, dropped);
    }
    const marking = store !== null || keptOpening.has(id);
    /** The drop's mark, cleared once the write committed. @type {string | undefined} */
    const dropped = states.size > 0 && marking ? dropStates(id, states) : undefined;
    // A put is kept in `localStorage` too until it committed (a page left before does not lose
    // it); a removal's mark says what the device may hold, this page's earlier puts included.
    /** @type {string | undefined} */
    let typed;
    if (store !== null) {
      if (typeof what === 'string') clearTyped(id);
      else typed = keepTyped(what, knew);
      if (store === undefined) keptOpening.add(id);
    }
    if (store === undefined) early.push(() => made(id, what, turn, knew, dropped, typed));
    else made(id, what, turn, knew, dropped, typed);
  }

  /**
   * @param {string} id @param {Draft | string} what @param {number} turn the write's place in the
   *   order asked @param {Map<string, DraftField>} knew @param {string} [dropped] the removal's drop
   *   mark @param {string} [typed] the put's record in `localStorage`
   */
  function made(id, what, turn, knew, dropped, typed) {
    if (!store) {
      // No drafts' store to lay it over.
      if (typed !== undefined) clearTyped(id, typed);
      problem(refused);
      return;
    }
    const run = (typeof what === 'string' ? store.remove(id, knew) : store.put(what, knew))
      .then((record) => {
        if (dropped !== undefined) clearDropped(id, dropped);
        if (typed !== undefined) clearTyped(id, typed);
        if (typeof what === 'string') {
          // Its removal written: a mark a drop of the draft it was joined into made goes too.
          const join = joins.get(id);
          if (join?.dropped !== undefined) clearDropped(id, join.dropped);
          joins.delete(id);
          // Fields another tab typed outlived the removal: the page holds them as the draft now.
          if (record && latest.get(id) === turn) lent(undefined, record);
          return;
        }
        // A later state asked meanwhile keeps it unkept until that one is written.
        if (latest.get(id) === turn) unkept.delete(id);
        if (record && record !== what) lent(what, record);
      }, problem)
      .finally(() => {
        out.delete(run);
        if (latest.get(id) !== turn) return;
        latest.delete(id);
        mayHold.delete(id);
      });
    out.add(run);
  }

  /**
   * The device lent a draft written (`asked`), or removed (undefined), fields typed in another tab:
   * the page holds them too (still its latest state of the draft), and the modal and the table
   * take them as from a late read.
   * @param {Draft | undefined} asked @param {Draft} record
   */
  function lent(asked, record) {
    const key = keyOf(record);
    // A later state asked meanwhile is lent them by its own write (they are not known yet); a draft
    // of someone else (a form filed under the previous person) is not this page's to show.
    if (mine.get(key) !== asked || (asked === undefined && record.owner !== who()?.key) || ctx.destroyed())
      return;
    learn(record);
    mine.set(key, record);
    parts.redraw(record);
    parts.loaded();
  }

  return {
    load,
    /** The person's draft of an activity, if any. @param {RowKey} key */
    get: (key) => (readFor === who()?.key ? mine.get(keyOf(key)) : undefined),
    /** Whether an activity has a draft (the tree marks it). @param {RowKey} key */
    has: (key) => readFor === who()?.key && mine.has(keyOf(key)),
    /** Whose drafts the page shows and files now: a form keeps this from its opening (see `keep`). */
    owner: who,
    /**
     * Keeps what the person typed in an activity (written behind), as `as`: the owner the form was
     * opened under ({@link owner} then). Someone else signed in since, it is kept as theirs on the
     * device and not shown on this page, which is the new person's now. `shown`: the draft the
     * form or row last kept or showed, whose typing it still holds keeps its time (a form that did
     * not take another tab's later typing lent to the page, busy saving, holds its own older state:
     * not typed anew). Returns the draft kept; nothing is kept while the page does not know who is
     * signed in: returns undefined then.
     * @param {RowKey} key @param {{ row: boolean, storedRow?: boolean, fields: Record<string, DraftField> }} typed
     * @param {Owner | undefined} as
     * @param {{ fields: Readonly<Record<string, DraftField>>, typedAt: string }} [shown]
     * @returns {Draft | undefined}
     */
    keep(key, typed, as, shown) {
      const now = who();
      const owner = as !== undefined && as.key !== now?.key ? as : now;
      if (owner === undefined) return undefined;
      const group = key.group ?? null;
      const typedAt = new Date().toISOString();
      const id = draftId({
        owner: owner.key,
        endpoint,
        taskSheet: ctx.taskSheet,
        activity: key.activity,
        group,
        unconfirmed: !owner.confirmed,
      });
      /** @type {Draft} */
      const draft = {
        id,
        owner: owner.key,
        endpoint,
        taskSheet: ctx.taskSheet,
        activity: key.activity,
        group,
        row: typed.row,
        ...(typed.storedRow === undefined ? {} : { storedRow: typed.storedRow }),
        // The row's draft until now (this page's of this person), and what the form showed of it,
        // keep each field's time unchanged.
        fields: stamped(typed.fields, [owner === now ? mine.get(keyOf(key)) : undefined, shown], typedAt),
        typedAt,
        ...(owner.confirmed ? {} : { unconfirmed: true }),
      };
      unkept.add(id);
      write(id, draft);
      if (owner !== now) return draft;
      const had = mine.has(keyOf(key));
      mine.set(keyOf(key), draft);
      if (reading) touched.add(keyOf(key));
      if (!had) parts.redraw(key);
      return draft;
    },
    /**
     * Forgets an activity's draft: stored, taken into the outbox, its entry removed, or discarded;
     * `as` as for {@link keep} (the previous person's, someone else signed in since).
     * @param {RowKey} key @param {Owner | undefined} as
     */
    drop(key, as) {
      const now = who();
      if (as !== undefined && as.key !== now?.key) {
        const id = draftId({
          owner: as.key,
          endpoint,
          taskSheet: ctx.taskSheet,
          activity: key.activity,
          group: key.group ?? null,
          unconfirmed: !as.confirmed,
        });
        unkept.delete(id);
        write(id, id);
        return;
      }
      if (reading) touched.add(keyOf(key));
      const draft = mine.get(keyOf(key));
      if (!draft) return;
      mine.delete(keyOf(key));
      unkept.delete(draft.id);
      for (const [id, join] of joins) {
        if (join.into === draft.id)
          join.dropped = dropStates(id, statesOf(Object.entries(join.stored.fields)));
      }
      write(draft.id, draft.id);
      parts.redraw(key);
    },
    /** Whether something typed is kept nowhere but this page (being written, or refused). */
    unkept: () => unkept.size > 0,
    /** Resolves once what was asked is written (tests, and a page about to hide). */
    settled: async () => {
      await opened;
      while (out.size > 0) await Promise.all(out);
    },
    destroy() {
      loads++;
      void opened.then(async (opening) => {
        await Promise.all(out);
        opening?.close();
      });
    },
  };
}

/** @typedef {ReturnType<typeof createDrafts>} Drafts */
