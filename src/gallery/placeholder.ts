import { rgbaToThumbHash } from 'thumbhash';
import { GalleryMediaError, reasonOf } from './gallery-errors.js';
import type { GalleryLimits } from './limits.js';
import { loadSharp } from './sharp-loader.js';

/**
 * A ThumbHash of the image (base64, about 30 characters): the browser draws a blurred preview from
 * it (`thumbHashToDataURL` of the `thumbhash` package) while the thumbnail loads. Computing it
 * decodes the image once, so an image that cannot be decoded is found when it is listed, not when
 * a visitor's card breaks.
 */
export async function placeholderOf(bytes: Uint8Array, limits: GalleryLimits): Promise<string> {
  const sharp = await loadSharp();
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: limits.maxInputPixels, failOn: 'error' })
      .rotate()
      .resize({ width: 100, height: 100, fit: 'inside' })
      .toColourspace('srgb')
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return Buffer.from(rgbaToThumbHash(info.width, info.height, data)).toString('base64');
  } catch (cause) {
    const message = reasonOf(cause);
    throw new GalleryMediaError('MEDIA_UNDECODABLE', 422, `the image cannot be decoded: ${message}`, {
      cause,
    });
  }
}
