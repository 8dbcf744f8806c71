import type { CachedMedia } from './cache/media-cache.js';
import type { DecodedPixels } from './decoded-pixels.js';
import { GalleryMediaError, reasonOf } from './gallery-errors.js';
import { hasImageSignature } from './image-input.js';
import type { GalleryLimits } from './limits.js';
import { loadSharp, type Sharp } from './sharp-loader.js';

/**
 * The renditions served: `thumb` for the grid (the item's `previewUrl`), `w<width>` for the grid's
 * responsive sources (the item's `srcset`, with `thumb`), `full` for the card's link.
 */
export type Variant = 'thumb' | 'full' | `w${number}`;

/** One candidate of an item's `srcset`: a rendition and the width it is listed with. */
export interface SrcsetEntry {
  readonly variant: Variant;
  readonly width: number;
}

export interface ImageInfo {
  /** Displayed size, after the EXIF orientation is applied. */
  readonly width: number;
  readonly height: number;
}

// Raster formats only. SVG is refused: serving it as-is would run its scripts in our origin, and
// rasterising it runs an XML parser on untrusted input. The byte signature is checked before sharp
// sees the file, so SVG, HTML or text never reach a parser at all.
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'heif', 'tiff']);

/**
 * Every rendition is WebP, whatever the browser's `Accept` says: AVIF is not served. Measured with
 * `npm run bench:avif` over every srcset rendition of the bench images, from the same pixels: AVIF at
 * sharp's default (quality 50, effort 4) takes 36-39 times WebP's encode time for 0.29 of the bytes
 * in total (0.77 for the median rendition); at effort 0, the only one near our cold budget, 1.3-1.5
 * times the time for 0.34 in total but 0.96 for the median rendition, larger for thumbnails and
 * graphics (2.1 times for the logo), smaller mainly for the two widest renditions of one noisy 4096 px
 * photo, where WebP does badly. A srcset's cold cost is its encoding, serving both formats would keep
 * two renditions per width, and answers would vary on `Accept`; for the typical rendition that buys
 * nothing. Hosts with many large noisy photos are where AVIF would pay (quality not compared here).
 */
const RENDITION_TYPE = 'image/webp';

/** Bumped when the rendering changes, so cache keys and ETags of older renditions are not reused. */
export const PIPELINE_VERSION = 'p4';

/**
 * What decides a rendition's bytes besides the source: part of every media URL and cache key. The
 * srcset widths are in it because every width is cut from one decode at the widest of them.
 */
export function renditionContext(
  limits: Pick<GalleryLimits, 'thumbSize' | 'fullSize' | 'srcsetWidths'>,
): string {
  return `${PIPELINE_VERSION}-${limits.thumbSize}-${limits.fullSize}-w${limits.srcsetWidths.join('_')}`;
}

/**
 * The candidates of an image's `srcset`, narrowest first: the thumbnail with its own width, then
 * every configured width that is not wider than the image (nothing is enlarged), is not the
 * thumbnail's width again (one URL per width), and keeps the rendition within `fullSize` in height
 * (a very tall image must not turn into a huge intermediate or an image WebP cannot hold). When the
 * image's own width falls between two configured widths, it is offered too: a 512 px portrait would
 * otherwise stop at 320 px and be stretched three times on a phone's full-width card at DPR 3.
 */
export function srcsetOf(
  image: ImageInfo,
  limits: Pick<GalleryLimits, 'thumbSize' | 'fullSize' | 'srcsetWidths'>,
): SrcsetEntry[] {
  const scale = Math.min(1, limits.thumbSize / Math.max(image.width, image.height));
  const thumbWidth = Math.max(1, Math.round(image.width * scale));
  const fits = (width: number) =>
    width <= image.width && width !== thumbWidth && (width * image.height) / image.width <= limits.fullSize;
  const widths = limits.srcsetWidths.filter(fits);
  // The source's own width, when a configured step is left out only for being wider than it.
  const skipped = limits.srcsetWidths.some((width) => width > image.width);
  if (skipped && image.width > Math.max(thumbWidth, ...widths) && fits(image.width)) widths.push(image.width);
  return [
    { variant: 'thumb' as const, width: thumbWidth },
    ...widths.map((width) => ({ variant: `w${width}` as const, width })),
  ].sort((a, b) => a.width - b.width);
}

/**
 * The entries of a `srcset` made from one shared decode ({@link decodePixels} at the widest of them,
 * then {@link encodeWidth} each): the widths. The thumbnail is decoded on its own, straight at its
 * size: measured with `npm run bench:gallery`, cutting it from the widths' decode made a cold
 * thumbnail 1.4 times as slow (a JPEG decoded at 1280 px instead of 320, a PNG reduced to 1280 px
 * instead of 320 and held raw), which lost its parity with ipx, and the thumbnail is the one
 * rendition every grid loads. Its bytes then never depend on which width was asked first.
 */
export function sharedEntries(set: readonly SrcsetEntry[]): readonly SrcsetEntry[] {
  return set.filter((entry) => entry.variant !== 'thumb');
}

/**
 * Reads the image header only (no decoding): format, size and orientation. Refuses what the
 * limits or the accepted formats exclude, so a decompression bomb is stopped before any pixel is
 * decoded.
 */
export async function probeImage(bytes: Uint8Array, limits: GalleryLimits): Promise<ImageInfo> {
  if (bytes.byteLength === 0) throw new GalleryMediaError('MEDIA_EMPTY', 422, 'the image file is empty');
  if (bytes.byteLength > limits.maxInputBytes) throw tooManyBytes(bytes.byteLength, limits);
  if (!hasImageSignature(bytes)) throw unsupported();
  const sharp = await loadSharp();
  let metadata: Awaited<ReturnType<ReturnType<Sharp>['metadata']>>;
  try {
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch (cause) {
    throw new GalleryMediaError('MEDIA_UNDECODABLE', 422, 'the image header cannot be read', { cause });
  }
  const { format, width, height } = metadata;
  if (!ACCEPTED_FORMATS.has(format)) throw unsupported();
  if (width * height > limits.maxInputPixels) {
    throw new GalleryMediaError(
      'MEDIA_TOO_LARGE',
      413,
      `the image has ${width}x${height} pixels, more than the limit of ${limits.maxInputPixels}`,
    );
  }
  const swapped = (metadata.orientation ?? 1) >= 5;
  return { width: swapped ? height : width, height: swapped ? width : height };
}

// Measured with `npm run bench:avif` over the widths of the bench images: WebP effort 2 encodes
// them in 0.4 of the default effort 4's time for 4% more bytes in the median rendition; effort 1
// and 0 would save a quarter and two fifths more of the time for 16% and 26% more bytes. The widths
// are most of a srcset's encoding, and their bytes are sent at every view: effort 2.
const WIDTH_EFFORT = 2;
// The thumbnail is what every grid asks for first, cold on a new image: at effort 2 the bench's
// seven thumbnails encode in 27.5 ms against 53.6 ms at the default 4 (effort 3: 50.4 ms), for 28.0
// KB against 25.9 KB in all (about 290 bytes more a thumbnail). Cold, ipx's time over ours was 0.89
// with the default in two runs of `npm run bench:gallery -- --cold-only`, and 1.12 and 0.99 with
// effort 2 in the runs between them: the issue asks for a thumbnail no slower than ipx's.
const THUMB_EFFORT = 2;

/**
 * Renders one variant as WebP: EXIF orientation applied, fitted inside the variant's square and
 * never enlarged, converted to 8-bit sRGB (CMYK and 16-bit inputs included), metadata stripped
 * (sharp keeps none unless asked). Decoding errors become a 422, never a 500.
 */
export async function renderImage(
  bytes: Uint8Array,
  variant: 'thumb' | 'full',
  limits: GalleryLimits,
): Promise<CachedMedia> {
  if (!hasImageSignature(bytes)) throw unsupported();
  const size = variant === 'full' ? limits.fullSize : limits.thumbSize;
  const sharp = await loadSharp();
  try {
    const output = await decoder(sharp, bytes, limits)
      .rotate()
      .resize({ width: size, height: size, fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb')
      .webp(variant === 'full' ? { quality: 82 } : { quality: 75, effort: THUMB_EFFORT })
      .toBuffer();
    return { bytes: output, contentType: RENDITION_TYPE };
  } catch (cause) {
    throw decodeFailure(cause, limits);
  }
}

/**
 * Decodes the source once for the widths of its `srcset`: oriented, converted to 8-bit sRGB and
 * reduced to `width` (never enlarged), as raw pixels every width up to `width` can be encoded from
 * with {@link encodeWidth}. A JPEG is decoded at a reduced scale when `width` allows it. Errors
 * are those of {@link renderImage}.
 */
export async function decodePixels(
  bytes: Uint8Array,
  width: number,
  limits: GalleryLimits,
): Promise<DecodedPixels> {
  if (!hasImageSignature(bytes)) throw unsupported();
  const sharp = await loadSharp();
  try {
    const { data, info } = await decoder(sharp, bytes, limits)
      .rotate()
      .resize({ width, withoutEnlargement: true })
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height, channels: info.channels };
  } catch (cause) {
    throw decodeFailure(cause, limits);
  }
}

/** Encodes the rendition `width` pixels wide from pixels {@link decodePixels} made at least as wide. */
export async function encodeWidth(
  pixels: DecodedPixels,
  width: number,
  limits: GalleryLimits,
): Promise<CachedMedia> {
  const { data, ...raw } = pixels;
  const sharp = await loadSharp();
  try {
    const output = await sharp(data, { raw })
      .resize({ width, withoutEnlargement: true })
      .webp({ quality: 75, effort: WIDTH_EFFORT })
      .toBuffer();
    return { bytes: output, contentType: RENDITION_TYPE };
  } catch (cause) {
    throw decodeFailure(cause, limits);
  }
}

function decoder(sharp: Sharp, bytes: Uint8Array, limits: GalleryLimits) {
  return sharp(bytes, { limitInputPixels: limits.maxInputPixels, failOn: 'error', animated: false });
}

/** A decoding failure as the refusal it is: too many pixels (413) or undecodable (422), never a 500. */
function decodeFailure(cause: unknown, limits: GalleryLimits): GalleryMediaError {
  const message = reasonOf(cause);
  if (/pixel limit/i.test(message)) {
    return new GalleryMediaError(
      'MEDIA_TOO_LARGE',
      413,
      `the image has more than ${limits.maxInputPixels} pixels`,
      { cause },
    );
  }
  return new GalleryMediaError('MEDIA_UNDECODABLE', 422, `the image cannot be decoded: ${message}`, {
    cause,
  });
}

function unsupported(): GalleryMediaError {
  return new GalleryMediaError(
    'MEDIA_UNSUPPORTED',
    415,
    'the file is not a JPEG, PNG, WebP, GIF, AVIF or TIFF image (SVG is never served)',
  );
}

/** The refusal for a source larger than `maxInputBytes`, raised before it is read or decoded. */
export function tooManyBytes(size: number, limits: GalleryLimits): GalleryMediaError {
  return new GalleryMediaError(
    'MEDIA_TOO_LARGE',
    413,
    `the image has ${size} bytes, more than the limit of ${limits.maxInputBytes}`,
  );
}
