// @ts-check
/**
 * The home gallery: a framework-free browser module that ships as-is (no build step).
 *
 * Phases: idle until first visible, then exactly one list request with a single centred loader,
 * then a grid whose cards each keep a skeleton (over the image's ThumbHash colours) until their own
 * thumbnail loads (or a safety fallback fires). An empty list and a failed request get states of
 * their own. A card opens its full image in a PhotoSwipe lightbox; without JavaScript it is a plain
 * link to that image.
 *
 * Two files of the package's dependencies are loaded next to this module (same folder, so wherever
 * a host serves it): `thumbhash.js` when the list is requested, `photoswipe.esm.min.js` and
 * `photoswipe.css` when a card is first pointed at, focused or opened.
 *
 * @example
 *   import { mountGallery } from '/assets/caroulsel-gallery.js';
 *   const gallery = mountGallery(document.querySelector('#gallery'), { fallbackDelayMs: 5000 });
 *   // later: gallery.destroy();
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

/**
 * Every text the component shows, so a host page can translate them.
 * @typedef {object} GalleryLabels
 * @property {string} gallery accessible name of the card list
 * @property {string} loading the loader's text while the list is requested
 * @property {string} empty shown when the list has no items
 * @property {string} error shown when the list request fails
 * @property {string} moreError shown after the grid when a later page fails (with the retry button)
 * @property {string} retry the retry button's text
 * @property {string} thumbnailError shown in a card whose thumbnail fails to load
 * @property {string} loaded announced once the grid is drawn; `{count}` is the number of images
 * @property {string} lightbox accessible name of the lightbox dialog
 * @property {string} close the lightbox's close button
 * @property {string} previous the lightbox's previous-image button
 * @property {string} next the lightbox's next-image button
 * @property {string} zoom the lightbox's zoom button
 * @property {string} imageError shown in the lightbox when a full image fails to load
 */

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
 * One card of the grid and the item it shows.
 * @typedef {object} Card
 * @property {GalleryItem} item
 * @property {HTMLLIElement} entry
 * @property {HTMLAnchorElement} card
 * @property {HTMLImageElement} image
 * @property {HTMLElement} skeleton
 */

/**
 * The open lightbox; `pswp` is undefined while PhotoSwipe's module is still loading.
 * @typedef {object} Lightbox
 * @property {import('photoswipe').default | undefined} pswp
 * @property {boolean} closing
 * @property {boolean} [fromHistory] closed by Back, so the history needs no step of its own
 */

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
  moreError: 'More images could not be loaded.',
  retry: 'Try again',
  thumbnailError: 'Image unavailable',
  loaded: '{count} images loaded',
  lightbox: 'Image viewer',
  close: 'Close',
  previous: 'Previous image',
  next: 'Next image',
  zoom: 'Zoom',
  imageError: 'The image cannot be loaded',
};

/**
 * The built-in texts in Brazilian Portuguese, for a page (or an element) whose `lang` is Portuguese.
 * @type {GalleryLabels}
 */
export const PT_BR_LABELS = {
  gallery: 'Galeria de imagens',
  loading: 'Procurando imagens…',
  empty: 'Ainda não há imagens para mostrar.',
  error: 'Não foi possível carregar as imagens.',
  moreError: 'Não foi possível carregar mais imagens.',
  retry: 'Tentar de novo',
  thumbnailError: 'Imagem indisponível',
  loaded: '{count} imagens carregadas',
  lightbox: 'Visualizador de imagens',
  close: 'Fechar',
  previous: 'Imagem anterior',
  next: 'Próxima imagem',
  zoom: 'Ampliar',
  imageError: 'Não foi possível carregar a imagem',
};

/**
 * The built-in texts for `element`: Brazilian Portuguese where its language (its own `lang` or an
 * ancestor's, as the page declares it) is any Portuguese, else English.
 * @param {HTMLElement} element
 */
function builtInLabels(element) {
  const lang = element.closest('[lang]')?.getAttribute('lang') ?? '';
  return lang.toLowerCase().startsWith('pt') ? PT_BR_LABELS : DEFAULT_LABELS;
}

const BLOCK = 'caroulsel-gallery';

/** The URL fragment that names the image the lightbox shows, so a shared link opens it. */
const HASH_PREFIX = '#photo=';

/** Marks the history entry the lightbox pushed: Back leaves it, which closes the lightbox. */
const HISTORY_KEY = 'caroulselGalleryLightbox';

/** The dependency files live next to this module, wherever the host serves it from. */
const assetUrl = (/** @type {string} */ name) => new URL(name, import.meta.url).href;

/**
 * @typedef {(hash: Uint8Array) => { w: number, h: number, rgba: ArrayLike<number> }} PlaceholderDecoder
 */

/** @type {Promise<PlaceholderDecoder | undefined> | undefined} */
let decoderModule;

/**
 * The ThumbHash decoder, loaded once per page. A decoder that cannot be loaded costs the
 * placeholders, never the gallery.
 *
 * @returns {Promise<PlaceholderDecoder | undefined>}
 */
function loadDecoder() {
  decoderModule ??= import(assetUrl('thumbhash.js')).then(
    (module) => /** @type {PlaceholderDecoder} */ (module.thumbHashToRGBA),
    (error) => {
      console.warn('caroulsel-gallery: no placeholders, thumbhash.js did not load:', error);
      decoderModule = undefined;
      return undefined;
    },
  );
  return decoderModule;
}

/** @typedef {typeof import('photoswipe').default} PhotoSwipeClass */

/** @type {Promise<PhotoSwipeClass> | undefined} */
let photoSwipeModule;

/**
 * PhotoSwipe's core and its styles, loaded once per page. A failure is not remembered, so the next
 * opening tries again.
 *
 * @param {Document} doc
 * @returns {Promise<PhotoSwipeClass>}
 */
function loadPhotoSwipe(doc) {
  photoSwipeModule ??= Promise.all([
    import(assetUrl('photoswipe.esm.min.js')),
    new Promise((resolve, reject) => {
      const link = doc.createElement('link');
      link.rel = 'stylesheet';
      link.href = assetUrl('photoswipe.css');
      link.addEventListener('load', resolve, { once: true });
      link.addEventListener('error', () => reject(new Error(`${link.href} did not load`)), { once: true });
      doc.head.append(link);
    }),
  ]).then(([module]) => /** @type {PhotoSwipeClass} */ (module.default));
  photoSwipeModule.catch(() => {
    photoSwipeModule = undefined;
  });
  return photoSwipeModule;
}

/** The item id the URL's fragment names, if any. */
function hashId() {
  const { hash } = window.location;
  if (!hash.startsWith(HASH_PREFIX)) return undefined;
  try {
    return decodeURIComponent(hash.slice(HASH_PREFIX.length));
  } catch {
    return undefined;
  }
}

/** @param {unknown} state */
function isLightboxEntry(state) {
  return isRecord(state) && state[HISTORY_KEY] === true;
}

/** The page's URL without its fragment: where closing a lightbox that history did not open leads. */
function urlWithoutHash() {
  const { href, hash } = window.location;
  return hash === '' ? href : href.slice(0, -hash.length);
}

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
  const labels = { ...builtInLabels(element), ...options.labels };
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
  /** @type {PlaceholderDecoder | undefined} */
  let decode;
  /** The grid's list while it is shown, and every card in it, in order. */
  /** @type {HTMLUListElement | undefined} */
  let list;
  /** @type {Card[]} */
  const shown = [];
  /** The ids of the shown cards. @type {Set<string>} */
  const shownIds = new Set();
  /** Each card waiting to be seen: its safety fallback only starts counting once it is on screen. */
  /** @type {Map<Element, () => void>} */
  const unseen = new Map();
  const cardObserver =
    typeof IntersectionObserver === 'function'
      ? new IntersectionObserver((entries) => {
          for (const entry of entries) {
            if (!entry.isIntersecting) continue;
            unseen.get(entry.target)?.();
          }
        })
      : undefined;
  /** @type {Lightbox | undefined} */
  let lightbox;
  let destroyed = false;
  /** Whether focus follows the content a retry brings (see keepFocus). */
  let focusFollows = false;
  /** @type {ReturnType<typeof loadMoreAtEnd> | undefined} */
  let pager;
  // Aborted on destroy: no thumbnail retry outlives the gallery.
  const retries = new AbortController();

  element.classList.add(BLOCK);
  // One polite live region for the whole life of the gallery: a region that already exists is the
  // one screen readers reliably announce when its text changes.
  const announcer = create('p', `${BLOCK}__status`);
  announcer.setAttribute('role', 'status');
  element.append(announcer);
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

  /** Shows `node` as the gallery's content, keeping the live region. @param {HTMLElement} node */
  function show(node) {
    for (const child of [...element.children]) if (child !== announcer) child.remove();
    element.prepend(node);
  }

  async function load() {
    request?.abort();
    const controller = new AbortController();
    request = controller;
    showLoader();
    // Fetched alongside the list, so the placeholders are ready when the grid is drawn.
    const decoder = loadDecoder();
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
    decode = await decoder;
    if (controller.signal.aborted) return;
    request = undefined;
    if (items.length === 0 && next === null) showEmpty();
    else showGrid(items, next);
  }

  /**
   * Where keyboard focus goes when the element that had it is replaced (the retry button by the
   * loader, the loader by the grid): set by a retry, so focus stays in the gallery instead of falling
   * back to the page's start. Ignored when focus is elsewhere on the page.
   * @param {HTMLElement} target
   */
  function keepFocus(target) {
    if (!focusFollows) return;
    const active = doc.activeElement;
    if (active !== null && active !== doc.body && !element.contains(active)) return;
    if (target.tabIndex < 0 && !target.hasAttribute('tabindex')) target.tabIndex = -1;
    target.focus({ preventScroll: true });
  }

  function showLoader() {
    const loader = create('div', `${BLOCK}__loader`);
    loader.setAttribute('role', 'status');
    const spinner = create('span', `${BLOCK}__spinner`);
    spinner.setAttribute('aria-hidden', 'true');
    loader.append(spinner, create('span', `${BLOCK}__loader-text`, labels.loading));
    show(loader);
    setState('loading');
    // Said by the live region that stays: a status inserted with its text is not always read.
    announcer.textContent = labels.loading;
    keepFocus(loader);
  }

  function showEmpty() {
    const message = create('p', `${BLOCK}__message ${BLOCK}__message--empty`, labels.empty);
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
    const box = create('div', className);
    box.setAttribute('role', 'alert');
    const button = create('button', `${BLOCK}__retry`, labels.retry);
    button.type = 'button';
    button.addEventListener('click', onRetry, { once: true });
    box.append(create('p', `${BLOCK}__error-text`, text), button);
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
    list = create('ul', `${BLOCK}__grid`);
    list.setAttribute('aria-label', labels.gallery);
    if (useLightbox) {
      // The lightbox's code is fetched when a card is first pointed at or focused, not with the page.
      const warm = () => void loadPhotoSwipe(doc).catch(() => {});
      list.addEventListener('pointerover', warm, { once: true });
      list.addEventListener('focusin', warm, { once: true });
    }
    show(list);
    setState('grid');
    appendCards(items);
    announceCount();
    const firstCard = shown[0]?.card;
    if (firstCard !== undefined) keepFocus(firstCard);
    focusFollows = false;
    // The end of the grid: the next page is asked for when this sentinel comes near the viewport.
    if (next !== null) {
      const sentinel = create('div', `${BLOCK}__more`);
      sentinel.setAttribute('aria-hidden', 'true');
      element.append(sentinel);
      pager = loadMoreAtEnd(sentinel, next, {
        // Items without an id are named by their place in the whole list, not in their page.
        fetchPage: (url, signal, place) => fetchPage(url, signal, doc.baseURI, place),
        firstCount: items.length,
        append: (more) => {
          appendCards(more);
          announceCount();
        },
        restart: dataUrl,
        failed: (retry) => showMoreError(sentinel, retry),
        // Pages that all left their items out (bad rows) end as an empty list, not a blank grid.
        ended: () => {
          if (shown.length === 0) showEmpty();
        },
      });
    }
    if (useLightbox) void openNamedInUrl();
  }

  /**
   * A later page failed: what is shown stays, and a retry after the grid asks for that page again.
   * @param {HTMLElement} sentinel @param {() => void} retry
   */
  function showMoreError(sentinel, retry) {
    if (shown.length === 0) {
      pager?.stop();
      showError();
      return;
    }
    const { box } = retryAlert(`${BLOCK}__more-error`, labels.moreError, () => {
      // The button goes with the box: focus stays in the grid, on its last card.
      shown.at(-1)?.card.focus();
      box.remove();
      retry();
    });
    sentinel.before(box);
  }

  function announceCount() {
    announcer.textContent = labels.loaded.replace('{count}', String(shown.length));
  }

  /**
   * Adds one card per item at the end of the grid, each watching its own thumbnail.
   * @param {GalleryItem[]} items
   */
  function appendCards(items) {
    if (list === undefined) return;
    const first = shown.length;
    // A host source that pages by offset may repeat an item, and a list started again after a stale
    // cursor repeats every item already shown: each is shown once.
    const fresh = items.filter((item) => !shownIds.has(item.id) && shownIds.add(item.id));
    const added = fresh.map((item, offset) => createCard(item, first + offset));
    for (const card of added) {
      shown.push(card);
      list.append(card.entry);
    }
    for (const card of added) watchImage(card);
    // An open lightbox counts them at once, and shows the first as the next slide.
    const pswp = lightbox?.closing === false ? lightbox.pswp : undefined;
    if (pswp !== undefined && added.length > 0) pswp.refreshSlideContent(first);
  }

  /**
   * @param {GalleryItem} item
   * @param {number} index its place in the grid, for the lightbox
   * @returns {Card}
   */
  function createCard(item, index) {
    const entry = create('li', `${BLOCK}__item`);
    const card = create('a', `${BLOCK}__card`);
    // A real link: without JavaScript (or with a modifier key) it opens the full image itself.
    card.href = item.fullUrl;
    // Named once when alt and title say the same; otherwise the name is both, image first.
    if (item.title !== '' && item.alt === item.title) card.setAttribute('aria-label', item.title);
    card.dataset.state = 'pending';
    if (item.width !== undefined && item.height !== undefined) {
      // The only inline style: each card reserves its image's own shape (the CSS turns the ratio
      // into the media box's aspect-ratio and the card's share of its row), so nothing shifts on load.
      entry.style.setProperty('--caroulsel-gallery-ratio', String(item.width / item.height));
    }
    const media = create('span', `${BLOCK}__media`);
    const placeholder = item.placeholder === undefined ? undefined : drawPlaceholder(item.placeholder);
    if (placeholder !== undefined) {
      media.classList.add(`${BLOCK}__media--placeholder`);
      media.append(placeholder);
    }
    const image = createThumbnail(item);
    const skeleton = create('span', `${BLOCK}__skeleton`);
    skeleton.setAttribute('aria-hidden', 'true');
    media.append(image, skeleton);
    card.append(media, create('span', `${BLOCK}__title`, item.title));
    entry.append(card);
    if (useLightbox) card.addEventListener('click', (event) => onCardClick(event, index));
    return { item, entry, card, image, skeleton };
  }

  /**
   * The card's `<img>`: everything that decides which file the browser fetches for the thumbnail
   * is set here, except `src`, which {@link watchImage} sets once it listens.
   *
   * @param {GalleryItem} item
   */
  function createThumbnail(item) {
    const image = create('img', `${BLOCK}__image`);
    image.alt = item.alt;
    image.decoding = 'async';
    // Before `src`: cards below the fold wait until the visitor scrolls near them.
    image.loading = 'lazy';
    if (item.width !== undefined && item.height !== undefined) {
      image.width = item.width;
      image.height = item.height;
    }
    return image;
  }

  /**
   * The item's ThumbHash, drawn into a tiny canvas the CSS stretches over the media box: the
   * image's colours before it loads, and after a fallback. A canvas, not a data: URL, so a host
   * page's Content-Security-Policy for images does not hide it. Undefined when it cannot be drawn.
   *
   * @param {string} hash base64
   */
  function drawPlaceholder(hash) {
    if (decode === undefined) return undefined;
    try {
      const bytes = Uint8Array.from(atob(hash), (char) => char.charCodeAt(0));
      const { w, h, rgba } = decode(bytes);
      const canvas = create('canvas', `${BLOCK}__placeholder`);
      canvas.width = w;
      canvas.height = h;
      canvas.setAttribute('aria-hidden', 'true');
      const context = canvas.getContext('2d');
      if (context === null) return undefined;
      context.putImageData(new ImageData(new Uint8ClampedArray(rgba), w, h), 0, 0);
      return canvas;
    } catch (error) {
      console.warn(`caroulsel-gallery: placeholder ${JSON.stringify(hash)} is not a ThumbHash:`, error);
      return undefined;
    }
  }

  /**
   * Listens first, then sets the source, so no load event is missed; an image the browser already
   * has (`complete` at once, from its cache) counts as loaded straight away. The safety fallback
   * counts from when the card is first on screen: a lazy image below the fold has not even been
   * asked for before that.
   *
   * @param {Card} card
   */
  function watchImage({ item, card, image, skeleton }) {
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    const startFallback = () => {
      forget();
      if (timer !== undefined || skeleton.parentNode === null) return;
      timer = setTimeout(() => settle('fallback'), fallbackDelayMs);
      timers.add(timer);
    };
    function forget() {
      unseen.delete(card);
      cardObserver?.unobserve(card);
    }
    /** @param {'loaded' | 'failed' | 'fallback'} outcome */
    function settle(outcome) {
      forget();
      if (timer !== undefined) {
        clearTimeout(timer);
        timers.delete(timer);
      }
      skeleton.remove();
      const current = card.dataset.state;
      // A late error after the fallback still deserves the error text; a late load counts as loaded.
      if (outcome === 'failed' && current !== 'failed') {
        card.dataset.state = 'failed';
        image.after(create('span', `${BLOCK}__image-error`, labels.thumbnailError));
      } else if (outcome === 'loaded' && (current === 'pending' || current === 'fallback')) {
        card.dataset.state = 'loaded';
      } else if (outcome === 'fallback' && current === 'pending') {
        card.dataset.state = 'fallback';
      }
    }
    image.addEventListener('load', () => settle('loaded'), { once: true });
    // A server preparing too many cold thumbnails answers 503: wait as it asks, then load again.
    retryWhenBusy(image, item.previewUrl, retries.signal, () => settle('failed'));
    if (item.srcset !== undefined) {
      // The browser picks one of them by the card's width and the screen's pixel density.
      image.sizes = sizesOf(item);
      image.srcset = item.srcset;
    }
    image.src = item.previewUrl;
    if (image.complete && image.naturalWidth > 0) settle('loaded');
    else if (cardObserver === undefined) startFallback();
    else {
      unseen.set(card, startFallback);
      cardObserver.observe(card);
    }
  }

  /**
   * A plain click (or Enter) opens the lightbox; a click with a modifier keeps the link's own
   * meaning (new tab, download), as people expect from a link.
   *
   * @param {MouseEvent} event
   * @param {number} index
   */
  function onCardClick(event, index) {
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    void openLightbox(index, 'click');
  }

  /**
   * Opens the item the URL names (a shared link, or Forward after Back). An item of a later page is
   * looked for page after page, one request at a time, as scrolling to it would load them, in the
   * next {@link SEEK_PAGES} pages at most: an id the list no longer has (an old link) must not make
   * the page load the whole list. Not found, or the URL moved on meanwhile, the grid stays as it is.
   */
  async function openNamedInUrl() {
    const id = hashId();
    if (id === undefined) return;
    const named = (/** @type {Card} */ card) => card.item.id === id;
    if (!shown.some(named)) await pager?.seek(() => hashId() !== id || shown.some(named), SEEK_PAGES);
    if (destroyed || hashId() !== id) return;
    if (!shown.some(named)) {
      // A page failed on the way: the item may be on it, and a retry may bring it; the URL keeps it.
      if (pager?.paused()) return;
      // An id the list no longer has: the URL stops naming it, so no later Back or Forward looks again.
      history.replaceState(history.state, '', urlWithoutHash());
      return;
    }
    void openLightbox(shown.findIndex(named), 'url');
  }

  /**
   * @param {number} index
   * @param {'click' | 'url'} cause
   */
  async function openLightbox(index, cause) {
    const opened = shown[index];
    if (lightbox !== undefined || opened === undefined) return;
    // Taken before the module loads: a second click meanwhile does not open a second lightbox.
    lightbox = { pswp: undefined, closing: false };
    const current = lightbox;
    /** @type {PhotoSwipeClass} */
    let PhotoSwipe;
    try {
      PhotoSwipe = await loadPhotoSwipe(doc);
    } catch (error) {
      lightbox = undefined;
      console.error('caroulsel-gallery: the lightbox did not load:', error);
      // The card is still a link: the visitor gets the full image the plain way.
      if (cause === 'click') window.location.assign(opened.item.fullUrl);
      return;
    }
    // Back while the module loaded: the visitor left before it opened, so it does not open.
    if (destroyed || lightbox !== current || current.fromHistory) {
      if (lightbox === current) lightbox = undefined;
      return;
    }
    // Focused before PhotoSwipe takes focus, so the card is where focus comes back to.
    opened.card.focus({ preventScroll: true });
    const reducedMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
    const pswp = new PhotoSwipe({
      // The grid's own cards, not a copy: the cards of pages that come while the lightbox is open
      // are its slides too (the `itemData` filter below makes each slide when it is needed).
      dataSource: /** @type {any} */ (shown),
      index,
      // Wrapping from the last loaded image to the first would hide the pages still to come.
      loop: pager === undefined || !pager.hasMore(),
      // Opaque: the page behind would otherwise show through the image's margins.
      bgOpacity: 1,
      // Room for the counter and buttons above, the caption below: neither covers the image.
      padding: { top: 44, bottom: 56, left: 0, right: 0 },
      showHideAnimationType: reducedMotion ? 'none' : 'fade',
      // Focus goes back to the card of the image last shown, which PhotoSwipe cannot know.
      returnFocus: false,
      closeTitle: labels.close,
      zoomTitle: labels.zoom,
      arrowPrevTitle: labels.previous,
      arrowNextTitle: labels.next,
      errorMsg: labels.imageError,
      // The next and the previous image are fetched while the current one is looked at.
      preload: [1, 1],
    });
    current.pswp = pswp;
    pswp.addFilter('itemData', (data, slideIndex) => {
      const slideCard = shown[slideIndex];
      return slideCard === undefined ? data : slideOf(slideCard);
    });
    pswp.on('uiRegister', () => {
      pswp.ui?.registerElement({
        name: 'caroulsel-caption',
        order: 9,
        isButton: false,
        appendTo: 'root',
        onInit: (caption) => {
          caption.setAttribute('aria-live', 'polite');
          const update = () => {
            caption.textContent = shown[pswp.currIndex]?.item.title ?? '';
          };
          pswp.on('change', update);
          update();
        },
      });
    });
    // PhotoSwipe listens to keys only once its opening animation has ended: Esc pressed during it
    // would be lost, so it is heard here, and acted on as soon as the animation ends.
    const earlyEscape = (/** @type {KeyboardEvent} */ event) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      closeSoon(pswp);
    };
    doc.addEventListener('keydown', earlyEscape);
    const stopEarlyEscape = () => doc.removeEventListener('keydown', earlyEscape);
    pswp.on('openingAnimationEnd', stopEarlyEscape);
    pswp.on('destroy', stopEarlyEscape);
    pswp.on('keydown', ({ originalEvent: event }) => {
      // PhotoSwipe pulls focus back when it lands elsewhere in the page, but Tab from its last
      // button leaves the page for the browser's own controls: the dialog pattern wraps around.
      if (event.key !== 'Tab' || pswp.element === undefined) return;
      const stops = [...pswp.element.querySelectorAll('button')].filter(
        // checkVisibility() is Safari 17.4 and Firefox 125 on; a laid-out button has an offsetParent.
        (button) => !button.disabled && (button.checkVisibility?.() ?? button.offsetParent !== null),
      );
      const first = stops[0];
      const last = stops.at(-1);
      if (first === undefined || last === undefined) return;
      const active = doc.activeElement;
      if (event.shiftKey && (active === first || active === pswp.element)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && active === last) {
        event.preventDefault();
        first.focus();
      }
    });
    pswp.on('change', () => {
      // Near the last loaded image, the next page is asked for, as scrolling to the grid's end would.
      if (pager?.hasMore() && pswp.currIndex >= shown.length - 2) void pager.more();
      const item = shown[pswp.currIndex]?.item;
      if (item !== undefined && isLightboxEntry(history.state)) {
        history.replaceState(history.state, '', HASH_PREFIX + encodeURIComponent(item.id));
      }
    });
    pswp.on('close', () => {
      current.closing = true;
      // Closed from inside (button, Esc, swipe down): step back off the entry the opening pushed,
      // so a later Back goes where the visitor was before, not to a closed lightbox's URL.
      if (!current.fromHistory && isLightboxEntry(history.state)) history.back();
      else if (!current.fromHistory && hashId() !== undefined)
        history.replaceState(history.state, '', urlWithoutHash());
    });
    pswp.on('destroy', () => {
      if (lightbox === current) lightbox = undefined;
      if (destroyed) return;
      const last = shown[pswp.currIndex] ?? opened;
      last.card.focus({ preventScroll: true });
      last.card.scrollIntoView({ block: 'nearest' });
      // Closed by Back, then Forward while it faded out: the URL names an image again, so it opens.
      if (current.fromHistory && isLightboxEntry(history.state)) void openNamedInUrl();
    });
    pswp.init();
    const root = pswp.element;
    if (root) {
      // PhotoSwipe sets role="dialog"; the dialog pattern also wants it modal and named.
      root.setAttribute('aria-modal', 'true');
      root.setAttribute('aria-label', labels.lightbox);
    }
    const url = HASH_PREFIX + encodeURIComponent(opened.item.id);
    if (cause === 'click') {
      history.pushState({ [HISTORY_KEY]: true }, '', url);
    } else if (!isLightboxEntry(history.state)) {
      // Opened from a shared link: put the page itself under the lightbox's entry, so Back closes
      // the lightbox and stays on the page.
      history.replaceState(history.state, '', urlWithoutHash());
      history.pushState({ [HISTORY_KEY]: true }, '', url);
    }
  }

  /**
   * What PhotoSwipe needs of an item. It lays a slide out before the image loads, so it needs a
   * size: an item without one borrows its thumbnail's shape (or 4:3 until that has loaded).
   *
   * @param {Card} card
   */
  function slideOf({ item, image }) {
    const shape = image.naturalWidth > 0 ? image.naturalHeight / image.naturalWidth : 0.75;
    return {
      src: item.fullUrl,
      width: item.width ?? 1600,
      height: item.height ?? Math.round(1600 * shape),
      alt: item.alt,
      // The thumbnail the card already shows stands in while the full image loads.
      ...(image.currentSrc ? { msrc: image.currentSrc } : {}),
    };
  }

  /**
   * Closes the lightbox now, or as soon as its opening animation ends: PhotoSwipe ignores a close
   * during it (a fade cannot turn back midway), and Back or Esc that early would be lost.
   * @param {import('photoswipe').default} pswp
   */
  function closeSoon(pswp) {
    if (pswp.opener.isOpening) pswp.on('openingAnimationEnd', () => pswp.close());
    else pswp.close();
  }

  /** Back and Forward: leaving the lightbox's entry closes it; reaching one (or a link to an item) opens it. */
  function onPopState() {
    if (lightbox !== undefined) {
      if (lightbox.closing || isLightboxEntry(history.state)) return;
      lightbox.fromHistory = true;
      if (lightbox.pswp) closeSoon(lightbox.pswp);
      // Not open yet (its code still loading): it never will, and the next click starts afresh.
      else lightbox = undefined;
      return;
    }
    if (state === 'grid') void openNamedInUrl();
  }
  if (useLightbox) window.addEventListener('popstate', onPopState);

  // A link that names an item opens it at once, wherever the gallery is on the page.
  if (observer && !(useLightbox && hashId() !== undefined)) observer.observe(element);
  else void load();

  return {
    state: () => state,
    destroy() {
      destroyed = true;
      observer?.disconnect();
      pager?.stop();
      pager = undefined;
      retries.abort();
      cardObserver?.disconnect();
      unseen.clear();
      window.removeEventListener('popstate', onPopState);
      lightbox?.pswp?.destroy();
      lightbox = undefined;
      request?.abort();
      request = undefined;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      shown.length = 0;
      shownIds.clear();
      list = undefined;
      element.replaceChildren();
      element.classList.remove(BLOCK);
      if (element.classList.length === 0) element.removeAttribute('class');
      element.removeAttribute('aria-busy');
      delete element.dataset.state;
    },
  };
}

/** How many pages past those shown a shared link's item is looked for (960 items at the default size). */
const SEEK_PAGES = 20;
/** How far below the viewport the end of the grid may be when the next page is asked for. */
const MORE_MARGIN = '0px 0px 600px 0px';
/** A busy thumbnail or page is asked for again at most this many times before it counts as failed. */
const BUSY_RETRIES = 20;
/** The longest Retry-After honoured, so a wrong header cannot park a card for good. */
const MAX_RETRY_AFTER_MS = 30_000;

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
function isStaleCursor(error) {
  return (
    error instanceof PageError &&
    error.status === 400 &&
    (error.code === 'CURSOR_STALE' || error.code === 'BAD_QUERY')
  );
}

/** How often one gallery starts its list again after stale cursors before it counts as failed. */
const MAX_RESTARTS = 2;

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
async function fetchPage(url, signal, baseUrl, first = 0) {
  let response = await fetch(url, { headers: { accept: 'application/json' }, signal });
  // A server preparing too many cold images answers a page 503 too: wait as it asks, then again.
  for (let tries = 0; response.status === 503 && tries < BUSY_RETRIES; tries++) {
    await waitRetryAfter(response, signal);
    response = await fetch(url, { headers: { accept: 'application/json' }, signal });
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
}

/**
 * Loads the pages after the first when `sentinel` (placed after the grid) comes near the viewport:
 * one request per page, never two at once. After each page the sentinel is observed anew, so a page
 * too short to push it out of view asks for the next one by itself. A stale cursor starts again
 * from `io.restart` (the first page; the caller leaves out cards it already shows), at most
 * {@link MAX_RESTARTS} times. Another failure pauses the paging (logged) and hands `io.failed` a
 * retry, which asks for the same page again; what is shown stays. `io.ended` is told when the list
 * has ended. `seek` loads the following pages the same way, one after the other, until what it
 * looks for has come, the list ends or it has loaded `pages` of them (a shared link to a later
 * page).
 *
 * @param {HTMLElement} sentinel
 * @param {string} first the URL of the second page
 * @param {{
 *   fetchPage: (url: string, signal: AbortSignal, place: number) => Promise<{ items: GalleryItem[], next: string | null }>,
 *   append: (items: GalleryItem[]) => void,
 *   firstCount?: number,
 *   restart?: string,
 *   failed?: (retry: () => void) => void,
 *   ended?: () => void,
 * }} io
 * @returns {{ stop(): void, hasMore(): boolean, paused(): boolean, more(): Promise<void>, seek(found: () => boolean, pages: number): Promise<boolean> }}
 */
export function loadMoreAtEnd(sentinel, first, io) {
  /** @type {string | null} */
  let next = first;
  /** The page being loaded: a second caller waits for it instead of asking again. @type {Promise<void> | undefined} */
  let loading;
  /** Restarts since the last page that came through a cursor: a list that keeps going stale fails. */
  let restarts = 0;
  /** After a failure, until the visitor retries: nothing asks for the page meanwhile. */
  let paused = false;
  /** How many items the pages so far gave, for naming items without an id by their place. */
  let place = io.firstCount ?? 0;
  const controller = new AbortController();
  const watch = () => {
    observer.unobserve(sentinel);
    observer.observe(sentinel);
  };
  const stop = () => {
    next = null;
    observer.disconnect();
    controller.abort();
    sentinel.remove();
  };
  /** @returns {Promise<void>} */
  const loadNext = () => {
    if (loading !== undefined || next === null || paused) return loading ?? Promise.resolve();
    const url = next;
    const restarting = url === io.restart;
    if (restarting) place = 0;
    loading = io.fetchPage(url, controller.signal, place).then(
      (page) => {
        loading = undefined;
        if (controller.signal.aborted) return;
        place += page.items.length;
        if (!restarting) restarts = 0;
        io.append(page.items);
        // A next page that names the page just loaded would be asked for forever: the list ends.
        next = page.next === url ? null : page.next;
        if (next === null) {
          stop();
          io.ended?.();
          return;
        }
        watch();
      },
      (error) => {
        loading = undefined;
        if (controller.signal.aborted) return;
        console.error('caroulsel-gallery:', error);
        if (isStaleCursor(error) && io.restart !== undefined && restarts < MAX_RESTARTS) {
          restarts++;
          next = io.restart;
          watch();
          return;
        }
        if (io.failed === undefined) return stop();
        // Paused, not ended: the sentinel asks again only once the visitor says so; a cursor that
        // went stale is not asked for again, the list starts over.
        paused = true;
        observer.unobserve(sentinel);
        const stale = isStaleCursor(error);
        io.failed(() => {
          paused = false;
          if (next === null || controller.signal.aborted) return;
          if (stale && io.restart !== undefined) {
            restarts = 0;
            next = io.restart;
          }
          watch();
          void loadNext();
        });
      },
    );
    return loading;
  };
  const observer = new IntersectionObserver(
    (entries) => {
      if (entries.some((entry) => entry.isIntersecting)) void loadNext();
    },
    { rootMargin: MORE_MARGIN },
  );
  observer.observe(sentinel);
  return {
    stop,
    hasMore: () => next !== null,
    /** Whether a failure paused the paging until the visitor retries. */
    paused: () => paused,
    more: loadNext,
    async seek(found, pages) {
      for (let loaded = 0; !found() && next !== null && !paused && loaded < pages; loaded++) await loadNext();
      return found();
    },
  };
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
      await waitRetryAfter(response, signal);
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
 * Waits as a 503 `response` asks (its Retry-After), plus a little jitter so that the requests a busy
 * server turned away do not all come back at once; resolves at once when `signal` aborts (the
 * caller checks which).
 *
 * @param {Response} response
 * @param {AbortSignal} signal
 * @returns {Promise<void>}
 */
function waitRetryAfter(response, signal) {
  const ms = retryAfterMs(response.headers.get('retry-after')) + Math.random() * 250;
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      // The signal lives as long as the gallery: a listener left on it for every wait would pile up.
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
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
  const list = Array.isArray(body) ? body : isRecord(body) ? body.items : undefined;
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
  const width = positiveNumber(raw.width);
  const height = positiveNumber(raw.height);
  const bothSizes = width !== undefined && height !== undefined;
  const title = typeof raw.title === 'string' ? raw.title : '';
  const id = typeof raw.id === 'string' || typeof raw.id === 'number' ? String(raw.id) : '';
  return {
    // Without an id the item's place stands in (marked, so it never equals a real id): the URL can
    // still name it while the list stays put.
    id: id === '' ? `#${index}` : id,
    title,
    alt: typeof raw.alt === 'string' ? raw.alt : title,
    previewUrl: webUrl(raw.previewUrl, baseUrl, 'previewUrl'),
    fullUrl: webUrl(raw.fullUrl, baseUrl, 'fullUrl'),
    width: bothSizes ? width : undefined,
    height: bothSizes ? height : undefined,
    placeholder: typeof raw.placeholder === 'string' && raw.placeholder !== '' ? raw.placeholder : undefined,
    srcset: raw.srcset === undefined ? undefined : srcsetOf(raw.srcset, baseUrl, 'srcset'),
  };
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
