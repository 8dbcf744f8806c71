// @ts-check
/**
 * The list: one page of `GET /caroulsel/data` fetched (503s waited out), read and checked. Each item
 * is checked on its own (http(s) links only, a well-formed srcset), so a bad row costs that card,
 * not the gallery.
 */

import { BUSY_RETRIES, waitRetryAfter } from './retry.js';

/**
 * How long one request for a page may take, its body included: a server or a network that never
 * answers must end in the error and its "Try again", not in a loader for good.
 */
export const LIST_REQUEST_TIMEOUT_MS = 15_000;
/**
 * How long a page may take in all, its busy answers (503) waited out included: a server busy for
 * longer than this is said to the visitor, who may try again, instead of twenty waits of up to 30 s.
 */
export const LIST_DEADLINE_MS = 45_000;

/**
 * The body of `GET /caroulsel/data` as the server's code declares it: the fields below are read
 * through these types, so a field renamed on the server fails the type check of this file.
 * @typedef {import('../../src/gallery.js').GalleryPage} DataPage
 * @typedef {import('../../src/gallery.js').GalleryItem} DataItem
 */

/**
 * One item of `GET /caroulsel/data`, as the component uses it.
 * @typedef {object} GalleryItem
 * @property {string} id names the item in the page's URL while the lightbox shows it
 * @property {string} title
 * @property {string} alt the image's text alternative (the title when the data gives none)
 * @property {string} previewUrl
 * @property {string} fullUrl
 * @property {number | undefined} width
 * @property {number | undefined} height
 * @property {string | undefined} placeholder ThumbHash of the image, base64
 * @property {string | undefined} srcset the img `srcset`, its URLs made absolute; absent when the
 *   list gives none
 */

/** A page the server did not give: its status and, when the answer said, its error code. */
export class PageError extends Error {
  /** @param {string} url @param {number} status @param {string | undefined} code */
  constructor(url, status, code) {
    super(`${url} answered ${status}${code === undefined ? '' : ` ${code}`}`);
    this.status = status;
    this.code = code;
  }
}

/**
 * Whether a page's cursor no longer leads anywhere: the list changed under it (`CURSOR_STALE`), or
 * the server refused the cursor it had itself issued (its secret changed on a restart). The client
 * then starts again from the first page, as the server's documentation asks.
 * @param {unknown} error
 */
export function isStaleCursor(error) {
  return (
    error instanceof PageError &&
    error.status === 400 &&
    (error.code === 'CURSOR_STALE' || error.code === 'BAD_QUERY')
  );
}

/**
 * One page of the list: its items and the next page's URL (null on the last page, and for a server
 * that answers a bare array or `{ items }` alone).
 *
 * @param {string} url
 * @param {AbortSignal} signal
 * @param {string} baseUrl
 * @param {number} [first] how many items the pages before this one gave (see {@link parseItems})
 * @returns {Promise<{ items: GalleryItem[], next: string | null }>}
 */
export async function fetchPage(url, signal, baseUrl, first = 0) {
  const deadline = Date.now() + LIST_DEADLINE_MS;
  /** A request of its own bound: the caller's signal, the request's timeout and the deadline. */
  const ask = () => fetchBounded(url, signal, Math.min(LIST_REQUEST_TIMEOUT_MS, deadline - Date.now()));
  let { response, done } = await ask();
  try {
    // A server preparing too many cold images answers a page 503 too: wait as it asks, then again,
    // as long as the deadline leaves time for the wait and a request after it.
    for (let tries = 0; response.status === 503 && tries < BUSY_RETRIES; tries++) {
      const left = deadline - Date.now();
      if (left <= 1000) break;
      done();
      await waitRetryAfter(response, signal, left - 1000);
      if (signal.aborted) throw signal.reason;
      ({ response, done } = await ask());
    }
    if (!response.ok) {
      const refusal = await response.json().catch(() => undefined);
      const code =
        isRecord(refusal) && isRecord(refusal.error) && typeof refusal.error.code === 'string'
          ? refusal.error.code
          : undefined;
      throw new PageError(url, response.status, code);
    }
    const body = await response.json();
    // Relative URLs in the list are the list's own: resolved against where it came from (a dataUrl on
    // another origin serves its media there too), and its next page must come from there as well.
    const listUrl = response.url || new URL(url, baseUrl).href;
    return { items: parseItems(body, listUrl, undefined, first), next: parseNext(body, listUrl) };
  } finally {
    done();
  }
}

/**
 * `fetch` of a page that gives up after `ms` (its body included, until `done` is called), or when
 * `signal` aborts. A timer of its own rather than `AbortSignal.timeout`: the page's clock, which a
 * test can move on, decides it.
 *
 * @param {string} url
 * @param {AbortSignal} signal
 * @param {number} ms
 * @returns {Promise<{ response: Response, done: () => void }>}
 */
async function fetchBounded(url, signal, ms) {
  const controller = new AbortController();
  const abort = () => controller.abort(signal.reason);
  if (signal.aborted) abort();
  signal.addEventListener('abort', abort, { once: true });
  const timer = setTimeout(
    () => controller.abort(new Error(`${url} gave no answer in ${Math.round(ms / 1000)} s`)),
    Math.max(ms, 0),
  );
  const done = () => {
    clearTimeout(timer);
    signal.removeEventListener('abort', abort);
  };
  try {
    const response = await fetch(url, { headers: { accept: 'application/json' }, signal: controller.signal });
    return { response, done };
  } catch (error) {
    done();
    throw controller.signal.aborted ? controller.signal.reason : error;
  }
}

/**
 * The `next` of `{ items, next }`: a URL of the same origin, or null. A next page elsewhere is
 * refused: the list's URLs decide what the page loads.
 *
 * @param {unknown} body
 * @param {string} baseUrl
 * @returns {string | null}
 */
export function parseNext(body, baseUrl) {
  const next = pageFields(body)?.next;
  if (next === undefined || next === null) return null;
  if (typeof next !== 'string' || next === '') throw new TypeError('the gallery list’s next is not a URL');
  const url = new URL(next, baseUrl);
  if (url.origin !== new URL(baseUrl).origin)
    throw new TypeError('the gallery list’s next is on another origin');
  return url.href;
}

/**
 * Accepts the list as an array or wrapped as `{ items }`. An item that breaks the contract (not an
 * object, no http(s) `previewUrl` or `fullUrl`, e.g. a `javascript:` link) is left out with a
 * warning naming it; the rest are shown. A body that is no list at all, or a list none of whose
 * items can be shown, is a broken contract: the error state, not a half-drawn grid.
 *
 * @param {unknown} body
 * @param {string} baseUrl
 * @param {(message: string) => void} [warn] where the reasons for left-out items go
 * @param {number} [first] the place in the whole list of the page's first item: an item without an
 *   id is named by its place
 * @returns {GalleryItem[]}
 */
export function parseItems(
  body,
  baseUrl,
  warn = (message) => console.warn(`caroulsel-gallery: ${message}`),
  first = 0,
) {
  const list = Array.isArray(body) ? body : pageFields(body)?.items;
  if (!Array.isArray(list)) throw new TypeError('the gallery list is neither an array nor { items: [...] }');
  /** @type {GalleryItem[]} */
  const items = [];
  /** @type {string[]} */
  const reasons = [];
  for (const [index, raw] of list.entries()) {
    try {
      items.push(parseItem(raw, first + index, baseUrl));
    } catch (error) {
      const reason = `gallery item ${index} left out: ${error instanceof Error ? error.message : String(error)}`;
      reasons.push(reason);
      warn(reason);
    }
  }
  if (items.length === 0 && reasons.length > 0) {
    throw new TypeError(`no gallery item can be shown (${reasons.join('; ')})`);
  }
  return items;
}

/**
 * @param {unknown} raw
 * @param {number} index
 * @param {string} baseUrl
 * @returns {GalleryItem}
 */
function parseItem(raw, index, baseUrl) {
  if (!isRecord(raw)) throw new TypeError('it is not an object');
  /** @type {Partial<Record<keyof DataItem, unknown>>} */
  const fields = raw;
  const width = positiveNumber(fields.width);
  const height = positiveNumber(fields.height);
  const bothSizes = width !== undefined && height !== undefined;
  const title = typeof fields.title === 'string' ? fields.title : '';
  const id = typeof fields.id === 'string' || typeof fields.id === 'number' ? String(fields.id) : '';
  return {
    // Without an id the item's place stands in (marked, so it never equals a real id): the URL can
    // still name it while the list stays put.
    id: id === '' ? `#${index}` : id,
    title,
    alt: typeof fields.alt === 'string' ? fields.alt : title,
    previewUrl: webUrl(fields.previewUrl, baseUrl, 'previewUrl'),
    fullUrl: webUrl(fields.fullUrl, baseUrl, 'fullUrl'),
    width: bothSizes ? width : undefined,
    height: bothSizes ? height : undefined,
    placeholder:
      typeof fields.placeholder === 'string' && fields.placeholder !== '' ? fields.placeholder : undefined,
    srcset: fields.srcset === undefined ? undefined : srcsetOf(fields.srcset, baseUrl, 'srcset'),
  };
}

/**
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
export function isRecord(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The fields of a page's body read by name, typed by the server's own: a name it no longer has
 * does not compile. Undefined for a body that is no object.
 *
 * @param {unknown} body
 * @returns {Partial<Record<keyof DataPage, unknown>> | undefined}
 */
function pageFields(body) {
  return isRecord(body) ? body : undefined;
}

/** @param {unknown} value */
function positiveNumber(value) {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}

/**
 * Only http(s) links: a `javascript:` fullUrl in the data must not become a clickable script.
 *
 * @param {unknown} value
 * @param {string} baseUrl
 * @param {string} what
 */
function webUrl(value, baseUrl, what) {
  if (typeof value !== 'string' || value === '') throw new TypeError(`its ${what} is not a URL`);
  /** @type {URL} */
  let url;
  try {
    url = new URL(value, baseUrl);
  } catch {
    throw new TypeError(`its ${what} ${JSON.stringify(value)} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`its ${what} ${JSON.stringify(value.slice(0, 60))} is not an http(s) URL`);
  }
  return url.href;
}

/**
 * A srcset whose every candidate is an http(s) URL and a width (`/a.webp 320w, /b.webp 640w`),
 * with the URLs made absolute as {@link webUrl} makes them.
 *
 * @param {unknown} value
 * @param {string} baseUrl
 * @param {string} what
 */
function srcsetOf(value, baseUrl, what) {
  if (typeof value !== 'string' || value.trim() === '') throw new TypeError(`its ${what} is not a srcset`);
  return value
    .split(',')
    .map((candidate, index) => {
      const [url, width, ...rest] = candidate.trim().split(/\s+/);
      if (width === undefined || !/^[1-9]\d*w$/.test(width) || rest.length > 0) {
        throw new TypeError(`its ${what}: candidate ${index} is not "URL <width>w"`);
      }
      return `${webUrl(url, baseUrl, `${what} candidate ${index}`)} ${width}`;
    })
    .join(', ');
}
