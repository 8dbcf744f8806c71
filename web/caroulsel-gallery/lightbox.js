// @ts-check
/**
 * The lightbox adapter: PhotoSwipe (loaded once per page from next to the entry module, with its
 * styles) over the grid's own cards, with the gallery's texts, a caption, focus wrapping inside the
 * dialog, Esc heard during the opening animation, and the page's history: opening pushes an entry
 * whose URL names the image, so Back closes it and a shared link opens it.
 */

import { assetUrl } from './dom.js';
import { hashId, isLightboxEntry, LIGHTBOX_STATE, photoUrl, urlWithoutHash } from './history.js';

/** @typedef {import('./cards.js').Card} Card */
/** @typedef {import('./paging.js').Pager} Pager */
/** @typedef {import('./texts.js').GalleryLabels} GalleryLabels */
/** @typedef {typeof import('photoswipe').default} PhotoSwipeClass */

/**
 * The open lightbox; `pswp` is undefined while PhotoSwipe's module is still loading.
 * @typedef {object} OpenLightbox
 * @property {import('photoswipe').default | undefined} pswp
 * @property {boolean} closing
 * @property {boolean} [fromHistory] closed by Back, so the history needs no step of its own
 */

/** @typedef {ReturnType<typeof createLightbox>} Lightbox */

/** How many pages past those shown a shared link's item is looked for (960 items at the default size). */
const SEEK_PAGES = 20;

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

/** @typedef {import('photoswipe').default} PhotoSwipe */
/** @typedef {Parameters<NonNullable<PhotoSwipe['ui']>['registerElement']>[0]} UIElement */

/**
 * The caption: the current image's title, under it, said when the image changes.
 * @param {PhotoSwipe} pswp @param {() => Card[]} cards
 * @returns {UIElement}
 */
function captionElement(pswp, cards) {
  return {
    name: 'caroulsel-caption',
    order: 9,
    isButton: false,
    appendTo: 'root',
    onInit: (caption) => {
      caption.setAttribute('aria-live', 'polite');
      const update = () => {
        caption.textContent = cards()[pswp.currIndex]?.item.title ?? '';
      };
      pswp.on('change', update);
      update();
    },
  };
}

/**
 * A later page that failed while the lightbox is open: said here, with its Try again, where the
 * visitor is (the grid's alert is behind the modal), near the last image loaded, whose counter and
 * disabled Next would otherwise look like the list's end.
 * @param {PhotoSwipe} pswp
 * @param {object} gallery
 * @param {Document} gallery.doc @param {GalleryLabels} gallery.labels
 * @param {() => Card[]} gallery.cards @param {() => (() => void) | undefined} gallery.retryMore
 * @param {(update: () => void) => void} gallery.shown gets the function that shows or hides it
 * @returns {UIElement}
 */
function moreErrorElement(pswp, { doc, labels, cards, retryMore, shown }) {
  return {
    name: 'caroulsel-more-error',
    order: 10,
    isButton: false,
    appendTo: 'root',
    onInit: (box) => {
      box.hidden = true;
      const text = doc.createElement('p');
      text.textContent = labels.moreError;
      const button = doc.createElement('button');
      button.type = 'button';
      button.className = 'pswp__caroulsel-retry';
      button.textContent = labels.retry;
      button.addEventListener('click', () => {
        const next = pswp.element?.querySelector('.pswp__button--arrow--next');
        retryMore()?.();
        update();
        // The button goes with the box: focus stays in the dialog, on Next.
        if (next instanceof HTMLElement) next.focus();
        else pswp.element?.focus();
      });
      box.append(text, button);
      const update = () => {
        const show = retryMore() !== undefined && pswp.currIndex >= cards().length - 2;
        if (show === !box.hidden) return;
        box.hidden = !show;
        // An alert inserted with its text is read out: the box's content is put in as it shows.
        if (show) box.setAttribute('role', 'alert');
        else box.removeAttribute('role');
      };
      pswp.on('change', update);
      shown(update);
      update();
    },
  };
}

/**
 * The gallery's lightbox; listens to Back and Forward from the start (a link to an item opens it).
 *
 * @param {object} gallery what the lightbox reads of the gallery, each time it needs it
 * @param {Document} gallery.doc
 * @param {GalleryLabels} gallery.labels
 * @param {() => Card[]} gallery.cards the grid's cards, in order (none before the grid)
 * @param {() => Pager | undefined} gallery.pager the paging, while pages remain
 * @param {() => (() => void) | undefined} gallery.retryMore asks again for a later page that
 *   failed; undefined while none has
 * @param {() => boolean} gallery.gridShown whether the grid is the gallery's content
 * @param {() => boolean} gallery.alive false once the gallery is destroyed
 */
export function createLightbox({ doc, labels, cards, pager, retryMore, gridShown, alive }) {
  /** @type {OpenLightbox | undefined} */
  let lightbox;
  /** Shows or hides the open lightbox's word about a later page that failed. */
  let showMoreError = () => {};

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
    if (!cards().some(named)) await pager()?.seek(() => hashId() !== id || cards().some(named), SEEK_PAGES);
    if (!alive() || hashId() !== id) return;
    if (!cards().some(named)) {
      // A page failed on the way: the item may be on it, and a retry may bring it; the URL keeps it.
      if (pager()?.paused()) return;
      // An id the list no longer has: the URL stops naming it, so no later Back or Forward looks again.
      history.replaceState(history.state, '', urlWithoutHash());
      return;
    }
    void openLightbox(cards().findIndex(named), 'url');
  }

  /**
   * @param {number} index
   * @param {'click' | 'url'} cause
   */
  async function openLightbox(index, cause) {
    const opened = cards()[index];
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
    if (!alive() || lightbox !== current || current.fromHistory) {
      if (lightbox === current) lightbox = undefined;
      return;
    }
    // Focused before PhotoSwipe takes focus, so the card is where focus comes back to.
    opened.card.focus({ preventScroll: true });
    const reducedMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
    const pswp = new PhotoSwipe({
      // The grid's own cards, not a copy: the cards of pages that come while the lightbox is open
      // are its slides too (the `itemData` filter below makes each slide when it is needed).
      dataSource: /** @type {any} */ (cards()),
      index,
      // Wrapping from the last loaded image to the first would hide the pages still to come.
      loop: !(pager()?.hasMore() ?? false),
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
      const slideCard = cards()[slideIndex];
      return slideCard === undefined ? data : slideOf(slideCard);
    });
    pswp.on('uiRegister', () => {
      pswp.ui?.registerElement(captionElement(pswp, cards));
      pswp.ui?.registerElement(
        moreErrorElement(pswp, {
          doc,
          labels,
          cards,
          retryMore,
          shown: (update) => {
            showMoreError = update;
            pswp.on('destroy', () => {
              if (showMoreError === update) showMoreError = () => {};
            });
          },
        }),
      );
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
      if (pager()?.hasMore() && pswp.currIndex >= cards().length - 2) void pager()?.more();
      const item = cards()[pswp.currIndex]?.item;
      if (item !== undefined && isLightboxEntry(history.state)) {
        history.replaceState(history.state, '', photoUrl(item.id));
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
      if (!alive()) return;
      const last = cards()[pswp.currIndex] ?? opened;
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
    // PhotoSwipe describes its parts in English, and has no option for it: in the page's language.
    pswp.scrollWrap?.setAttribute('aria-roledescription', labels.carousel);
    for (const holder of pswp.mainScroll.itemHolders)
      holder.el.setAttribute('aria-roledescription', labels.slide);
    const url = photoUrl(opened.item.id);
    if (cause === 'click') {
      history.pushState(LIGHTBOX_STATE, '', url);
    } else if (!isLightboxEntry(history.state)) {
      // Opened from a shared link: put the page itself under the lightbox's entry, so Back closes
      // the lightbox and stays on the page.
      history.replaceState(history.state, '', urlWithoutHash());
      history.pushState(LIGHTBOX_STATE, '', url);
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
    if (gridShown()) void openNamedInUrl();
  }

  window.addEventListener('popstate', onPopState);

  return {
    open: openLightbox,
    openNamedInUrl,
    /**
     * The lightbox's code is fetched when the grid is first pointed at or focused, not with the page.
     * @param {HTMLElement} list
     */
    warmOn(list) {
      const warm = () => void loadPhotoSwipe(doc).catch(() => {});
      list.addEventListener('pointerover', warm, { once: true });
      list.addEventListener('focusin', warm, { once: true });
    },
    /** Fetches PhotoSwipe now (the grid was pointed at or focused before this module loaded). */
    warm() {
      void loadPhotoSwipe(doc).catch(() => {});
    },
    /**
     * Cards were added from `first` on: an open lightbox counts them at once, and shows the first
     * as the next slide.
     * @param {number} first
     */
    added(first) {
      const pswp = lightbox?.closing === false ? lightbox.pswp : undefined;
      pswp?.refreshSlideContent(first);
    },
    /** A later page failed: an open lightbox says so near its last image. */
    moreFailed() {
      showMoreError();
    },
    destroy() {
      window.removeEventListener('popstate', onPopState);
      lightbox?.pswp?.destroy();
      lightbox = undefined;
    },
  };
}
