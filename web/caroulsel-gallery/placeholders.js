// @ts-check
/**
 * The placeholders: each item's ThumbHash, decoded by the ThumbHash library (loaded once per page
 * from next to the entry module) and drawn into a tiny canvas under the card's skeleton.
 */

import { assetUrl, BLOCK, create } from './dom.js';

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
export function loadDecoder() {
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

/**
 * The item's ThumbHash, drawn into a tiny canvas the CSS stretches over the media box: the
 * image's colours before it loads, and after a fallback. A canvas, not a data: URL, so a host
 * page's Content-Security-Policy for images does not hide it. Undefined when it cannot be drawn.
 *
 * @param {Document} doc
 * @param {PlaceholderDecoder | undefined} decode
 * @param {string} hash base64
 */
export function drawPlaceholder(doc, decode, hash) {
  if (decode === undefined) return undefined;
  try {
    const bytes = Uint8Array.from(atob(hash), (char) => char.charCodeAt(0));
    const { w, h, rgba } = decode(bytes);
    const canvas = create(doc, 'canvas', `${BLOCK}__placeholder`);
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
