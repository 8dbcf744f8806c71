// @ts-check
/**
 * The screen offline (#28), wired together: the outbox (outbox.js) filed under the owner key the
 * server gave with `part=start`, its sending (sync.js), its view (offline-view.js), the values it
 * holds shown in the tree and preset in the modal, and "Keep this sheet for offline use"
 * (offline-cache.js). Works on a host's own page too: nothing here needs the service worker.
 */

import { newRequestId, RequestError } from './api.js';
import { fill } from './labels.js';
import { keepSheet, MAX_KEEP_BYTES, pruneData } from './offline-cache.js';
import { createOfflineView } from './offline-view.js';
import { askToPersist, isPersisted, MAX_OUTBOX_ENTRIES, OutboxError, openOutbox } from './outbox.js';
import { CHANNEL, createSync, RetryLater } from './sync.js';
import { asStored } from './values.js';

/** @typedef {import('./outbox.js').OutboxRecord} OutboxRecord */
/** @typedef {import('./outbox.js').Outbox} Outbox */
/** @typedef {import('./tree.js').TreeNode} TreeNode */
/** @typedef {import('./api.js').ScreenNode} ScreenNode */
/** @typedef {import('./api.js').MetricEntry} MetricEntry */
/** @typedef {import('./api.js').ScreenMetric} ScreenMetric */
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
 * with the keys whose entries were discarded on this page since; `reread`, the sheet's owner changed.
 * @typedef {{ sent: (answer: import('./api.js').SaveResult, later: ReadonlySet<string>) => void,
 *   changed: (discarded: ReadonlySet<string>) => void, reread?: () => void }} Watcher
 */

/** From this many waiting entries on, the screen warns that the outbox fills up. */
const NEARLY_FULL = Math.floor(MAX_OUTBOX_ENTRIES * 0.9);

/** @param {{ activity: number, group?: number | null | undefined }} entry */
const keyOf = (entry) => `${entry.activity}:${entry.group ?? ''}`;

/**
 * @param {import('./dom.js').ScreenContext} ctx
 * @param {{ endpoint: string, tree: import('./tree.js').Tree, treeMetrics: import('./tree-metrics.js').TreeMetrics }} parts
 */
export function createOffline(ctx, parts) {
  const { labels, doc } = ctx;
  const win = doc.defaultView ?? window;
  const endpoint = new URL(parts.endpoint, doc.baseURI).href;
  const view = createOfflineView(ctx, { discard, decide, keep, claim });
  /** This page, on the entries it keeps while its owner is not confirmed. */
  const pageId = newRequestId();
  /** @type {Outbox | undefined} */
  let outbox;
  /** @type {import('./sync.js').Sync | undefined} */
  let sync;
  /** @type {string | undefined} */
  let owner;
  /**
   * Whether the server said `owner` is who is signed in: false while it came from the browser's
   * cache (a page opened offline), whose entries are then kept unconfirmed.
   */
  let ownerConfirmed = false;
  /** Entries of this sheet typed on pages opened offline, which the confirmed owner may claim. @type {OutboxRecord[]} */
  let claimable = [];
  /** This person's entries of this sheet, in the order entered. @type {OutboxRecord[]} */
  let mine = [];
  /** The values each activity waits to send, merged in order. @type {Map<string, { values: Record<string, unknown>, remove: boolean }>} */
  let pending = new Map();
  /** When the data shown was read (null: a cached copy of unknown age). @type {string | null} */
  let readAt = new Date().toISOString();
  let fromCache = false;
  /** `navigator.storage.persist()` asked (once a page, at a save). */
  let persistAsked = false;
  /** `navigator.storage.persisted()` read (once a page, when entries of an earlier visit wait). */
  let persistChecked = false;
  /** Whether the browser keeps this site's storage under pressure; undefined: not known yet. @type {boolean | undefined} */
  let persisted;
  /** Why the last save was not kept (quota, a full outbox), until one is. @type {string | undefined} */
  let refusal;
  /** Entries in the outbox, of everyone, at the last reading. */
  let total = 0;
  /** @type {((node: TreeNode, record: OutboxRecord) => Promise<void>) | undefined} */
  let opener;
  /** Entries discarded on this page, told apart if a batch already on its way stores them. @type {Set<number>} */
  const discardedSeqs = new Set();
  /** Keys of entries discarded on this page since the watchers were last told of a change. @type {Set<string>} */
  const discardedKeys = new Set();
  /** What to say of them with the next "sent" announcement. @type {string[]} */
  const sentDespite = [];
  /** Told of what the outbox sent and of every change in what waits (the table view). @type {Watcher[]} */
  const watchers = [];
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL) : undefined;
  if (channel) channel.onmessage = () => void refresh();

  const opened = openOutbox({ doc, endpoint }).then(
    (box) => {
      outbox = box;
      showWarning();
      sync = createSync({ outbox: box, endpoint, taskSheet: ctx.taskSheet, win, onSent, onSettled });
      return refresh();
    },
    () => view.warn(labels.outboxUnavailable),
  );

  const onLine = () => {
    showNotice();
    if (win.navigator.onLine) ctx.announce(labels.offlineBack);
  };
  win.addEventListener('online', onLine);
  win.addEventListener('offline', onLine);

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

  function showNotice() {
    view.showOffline(!win.navigator.onLine || fromCache, readAt);
  }

  /** Reads the outbox again, and draws what changed: the list, the count, the tree's chips. */
  async function refresh() {
    if (!outbox || ctx.destroyed()) return;
    const all = await outbox.all();
    // What the worker or another page sent meanwhile is gone from the outbox: the cookie says so too.
    await outbox.mark(all.length);
    const sheet = all.filter((record) => record.endpoint === endpoint && record.taskSheet === ctx.taskSheet);
    // Once the server said who is signed in, an unconfirmed entry is theirs only when claimed: until
    // then it is neither counted nor shown as waiting, nor does it hold new saves back.
    mine =
      owner === undefined
        ? []
        : sheet.filter((record) => record.owner === owner && !(ownerConfirmed && record.unconfirmed));
    claimable = ownerConfirmed ? sheet.filter((record) => record.unconfirmed) : [];
    const before = pending;
    pending = new Map();
    for (const record of mine) {
      if (record.state !== 'pending') continue;
      const key = keyOf(record.entry);
      const merged = pending.get(key) ?? { values: {}, remove: false };
      if (record.entry.remove) pending.set(key, { values: {}, remove: true });
      else pending.set(key, { values: { ...merged.values, ...record.entry.values }, remove: merged.remove });
    }
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
    const discarded = new Set(discardedKeys);
    discardedKeys.clear();
    for (const watcher of watchers) watcher.changed(discarded);
    const changed = new Set([...before.keys(), ...pending.keys()]);
    for (const node of parts.tree.nodes()) {
      if (node.data.kind === 'task' && changed.has(keyOf({ activity: node.data.id, group: node.data.group })))
        parts.treeMetrics.redraw(node);
    }
  }

  /**
   * A batch the outbox sent: the tree shows each activity as stored.
   * @param {OutboxRecord[]} records @param {import('./api.js').SaveResult} answer
   */
  function onSent(records, answer) {
    // A key with a later entry still waiting keeps showing that one (it is what will be stored).
    const sentSeqs = new Set(records.map((record) => record.seq));
    const later = new Set(
      mine
        .filter((record) => !sentSeqs.has(record.seq) && record.state === 'pending')
        .map((record) => keyOf(record.entry)),
    );
    for (const watcher of watchers) watcher.sent(answer, later);
    // Discarded while their batch was already on its way, and stored by it: said with the sending.
    for (const record of records) {
      if (discardedSeqs.delete(record.seq))
        sentDespite.push(fill(labels.sentBeforeDiscard, { label: record.label }));
    }
    const done = new Set();
    for (const record of records) {
      const key = keyOf(record.entry);
      if (done.has(key)) continue;
      done.add(key);
      for (const node of parts.tree.nodes()) {
        if (node.data.kind === 'task' && keyOf({ activity: node.data.id, group: node.data.group }) === key) {
          parts.treeMetrics.applySaved(node, answer);
          break;
        }
      }
    }
    channel?.postMessage({ type: 'changed' });
  }

  /**
   * What waits in the outbox for one key, laid over its metrics, or undefined when nothing waits.
   * @param {{ activity: number, group?: number | null | undefined }} key
   * @param {Readonly<Record<string, ScreenMetric>> | undefined} shown
   */
  function overlay(key, shown) {
    const waiting = pending.get(keyOf(key));
    if (!waiting) return undefined;
    /** @type {Record<string, ScreenMetric>} */
    const metrics = {};
    if (!waiting.remove) Object.assign(metrics, shown);
    let filled = false;
    for (const column of ctx.columns) {
      if (waiting.remove && !(column.field in waiting.values))
        metrics[column.field] = { value: null, source: 'none' };
      if (column.field in waiting.values) {
        const value = /** @type {import('./api.js').MetricValue} */ (waiting.values[column.field]);
        // As the column will store it: "21.50" for the "21.5" typed, as the tree shows a saved value.
        metrics[column.field] = { value: value === null ? null : asStored(value, column), source: 'saved' };
        filled ||= value !== null;
      }
    }
    return { metrics, filled, removed: waiting.remove, ...(waiting.remove ? { lastChange: null } : {}) };
  }

  /** @param {{ owner: string, sent: number, stopped: number } | RetryLater} outcome */
  function onSettled(outcome) {
    if (ctx.destroyed()) return;
    if (!(outcome instanceof RetryLater) && !ownerConfirmed) void confirmOwner(outcome.owner);
    void refresh();
    if (outcome instanceof RetryLater) {
      if (mine.some((record) => record.state === 'pending') && win.navigator.onLine)
        ctx.announce(labels.sendFailed);
      return;
    }
    if (outcome.sent > 0)
      ctx.announce([fill(labels.sentAll, { count: outcome.sent }), ...sentDespite.splice(0)].join(' '));
  }

  /**
   * The server said who is signed in (the page opened offline, and the network is back): the page
   * files and sends as them from now on. What this page kept unconfirmed is theirs when they are the
   * owner it read from the cache (the same person, typing on this page); else it waits to be claimed.
   * @param {string} signedIn
   */
  async function confirmOwner(signedIn) {
    const same = signedIn === owner;
    owner = signedIn;
    ownerConfirmed = true;
    if (same) await adopt((record) => record.page === pageId);
    await refresh();
    if (!same) for (const watcher of watchers) watcher.reread?.();
  }

  /**
   * Files the unconfirmed entries of this sheet that `take` picks as the confirmed owner's, and has
   * them sent. @param {(record: OutboxRecord) => boolean} take
   * @returns {Promise<number>} how many
   */
  async function adopt(take) {
    if (!outbox || owner === undefined) return 0;
    const by = owner;
    const all = await outbox.all();
    const taken = all
      .filter(
        (record) =>
          record.endpoint === endpoint &&
          record.taskSheet === ctx.taskSheet &&
          record.unconfirmed &&
          take(record),
      )
      .map((record) => {
        const { unconfirmed: _unconfirmed, page: _page, ...rest } = record;
        return { ...rest, owner: by };
      });
    if (taken.length === 0) return 0;
    await outbox.put(taken);
    channel?.postMessage({ type: 'changed' });
    // Theirs now: sent by the page, or by the worker if the page closes first.
    void sync?.registerBackground();
    sync?.kick();
    return taken.length;
  }

  /** The person signed in says the entries typed on pages opened offline are theirs. */
  async function claim() {
    const count = await adopt(() => true);
    await refresh();
    if (count > 0) ctx.announce(fill(labels.claimed, { count }));
  }

  /** @param {OutboxRecord} record */
  async function discard(record) {
    if (!outbox) return;
    // Out at once: no later batch sends it, and a refused batch's write-back does not bring it back.
    // One already sent (by another tab or the worker), or in a batch the server takes meanwhile, is
    // said to be saved (see onSent).
    const found = await outbox.remove([record.seq]);
    if (found > 0) {
      discardedSeqs.add(record.seq);
      discardedKeys.add(keyOf(record.entry));
    }
    channel?.postMessage({ type: 'changed' });
    await refresh();
    // A batch it went out in without an answer may have reached the server: said, not hidden.
    const said =
      found === 0 ? labels.sentBeforeDiscard : record.batch ? labels.discardedMaybeSent : labels.discarded;
    ctx.announce(fill(said, { label: record.label }));
  }

  /** Opens a conflicting entry's activity (the tree opened down to it), its conflict shown. @param {OutboxRecord} record */
  async function decide(record) {
    // The node the path leads to, never the one that happens to hold the focus: an activity hangs
    // under each of its groups, and the entry is one group's metric row.
    const node = await parts.tree.openPath(record.path);
    if (
      !node ||
      !opener ||
      keyOf({ activity: node.data.id, group: node.data.group ?? null }) !== keyOf(record.entry)
    )
      return;
    await parts.treeMetrics.refresh(node);
    await opener(node, record);
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
      owner = key;
      ownerConfirmed = confirmed;
      showNotice();
      // The server answered: kept answers past their age can go (offline, they may be all there is).
      if (confirmed) void pruneData();
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
      if (!outbox || owner === undefined)
        throw new RequestError(0, labels.outboxUnavailable, 'OUTBOX_UNAVAILABLE', undefined);
      const enteredAt = new Date().toISOString();
      const by = owner;
      try {
        await outbox.add(
          saves.map(({ entry, label, path, copied }) => ({
            owner: by,
            endpoint,
            taskSheet: ctx.taskSheet,
            requestId: tried?.requestId ?? newRequestId(),
            ...(ownerConfirmed ? {} : { unconfirmed: true, page: pageId }),
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
        const text =
          code === 'full'
            ? fill(labels.outboxFull, { max: MAX_OUTBOX_ENTRIES })
            : code === 'quota'
              ? labels.outboxQuota
              : labels.outboxUnavailable;
        refusal = text;
        showWarning();
        throw new RequestError(0, text, `OUTBOX_${code.toUpperCase()}`, undefined);
      }
      refusal = undefined;
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
      const laid = overlay({ activity: data.id, group: data.group }, data.metrics);
      return laid ? { ...data, ...laid } : data;
    },
    /** The same for a row of the table view. @param {SheetRow} row @returns {SheetRow} */
    overlayRow(row) {
      const laid = overlay(row, row.metrics);
      return laid ? { ...row, ...laid, filled: laid.filled || (row.filled && !laid.removed) } : row;
    },
    /**
     * The fields of an activity whose values wait to be sent (every field for a remove), or
     * undefined when nothing of it waits.
     * @param {{ activity: number, group?: number | null | undefined }} key @returns {Set<string> | undefined}
     */
    pendingFields(key) {
      const waiting = pending.get(keyOf(key));
      if (!waiting) return undefined;
      return new Set(
        waiting.remove ? ctx.columns.map((column) => column.field) : Object.keys(waiting.values),
      );
    },
    /**
     * The fields of an activity whose entry stopped in the outbox (a conflict, a refusal: every
     * field for a remove), or undefined when none did: the table shows them as not sent.
     * @param {{ activity: number, group?: number | null | undefined }} key @returns {Set<string> | undefined}
     */
    stoppedFields(key) {
      const wanted = keyOf(key);
      /** @type {Set<string> | undefined} */
      let fields;
      for (const record of mine) {
        if (record.state === 'pending' || keyOf(record.entry) !== wanted) continue;
        fields ??= new Set();
        for (const field of record.entry.remove
          ? ctx.columns.map((column) => column.field)
          : Object.keys(record.entry.values ?? {}))
          fields.add(field);
      }
      return fields;
    },
    /** The modal's way to open an entry for a decision. @param {(node: TreeNode, record: OutboxRecord) => Promise<void>} open */
    setOpener(open) {
      opener = open;
    },
    /** Tells `watcher` what the outbox sent and when what waits changes. @param {Watcher} watcher */
    watch(watcher) {
      watchers.push(watcher);
    },
    /** Sends now (tests, the bench). */
    kick: () => sync?.kick(),
    destroy() {
      sync?.destroy();
      channel?.close();
      win.removeEventListener('online', onLine);
      win.removeEventListener('offline', onLine);
      void opened.then(() => outbox?.close());
    },
  };
}

/** @typedef {ReturnType<typeof createOffline>} Offline */
