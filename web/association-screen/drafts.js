// @ts-check
/**
 * The screen's drafts: what the person signed in typed (in the modal or the table) and has not sent,
 * one draft per activity whichever view typed it, kept on the device (drafts-store.js) under the
 * outbox's owner key, so a draft is never shown to or sent as someone else. Holds this page's drafts
 * (this person, this sheet) in memory, so the tree marks an activity with a draft and the modal and
 * the table find it at once; every change is written behind, one write at a time, the latest state
 * of each draft winning. Storage that is unavailable or full is said once (`onProblem`) and never
 * stops typing or saving: the drafts then live as long as the page.
 */

import { draftId, openDrafts } from './drafts-store.js';
import { keyOf } from './entry-key.js';

/** @typedef {import('./drafts-store.js').Draft} Draft */
/** @typedef {import('./drafts-store.js').DraftField} DraftField */
/** @typedef {import('./tree.js').TreeNode} TreeNode */
/** @typedef {{ activity: number, group?: number | null | undefined }} RowKey */

/**
 * @param {import('./dom.js').ScreenContext} ctx
 * @param {object} parts
 * @param {string} parts.endpoint the handler's URL
 * @param {() => { key: string | undefined, confirmed: boolean } | undefined} parts.owner whose
 *   entries the page files (the outbox's owner), undefined without an outbox
 * @param {(key: RowKey) => void} parts.redraw draws again the tree's copies of an activity
 * @param {() => void} parts.loaded this person's drafts were read (the modal and the table may show them now)
 * @param {() => void} parts.onProblem the device could not keep a draft: said once by the caller
 */
export function createDrafts(ctx, parts) {
  const endpoint = new URL(parts.endpoint, ctx.doc.baseURI).href;
  const opened = openDrafts().then(
    (store) => store,
    () => undefined,
  );
  /** This person's drafts of this sheet by metric row. @type {Map<string, Draft>} */
  const mine = new Map();
  /** Drafts to write (a Draft) or remove (its id), by id, in the order asked: the latest wins. @type {Map<string, Draft | string>} */
  const writes = new Map();
  /** Drafts asked to be kept whose writing has not succeeded (not kept anywhere but this page). @type {Set<string>} */
  const unkept = new Set();
  /** @type {Promise<void> | undefined} */
  let writing;
  let problemSaid = false;
  /** Bumped by every load: an older load's answer is not laid over a newer state. */
  let loads = 0;

  /** Whose drafts this page shows and files, or undefined (no outbox, or the start not read). */
  function who() {
    const owner = parts.owner();
    return owner?.key === undefined ? undefined : { key: owner.key, confirmed: owner.confirmed };
  }

  function problem() {
    if (problemSaid || ctx.destroyed()) return;
    problemSaid = true;
    parts.onProblem();
  }

  /** Reads this person's drafts of this sheet, dropping everyone's too old to send. */
  async function load() {
    const mark = ++loads;
    const store = await opened;
    const owner = who();
    const before = [...mine.keys()];
    /** @type {Draft[]} */
    let all = [];
    try {
      all = store ? await store.prune() : [];
    } catch {
      problem();
    }
    if (mark !== loads || ctx.destroyed()) return;
    mine.clear();
    if (owner !== undefined) {
      for (const draft of all) {
        if (draft.owner !== owner.key || draft.endpoint !== endpoint || draft.taskSheet !== ctx.taskSheet)
          continue;
        // Typed where the page could not tell who was signed in: shown only where it still cannot.
        if ((draft.unconfirmed === true) !== !owner.confirmed) continue;
        mine.set(keyOf(draft), draft);
      }
    }
    for (const key of new Set([...before, ...mine.keys()])) {
      const [activity, group] = key.split(':');
      parts.redraw({ activity: Number(activity), group: group === '' ? null : Number(group) });
    }
    parts.loaded();
  }

  async function drain() {
    const store = await opened;
    for (let next = writes.entries().next(); !next.done; next = writes.entries().next()) {
      const [id, what] = next.value;
      writes.delete(id);
      if (!store) {
        problem();
        continue;
      }
      try {
        if (typeof what === 'string') await store.remove(id);
        else {
          await store.put(what);
          // A later state asked meanwhile keeps it unkept until that one is written.
          if (!writes.has(id)) unkept.delete(id);
        }
      } catch {
        problem();
      }
    }
  }

  /** @param {string} id @param {Draft | string} what */
  function write(id, what) {
    writes.delete(id);
    writes.set(id, what);
    writing ??= drain().finally(() => {
      writing = undefined;
    });
  }

  return {
    load,
    /** The person's draft of an activity, if any. @param {RowKey} key */
    get: (key) => mine.get(keyOf(key)),
    /** Whether an activity has a draft (the tree marks it). @param {RowKey} key */
    has: (key) => mine.has(keyOf(key)),
    /**
     * Keeps what the person typed in an activity (written behind). Nothing is kept while the page
     * does not know who is signed in: returns false then.
     * @param {RowKey} key @param {{ row: boolean, fields: Record<string, DraftField> }} typed
     */
    keep(key, typed) {
      const owner = who();
      if (owner === undefined) return false;
      const group = key.group ?? null;
      const id = draftId({
        owner: owner.key,
        endpoint,
        taskSheet: ctx.taskSheet,
        activity: key.activity,
        group,
      });
      const had = mine.has(keyOf(key));
      /** @type {Draft} */
      const draft = {
        id,
        owner: owner.key,
        endpoint,
        taskSheet: ctx.taskSheet,
        activity: key.activity,
        group,
        row: typed.row,
        fields: typed.fields,
        typedAt: new Date().toISOString(),
        ...(owner.confirmed ? {} : { unconfirmed: true }),
      };
      mine.set(keyOf(key), draft);
      unkept.add(id);
      write(id, draft);
      if (!had) parts.redraw(key);
      return true;
    },
    /**
     * Forgets an activity's draft: stored, taken into the outbox, its entry removed, or discarded.
     * @param {RowKey} key
     */
    drop(key) {
      const draft = mine.get(keyOf(key));
      if (!draft) return;
      mine.delete(keyOf(key));
      unkept.delete(draft.id);
      write(draft.id, draft.id);
      parts.redraw(key);
    },
    /** Whether something typed is kept nowhere but this page (being written, or refused). */
    unkept: () => unkept.size > 0,
    /** Resolves once what was asked is written (tests, and a page about to hide). */
    settled: async () => {
      while (writing) await writing;
    },
    destroy() {
      loads++;
      void opened.then(async (store) => {
        await writing;
        store?.close();
      });
    },
  };
}

/** @typedef {ReturnType<typeof createDrafts>} Drafts */
