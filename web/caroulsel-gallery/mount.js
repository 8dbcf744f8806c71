// @ts-check
/**
 * `mountGallery`: the gallery's phases and what wires them. Idle until first visible, then exactly
 * one list request with a single centred loader, then the grid (or the empty or error state); one
 * polite live region says each phase. The grid, its paging and the lightbox are parts of their own.
 */

import { BLOCK, create, focusWithin, hashId } from './dom.js';
import { lazyLightbox } from './lightbox-loader.js';
import { fetchPage } from './list.js';
import { loadMoreAtEnd } from './paging.js';
import { loadDecoder } from './placeholders.js';
import { builtInLabels, DEFAULT_LABELS } from './texts.js';

/** @typedef {import('./grid.js').Grid} Grid */
/** @typedef {import('./list.js').GalleryItem} GalleryItem */
/** @typedef {import('./paging.js').Pager} Pager */
/** @typedef {import('./texts.js').GalleryLabels} GalleryLabels */

/**
 * @typedef {object} GalleryOptions
 * @property {string} [dataUrl] where the item list comes from; default `/caroulsel/data`
 * @property {number} [fallbackDelayMs] how long a card waits for its image's load event before its
 *   skeleton is removed anyway; default {@link DEFAULT_FALLBACK_DELAY_MS}
 * @property {string} [rootMargin] IntersectionObserver margin deciding when the gallery counts as
 *   visible; default `0px`
 * @property {Partial<GalleryLabels>} [labels] texts to replace
 * @property {boolean} [lightbox] open cards in the lightbox; default true (false: cards are plain
 *   links to the full image)
 */

/** @typedef {'idle' | 'loading' | 'grid' | 'empty' | 'error'} GalleryState */

/**
 * @typedef {object} GalleryController
 * @property {() => GalleryState} state the current phase
 * @property {() => void} destroy stops observing, aborts a pending request, clears timers and empties
 *   the element
 */

/** @type {Promise<typeof import('./grid.js')> | undefined} */
let gridLoading;

/**
 * The grid's modules (grid, cards, sources), imported when the list is asked for and alongside it,
 * not before the gallery starts: on a phone's network the list's round trip then overlaps their
 * arrival instead of following it. One that failed to load is imported again by the next try.
 */
function loadGridModule() {
  gridLoading ??= import('./grid.js').catch((error) => {
    gridLoading = undefined;
    throw error;
  });
  return gridLoading;
}

/** Long enough for a slow thumbnail on a poor connection, short enough that a lost load event does not leave a skeleton for good. */
export const DEFAULT_FALLBACK_DELAY_MS = 8000;

export const DEFAULT_DATA_URL = '/caroulsel/data';

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
  const useLightbox = options.lightbox ?? true;
  const labels = { ...builtInLabels(element), ...checkedLabels(options.labels) };
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
  /** The grid while it is shown. @type {Grid | undefined} */
  let grid;
  /** @type {Pager | undefined} */
  let pager;
  /** Asks again for the later page that failed, while it has not been asked again. @type {(() => void) | undefined} */
  let retryMore;
  let destroyed = false;
  /** Whether focus follows the content a retry brings (see keepFocus). */
  let focusFollows = false;
  const lightbox = useLightbox
    ? lazyLightbox({
        doc,
        labels,
        cards: () => grid?.cards ?? [],
        pager: () => pager,
        retryMore: () => retryMore,
        gridShown: () => state === 'grid',
        alive: () => !destroyed,
      })
    : undefined;

  element.classList.add(BLOCK);
  // One polite live region for the whole life of the gallery: a region that already exists is the
  // one screen readers reliably announce when its text changes.
  const announcer = create(doc, 'p', `${BLOCK}__status`);
  announcer.setAttribute('role', 'status');
  element.append(announcer);
  setState('idle');

  /** @param {GalleryState} next */
  function setState(next) {
    state = next;
    element.dataset.state = next;
    element.setAttribute('aria-busy', String(next === 'loading'));
  }

  /** Shows `node` as the gallery's content, keeping the live region. @param {HTMLElement} node */
  function show(node) {
    for (const child of [...element.children]) if (child !== announcer) child.remove();
    element.prepend(node);
  }

  /**
   * Where keyboard focus goes when the element that had it is replaced (the retry button by the
   * loader, the loader by the grid): set by a retry, so focus stays in the gallery instead of falling
   * back to the page's start. Ignored when focus is elsewhere on the page.
   * @param {HTMLElement} target
   */
  function keepFocus(target) {
    if (focusFollows) focusWithin(element, target);
  }

  async function load() {
    request?.abort();
    const controller = new AbortController();
    request = controller;
    showLoader();
    // Fetched alongside the list; the grid is drawn without waiting for it.
    const decoder = loadDecoder();
    /** @type {GalleryItem[]} */
    let items;
    /** @type {string | null} */
    let next;
    /** @type {typeof import('./grid.js')} */
    let gridParts;
    try {
      [{ items, next }, gridParts] = await Promise.all([
        fetchPage(dataUrl, controller.signal, doc.baseURI),
        loadGridModule(),
      ]);
    } catch (error) {
      if (controller.signal.aborted) return;
      // The list's request, if it is still on its way, is not needed any more.
      controller.abort();
      // The page's console is where a developer looks; the visitor gets the error state.
      console.error('caroulsel-gallery:', error);
      showError();
      return;
    }
    if (controller.signal.aborted) return;
    request = undefined;
    if (items.length === 0 && next === null) showEmpty();
    else showGrid(gridParts, items, next, decoder);
  }

  function showLoader() {
    const loader = create(doc, 'div', `${BLOCK}__loader`);
    loader.setAttribute('role', 'status');
    const spinner = create(doc, 'span', `${BLOCK}__spinner`);
    spinner.setAttribute('aria-hidden', 'true');
    loader.append(spinner, create(doc, 'span', `${BLOCK}__loader-text`, labels.loading));
    show(loader);
    setState('loading');
    // Said by the live region that stays: a status inserted with its text is not always read.
    announcer.textContent = labels.loading;
    keepFocus(loader);
  }

  function showEmpty() {
    const message = create(doc, 'p', `${BLOCK}__message ${BLOCK}__message--empty`, labels.empty);
    show(message);
    setState('empty');
    announcer.textContent = labels.empty;
    keepFocus(message);
    focusFollows = false;
  }

  /**
   * An alert saying `text`, with a "Try again" button that calls `onRetry` once (what replaces or
   * removes the box decides where focus goes next).
   * @param {string} className @param {string} text @param {() => void} onRetry
   * @returns {{ box: HTMLElement, button: HTMLButtonElement }}
   */
  function retryAlert(className, text, onRetry) {
    const box = create(doc, 'div', className);
    box.setAttribute('role', 'alert');
    const button = create(doc, 'button', `${BLOCK}__retry`, labels.retry);
    button.type = 'button';
    button.addEventListener('click', onRetry, { once: true });
    box.append(create(doc, 'p', `${BLOCK}__error-text`, text), button);
    return { box, button };
  }

  function showError() {
    // The loader replaces the button, so one click is one request; focus follows into the gallery.
    const { box, button: retry } = retryAlert(
      `${BLOCK}__message ${BLOCK}__message--error`,
      labels.error,
      () => {
        focusFollows = true;
        void load();
      },
    );
    show(box);
    setState('error');
    announcer.textContent = '';
    keepFocus(retry);
    focusFollows = false;
  }

  /**
   * @param {typeof import('./grid.js')} gridParts
   * @param {GalleryItem[]} items
   * @param {string | null} next the next page's URL, loaded when the end of the grid comes into view
   * @param {Promise<import('./placeholders.js').PlaceholderDecoder | undefined>} decoder
   */
  function showGrid({ createGrid }, items, next, decoder) {
    grid?.destroy();
    const shown = createGrid({
      gallery: element,
      labels,
      decoder,
      fallbackDelayMs,
      open: lightbox && ((index) => void lightbox.open(index, 'click')),
    });
    grid = shown;
    lightbox?.warmOn(shown.list);
    const keep = keepWhatIsSeen();
    show(shown.list);
    setState('grid');
    shown.append(items);
    const held = keep();
    announceCount();
    const firstCard = shown.cards[0]?.card;
    if (firstCard !== undefined) keepFocus(firstCard);
    focusFollows = false;
    // The end of the grid: the next page is asked for when this sentinel comes near the viewport.
    if (next !== null) {
      const sentinel = create(doc, 'div', `${BLOCK}__more`);
      sentinel.setAttribute('aria-hidden', 'true');
      element.append(sentinel);
      pager = loadMoreAtEnd(sentinel, next, {
        // Items without an id are named by their place in the whole list, not in their page.
        fetchPage: (url, signal, place) => fetchPage(url, signal, doc.baseURI, place),
        firstCount: items.length,
        // The grid grew above a view kept on what follows: its end is on screen though the visitor
        // did not scroll there, so the next page waits until they do.
        held,
        append: (more) => {
          const first = shown.cards.length;
          if (shown.append(more) > 0) lightbox?.added(first);
          announceCount();
        },
        restart: dataUrl,
        failed: (retry) => showMoreError(sentinel, retry),
        // Pages that all left their items out (bad rows) end as an empty list, not a blank grid.
        ended: () => {
          if (shown.cards.length === 0) showEmpty();
        },
      });
    }
    void lightbox?.openNamedInUrl();
  }

  /**
   * Keeps what the visitor looks at where it is on screen when the loader gives way to a taller
   * grid. Seeing the page below the gallery (scrolled to the page's end on a phone, where one column
   * of cards is much taller than the screen the loader reserved), what follows stays put and the
   * grid grows upwards, out of view, instead of pushing the footer away. Otherwise the gallery's top
   * stays put and the grid grows downwards: the browser's scroll anchoring, with the loading gallery
   * no anchor (see the CSS), may pick something below it and pull the grid's first rows up out of
   * view, which a visitor at the gallery's top sees as a jump. The browser's anchoring does the first
   * where it has it; this covers one without it (Safari) or a page that turned it off, and undoes
   * the second. Returns what to call once the grid is in place; it says whether the grid grew under
   * a view held on what follows (the visitor then sees the grid's end without having scrolled to it).
   * @returns {() => boolean}
   */
  function keepWhatIsSeen() {
    const view = doc.defaultView;
    if (view === null) return () => false;
    const before = element.getBoundingClientRect();
    // Something below the gallery is on screen: its bottom edge is what the visitor sees move.
    const follows = before.bottom < view.innerHeight;
    return () => {
      const after = element.getBoundingClientRect();
      const moved = follows ? after.bottom - before.bottom : after.top - before.top;
      if (Math.abs(moved) > 0.5) view.scrollBy(0, moved);
      return follows && after.height - before.height > 0.5;
    };
  }

  /**
   * A later page failed: what is shown stays, and a retry after the grid asks for that page again.
   * @param {HTMLElement} sentinel @param {() => void} retry
   */
  function showMoreError(sentinel, retry) {
    const cards = grid?.cards ?? [];
    if (cards.length === 0) {
      pager?.stop();
      showError();
      return;
    }
    // Once, from the grid's alert or from the lightbox's (the lightbox, a modal, hides the grid's).
    const again = () => {
      if (retryMore !== again) return;
      retryMore = undefined;
      box.remove();
      retry();
    };
    const { box } = retryAlert(`${BLOCK}__more-error`, labels.moreError, () => {
      // The button goes with the box: focus stays in the grid, on its last card.
      cards.at(-1)?.card.focus();
      again();
    });
    retryMore = again;
    sentinel.before(box);
    lightbox?.moreFailed();
  }

  /** Says how many images the list gave: found, not loaded (their thumbnails are still to come). */
  function announceCount() {
    const count = grid?.cards.length ?? 0;
    announcer.textContent = count === 1 ? labels.foundOne : labels.found.replace('{count}', String(count));
  }

  // A link that names an item opens it at once, wherever the gallery is on the page.
  if (observer && !(lightbox !== undefined && hashId() !== undefined)) observer.observe(element);
  else void load();

  return {
    state: () => state,
    destroy() {
      destroyed = true;
      observer?.disconnect();
      pager?.stop();
      pager = undefined;
      retryMore = undefined;
      lightbox?.destroy();
      grid?.destroy();
      grid = undefined;
      request?.abort();
      request = undefined;
      element.replaceChildren();
      element.classList.remove(BLOCK);
      if (element.classList.length === 0) element.removeAttribute('class');
      element.removeAttribute('aria-busy');
      delete element.dataset.state;
    },
  };
}

/**
 * A host's texts, each a label the gallery has and a string: a misspelt one (or one renamed since,
 * `loaded` before `found`) was dropped without a word, the built-in text shown in its place.
 * @param {unknown} given @returns {Partial<GalleryLabels>}
 */
function checkedLabels(given) {
  if (given === undefined) return {};
  if (given === null || typeof given !== 'object' || Array.isArray(given)) {
    throw new TypeError('mountGallery: labels must be an object of texts, such as { empty: "…" }');
  }
  const known = Object.keys(DEFAULT_LABELS);
  for (const [name, text] of Object.entries(given)) {
    if (!known.includes(name)) {
      throw new TypeError(`mountGallery: labels.${name} is not a label (its labels: ${known.join(', ')})`);
    }
    if (typeof text !== 'string') throw new TypeError(`mountGallery: labels.${name} must be a string`);
  }
  return /** @type {Partial<GalleryLabels>} */ (given);
}
