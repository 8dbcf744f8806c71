// @ts-check
/**
 * The home gallery: a framework-free browser component that ships as-is (no build step). This entry
 * defines `<caroulsel-gallery>` and re-exports the component's public surface; the parts live in
 * `caroulsel-gallery/`, one concern a module (see the gallery guide's "The gallery component").
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

import { mountGallery } from './caroulsel-gallery/mount.js';

export { PageError, parseItems, parseNext } from './caroulsel-gallery/list.js';
export { DEFAULT_DATA_URL, DEFAULT_FALLBACK_DELAY_MS, mountGallery } from './caroulsel-gallery/mount.js';
export { loadMoreAtEnd } from './caroulsel-gallery/paging.js';
export { retryAfterMs, retryWhenBusy } from './caroulsel-gallery/retry.js';
export { DEFAULT_LABELS, PT_BR_LABELS } from './caroulsel-gallery/texts.js';

/** @typedef {import('./caroulsel-gallery/list.js').GalleryItem} GalleryItem */
/** @typedef {import('./caroulsel-gallery/texts.js').GalleryLabels} GalleryLabels */
/** @typedef {import('./caroulsel-gallery/mount.js').GalleryOptions} GalleryOptions */
/** @typedef {import('./caroulsel-gallery/mount.js').GalleryState} GalleryState */
/** @typedef {import('./caroulsel-gallery/mount.js').GalleryController} GalleryController */

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
