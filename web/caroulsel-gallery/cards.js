// @ts-check
/**
 * A card of the grid: a real link to the full image, its media box (placeholder, thumbnail and
 * skeleton) and its title, and the states its thumbnail goes through (`pending`, then `loaded`,
 * `fallback` or `failed`).
 */

import { BLOCK, create, isPlainClick } from './dom.js';
import { drawPlaceholder } from './placeholders.js';
import { createThumbnail } from './sources.js';

/** @typedef {import('./list.js').GalleryItem} GalleryItem */
/** @typedef {import('./placeholders.js').PlaceholderDecoder} PlaceholderDecoder */

/**
 * One card of the grid and the item it shows.
 * @typedef {object} Card
 * @property {GalleryItem} item
 * @property {HTMLLIElement} entry
 * @property {HTMLAnchorElement} card
 * @property {HTMLImageElement} image
 * @property {HTMLElement} skeleton
 */

/** @typedef {'loaded' | 'failed' | 'fallback'} Outcome */

/** Numbers the error texts of failed cards, each referred to by its card's description. */
let errorIds = 0;

/**
 * @param {Document} doc
 * @param {GalleryItem} item
 * @param {(() => void) | undefined} open called on a plain click instead of following the link
 * @returns {Card}
 */
export function createCard(doc, item, open) {
  const entry = create(doc, 'li', `${BLOCK}__item`);
  const card = create(doc, 'a', `${BLOCK}__card`);
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
  const media = create(doc, 'span', `${BLOCK}__media`);
  const image = createThumbnail(doc, item);
  const skeleton = create(doc, 'span', `${BLOCK}__skeleton`);
  skeleton.setAttribute('aria-hidden', 'true');
  media.append(image, skeleton);
  card.append(media, create(doc, 'span', `${BLOCK}__title`, item.title));
  entry.append(card);
  if (open !== undefined) {
    card.addEventListener('click', (event) => {
      if (!isPlainClick(event)) return;
      event.preventDefault();
      open();
    });
  }
  return { item, entry, card, image, skeleton };
}

/**
 * Puts the item's placeholder under the card's thumbnail and skeleton. Called once the card's
 * thumbnail has been asked for: decoding a ThumbHash costs a slow phone's CPU several milliseconds a
 * card, which must not hold back the first image request.
 *
 * @param {Card} card
 * @param {PlaceholderDecoder | undefined} decode none: the card keeps its plain skeleton
 */
export function addPlaceholder({ item, image }, decode) {
  const media = image.parentElement;
  if (item.placeholder === undefined || media === null) return;
  const placeholder = drawPlaceholder(image.ownerDocument, decode, item.placeholder);
  if (placeholder === undefined) return;
  media.classList.add(`${BLOCK}__media--placeholder`);
  media.prepend(placeholder);
}

/**
 * The card's thumbnail has an outcome: its skeleton goes, and the card's state says which. A late
 * error after the fallback still deserves the error text; a late load counts as loaded, also after
 * a failure (a thumbnail loaded again once the network came back), its error text then gone.
 *
 * @param {Card} card
 * @param {Outcome} outcome
 * @param {string} errorText shown in the card when its thumbnail failed
 */
export function settleCard({ card, image, skeleton }, outcome, errorText) {
  skeleton.remove();
  const current = card.dataset.state;
  if (outcome === 'failed' && current !== 'failed') {
    card.dataset.state = 'failed';
    const error = create(card.ownerDocument, 'span', `${BLOCK}__image-error`, errorText);
    image.after(error);
    // A card named by its aria-label (its title) is not named by what it holds, so the error text
    // would never be read: it becomes the card's description. Without one, the text is in its name.
    if (card.hasAttribute('aria-label')) {
      error.id = `${BLOCK}-image-error-${++errorIds}`;
      card.setAttribute('aria-describedby', error.id);
    }
  } else if (outcome === 'loaded' && current !== 'loaded') {
    card.dataset.state = 'loaded';
    card.querySelector(`.${BLOCK}__image-error`)?.remove();
    card.removeAttribute('aria-describedby');
  } else if (outcome === 'fallback' && current === 'pending') {
    card.dataset.state = 'fallback';
  }
}
