import sharp from 'sharp';
import type { CachedMedia } from './cache/media-cache.js';
import { GalleryMediaError, reasonOf } from './errors.js';
import { hasImageSignature } from './image-input.js';
import type { GalleryLimits } from './limits.js';

/** The two renditions served: `thumb` for the grid, `full` for the card's link. */
export type Variant = 'thumb' | 'full';

export interface ImageInfo {
  /** Displayed size, after the EXIF orientation is applied. */
  readonly width: number;
  readonly height: number;
}

// Raster formats only. SVG is refused: serving it as-is would run its scripts in our origin, and
// rasterising it runs an XML parser on untrusted input. The byte signature is checked before sharp
// sees the file, so SVG, HTML or text never reach a parser at all.
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'heif', 'tiff']);

/** Bumped when the rendering changes, so cache keys and ETags of older renditions are not reused. */
export const PIPELINE_VERSION = 'p1';

/** What decides a rendition's bytes besides the source: part of every media URL and cache key. */
export function renditionContext(limits: Pick<GalleryLimits, 'thumbSize' | 'fullSize'>): string {
  return `${PIPELINE_VERSION}-${limits.thumbSize}-${limits.fullSize}`;
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
  let metadata: Awaited<ReturnType<ReturnType<typeof sharp>['metadata']>>;
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

/**
 * Renders one variant as WebP: EXIF orientation applied, fitted inside the variant's square and
 * never enlarged, converted to 8-bit sRGB (CMYK and 16-bit inputs included), metadata stripped
 * (sharp keeps none unless asked). Decoding errors become a 422, never a 500.
 */
export async function renderImage(
  bytes: Uint8Array,
  variant: Variant,
  limits: GalleryLimits,
): Promise<CachedMedia> {
  if (!hasImageSignature(bytes)) throw unsupported();
  const size = variant === 'thumb' ? limits.thumbSize : limits.fullSize;
  try {
    const output = await sharp(bytes, {
      limitInputPixels: limits.maxInputPixels,
      failOn: 'error',
      animated: false,
    })
      .rotate()
      .resize({ width: size, height: size, fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb')
      .webp({ quality: variant === 'thumb' ? 75 : 82 })
      .toBuffer();
    return { bytes: output, contentType: 'image/webp' };
  } catch (cause) {
    const message = reasonOf(cause);
    if (/pixel limit/i.test(message)) {
      throw new GalleryMediaError(
        'MEDIA_TOO_LARGE',
        413,
        `the image has more than ${limits.maxInputPixels} pixels`,
        {
          cause,
        },
      );
    }
    throw new GalleryMediaError('MEDIA_UNDECODABLE', 422, `the image cannot be decoded: ${message}`, {
      cause,
    });
  }
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
