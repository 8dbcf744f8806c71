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
  if (item.srcset !== undefined) {
    // The browser picks one of them by the card's width and the screen's pixel density.
    image.sizes = sizesOf(item, gallery);
    image.srcset = item.srcset;
  }
  image.src = item.previewUrl;
}

/**
 * The img `sizes` for the grid's CSS: a card's width is its ratio times the row height (its flex
 * basis; growing to fill a row adds little), never more than the gallery, which is at most the
 * viewport. The row height is read from the themable custom property, so a taller theme gets
 * sharper images too.
 *
 * @param {GalleryItem} item
 * @param {HTMLElement} gallery
 */
function sizesOf(item, gallery) {
  const ratio = item.width !== undefined && item.height !== undefined ? item.width / item.height : 4 / 3;
  const rowHeight =
    getComputedStyle(gallery).getPropertyValue('--caroulsel-gallery-row-height').trim() || '13rem';
  return `min(100vw, calc(${ratio.toFixed(4)} * ${rowHeight}))`;
}
