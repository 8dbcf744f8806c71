// @ts-check
/**
 * The lightbox in the page's URL and history: `#photo=<id>` names the image it shows (so a shared
 * link opens it), and the entry the opening pushes is marked, so Back leaves it and closes it.
 */

import { isRecord } from './list.js';

/** The URL fragment that names the image the lightbox shows, so a shared link opens it. */
const HASH_PREFIX = '#photo=';

/** Marks the history entry the lightbox pushed: Back leaves it, which closes the lightbox. */
const HISTORY_KEY = 'caroulselGalleryLightbox';

/** The state of a history entry the lightbox pushed. */
export const LIGHTBOX_STATE = Object.freeze({ [HISTORY_KEY]: true });

/** The URL fragment naming item `id`. @param {string} id */
export const photoUrl = (id) => HASH_PREFIX + encodeURIComponent(id);

/** The item id the URL's fragment names, if any. */
export function hashId() {
  const { hash } = window.location;
  if (!hash.startsWith(HASH_PREFIX)) return undefined;
  try {
    return decodeURIComponent(hash.slice(HASH_PREFIX.length));
  } catch {
    return undefined;
  }
}

/** Whether `state` is that of an entry the lightbox pushed. @param {unknown} state */
export function isLightboxEntry(state) {
  return isRecord(state) && state[HISTORY_KEY] === true;
}

/** The page's URL without its fragment: where closing a lightbox that history did not open leads. */
export function urlWithoutHash() {
  const { href, hash } = window.location;
  return hash === '' ? href : href.slice(0, -hash.length);
}
