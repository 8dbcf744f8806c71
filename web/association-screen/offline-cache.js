// @ts-check
/**
 * The screen's data in the browser's Cache Storage, network first: each `part=start` and
 * `part=children` answer read is kept (with when it was read), and a read that gets no answer is
 * answered from there, saying when its data was read. Done by the page itself, so a host's own
 * page (no service worker of ours) has it too. The page and the module files are the service
 * worker's (association-screen-sw.js): `registerServiceWorker` starts it on the handler's own page.
 *
 * "Keep this sheet for offline use" (`keepSheet`) reads every branch of the sheet once, so all of it
 * is in the cache, up to {@link MAX_KEEP_BYTES} of data.
 */

import { ask } from './ask.js';
import { keyOf } from './entry-key.js';
import { keysToReadAgain, readAgain } from './saved-answer.js';

/** @typedef {import('./api.js').ScreenNode} ScreenNode */

/** The cache of the screen's data answers (the service worker keeps the files in its own). */
export const DATA_CACHE = 'task-association-data-v1';
/** The most data "Keep this sheet" reads: 5 MB of JSON, about 20,000 activities with their metrics. */
export const MAX_KEEP_BYTES = 5 * 1024 * 1024;
/**
 * How long a kept answer stays: 30 days after it was read. Every sheet and branch read is kept, so
 * without an end a phone used daily fills its storage with sheets nobody opens again, until the
 * browser refuses the space and "Keep this sheet" fails.
 */
export const MAX_DATA_AGE_MS = 30 * 24 * 60 * 60 * 1000;
/** The Web Lock the writes of kept answers take turns by (`inTurn`). */
const DATA_LOCK = 'task-association-data';
/** The header a kept answer carries its reading time in. */
const READ_AT = 'x-task-association-read-at';
/**
 * The header of a kept answer that may no longer show what is stored (see `keepAnswer`): read
 * again from the server at the next chance, and kept anew without it.
 */
const READ_AGAIN = 'x-task-association-read-again';

/** The writes of data answers not yet done: "Keep this sheet" says kept once they are. @type {Set<Promise<void>>} */
const writing = new Set();

/** Whether the browser has Cache Storage here (secure contexts only: https and localhost). */
const hasCaches = () => typeof caches !== 'undefined';

/**
 * Keeps a data answer, with the time it was read. Never fails the read it follows: a full or
 * missing cache only means that answer is not there offline.
 * @param {URL} url @param {unknown} answer
 */
export function rememberData(url, answer) {
  const write = writeData(url, answer).finally(() => writing.delete(write));
  writing.add(write);
  return write;
}

/** Data writes that failed (quota, no Cache Storage), counted: "Keep this sheet" says so. */
let failedWrites = 0;

/** @param {URL} url @param {unknown} answer */
async function writeData(url, answer) {
  if (!hasCaches()) {
    failedWrites++;
    return;
  }
  const readAt = new Date().toISOString();
  await inTurn(async () => {
    try {
      await putData(await caches.open(DATA_CACHE), url.href, answer, readAt);
    } catch {
      // Quota, or the cache was cleared meanwhile: the network answer stands.
      failedWrites++;
    }
  });
}

/**
 * Writes a data answer read at `readAt` (an ISO time), in a turn already taken.
 * @param {Cache} cache @param {string} href @param {unknown} answer @param {string} readAt
 */
function putData(cache, href, answer, readAt) {
  return cache.put(
    href,
    new Response(JSON.stringify(answer), {
      headers: { 'content-type': 'application/json', [READ_AT]: readAt },
    }),
  );
}

/**
 * Runs a write of kept answers in its turn, in the order asked, across the pages and the service
 * worker (a Web Lock where there is one): a save's answer written into a branch is never undone by
 * an older copy of it written after (see `keepAnswer`), and a read answered later stays the later.
 * @param {() => Promise<void>} write
 */
function inTurn(write) {
  const locks = globalThis.navigator?.locks;
  return locks ? locks.request(DATA_LOCK, write) : write();
}

/**
 * A data answer kept before, with when it was read; undefined when there is none.
 * @param {URL} url @returns {Promise<{ answer: unknown, readAt: string | null } | undefined>}
 */
export async function recallData(url) {
  if (!hasCaches()) return undefined;
  try {
    const found = await caches.match(url.href, { cacheName: DATA_CACHE });
    if (!found) return undefined;
    return { answer: await found.json(), readAt: found.headers.get(READ_AT) };
  } catch {
    return undefined;
  }
}

/**
 * Writes what a save stored into the kept answers that show its activities (`part=children` of the
 * activity's group, and `part=start` or the first level's `part=children` on a one-level tree),
 * so a sheet opened without network shows the entry as saved, not as it was read before the save.
 * Called once per answer, by whoever got it from the server: the api (the modal's and the table's
 * saves), the page's sender and the service worker's (the outbox). A kept answer keeps its reading
 * time: the offline notice says when the branch was read, and what this device saved since is in it.
 *
 * An entry whose answer does not say what is stored now (saved-answer.js `readAgain`: a replayed
 * answer, a removed entry) cannot be written in: the kept answers that show its activity are read
 * again from the server here and kept anew, whether or not a page shows that activity (the page
 * reads again only what its tree shows, and the service worker shows nothing). Without an answer
 * (the signal went again), they stay as they were, marked to be read again at the next chance: the
 * next answer that reads some again, or the next page of the sheet the server answers
 * (`readKeptAgain`), whichever comes first.
 * Never fails: a kept answer it cannot read or write stays as it was.
 * @param {{ endpoint: string, taskSheet: number }} sheet the handler's absolute URL and the sheet
 * @param {import('./saved-answer.js').Answer} answer
 */
export async function keepAnswer(sheet, answer) {
  if (!Array.isArray(answer?.entries) || answer.entries.length === 0 || !hasCaches()) return;
  const groups = new Set(answer.entries.map((entry) => String(entry.group ?? '')));
  // By key: a branch of a thousand activities and a table save of a thousand entries.
  const saved = new Map(
    answer.entries.filter((entry) => !readAgain(answer, entry)).map((entry) => [keyOf(entry), entry]),
  );
  const unsure = keysToReadAgain(answer);
  const write = async () => {
    try {
      const cache = await caches.open(DATA_CACHE);
      for (const request of await keptOfSheet(cache, sheet)) {
        if (!groups.has(new URL(request.url).searchParams.get('node') ?? '')) continue;
        const kept = await cache.match(request);
        if (!kept) continue;
        const data = /** @type {{ nodes?: ScreenNode[] }} */ (await kept.json());
        if (!Array.isArray(data.nodes)) continue;
        let changed = false;
        let stale = false;
        const nodes = data.nodes.map((node) => {
          if (node.kind !== 'task') return node;
          const key = keyOf({ activity: node.id, group: node.group });
          if (unsure.has(key)) stale = true;
          const entry = saved.get(key);
          if (!entry?.stored) return node;
          changed = true;
          /** @type {Record<string, import('./api.js').ScreenMetric>} */
          const metrics = { ...node.metrics };
          for (const [field, value] of Object.entries(entry.stored))
            metrics[field] = { value, source: 'saved' };
          return { ...node, metrics, lastChange: entry.lastChange ?? null };
        });
        if (!changed && !stale) continue;
        const headers = new Headers(kept.headers);
        if (stale) headers.set(READ_AGAIN, '1');
        await cache.put(request, new Response(JSON.stringify({ ...data, nodes }), { headers }));
      }
      // Only after an answer that marked some: each save's answer reading every kept answer of the
      // sheet (thousands, once kept whole) would cost more than the marks left behind.
      if (unsure.size > 0) await readMarkedAgain(cache, sheet);
    } catch {
      // Quota, or the cache cleared meanwhile: the next read of the branch keeps it anew.
    }
  };
  // In turn with the other writes: two answers of one branch written at once would each write it
  // without the other's entries; and a branch read again here is the newest read of it, so no
  // answer read before it is written after it.
  await inTurn(write);
}

/**
 * Reads the sheet's kept answers marked to be read again (see `keepAnswer`) from the server, and
 * keeps them anew. Called by the page once the server has answered it (`offline.setOwner`), so a
 * mark left without signal does not outlive the next opening online. Never fails.
 * @param {{ endpoint: string, taskSheet: number }} sheet
 */
export async function readKeptAgain(sheet) {
  if (!hasCaches()) return;
  await inTurn(async () => {
    try {
      await readMarkedAgain(await caches.open(DATA_CACHE), sheet);
    } catch {
      // The cache cleared or refused meanwhile: the marks that stay are read at the next chance.
    }
  });
}

/**
 * The reading again itself, in a turn already taken: each marked answer asked of the server as it
 * was first (its kept URL, the session's cookie, the requests' bound), one after the other. The
 * first without an answer ends it: the signal is gone, and each would wait its bound in turn.
 * @param {Cache} cache @param {{ endpoint: string, taskSheet: number }} sheet
 */
async function readMarkedAgain(cache, sheet) {
  for (const request of await keptOfSheet(cache, sheet)) {
    const kept = await cache.match(request);
    if (!kept?.headers.has(READ_AGAIN)) continue;
    let asked;
    try {
      asked = await ask(globalThis.fetch.bind(globalThis), request.url);
    } catch {
      return;
    }
    // Refused (signed out, the branch gone): it stays marked, and goes with its age (`pruneData`).
    if (asked.status === 200 && asked.body !== null)
      await putData(cache, request.url, asked.body, new Date().toISOString());
  }
}

/**
 * The sheet's kept `part=children` and `part=start` answers, by their requests.
 * @param {Cache} cache @param {{ endpoint: string, taskSheet: number }} sheet
 */
async function keptOfSheet(cache, sheet) {
  const where = new URL(sheet.endpoint);
  return (await cache.keys()).filter((request) => {
    const url = new URL(request.url);
    const part = url.searchParams.get('part');
    return (
      url.origin === where.origin &&
      url.pathname === where.pathname &&
      url.searchParams.get('taskSheet') === String(sheet.taskSheet) &&
      (part === 'children' || part === 'start')
    );
  });
}

/**
 * Removes the kept answers read more than {@link MAX_DATA_AGE_MS} before `now` (and any without a
 * reading time). Called once the server has answered the page (`offline.setOwner` with a confirmed
 * owner): a device without signal keeps whatever it has, however old, since it may be all there is.
 * Never fails: an answer it cannot read or remove stays. Resolves with how many were removed.
 * @param {number} [now]
 */
export async function pruneData(now = Date.now()) {
  if (!hasCaches()) return 0;
  let removed = 0;
  try {
    const cache = await caches.open(DATA_CACHE);
    for (const request of await cache.keys()) {
      const kept = await cache.match(request);
      const readAt = Date.parse(kept?.headers.get(READ_AT) ?? '');
      if (now - readAt <= MAX_DATA_AGE_MS) continue;
      if (await cache.delete(request)) removed++;
    }
  } catch {
    // The cache cleared or refused meanwhile: what is left is pruned next time.
  }
  return removed;
}

/**
 * Starts the screen's service worker, scoped to the handler's path, on the handler's own page.
 * The first time (the page not yet controlled by it), it is told which URLs this page loaded, so
 * the page and its files are in its cache before the network goes.
 * @param {Window} win @param {string} scriptUrl the handler's `?asset=association-screen-sw.js`
 */
export async function registerServiceWorker(win, scriptUrl) {
  const container = win.navigator.serviceWorker;
  if (!container) return undefined;
  const script = new URL(scriptUrl, win.document.baseURI);
  // The scope is the endpoint's path: the page and everything it asks the handler for, nothing else of the host.
  const scope = new URL(script.pathname, script);
  // Read before registering: the worker claims the page as soon as it runs, and the files this page
  // loaded before that never went through it.
  const controlled = container.controller !== null;
  try {
    const registration = await container.register(script.href, { scope: scope.href, type: 'module' });
    const worker = registration.active ?? (await container.ready).active;
    if (!controlled && worker) {
      const urls = [win.location.href];
      for (const entry of win.performance.getEntriesByType('resource')) {
        const url = new URL(entry.name);
        if (url.origin === scope.origin && url.pathname === scope.pathname && url.searchParams.has('asset'))
          urls.push(url.href);
      }
      worker.postMessage({ type: 'keep-files', urls });
    }
    return registration;
  } catch {
    // No service worker (an http page on the network, a browser setting): the outbox still works.
    return undefined;
  }
}

/**
 * Reads every branch of the sheet below `roots`, breadth first, each answer kept by the api's
 * reads (`rememberData`). Stops when the data read passes `maxBytes`.
 * @param {{ children: (parent: { level: number, id: number }) => Promise<{ nodes: ScreenNode[] }> }} api
 * @param {readonly ScreenNode[]} roots
 * @param {{ maxBytes?: number, signal?: AbortSignal, progress?: (branches: number) => void }} [how]
 * `stored` is false when a branch's answer could not be written (the browser refused the space, or
 * keeps no data for this page): then the sheet is not kept, whatever was read.
 * @returns {Promise<{ branches: number, bytes: number, complete: boolean, stored: boolean }>}
 */
export async function keepSheet(api, roots, how = {}) {
  const maxBytes = how.maxBytes ?? MAX_KEEP_BYTES;
  const failedBefore = failedWrites;
  const queue = roots.filter((node) => node.kind === 'branch' && node.hasChildren);
  let bytes = 0;
  let branches = 0;
  // Three reads at a time: fast on a good network, gentle with the server.
  const running = new Set();
  while (queue.length > 0 || running.size > 0) {
    while (queue.length > 0 && running.size < 3) {
      const node = /** @type {ScreenNode} */ (queue.shift());
      const read = api.children({ level: node.level, id: node.id }).then((data) => {
        running.delete(read);
        branches++;
        bytes += JSON.stringify(data).length;
        how.progress?.(branches);
        for (const child of data.nodes) if (child.kind === 'branch' && child.hasChildren) queue.push(child);
      });
      running.add(read);
    }
    await Promise.race(running);
    if (how.signal?.aborted) throw how.signal.reason;
    if (bytes > maxBytes) {
      await Promise.allSettled(running);
      await Promise.all(writing);
      return { branches, bytes, complete: false, stored: failedWrites === failedBefore };
    }
  }
  // Kept means in the cache: the reads' writes are not awaited by the reads themselves.
  await Promise.all(writing);
  return { branches, bytes, complete: true, stored: failedWrites === failedBefore };
}
