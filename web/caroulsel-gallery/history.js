// @ts-check
/**
 * The lightbox in the page's URL and history: `#photo=<id>` names the image it shows (so a shared
 * link opens it), and the entry the opening pushes is marked, so Back leaves it and closes it.
 */

import { HASH_PREFIX } from './dom.js';
import { isRecord } from './list.js';

export { hashId } from './dom.js';

/** Marks the history entry the lightbox pushed: Back leaves it, which closes the lightbox. */
const HISTORY_KEY = 'caroulselGalleryLightbox';

/** The state of a history entry the lightbox pushed. */
export const LIGHTBOX_STATE = Object.freeze({ [HISTORY_KEY]: true });

/** The URL fragment naming item `id`. @param {string} id */
export const photoUrl = (id) => HASH_PREFIX + encodeURIComponent(id);

/** Whether `state` is that of an entry the lightbox pushed. @param {unknown} state */
export function isLightboxEntry(state) {
  return isRecord(state) && state[HISTORY_KEY] === true;
}

/** The page's URL without its fragment: where closing a lightbox that history did not open leads. */
export function urlWithoutHash() {
  const { href, hash } = window.location;
  return hash === '' ? href : href.slice(0, -hash.length);
}
