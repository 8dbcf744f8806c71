// @ts-check
/**
 * Responsive sources: everything that decides which file the browser fetches for a card's
 * thumbnail (its size, `loading`, `srcset` and `sizes` read from the grid's themable row height).
 */

import { BLOCK, create } from './dom.js';

/** @typedef {import('./list.js').GalleryItem} GalleryItem */

/**
 * The card's `<img>`: everything that decides which file the browser fetches for the thumbnail
 * is set here, except the sources, which {@link setSources} sets once the card listens.
 *
 * @param {Document} doc
 * @param {GalleryItem} item
 */
export function createThumbnail(doc, item) {
  const image = create(doc, 'img', `${BLOCK}__image`);
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
 * Sets the image's sources, which starts its load: the srcset (when the list gives one) with the
 * `sizes` the grid lays it out at, then `src`.
 *
 * @param {HTMLImageElement} image
 * @param {GalleryItem} item
 * @param {HTMLElement} gallery whose row height the card's width follows
 */
export function setSources(image, item, gallery) {
  // A card already on screen (or about to be) is fetched at once and first: waiting for the lazy
  // loader's next look at the layout costs a slow phone a frame or more before its first request.
  // The others stay lazy, and low, so what is near the viewport goes first.
  const box = nearViewportBox(image);
  if (box !== undefined) {
    image.loading = 'eager';
    image.fetchPriority = 'high';
  } else {
    image.fetchPriority = 'low';
  }
  if (item.srcset !== undefined) {
    // The browser picks one of them by the card's width and the screen's pixel density: an image
    // loaded now by the width the grid gave it (`auto` is for lazy images only: an eager one would
    // read the whole list as 100vw), a lazy one by its box when it loads.
    image.sizes = box === undefined ? sizesOf(item, gallery) : `${Math.ceil(box.width)}px`;
    image.srcset = item.srcset;
  }
  image.src = item.previewUrl;
}

/**
 * The img `sizes`: `auto` first, so a browser that has it (Chromium) picks the file by the box the
 * grid really gave the image (lazy images are laid out before they load), whatever the breakpoint,
 * the row's fill or the theme. After it, for browsers without `auto`, the same layout in media
 * queries: below the one-column breakpoint (the grid's container query, a gallery narrower than
 * 30rem) a card is the gallery's whole width; above it, its ratio times the row height (its flex
 * basis; growing to fill a row adds little), never more than the gallery. The gallery's width is the
 * viewport's less what the page puts beside it, measured once a batch of cards.
 *
 * @param {GalleryItem} item
 * @param {HTMLElement} gallery
 */
function sizesOf(item, gallery) {
  const { rowHeight, aside, oneColumnBelow } = layoutOf(gallery);
  const ratio = item.width !== undefined && item.height !== undefined ? item.width / item.height : 4 / 3;
  const galleryWidth = `calc(100vw - ${aside}px)`;
  return `auto, (max-width: ${oneColumnBelow}px) ${galleryWidth}, min(${galleryWidth}, calc(${ratio.toFixed(4)} * ${rowHeight}))`;
}

/**
 * The image's box when it is on screen or within half a screen below it, else `undefined`.
 * @param {HTMLImageElement} image
 * @returns {DOMRect | undefined}
 */
function nearViewportBox(image) {
  const view = image.ownerDocument.defaultView;
  if (view === null) return undefined;
  const box = image.getBoundingClientRect();
  if (box.width === 0 && box.height === 0) return undefined;
  return box.bottom > 0 && box.top < view.innerHeight * 1.5 ? box : undefined;
}

/** @type {WeakMap<HTMLElement, { rowHeight: string, aside: number, oneColumnBelow: number }>} */
const layouts = new WeakMap();

/**
 * What the sizes of a gallery's cards are written from, read once for all the cards appended in one
 * task (each read forces a layout, and cards are appended between them).
 * @param {HTMLElement} gallery
 */
function layoutOf(gallery) {
  const known = layouts.get(gallery);
  if (known !== undefined) return known;
  const view = gallery.ownerDocument.defaultView;
  const rowHeight =
    getComputedStyle(gallery).getPropertyValue('--caroulsel-gallery-row-height').trim() || '13rem';
  const viewport = view?.innerWidth ?? gallery.clientWidth;
  const aside = Math.max(0, Math.round(viewport - gallery.getBoundingClientRect().width));
  // The container query's 30rem, in the root's font size, as a viewport width.
  const rem = Number.parseFloat(getComputedStyle(gallery.ownerDocument.documentElement).fontSize) || 16;
  const layout = { rowHeight, aside, oneColumnBelow: Math.round(30 * rem + aside) };
  layouts.set(gallery, layout);
  queueMicrotask(() => layouts.delete(gallery));
  return layout;
}
