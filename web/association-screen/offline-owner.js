// @ts-check
/**
 * Whose entries this page files and sends (#28): the owner key the server gave with `part=start`,
 * whether the server said so (a page opened offline has it from the browser's cache, and keeps its
 * entries unconfirmed), the asking of who is signed in now (`part=owner`), the switch to another
 * person signed in on this browser meanwhile, and "these are mine" for entries typed where the page
 * could not tell. Its own module because every rule of who may send what sits here, apart from the
 * outbox's reading and drawing (offline.js) that only asks it.
 */

import { newRequestId } from './api.js';
import { fill } from './labels.js';
import { askOwner } from './sync.js';

/** @typedef {import('./outbox.js').OutboxRecord} OutboxRecord */

/** How long asking who is signed in may take before an entry is filed without it (unchecked). */
const OWNER_CHECK_MS = 5000;

/**
 * @param {import('./dom.js').ScreenContext} ctx
 * @param {object} parts
 * @param {string} parts.endpoint the handler's absolute URL
 * @param {Window} parts.win
 * @param {BroadcastChannel | undefined} parts.channel where the other pages hear of who is signed in
 * @param {() => import('./outbox.js').Outbox | undefined} parts.outbox once opened
 * @param {() => import('./sync-driver.js').Sync | undefined} parts.sync once made
 * @param {{ ownerChanged: (text: string) => void }} parts.view
 * @param {readonly import('./offline.js').Watcher[]} parts.watchers told to read again when someone else
 *   signed in, and when the owner of a page opened offline is confirmed
 * @param {() => Promise<void>} parts.refresh reads the outbox again and draws what changed
 */
export function createOwner(ctx, parts) {
  const { labels } = ctx;
  const { endpoint, win, channel } = parts;
  /** This page, on the entries it keeps while its owner is not confirmed. */
  const pageId = newRequestId();
  /** @type {string | undefined} */
  let owner;
  /**
   * Whether the server said `owner` is who is signed in: false while it came from the browser's
   * cache (a page opened offline), whose entries are then kept unconfirmed.
   */
  let confirmed = false;
  /** Whether this page filed entries unchecked since it last settled them. */
  let filedUnchecked = false;
  /** The asking of who is signed in under way, if any. @type {Promise<boolean> | undefined} */
  let checking;
  /**
   * Whether someone else found signed in by the asking under way is said by whoever asked (a save
   * refused for it, in its own words), not here: the person hears it once.
   */
  let saidByAsker = false;

  /**
   * Asks the server who is signed in, when the page is online and has an owner the server gave;
   * resolves with whether it answered (the page then files as whoever it said). `quiet`: someone
   * else signed in is shown, not said (the caller says it).
   * @param {{ quiet?: boolean }} [how]
   * @returns {Promise<boolean>}
   */
  function check(how = {}) {
    if (owner === undefined || !confirmed || !win.navigator.onLine || ctx.destroyed())
      return Promise.resolve(false);
    if (how.quiet) saidByAsker = true;
    checking ??= askOwner({ endpoint, taskSheet: ctx.taskSheet, timeoutMs: OWNER_CHECK_MS })
      .then(
        (signedIn) => {
          seen(signedIn);
          return true;
        },
        () => false,
      )
      .finally(() => {
        checking = undefined;
        saidByAsker = false;
      });
    return checking;
  }

  /**
   * The server said who is signed in (`part=owner`: the replay asks it before sending, the page
   * before filing a save and when it is shown again). The page files and sends as them from now on.
   *
   * - The same owner the server gave before: what this page filed unchecked is theirs.
   * - A page opened offline (its owner from the browser's cache): what it kept unconfirmed is the
   *   owner's when they are the same person, typing on this page; else it waits to be claimed.
   * - Someone else than the server said before (they signed in on this browser meanwhile): entries
   *   filed for the one before stay theirs, never sent as the new one. Those this page filed without
   *   being able to ask (offline) may have been typed by either, so they wait for whoever is signed
   *   in to claim them; the page says who it files as now, and what it read is read again.
   * @param {string} signedIn
   */
  function seen(signedIn) {
    if (ctx.destroyed()) return;
    const before = owner;
    const wasConfirmed = confirmed;
    if (signedIn === before && wasConfirmed) {
      void settleUnchecked((record) => record.owner === signedIn, true);
      return;
    }
    owner = signedIn;
    confirmed = true;
    channel?.postMessage({ type: 'owner', endpoint, owner: signedIn });
    if (wasConfirmed) {
      parts.view.ownerChanged(labels.ownerChanged);
      if (!saidByAsker) ctx.announce(labels.ownerChanged);
    }
    if (signedIn !== before) for (const watcher of parts.watchers) watcher.owner?.();
    void (async () => {
      if (signedIn === before) await adopt((record) => record.page === pageId);
      else if (wasConfirmed) await settleUnchecked((record) => record.owner === before, false);
      await parts.refresh();
      for (const watcher of parts.watchers)
        if (signedIn !== before) watcher.reread?.();
        else watcher.confirmed?.();
    })();
  }

  /**
   * This page's entries filed unchecked that `whose` picks: the owner's (`theirs`: the same person
   * is still signed in), or waiting for whoever is signed in to claim them (someone else is).
   * @param {(record: OutboxRecord) => boolean} whose @param {boolean} theirs
   */
  async function settleUnchecked(whose, theirs) {
    const outbox = parts.outbox();
    if (!outbox || !filedUnchecked) return;
    filedUnchecked = false;
    const changed = await outbox.update(
      (record) =>
        record.unchecked === true &&
        record.page === pageId &&
        record.endpoint === endpoint &&
        record.taskSheet === ctx.taskSheet &&
        whose(record),
      (record) => {
        const { unchecked: _unchecked, page: _page, ...rest } = record;
        return theirs ? rest : { ...rest, unconfirmed: true, page: pageId };
      },
    );
    if (changed === 0 || ctx.destroyed()) return;
    channel?.postMessage({ type: 'changed' });
    await parts.refresh();
  }

  /**
   * Files the unconfirmed entries of this sheet that `take` picks as the confirmed owner's, and has
   * them sent. @param {(record: OutboxRecord) => boolean} take
   * @returns {Promise<number>} how many
   */
  async function adopt(take) {
    const outbox = parts.outbox();
    if (!outbox || owner === undefined) return 0;
    const by = owner;
    const taken = await outbox.update(
      (record) =>
        record.endpoint === endpoint &&
        record.taskSheet === ctx.taskSheet &&
        record.unconfirmed === true &&
        take(record),
      (record) => {
        const { unconfirmed: _unconfirmed, page: _page, unchecked: _unchecked, ...rest } = record;
        return { ...rest, owner: by };
      },
    );
    if (taken === 0) return 0;
    channel?.postMessage({ type: 'changed' });
    // Theirs now: sent by the page, or by the worker if the page closes first.
    const sync = parts.sync();
    void sync?.registerBackground();
    sync?.kick();
    return taken;
  }

  /**
   * The person signed in says the entries typed where the page could not tell who was signed in
   * are theirs: filed as whoever the server says is signed in now (asked first, online).
   */
  async function claim() {
    await check();
    const count = await adopt(() => true);
    await parts.refresh();
    if (count > 0) ctx.announce(count === 1 ? labels.claimedOne : fill(labels.claimed, { count }));
  }

  return {
    pageId,
    /** The key this page files under; undefined until the start is read. */
    key: () => owner,
    /** Whether the server said the key is who is signed in. */
    confirmed: () => confirmed,
    /** The start was read: its owner, and whether the server said so (not the browser's cache). @param {string | undefined} key @param {boolean} isConfirmed */
    set(key, isConfirmed) {
      owner = key;
      confirmed = isConfirmed;
    },
    /** This page filed entries without being able to ask who is signed in: settled at the next answer. */
    noteUnchecked() {
      filedUnchecked = true;
    },
    check,
    seen,
    claim,
  };
}

/** @typedef {ReturnType<typeof createOwner>} Owner */
