// @ts-check
/**
 * The screen offline (#28), wired together: the outbox (outbox.js) filed under the owner key the
 * server gave with `part=start`, its sending (sync.js), its view (offline-view.js), the values it
 * holds shown in the tree and preset in the modal, and "Keep this sheet for offline use"
 * (offline-cache.js). Works on a host's own page too: nothing here needs the service worker.
 */

import { newRequestId, RequestError } from './api.js';
import { fill } from './labels.js';
import { keepSheet, MAX_KEEP_BYTES } from './offline-cache.js';
import { createOfflineView } from './offline-view.js';
import { askToPersist, MAX_OUTBOX_ENTRIES, OutboxError, openOutbox } from './outbox.js';
import { CHANNEL, createSync, RetryLater } from './sync.js';
import { asStored } from './values.js';

/** @typedef {import('./outbox.js').OutboxRecord} OutboxRecord */
/** @typedef {import('./outbox.js').Outbox} Outbox */
/** @typedef {import('./tree.js').TreeNode} TreeNode */
/** @typedef {import('./api.js').ScreenNode} ScreenNode */
/** @typedef {import('./api.js').MetricEntry} MetricEntry */
/** @typedef {import('./api.js').ScreenMetric} ScreenMetric */

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
  const view = createOfflineView(ctx, { discard, decide, keep });
  /** @type {Outbox | undefined} */
  let outbox;
  /** @type {import('./sync.js').Sync | undefined} */
  let sync;
  /** @type {string | undefined} */
  let owner;
  /** This person's entries of this sheet, in the order entered. @type {OutboxRecord[]} */
  let mine = [];
  /** The values each activity waits to send, merged in order. @type {Map<string, { values: Record<string, unknown>, remove: boolean }>} */
  let pending = new Map();
  /** When the data shown was read (null: a cached copy of unknown age). @type {string | null} */
  let readAt = new Date().toISOString();
  let fromCache = false;
  let persistAsked = false;
  /** @type {((node: TreeNode, record: OutboxRecord) => Promise<void>) | undefined} */
  let opener;
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL) : undefined;
  if (channel) channel.onmessage = () => void refresh();

  const opened = openOutbox({ doc }).then(
    (box) => {
      outbox = box;
      if (box.evicted) view.warn(labels.outboxEvicted);
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

  function showNotice() {
    view.showOffline(!win.navigator.onLine || fromCache, readAt);
  }

  /** Reads the outbox again, and draws what changed: the list, the count, the tree's chips. */
  async function refresh() {
    if (!outbox || ctx.destroyed()) return;
    const all = await outbox.all();
    const sheet = all.filter((record) => record.endpoint === endpoint && record.taskSheet === ctx.taskSheet);
    mine = owner === undefined ? [] : sheet.filter((record) => record.owner === owner);
    const before = pending;
    pending = new Map();
    for (const record of mine) {
      if (record.state !== 'pending') continue;
      const key = keyOf(record.entry);
      const merged = pending.get(key) ?? { values: {}, remove: false };
      if (record.entry.remove) pending.set(key, { values: {}, remove: true });
      else pending.set(key, { values: { ...merged.values, ...record.entry.values }, remove: merged.remove });
    }
    view.render(mine, owner === undefined ? 0 : sheet.length - mine.length);
    if (all.length >= MAX_OUTBOX_ENTRIES) view.warn(fill(labels.outboxFull, { max: MAX_OUTBOX_ENTRIES }));
    else if (all.length >= NEARLY_FULL)
      view.warn(fill(labels.outboxNearlyFull, { count: all.length, max: MAX_OUTBOX_ENTRIES }));
    else if (!outbox.evicted) view.warn(undefined);
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

  /** @param {{ owner: string, sent: number, stopped: number } | RetryLater} outcome */
  function onSettled(outcome) {
    if (ctx.destroyed()) return;
    void refresh();
    if (outcome instanceof RetryLater) {
      if (mine.some((record) => record.state === 'pending') && win.navigator.onLine)
        ctx.announce(labels.sendFailed);
      return;
    }
    if (outcome.sent > 0) ctx.announce(fill(labels.sentAll, { count: outcome.sent }));
  }

  /** @param {OutboxRecord} record */
  async function discard(record) {
    if (!outbox) return;
    await outbox.remove([record.seq]);
    channel?.postMessage({ type: 'changed' });
    await refresh();
    ctx.announce(fill(labels.discarded, { label: record.label }));
  }

  /** Opens a conflicting entry's activity (the tree opened down to it), its conflict shown. @param {OutboxRecord} record */
  async function decide(record) {
    await parts.tree.openPath(record.path);
    const node = parts.tree.currentNode();
    if (!node || node.data.id !== record.entry.activity || !opener) return;
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
        result.complete
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
    /** The start was read: whose entries this page files and sends. @param {string | undefined} key */
    setOwner(key) {
      owner = key;
      showNotice();
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
     * Keeps a save in the outbox and has it sent when it can. `tried`: it was sent once without an
     * answer, under the api's request id. Rejects with a RequestError saying why it was not kept.
     * @param {TreeNode} node @param {MetricEntry} entry @param {boolean} tried
     */
    async queue(node, entry, tried) {
      await opened;
      if (!outbox || owner === undefined)
        throw new RequestError(0, labels.outboxUnavailable, 'OUTBOX_UNAVAILABLE', undefined);
      /** @type {{ level: number, id: number }[]} */
      const path = [];
      for (let up = /** @type {TreeNode | null} */ (node); up; up = up.parent)
        path.unshift({ level: up.data.level, id: up.data.id });
      try {
        await outbox.add({
          owner,
          endpoint,
          taskSheet: ctx.taskSheet,
          requestId: (tried ? ctx.api.attemptId() : undefined) ?? newRequestId(),
          ...(tried ? { tried: true } : {}),
          enteredAt: new Date().toISOString(),
          entry,
          label: node.data.label,
          path,
        });
      } catch (error) {
        const code = error instanceof OutboxError ? error.code : 'unavailable';
        const text =
          code === 'full'
            ? fill(labels.outboxFull, { max: MAX_OUTBOX_ENTRIES })
            : code === 'quota'
              ? labels.outboxQuota
              : labels.outboxUnavailable;
        view.warn(text);
        throw new RequestError(0, text, `OUTBOX_${code.toUpperCase()}`, undefined);
      }
      ctx.api.forgetAttempt();
      if (!persistAsked) {
        persistAsked = true;
        void askToPersist().then((kept) => {
          if (!kept && !ctx.destroyed() && mine.length > 0) view.warn(labels.notPersisted);
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
      const waiting = pending.get(keyOf({ activity: data.id, group: data.group }));
      if (!waiting) return data;
      /** @type {Record<string, ScreenMetric>} */
      const metrics = {};
      if (!waiting.remove) Object.assign(metrics, data.metrics);
      for (const column of ctx.columns) {
        if (waiting.remove && !(column.field in waiting.values))
          metrics[column.field] = { value: null, source: 'none' };
        if (column.field in waiting.values) {
          const value = /** @type {import('./api.js').MetricValue} */ (waiting.values[column.field]);
          // As the column will store it: "21.50" for the "21.5" typed, as the tree shows a saved value.
          metrics[column.field] = { value: value === null ? null : asStored(value, column), source: 'saved' };
        }
      }
      return { ...data, metrics, ...(waiting.remove ? { lastChange: null } : {}) };
    },
    /**
     * The fields of an activity whose values wait to be sent (every field for a remove), or
     * undefined when nothing of it waits.
     * @param {ScreenNode} data @returns {Set<string> | undefined}
     */
    pendingFields(data) {
      const waiting = pending.get(keyOf({ activity: data.id, group: data.group }));
      if (!waiting) return undefined;
      return new Set(
        waiting.remove ? ctx.columns.map((column) => column.field) : Object.keys(waiting.values),
      );
    },
    /** The modal's way to open an entry for a decision. @param {(node: TreeNode, record: OutboxRecord) => Promise<void>} open */
    setOpener(open) {
      opener = open;
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
