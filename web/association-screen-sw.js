// @ts-check
/// <reference lib="webworker" />
/**
 * The association screen's service worker (#28): a sheet opened once opens again without network.
 * Registered by the screen on the handler's own page, with the handler's path as its scope
 * (`/erp/associationtask`): it sees that page and what the page asks the handler for, nothing else
 * of the host. Served by the handler at `?asset=association-screen-sw.js`, from within that scope.
 *
 * - The page (a navigation): network first, the last copy from the cache when there is no answer;
 *   only the handler's page is kept (`PAGE_MARK`), never a host's sign-in form at the same URL.
 * - The screen's files (`?asset=`): from this worker's release, kept whole when it installs. The
 *   handler writes the release (a hash over the files) and their names into the MANIFEST line below,
 *   so a new release of any file is a new worker: it installs only once every file of its release is
 *   kept, and removes the older releases' files, so a page never runs files of two releases.
 * - Data (`part=`) and saves are left to the page: it keeps its data answers itself
 *   (offline-cache.js), so a host's page without this worker has them too.
 * - Background Sync (`task-association-outbox`): sends the outbox of every sheet in its scope,
 *   each sheet's entries only for the user and scope the server says this browser's session is,
 *   and tells the open pages what each batch came to (the server's answer of one stored), so they
 *   show what is stored rather than what they read before; what a batch stored is written into the
 *   data the pages keep for offline use (offline-cache.js `keepAnswer`), so a sheet opened offline
 *   later shows it too.
 */

import { RetryLater } from './association-screen/ask.js';
import { keepAnswer } from './association-screen/offline-cache.js';
import { OutboxError, openOutbox } from './association-screen/outbox.js';
import {
  alone,
  CHANNEL,
  doneMessage,
  replayOutbox,
  SYNC_TAG,
  sentMessage,
  unsentMessage,
} from './association-screen/sync.js';

const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (globalThis));
// Written by the handler as it serves this file (src/http/screen-assets.ts); as here, unserved.
const MANIFEST = { release: 'unreleased', assets: [] };
/** The pages kept (one per task sheet opened), whatever release: network first. */
const FILES_CACHE = 'task-association-files-v1';
/** The screen's files of this worker's release. */
const ASSETS_PREFIX = 'task-association-assets-';
const ASSETS_CACHE = `${ASSETS_PREFIX}${MANIFEST.release}`;
/**
 * The `<meta>` the handler marks the screen's page with (src/http/screen-page.ts `PAGE_MARK`): only a
 * page carrying it is kept, so a host's sign-in form answered at the sheet's URL with a 200 (a
 * session ended) never replaces the kept sheet, which then would not open offline. Read from the
 * page, which any proxy passes, where a header may be dropped.
 */
const PAGE_MARK = 'task-association-page';
const PAGE_MARKED = new RegExp(`<meta\\s+name=["']?${PAGE_MARK}["'\\s>]`, 'i');
/** Whether an answer is the screen's page, to keep for offline use. @param {Response} response */
const isScreenPage = async (response) => response.ok && PAGE_MARKED.test(await response.clone().text());
/**
 * How long opening the page waits for the network before it opens the kept copy: on a weak signal
 * the phone counts as online while the server's answer never comes.
 */
const NAVIGATION_WAIT_MS = 5000;

/** Whether `url` is the handler's own URL (the worker's scope exactly): the page or its files. @param {URL} url */
function isHandler(url) {
  const scope = new URL(sw.registration.scope);
  return url.origin === scope.origin && url.pathname === scope.pathname;
}

/** Where the page asks for one of the screen's files: the handler's URL, `?asset=<name>`. @param {string} name */
const assetUrl = (name) => `${sw.registration.scope}?asset=${name}`;
/**
 * The same file as of this worker's release: a node serving another release refuses it (409), so
 * files of an old node are never kept under a new release's name during a rolling deploy.
 * @param {string} name
 */
const releasedUrl = (name) => `${assetUrl(name)}&release=${encodeURIComponent(MANIFEST.release)}`;

/**
 * Fetches every file of this worker's release, all or none: throws if any is not this release's
 * (another node's, mid-deploy) or cannot be had. @returns {Promise<[string, Response][]>}
 */
async function fetchRelease() {
  return Promise.all(
    MANIFEST.assets.map(async (name) => {
      const response = await fetch(releasedUrl(name), { cache: 'no-cache' });
      if (!response.ok)
        throw new Error(`${name}: HTTP ${response.status}, not of release ${MANIFEST.release}`);
      return /** @type {[string, Response]} */ ([assetUrl(name), response]);
    }),
  );
}

sw.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      // All or nothing: a release that cannot be kept whole (the network went, or a node of
      // another release answered) does not install, and the worker before it goes on serving its
      // own release, whole; the browser tries the install again at the next visit. Each file is
      // kept under its plain URL, the one the page asks for.
      const files = await fetchRelease();
      const cache = await caches.open(ASSETS_CACHE);
      await Promise.all(files.map(([url, response]) => cache.put(url, response)));
      await sw.skipWaiting();
    })(),
  );
});

sw.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(ASSETS_PREFIX) && name !== ASSETS_CACHE) await caches.delete(name);
      }
      // Files kept beside the pages by workers before releases were kept apart.
      const pages = await caches.open(FILES_CACHE);
      for (const request of await pages.keys()) {
        if (new URL(request.url).searchParams.has('asset')) await pages.delete(request);
      }
      await sw.clients.claim();
    })(),
  );
});

sw.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (!isHandler(url)) return;
  if (url.searchParams.has('asset')) event.respondWith(cacheFirst(request));
  else if (request.mode === 'navigate') event.respondWith(networkFirst(request, event));
});

/** @param {Request} request */
async function cacheFirst(request) {
  const cache = await caches.open(ASSETS_CACHE);
  const kept = await cache.match(request, { ignoreVary: true });
  if (kept) return kept;
  // Not among the release's files (kept at install): asked of the server, and kept with them.
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

/** @param {Request} request @param {FetchEvent} event */
async function networkFirst(request, event) {
  const cache = await caches.open(FILES_CACHE);
  const fresh = fetch(request).then(async (response) => {
    if (await isScreenPage(response)) await cache.put(request.url, response.clone());
    return response;
  });
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error('the network did not answer in time')), NAVIGATION_WAIT_MS);
  });
  try {
    const response = await Promise.race([fresh, late]);
    // A host or its proxy that answers but cannot serve the sheet (502, 503, 504; a 500 with the
    // database down): the kept sheet, with the person's drafts and waiting entries, serves them
    // better than an error page, and its own requests then say what is wrong.
    if (response.status < 500) return response;
    return (await cache.match(request.url, { ignoreVary: true })) ?? response;
  } catch {
    const kept = await cache.match(request.url, { ignoreVary: true });
    if (!kept) return fresh;
    // A late answer still refreshes the kept copy for the next opening.
    event.waitUntil(fresh.catch(() => undefined));
    return kept;
  } finally {
    clearTimeout(timer);
  }
}

/** The page's first visit, before this worker controlled it: it says which URLs it loaded. */
sw.addEventListener('message', (event) => {
  const data = event.data;
  if (data?.type !== 'keep-files' || !Array.isArray(data.urls)) return;
  event.waitUntil(
    (async () => {
      const pages = await caches.open(FILES_CACHE);
      const assets = await caches.open(ASSETS_CACHE);
      const keepOne = async (/** @type {URL} */ url) => {
        try {
          const page = !url.searchParams.has('asset');
          // The release's files are kept at install: only one not among them is fetched here.
          if (!page && (await assets.match(url.href, { ignoreVary: true }))) return;
          const response = await fetch(url, page ? { headers: { accept: 'text/html' } } : {});
          if (page ? await isScreenPage(response) : response.ok)
            await (page ? pages : assets).put(url.href, response);
        } catch {
          // Offline already: the next visit online keeps it.
        }
      };
      const urls = data.urls.map((/** @type {unknown} */ href) => new URL(String(href))).filter(isHandler);
      await Promise.all(urls.map(keepOne));
    })(),
  );
});

sw.addEventListener('sync', (/** @type {any} */ event) => {
  if (event.tag === SYNC_TAG) event.waitUntil(sendAll());
});

/** Sends the outbox of every sheet of this scope; throws (the browser retries) while any waits for the network. */
async function sendAll() {
  let outbox;
  try {
    outbox = await openOutbox();
  } catch (error) {
    // No outbox (the worker does not make one: a page that finds it gone says so) or none to open.
    if (error instanceof OutboxError) return;
    throw error;
  }
  const channel = new BroadcastChannel(CHANNEL);
  /** What it stored, being written into the data kept for offline use: waited for before the worker stops. @type {Promise<void>[]} */
  const keeping = [];
  try {
    const sheets = new Map();
    for (const record of await outbox.all()) {
      if (record.state === 'pending' && isHandler(new URL(record.endpoint)))
        sheets.set(`${record.endpoint}\n${record.taskSheet}`, record);
    }
    let retry = false;
    for (const record of sheets.values()) {
      const sheet = { endpoint: record.endpoint, taskSheet: record.taskSheet };
      try {
        const outcome = await alone(() =>
          replayOutbox(outbox, {
            ...sheet,
            onSent: (records, answer, gone) => {
              keeping.push(keepAnswer(sheet, answer));
              channel.postMessage(sentMessage(sheet, records, answer, gone));
            },
            onUnsent: (records, maybe) => channel.postMessage(unsentMessage(sheet, records, maybe)),
            onDone: (records) => channel.postMessage(doneMessage(sheet, records)),
          }),
        );
        if (outcome.sent > 0 || outcome.stopped > 0) channel.postMessage({ type: 'changed' });
        // Who the server said is signed in: an open page filing as someone else asks it itself.
        channel.postMessage({ type: 'owner', endpoint: sheet.endpoint, owner: outcome.owner });
      } catch (error) {
        if (!(error instanceof RetryLater)) throw error;
        retry = true;
      }
    }
    if (retry) throw new Error('the outbox waits for the network');
  } finally {
    await Promise.all(keeping);
    channel.close();
    outbox.close();
  }
}
