// @ts-check
/**
 * The home gallery: a framework-free browser module that ships as-is (no build step).
 *
 * Phases (seed section 3): idle until first visible, then exactly one list request with a single
 * centred loader, then a grid whose cards each keep a skeleton until their own thumbnail loads (or a
 * safety fallback fires). An empty list and a failed request get states of their own.
 *
 * @example
 *   import { mountGallery } from '/assets/caroulsel-gallery.js';
 *   const gallery = mountGallery(document.querySelector('#gallery'), { fallbackDelayMs: 5000 });
 *   // later: gallery.destroy();
 */

/**
 * One item of `GET /caroulsel/data`, as the component uses it.
 * @typedef {object} GalleryItem
 * @property {string} title
 * @property {string} previewUrl
 * @property {string | undefined} srcset the img `srcset`, its URLs made absolute; absent when the
 *   list gives none
 * @property {string} fullUrl
 * @property {number | undefined} width
 * @property {number | undefined} height
 */

/**
 * Every text the component shows, so a host page can translate them.
 * @typedef {object} GalleryLabels
 * @property {string} gallery accessible name of the card list
 * @property {string} loading the loader's text while the list is requested
 * @property {string} empty shown when the list has no items
 * @property {string} error shown when the list request fails
 * @property {string} retry the retry button's text
 * @property {string} thumbnailError shown in a card whose thumbnail fails to load
 */

/**
 * @typedef {object} GalleryOptions
 * @property {string} [dataUrl] where the item list comes from; default `/caroulsel/data`
 * @property {number} [fallbackDelayMs] how long a card waits for its image's load event before its
 *   skeleton is removed anyway; default {@link DEFAULT_FALLBACK_DELAY_MS}
 * @property {string} [rootMargin] IntersectionObserver margin deciding when the gallery counts as
 *   visible; default `0px`
 * @property {Partial<GalleryLabels>} [labels] texts to replace
 */

/** @typedef {'idle' | 'loading' | 'grid' | 'empty' | 'error'} GalleryState */

/**
 * @typedef {object} GalleryController
 * @property {() => GalleryState} state the current phase
 * @property {() => void} destroy stops observing, aborts a pending request, clears timers and empties
 *   the element
 */

/** Long enough for a slow thumbnail on a poor connection, short enough that a lost load event does not leave a skeleton for good. */
export const DEFAULT_FALLBACK_DELAY_MS = 8000;

export const DEFAULT_DATA_URL = '/caroulsel/data';

/** @type {GalleryLabels} */
export const DEFAULT_LABELS = {
  gallery: 'Image gallery',
  loading: 'Searching for images…',
  empty: 'No images to show yet.',
  error: 'The images could not be loaded.',
  retry: 'Try again',
  thumbnailError: 'Image unavailable',
};

const BLOCK = 'caroulsel-gallery';

/**
 * Turns the element into a gallery that loads when it first becomes visible.
 *
 * @param {HTMLElement} element the host element; its children are replaced
 * @param {GalleryOptions} [options]
 * @returns {GalleryController}
 */
export function mountGallery(element, options = {}) {
  // Host pages are plain JavaScript: a wrong argument gets a clear message here, not a broken page later.
  if (!(element instanceof HTMLElement)) {
    throw new TypeError('mountGallery: the first argument must be an HTML element, such as a <div>');
  }
  const dataUrl = options.dataUrl ?? DEFAULT_DATA_URL;
  if (typeof dataUrl !== 'string' || dataUrl === '') {
    throw new TypeError(
      `mountGallery: dataUrl must be a non-empty URL string, got ${JSON.stringify(dataUrl)}`,
    );
  }
  // `??`, not `||`: a delay of 0 is a valid (if odd) choice.
  const fallbackDelayMs = options.fallbackDelayMs ?? DEFAULT_FALLBACK_DELAY_MS;
  if (typeof fallbackDelayMs !== 'number' || !Number.isFinite(fallbackDelayMs) || fallbackDelayMs < 0) {
    throw new RangeError(
      `mountGallery: fallbackDelayMs must be a number of milliseconds >= 0, got ${String(fallbackDelayMs)}`,
    );
  }
  const labels = { ...DEFAULT_LABELS, ...options.labels };
  // Built before the element is touched: a rootMargin the browser rejects throws with nothing changed.
  const observer =
    typeof IntersectionObserver === 'function'
      ? new IntersectionObserver(
          (entries) => {
            if (!entries.some((entry) => entry.isIntersecting)) return;
            // Disconnect before loading: leaving and re-entering the viewport must never ask again.
            observer?.disconnect();
            void load();
          },
          { rootMargin: options.rootMargin ?? '0px' },
        )
      : undefined;
  const doc = element.ownerDocument;

  /** @type {GalleryState} */
  let state = 'idle';
  /** @type {AbortController | undefined} */
  let request;
  /** @type {Set<ReturnType<typeof setTimeout>>} */
  const timers = new Set();
  /** @type {{ stop(): void } | undefined} */
  let pager;
  // Aborted on destroy: no thumbnail retry outlives the gallery.
  const retries = new AbortController();

  element.classList.add(BLOCK);
  setState('idle');

  /** @param {GalleryState} next */
  function setState(next) {
    state = next;
    element.dataset.state = next;
    element.setAttribute('aria-busy', String(next === 'loading'));
  }

  /**
   * @template {keyof HTMLElementTagNameMap} K
   * @param {K} tag
   * @param {string} className
   * @param {string} [text] set as text, never parsed as HTML: titles come from data
   */
  function create(tag, className, text) {
    const node = doc.createElement(tag);
    node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  async function load() {
    request?.abort();
    const controller = new AbortController();
    request = controller;
    showLoader();
    /** @type {GalleryItem[]} */
    let items;
    /** @type {string | null} */
    let next;
    try {
      ({ items, next } = await fetchPage(dataUrl, controller.signal, doc.baseURI));
    } catch (error) {
      if (controller.signal.aborted) return;
      // The page's console is where a developer looks; the visitor gets the error state.
      console.error('caroulsel-gallery:', error);
      showError();
      return;
    }
    if (controller.signal.aborted) return;
    request = undefined;
    if (items.length === 0 && next === null) showEmpty();
    else showGrid(items, next);
  }

  function showLoader() {
    const loader = create('div', `${BLOCK}__loader`);
    loader.setAttribute('role', 'status');
    const spinner = create('span', `${BLOCK}__spinner`);
    spinner.setAttribute('aria-hidden', 'true');
    loader.append(spinner, create('span', `${BLOCK}__loader-text`, labels.loading));
    element.replaceChildren(loader);
    setState('loading');
  }

  function showEmpty() {
    element.replaceChildren(create('p', `${BLOCK}__message ${BLOCK}__message--empty`, labels.empty));
    setState('empty');
  }

  function showError() {
    const box = create('div', `${BLOCK}__message ${BLOCK}__message--error`);
    box.setAttribute('role', 'alert');
    const retry = create('button', `${BLOCK}__retry`, labels.retry);
    retry.type = 'button';
    // The loader replaces the button, so one click is one request.
    retry.addEventListener('click', () => void load(), { once: true });
    box.append(create('p', `${BLOCK}__error-text`, labels.error), retry);
    element.replaceChildren(box);
    setState('error');
  }

  /**
   * The img `sizes` for the grid's CSS: a card's width is its ratio times the row height (its flex
   * basis; growing to fill a row adds little), never more than the gallery, which is at most the
   * viewport. The row height is read from the themable custom property, so a taller theme gets
   * sharper images too.
   *
   * @param {GalleryItem} item
   */
  function sizesOf(item) {
    const ratio = item.width !== undefined && item.height !== undefined ? item.width / item.height : 4 / 3;
    const rowHeight =
      getComputedStyle(element).getPropertyValue('--caroulsel-gallery-row-height').trim() || '13rem';
    return `min(100vw, calc(${ratio.toFixed(4)} * ${rowHeight}))`;
  }

  /**
   * @param {GalleryItem[]} items
   * @param {string | null} next the next page's URL, loaded when the end of the grid comes into view
   */
  function showGrid(items, next) {
    const list = create('ul', `${BLOCK}__grid`);
    list.setAttribute('aria-label', labels.gallery);
    element.replaceChildren(list);
    setState('grid');
    appendCards(list, items);
    if (next !== null) {
      const sentinel = create('div', `${BLOCK}__more`);
      sentinel.setAttribute('aria-hidden', 'true');
      element.append(sentinel);
      pager = loadMoreAtEnd(sentinel, next, {
        fetchPage: (url, signal) => fetchPage(url, signal, doc.baseURI),
        append: (more) => appendCards(list, more),
      });
    }
  }

  /**
   * @param {HTMLUListElement} list
   * @param {GalleryItem[]} items
   */
  function appendCards(list, items) {
    const cards = items.map((item) => {
      const entry = create('li', `${BLOCK}__item`);
      const card = create('a', `${BLOCK}__card`);
      card.href = item.fullUrl;
      // The link is named once: its image's alt and its caption are the same title.
      if (item.title !== '') card.setAttribute('aria-label', item.title);
      card.dataset.state = 'pending';
      if (item.width !== undefined && item.height !== undefined) {
        // The only inline style: each card reserves its image's own shape (the CSS turns the ratio
        // into the media box's aspect-ratio and the card's share of its row), so nothing shifts on load.
        entry.style.setProperty('--caroulsel-gallery-ratio', String(item.width / item.height));
      }
      const media = create('span', `${BLOCK}__media`);
      const image = create('img', `${BLOCK}__image`);
      image.alt = item.title;
      image.decoding = 'async';
      if (item.width !== undefined && item.height !== undefined) {
        image.width = item.width;
        image.height = item.height;
      }
      const skeleton = create('span', `${BLOCK}__skeleton`);
      skeleton.setAttribute('aria-hidden', 'true');
      media.append(image, skeleton);
      card.append(media, create('span', `${BLOCK}__title`, item.title));
      entry.append(card);
      list.append(entry);
      return { card, image, skeleton, src: item.previewUrl, srcset: item.srcset, sizes: sizesOf(item) };
    });
    for (const card of cards) watchImage(card);
  }

  /**
   * Listens first, then sets the source, so no load event is missed; an image the browser already
   * has (`complete` at once, from its cache) counts as loaded straight away.
   *
   * @param {{ card: HTMLAnchorElement, image: HTMLImageElement, skeleton: HTMLElement, src: string, srcset: string | undefined, sizes: string }} card
   */
  function watchImage({ card, image, skeleton, src, srcset, sizes }) {
    const timer = setTimeout(() => settle('loaded'), fallbackDelayMs);
    timers.add(timer);
    /** @param {'loaded' | 'failed'} outcome */
    function settle(outcome) {
      clearTimeout(timer);
      timers.delete(timer);
      skeleton.remove();
      // A late error after the fallback still deserves the fallback text; a late load changes nothing.
      if (outcome === 'failed' && card.dataset.state !== 'failed') {
        card.dataset.state = 'failed';
        image.after(create('span', `${BLOCK}__image-error`, labels.thumbnailError));
      } else if (card.dataset.state === 'pending') {
        card.dataset.state = 'loaded';
      }
    }
    image.addEventListener('load', () => settle('loaded'), { once: true });
    // A server preparing too many cold thumbnails answers 503: wait as it asks, then load again.
    retryWhenBusy(image, src, retries.signal, () => settle('failed'));
    if (srcset !== undefined) {
      // The browser picks one of them by the card's width and the screen's pixel density.
      image.sizes = sizes;
      image.srcset = srcset;
    }
    image.src = src;
    if (image.complete && image.naturalWidth > 0) settle('loaded');
  }

  if (observer) observer.observe(element);
  else void load();

  return {
    state: () => state,
    destroy() {
      observer?.disconnect();
      pager?.stop();
      retries.abort();
      request?.abort();
      request = undefined;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      element.replaceChildren();
      element.classList.remove(BLOCK);
      if (element.classList.length === 0) element.removeAttribute('class');
      element.removeAttribute('aria-busy');
      delete element.dataset.state;
    },
  };
}

/** How far below the viewport the end of the grid may be when the next page is asked for. */
const MORE_MARGIN = '0px 0px 600px 0px';
/** A busy thumbnail is asked for again at most this many times before its card shows the fallback. */
const BUSY_RETRIES = 20;
/** The longest Retry-After honoured, so a wrong header cannot park a card for good. */
const MAX_RETRY_AFTER_MS = 30_000;

/**
 * One page of the list: its items and the next page's URL (null on the last page, and for a server
 * that answers a bare array or `{ items }` alone).
 *
 * @param {string} url
 * @param {AbortSignal} signal
 * @param {string} baseUrl
 * @returns {Promise<{ items: GalleryItem[], next: string | null }>}
 */
async function fetchPage(url, signal, baseUrl) {
  const response = await fetch(url, { headers: { accept: 'application/json' }, signal });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  const body = await response.json();
  return { items: parseItems(body, baseUrl), next: parseNext(body, baseUrl) };
}

/**
 * Loads the pages after the first when `sentinel` (placed after the grid) comes near the viewport:
 * one request per page, never two at once. After each page the sentinel is observed anew, so a page
 * too short to push it out of view asks for the next one by itself. A page that fails ends the
 * paging (logged); what is shown stays.
 *
 * @param {HTMLElement} sentinel
 * @param {string} first the URL of the second page
 * @param {{
 *   fetchPage: (url: string, signal: AbortSignal) => Promise<{ items: GalleryItem[], next: string | null }>,
 *   append: (items: GalleryItem[]) => void,
 * }} io
 * @returns {{ stop(): void }}
 */
export function loadMoreAtEnd(sentinel, first, io) {
  /** @type {string | null} */
  let next = first;
  let busy = false;
  const controller = new AbortController();
  const stop = () => {
    observer.disconnect();
    controller.abort();
    sentinel.remove();
  };
  const observer = new IntersectionObserver(
    (entries) => {
      if (busy || next === null || !entries.some((entry) => entry.isIntersecting)) return;
      busy = true;
      io.fetchPage(next, controller.signal).then(
        (page) => {
          if (controller.signal.aborted) return;
          io.append(page.items);
          next = page.next;
          busy = false;
          if (next === null) return stop();
          observer.unobserve(sentinel);
          observer.observe(sentinel);
        },
        (error) => {
          if (controller.signal.aborted) return;
          console.error('caroulsel-gallery:', error);
          stop();
        },
      );
    },
    { rootMargin: MORE_MARGIN },
  );
  observer.observe(sentinel);
  return { stop };
}

/**
 * Loads a thumbnail again when the server was only busy. An `<img>` error does not say why, so the
 * server is asked (HEAD): a 503 (a bounded queue of cold thumbnails) is waited out for its
 * Retry-After, plus a little jitter so a page of busy cards does not come back all at once, then
 * the image is loaded again; a 2xx gets one more load (the queue drained meanwhile); anything else,
 * a second 2xx or too many 503s calls `fail`.
 *
 * @param {HTMLImageElement} image
 * @param {string} src set again to load again (which also chooses from a srcset again)
 * @param {AbortSignal} signal
 * @param {() => void} fail
 */
export function retryWhenBusy(image, src, signal, fail) {
  let busyTries = 0;
  let retriedOk = false;
  image.addEventListener('error', async () => {
    /** @type {Response | undefined} */
    let response;
    try {
      // The URL that failed: with a srcset, the candidate the browser chose rather than `src`.
      response = await fetch(image.currentSrc || src, { method: 'HEAD', cache: 'no-store', signal });
    } catch {
      response = undefined;
    }
    if (signal.aborted) return;
    if (response?.status === 503 && busyTries < BUSY_RETRIES) {
      busyTries += 1;
      const waitMs = retryAfterMs(response.headers.get('retry-after')) + Math.random() * 250;
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, waitMs);
        const cancel = () => {
          clearTimeout(timer);
          resolve(undefined);
        };
        signal.addEventListener('abort', cancel, { once: true });
      });
      if (!signal.aborted) image.src = src;
    } else if (response?.ok && !retriedOk) {
      retriedOk = true;
      image.src = src;
    } else {
      fail();
    }
  });
}

/**
 * Retry-After in milliseconds: seconds or an HTTP date, 1 s when absent or unreadable, capped.
 *
 * @param {string | null} header
 */
export function retryAfterMs(header) {
  if (header === null) return 1000;
  const text = header.trim();
  // Seconds, or an IMF-fixdate (`Wed, 21 Oct 2015 07:28:00 GMT`); Date.parse alone would take `-1`.
  const ms = /^\d+$/.test(text)
    ? Number(text) * 1000
    : / GMT$/.test(text)
      ? Date.parse(text) - Date.now()
      : Number.NaN;
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS) : 1000;
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
  if (!isRecord(body) || body.next === undefined || body.next === null) return null;
  if (typeof body.next !== 'string' || body.next === '')
    throw new TypeError('the gallery list’s next is not a URL');
  const url = new URL(body.next, baseUrl);
  if (url.origin !== new URL(baseUrl).origin)
    throw new TypeError('the gallery list’s next is on another origin');
  return url.href;
}

/**
 * Accepts the list as an array or wrapped as `{ items }`; anything else is a broken contract and
 * shows the error state rather than a half-drawn grid.
 *
 * @param {unknown} body
 * @param {string} baseUrl
 * @returns {GalleryItem[]}
 */
export function parseItems(body, baseUrl) {
  const list = Array.isArray(body) ? body : isRecord(body) ? body.items : undefined;
  if (!Array.isArray(list)) throw new TypeError('the gallery list is neither an array nor { items: [...] }');
  return list.map((raw, index) => {
    if (!isRecord(raw)) throw new TypeError(`gallery item ${index} is not an object`);
    const width = positiveNumber(raw.width);
    const height = positiveNumber(raw.height);
    const bothSizes = width !== undefined && height !== undefined;
    return {
      title: typeof raw.title === 'string' ? raw.title : '',
      previewUrl: webUrl(raw.previewUrl, baseUrl, `gallery item ${index} previewUrl`),
      srcset:
        raw.srcset === undefined ? undefined : srcsetOf(raw.srcset, baseUrl, `gallery item ${index} srcset`),
      fullUrl: webUrl(raw.fullUrl, baseUrl, `gallery item ${index} fullUrl`),
      width: bothSizes ? width : undefined,
      height: bothSizes ? height : undefined,
    };
  });
}

/**
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
function isRecord(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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
  if (typeof value !== 'string' || value === '') throw new TypeError(`${what} is not a URL`);
  const url = new URL(value, baseUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`${what} is not an http(s) URL`);
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
  if (typeof value !== 'string' || value.trim() === '') throw new TypeError(`${what} is not a srcset`);
  return value
    .split(',')
    .map((candidate, index) => {
      const [url, width, ...rest] = candidate.trim().split(/\s+/);
      if (width === undefined || !/^[1-9]\d*w$/.test(width) || rest.length > 0) {
        throw new TypeError(`${what}: candidate ${index} is not "URL <width>w"`);
      }
      return `${webUrl(url, baseUrl, `${what} candidate ${index}`)} ${width}`;
    })
    .join(', ');
}

/**
 * `<caroulsel-gallery data-url="…" fallback-delay-ms="…" root-margin="…">` for pages that prefer
 * markup to a script call. Attributes are read once, when the element is connected.
 */
export function defineGalleryElement(name = 'caroulsel-gallery') {
  if (typeof customElements === 'undefined' || customElements.get(name)) return;
  customElements.define(
    name,
    class extends HTMLElement {
      /** @type {GalleryController | undefined} */
      #gallery;

      connectedCallback() {
        /** @type {GalleryOptions} */
        const options = {};
        const dataUrl = this.getAttribute('data-url');
        if (dataUrl) options.dataUrl = dataUrl;
        const delay = this.getAttribute('fallback-delay-ms');
        if (delay !== null) {
          // Strict digits: `Number('')` is 0 and `Number(' 1e3 ')` is 1000, neither meant by markup.
          if (!/^\d+$/.test(delay)) {
            throw new RangeError(
              `<${name}>: fallback-delay-ms must be a whole number of milliseconds, got ${JSON.stringify(delay)}`,
            );
          }
          options.fallbackDelayMs = Number(delay);
        }
        const rootMargin = this.getAttribute('root-margin');
        if (rootMargin) options.rootMargin = rootMargin;
        this.#gallery = mountGallery(this, options);
      }

      disconnectedCallback() {
        this.#gallery?.destroy();
        this.#gallery = undefined;
      }
    },
  );
}

defineGalleryElement();
