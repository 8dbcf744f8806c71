// @ts-check
/**
 * The screen offline (#28), wired together: the outbox (outbox.js) filed under the owner key the
 * server gave with `part=start` (offline-owner.js), its sending (sync.js) and what the senders say
 * of it (offline-senders.js), discarding (offline-discard.js), its view (offline-view.js), the values
 * it holds shown in the tree and preset in the modal (offline-pending.js), and "Keep this sheet for
 * offline use" (offline-cache.js). What stays here is the state the parts share: the outbox read
 * again and drawn (`refresh`), a save filed, the warnings. Works on a host's own page too: nothing
 * here needs the service worker.
 */

import { newRequestId, RequestError } from './api.js';
import { keyOf } from './entry-key.js';
import { fill } from './labels.js';
import { keepSheet, MAX_KEEP_BYTES, pruneData, readKeptAgain } from './offline-cache.js';
import { createDiscards } from './offline-discard.js';
import { createOwner } from './offline-owner.js';
import { keptOf, overlay, pendingFields, pendingOf, stoppedFields } from './offline-pending.js';
import { followSenders } from './offline-senders.js';
import { createOfflineView } from './offline-view.js';
import { askToPersist, isPersisted, MAX_OUTBOX_ENTRIES, OutboxError, openOutbox } from './outbox.js';
import { CHANNEL } from './sync.js';
import { createSync } from './sync-driver.js';

/** @typedef {import('./outbox.js').OutboxRecord} OutboxRecord */
/** @typedef {import('./outbox.js').Outbox} Outbox */
/** @typedef {import('./tree.js').TreeNode} TreeNode */
/** @typedef {import('./api.js').ScreenNode} ScreenNode */
/** @typedef {import('./api.js').MetricEntry} MetricEntry */
/** @typedef {import('./api.js').SheetRow} SheetRow */

/**
 * A save for the outbox: its entry, and the activity's label and path from a root (to list it, and
 * to open the tree down to it when it meets a conflict).
 * @typedef {{ entry: MetricEntry, label: string, path: readonly { level: number, id: number }[], copied?: boolean }} Queued
 *   `copied`: the entry holds cells copied from another task sheet, so its history says `copy`
 */

/**
 * Told of the outbox (the table view): `sent`, a batch this page sent and the server stored, with
 * the keys that still wait with a later entry (they go on showing it); `changed`, what waits changed,
 * with the keys whose entries were discarded on this page since; `owner`, someone else is signed in
 * (told at once, before anything else runs: what is typed from then on is theirs); `reread`, the
 * sheet's owner changed and the outbox was settled for it; `confirmed`, the server said the page's
 * owner (from the browser's cache: a page opened offline) is who is signed in.
 * @typedef {{ sent: (answer: import('./api.js').SaveResult, later: ReadonlySet<string>) => void,
 *   changed: (discarded: ReadonlySet<string>) => void, owner?: () => void, reread?: () => void,
 *   confirmed?: () => void }} Watcher
 */

/** From this many waiting entries on, the screen warns that the outbox fills up. */
const NEARLY_FULL = Math.floor(MAX_OUTBOX_ENTRIES * 0.9);

/**
 * @param {import('./dom.js').ScreenContext} ctx
 * @param {{ endpoint: string, tree: import('./tree.js').Tree, treeMetrics: import('./tree-metrics.js').TreeMetrics }} parts
 */
export function createOffline(ctx, parts) {
  const { labels, doc } = ctx;
  const win = doc.defaultView ?? window;
  const endpoint = new URL(parts.endpoint, doc.baseURI).href;
  const view = createOfflineView(ctx, {
    discard: (record) => discards.discard(record),
    decide,
    keep,
    claim: () => who.claim(),
  });
  /** @type {Outbox | undefined} */
  let outbox;
  /** @type {import('./sync-driver.js').Sync | undefined} */
  let sync;
  /** Entries of this sheet typed on pages opened offline, which the confirmed owner may claim. @type {OutboxRecord[]} */
  let claimable = [];
  /** This person's entries of this sheet, in the order entered. @type {OutboxRecord[]} */
  let mine = [];
  /** The values each activity waits to send, merged in order. @type {import('./offline-pending.js').Pending} */
  let pending = new Map();
  /** The same with the entries stopped for a decision: what the table shows as the person's. @type {import('./offline-pending.js').Pending} */
  let kept = new Map();
  /** The keys with an entry stopped for a decision (a conflict, a refusal): marked in the tree and the modal. @type {Set<string>} */
  let stoppedKeys = new Set();
  /** When the data shown was read (null: a cached copy of unknown age). @type {string | null} */
  let readAt = new Date().toISOString();
  let fromCache = false;
  /** `navigator.storage.persist()` asked (once a page, at a save). */
  let persistAsked = false;
  /** `navigator.storage.persisted()` read (once a page, when entries of an earlier visit wait). */
  let persistChecked = false;
  /** Whether the browser keeps this site's storage under pressure; undefined: not known yet. @type {boolean | undefined} */
  let persisted;
  /** Why the last save was not kept (quota, a full outbox), until one is kept or stored. @type {string | undefined} */
  let refusal;
  /** Entries in the outbox, of everyone, at the last reading. */
  let total = 0;
  /** @type {((node: TreeNode, record: OutboxRecord, read: boolean) => Promise<void>) | undefined} */
  let opener;
  /** Told of what the outbox sent and of every change in what waits (the table view). @type {Watcher[]} */
  const watchers = [];
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL) : undefined;
  const who = createOwner(ctx, {
    endpoint,
    win,
    channel,
    outbox: () => outbox,
    sync: () => sync,
    view,
    watchers,
    refresh,
  });
  const discards = createDiscards(ctx, { win, channel, outbox: () => outbox, refresh });
  const senders = followSenders(ctx, {
    endpoint,
    win,
    channel,
    tree: parts.tree,
    treeMetrics: parts.treeMetrics,
    mine: () => mine,
    watchers,
    who,
    discards,
    refresh,
  });
  if (channel)
    channel.onmessage = (event) => {
      if (event.data?.type === 'sent') cleared();
      void senders.heard(event.data);
    };

  /** Why the outbox could not be opened, where that is not the browser keeping nothing. @type {string | undefined} */
  let openRefused;
  const opened = openOutbox({ doc, endpoint }).then(
    (box) => {
      outbox = box;
      showWarning();
      sync = createSync({
        outbox: box,
        endpoint,
        taskSheet: ctx.taskSheet,
        win,
        onSent: (records, answer, gone) => {
          // A save stored from the outbox: why an earlier one was not kept is no longer what is so.
          cleared();
          senders.onSent(records, answer, gone);
        },
        onUnsent: senders.onUnsent,
        onDone: senders.onDone,
        onSettled: senders.onSettled,
      });
      return refresh();
    },
    (error) => {
      openRefused = error instanceof OutboxError && error.code === 'newer' ? labels.outboxNewer : undefined;
      view.warn(openRefused ?? labels.outboxUnavailable);
    },
  );

  const onLine = () => {
    showNotice();
    if (win.navigator.onLine) ctx.announce(labels.offlineBack);
  };
  win.addEventListener('online', onLine);
  win.addEventListener('offline', onLine);
  // Back to this page (from another tab, where someone may have signed in): who is signed in, asked.
  const onShown = () => {
    if (doc.visibilityState === 'visible') void who.check();
  };
  doc.addEventListener('visibilitychange', onShown);

  /**
   * The one warning shown, the weightiest first: the outbox full or nearly, the last save refused,
   * entries lost to the browser clearing storage, entries waiting where the browser may clear it.
   */
  function showWarning() {
    view.warn(
      total >= MAX_OUTBOX_ENTRIES
        ? fill(labels.outboxFull, { max: MAX_OUTBOX_ENTRIES })
        : total >= NEARLY_FULL
          ? fill(labels.outboxNearlyFull, { count: total, max: MAX_OUTBOX_ENTRIES })
          : (refusal ??
            (outbox?.evicted
              ? labels.outboxEvicted
              : persisted === false && mine.some((record) => record.state === 'pending')
                ? labels.notPersisted
                : undefined)),
    );
  }

  /** A save was stored or kept: the refusal of an earlier one is no longer said. */
  function cleared() {
    if (refusal === undefined) return;
    refusal = undefined;
    showWarning();
  }

  /**
   * Offline, the notice says so; online, that some of what is shown was read from the browser's
   * cache (offline, or when the server could not be reached: the branches read then stay as read
   * until the page is loaded again). "You are offline" stayed on screen once the network was back.
   */
  function showNotice() {
    view.showOffline(!win.navigator.onLine, fromCache, readAt);
  }

  /** Reads the outbox again, and draws what changed: the list, the count, the tree's chips. */
  async function refresh() {
    if (!outbox || ctx.destroyed()) return;
    const all = await outbox.all();
    // What the worker or another page sent meanwhile is gone from the outbox: the cookie says so too.
    await outbox.mark(all.length);
    const sheet = all.filter((record) => record.endpoint === endpoint && record.taskSheet === ctx.taskSheet);
    const owner = who.key();
    const ownerConfirmed = who.confirmed();
    // Once the server said who is signed in, an unconfirmed entry is theirs only when claimed: until
    // then it is neither counted nor shown as waiting, nor does it hold new saves back.
    mine =
      owner === undefined
        ? []
        : sheet.filter((record) => record.owner === owner && !(ownerConfirmed && record.unconfirmed));
    claimable = ownerConfirmed ? sheet.filter((record) => record.unconfirmed) : [];
    const before = pending;
    const stoppedBefore = stoppedKeys;
    pending = pendingOf(mine);
    kept = keptOf(mine);
    stoppedKeys = new Set(
      mine.filter((record) => record.state !== 'pending').map((record) => keyOf(record.entry)),
    );
    const others = sheet.filter((record) => record.owner !== owner && !claimable.includes(record));
    view.render(mine, owner === undefined ? 0 : others.length, claimable);
    total = all.length;
    if (persisted === undefined && !persistChecked && pending.size > 0) {
      // Entries wait from an earlier visit: whether the browser may clear them, asked without a prompt.
      persistChecked = true;
      void isPersisted().then((kept) => {
        persisted ??= kept;
        if (!ctx.destroyed()) showWarning();
      });
    }
    showWarning();
    const discarded = discards.takeDiscarded();
    for (const watcher of watchers) watcher.changed(discarded);
    // What left the outbox other than by a sending this page heard the answer of, or a discard here
    // (a sender that said nothing, a decision in another tab, another person signed in now): only
    // the server knows what is stored, so it is read again.
    const answered = senders.takeAnswered();
    const unknown = new Set(
      [...before.keys()].filter((key) => !pending.has(key) && !answered.has(key) && !discarded.has(key)),
    );
    const changed = new Set([
      ...before.keys(),
      ...pending.keys(),
      // An entry that stopped, or was decided: its activity's mark in the tree comes or goes.
      ...[...stoppedBefore].filter((key) => !stoppedKeys.has(key)),
      ...[...stoppedKeys].filter((key) => !stoppedBefore.has(key)),
    ]);
    for (const node of parts.tree.nodes()) {
      if (node.data.kind !== 'task') continue;
      const key = keyOf({ activity: node.data.id, group: node.data.group });
      if (!changed.has(key)) continue;
      parts.treeMetrics.redraw(node);
      if (unknown.delete(key)) void parts.treeMetrics.refresh(node);
    }
  }

  /** Opens a conflicting entry's activity (the tree opened down to it), its conflict shown. @param {OutboxRecord} record */
  async function decide(record) {
    // The node the path leads to, never the one that happens to hold the focus: an activity hangs
    // under each of its groups, and the entry is one group's metric row.
    const node = await parts.tree.openPath(record.path);
    if (!node || !opener || keyOf({ activity: node.data.id, group: node.data.group }) !== keyOf(record.entry))
      return;
    // Decided against what is stored now, not when it stopped: `read` says whether the server answered.
    const read = await parts.treeMetrics.refresh(node);
    await opener(node, record, read);
  }

  async function keep() {
    view.keeping(true, fill(labels.keeping, { count: 0 }));
    try {
      const roots = [...parts.tree.nodes()].filter((node) => node.parent === null).map((node) => node.data);
      const result = await keepSheet(ctx.api, roots, {
        progress: (count) => view.keeping(true, fill(labels.keeping, { count })),
      });
      view.keeping(
        false,
        !result.stored
          ? labels.keepNoSpace
          : result.complete
            ? fill(labels.kept, { count: result.branches })
            : fill(labels.keepTooLarge, { max: MAX_KEEP_BYTES / 1024 / 1024 }),
      );
    } catch (error) {
      view.keeping(
        false,
        fill(labels.keepFailed, { message: error instanceof Error ? error.message : String(error) }),
      );
    }
  }

  return {
    root: view.root,
    /**
     * The start was read: whose entries this page files and sends. `confirmed`: the server said so
     * (false when the browser's cache answered: its entries are then kept unconfirmed).
     * @param {string | undefined} key @param {boolean} [confirmed]
     */
    setOwner(key, confirmed = true) {
      who.set(key, confirmed);
      showNotice();
      // The server answered: kept answers past their age can go (offline, they may be all there is),
      // and those a save's answer left unsure, without the signal to read them again then, are read.
      if (confirmed) {
        void pruneData();
        void readKeptAgain({ endpoint, taskSheet: ctx.taskSheet });
      }
      // Other pages of the handler learn who is signed in now (they ask the server for their sheet).
      if (confirmed && key !== undefined) channel?.postMessage({ type: 'owner', endpoint, owner: key });
      void opened.then(() => {
        void refresh();
        if (win.navigator.onLine) sync?.kick();
      });
    },
    /** A read was answered from the browser's cache, its data read at `at`. @param {string | null} at */
    readFromCache(at) {
      fromCache = true;
      readAt = at;
      showNotice();
    },
    /** Whether a save goes to the outbox rather than the network: offline, or entries wait before it. */
    shouldQueue() {
      return !win.navigator.onLine || mine.some((record) => record.state === 'pending');
    },
    /**
     * Keeps saves in the outbox, all or none, and has them sent when it can. `tried`: they were sent
     * once, as one request, without an answer: they keep its id and source and go again as it was.
     * Rejects with a RequestError saying why they were not kept.
     * @param {readonly Queued[]} saves in the order entered
     * @param {{ requestId: string, source: import('./api.js').SaveSource }} [tried]
     */
    async queue(saves, tried) {
      await opened;
      if (!outbox || who.key() === undefined)
        throw new RequestError(0, openRefused ?? labels.outboxUnavailable, 'OUTBOX_UNAVAILABLE', undefined);
      const enteredAt = new Date().toISOString();
      // Filed under whoever is signed in now, asked where the network allows (someone else may have
      // signed in on this browser since the page was opened); where it does not, filed unchecked.
      const checked = !tried && who.confirmed() && (await who.check());
      const by = /** @type {string} */ (who.key());
      try {
        await outbox.add(
          saves.map(({ entry, label, path, copied }) => ({
            owner: by,
            endpoint,
            taskSheet: ctx.taskSheet,
            requestId: tried?.requestId ?? newRequestId(),
            ...(!who.confirmed()
              ? { unconfirmed: true, page: who.pageId }
              : checked
                ? {}
                : { unchecked: true, page: who.pageId }),
            ...(tried
              ? { tried: true, source: tried.source, batch: { id: tried.requestId, size: saves.length } }
              : copied
                ? { source: /** @type {const} */ ('copy') }
                : {}),
            enteredAt,
            entry,
            label,
            path,
          })),
        );
      } catch (error) {
        const code = error instanceof OutboxError ? error.code : 'unavailable';
        const held = error instanceof OutboxError ? (error.held ?? MAX_OUTBOX_ENTRIES) : 0;
        // Full is said as it is: the outbox at its maximum, or this save larger than the room left.
        const text =
          code === 'full'
            ? held >= MAX_OUTBOX_ENTRIES
              ? fill(labels.outboxFull, { max: MAX_OUTBOX_ENTRIES })
              : fill(labels.outboxNoRoom, { count: saves.length, free: MAX_OUTBOX_ENTRIES - held })
            : code === 'quota'
              ? labels.outboxQuota
              : code === 'newer'
                ? labels.outboxNewer
                : labels.outboxUnavailable;
        // A save sent once without an answer and too large for the room left is no refusal of a
        // new save: it may be stored already, and its sender says so (table-save.js). The outbox
        // full is still said, from its count (`showWarning`), when it is.
        if (!(tried && code === 'full')) refusal = text;
        showWarning();
        throw new RequestError(0, text, `OUTBOX_${code.toUpperCase()}`, undefined);
      }
      refusal = undefined;
      if (who.confirmed() && !checked) who.noteUnchecked();
      if (!persistAsked) {
        // Asked at a save, the person's own act (a browser may ask them); said while entries wait.
        persistAsked = true;
        void askToPersist().then((kept) => {
          persisted = kept;
          if (!ctx.destroyed()) showWarning();
        });
      }
      channel?.postMessage({ type: 'changed' });
      await refresh();
      void sync?.registerBackground();
      if (win.navigator.onLine) sync?.kick();
    },
    /** A save was stored, sent directly: the refusal of an earlier one is no longer said. */
    stored() {
      cleared();
    },
    /** An entry decided in the modal was saved (or queued again): it leaves the outbox. @param {OutboxRecord} record */
    async resolved(record) {
      await outbox?.remove([record.seq]);
      channel?.postMessage({ type: 'changed' });
      await refresh();
    },
    /**
     * An activity's data with what waits in the outbox laid over it: the values its next save
     * starts from (each the base of the next), as the server will have them once these are sent.
     * @param {ScreenNode} data
     * @returns {ScreenNode}
     */
    overlay(data) {
      const laid = overlay(ctx.columns, pending, { activity: data.id, group: data.group }, data.metrics);
      return laid ? { ...data, ...laid } : data;
    },
    /**
     * The same for a row of the table view, with the values of its entries stopped for a decision
     * too: a cell shows the person's value, marked not sent, rather than what the server holds.
     * @param {SheetRow} row @returns {SheetRow}
     */
    overlayRow(row) {
      const laid = overlay(ctx.columns, kept, row, row.metrics);
      return laid ? { ...row, ...laid, filled: laid.filled || (row.filled && !laid.removed) } : row;
    },
    /**
     * Whether what the outbox keeps of an activity ends with a remove of its entry (waiting; with
     * `stopped`, stopped for a decision too): the views show no values for it, and what applies
     * without the entry, its defaults, only the server knows.
     * @param {{ activity: number, group?: number | null | undefined }} key
     * @param {{ stopped?: boolean }} [how]
     */
    removeKept(key, { stopped = false } = {}) {
      return (stopped ? kept : pending).get(keyOf(key))?.remove === true;
    },
    /**
     * The fields of an activity whose values wait to be sent (every field for a remove), or
     * undefined when nothing of it waits.
     * @param {{ activity: number, group?: number | null | undefined }} key @returns {Set<string> | undefined}
     */
    pendingFields(key) {
      return pendingFields(ctx.columns, pending, key);
    },
    /**
     * The fields of an activity whose values the outbox keeps, waiting or stopped: those
     * {@link overlayRow} lays over the server's. @param {{ activity: number, group?: number | null | undefined }} key
     * @returns {Set<string> | undefined}
     */
    keptFields(key) {
      return pendingFields(ctx.columns, kept, key);
    },
    /**
     * The fields of an activity whose entry stopped in the outbox (a conflict, a refusal: every
     * field for a remove), or undefined when none did: the table shows them as not sent.
     * @param {{ activity: number, group?: number | null | undefined }} key @returns {Set<string> | undefined}
     */
    stoppedFields(key) {
      return stoppedFields(ctx.columns, mine, key);
    },
    /**
     * Whether an entry of this activity stopped in the outbox for a decision (a conflict, a
     * refusal): the tree and the modal say so, the list being hidden until asked for.
     * @param {{ activity: number, group?: number | null | undefined }} key
     */
    isStopped(key) {
      return stoppedKeys.has(keyOf(key));
    },
    /**
     * The modal's way to open an entry for a decision, `read`: whether its activity was just read again.
     * @param {(node: TreeNode, record: OutboxRecord, read: boolean) => Promise<void>} open
     */
    setOpener(open) {
      opener = open;
    },
    /** Tells `watcher` what the outbox sent and when what waits changes. @param {Watcher} watcher */
    watch(watcher) {
      watchers.push(watcher);
    },
    /**
     * Whose entries the page files, and whether the server said so: the drafts (drafts.js) are kept
     * under the same owner, so what one person typed is never shown to another.
     */
    owner: () => ({ key: who.key(), confirmed: who.confirmed() }),
    /**
     * The server refused a save sent straight from the page for its owner (409 `OWNER_CHANGED`):
     * someone else signed in on this browser, in a window that never told this page. Learnt as
     * when the page is shown again: asked who, and the page files as them (the open form closes,
     * its typing kept as the person's who typed it), the notice shown but not said: the save's
     * refusal says it, once. Resolves once asked.
     */
    signedInElsewhere: () => who.check({ quiet: true }),
    /** Sends now (tests, the bench). */
    kick: () => sync?.kick(),
    destroy() {
      sync?.destroy();
      channel?.close();
      win.removeEventListener('online', onLine);
      win.removeEventListener('offline', onLine);
      doc.removeEventListener('visibilitychange', onShown);
      void opened.then(() => outbox?.close());
    },
  };
}

/** @typedef {ReturnType<typeof createOffline>} Offline */
