// @ts-check
/**
 * The grid: the list of cards, each shown once however often the pages repeat its item, and each
 * watching its own thumbnail until it loads, fails, or its safety fallback fires. The fallback
 * counts from when the card is first on screen: a lazy image below the fold has not even been
 * asked for before that.
 */

import { addPlaceholder, createCard, settleCard } from './cards.js';
import { BLOCK, create } from './dom.js';
import { retryWhenBusy } from './retry.js';
import { setSources } from './sources.js';

/** @typedef {import('./cards.js').Card} Card */
/** @typedef {import('./cards.js').Outcome} Outcome */
/** @typedef {import('./list.js').GalleryItem} GalleryItem */
/** @typedef {import('./placeholders.js').PlaceholderDecoder} PlaceholderDecoder */
/** @typedef {import('./texts.js').GalleryLabels} GalleryLabels */
/** @typedef {ReturnType<typeof createGrid>} Grid */

/**
 * @param {object} options
 * @param {HTMLElement} options.gallery the gallery's element (its row height sets the images' sizes)
 * @param {GalleryLabels} options.labels
 * @param {Promise<PlaceholderDecoder | undefined>} options.decoder draws the placeholders once it
 *   has loaded (the grid does not wait for it)
 * @param {number} options.fallbackDelayMs
 * @param {((index: number) => void) | undefined} options.open opens the card at `index` on a
 *   plain click; without it cards are plain links
 */
export function createGrid({ gallery, labels, decoder, fallbackDelayMs, open }) {
  const doc = gallery.ownerDocument;
  const list = create(doc, 'ul', `${BLOCK}__grid`);
  list.setAttribute('aria-label', labels.gallery);
  /** Every card in the grid, in order. @type {Card[]} */
  const cards = [];
  /** The ids of the cards. @type {Set<string>} */
  const ids = new Set();
  /** @type {Set<ReturnType<typeof setTimeout>>} */
  const timers = new Set();
  // Aborted on destroy: no thumbnail retry outlives the grid.
  const retries = new AbortController();
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

  /**
   * Listens first, then sets the sources, so no load event is missed; an image the browser already
   * has (`complete` at once, from its cache) counts as loaded straight away.
   *
   * @param {Card} shown
   */
  function watchImage(shown) {
    const { item, card, image, skeleton } = shown;
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
    /** @param {Outcome} outcome */
    function settle(outcome) {
      forget();
      if (timer !== undefined) {
        clearTimeout(timer);
        timers.delete(timer);
      }
      settleCard(shown, outcome, labels.thumbnailError);
    }
    image.addEventListener('load', () => settle('loaded'), { once: true });
    // A server preparing too many cold thumbnails answers 503: wait as it asks, then load again.
    retryWhenBusy(image, item.previewUrl, retries.signal, () => settle('failed'));
    setSources(image, item, gallery);
    if (image.complete && image.naturalWidth > 0) settle('loaded');
    else if (cardObserver === undefined) startFallback();
    else {
      unseen.set(card, startFallback);
      cardObserver.observe(card);
    }
  }

  return {
    list,
    cards,
    /**
     * Adds one card per item not shown yet at the end of the grid, each watching its own thumbnail.
     * @param {GalleryItem[]} items
     * @returns {number} how many cards were added
     */
    append(items) {
      const first = cards.length;
      // A host source that pages by offset may repeat an item, and a list started again after a
      // stale cursor repeats every item already shown: each is shown once.
      const fresh = items.filter((item) => !ids.has(item.id) && ids.add(item.id));
      const added = fresh.map((item, offset) => createCard(doc, item, open && (() => open(first + offset))));
      for (const card of added) {
        cards.push(card);
        list.append(card.entry);
      }
      for (const card of added) watchImage(card);
      // After the sources: the browser asks for the thumbnails in microtasks queued by setting
      // them, and this callback runs after those, even when the decoder is already here.
      void decoder.then((decode) => {
        if (retries.signal.aborted) return;
        for (const card of added) addPlaceholder(card, decode);
      });
      return added.length;
    },
    destroy() {
      retries.abort();
      cardObserver?.disconnect();
      unseen.clear();
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      cards.length = 0;
      ids.clear();
    },
  };
}
