import { thumbHashToApproximateAspectRatio, thumbHashToAverageRGBA } from 'thumbhash';
import { describe, expect, it } from 'vitest';
import { GalleryMediaError } from '../../src/gallery/gallery-errors.js';
import { GalleryLimits } from '../../src/gallery/limits.js';
import { placeholderOf } from '../../src/gallery/placeholder.js';
import { exifRotatedJpeg, sampleImage, truncatedJpeg } from './support/images.js';

const limits = GalleryLimits.parse({});
const decode = (text: string) => Buffer.from(text, 'base64');

describe('placeholderOf', () => {
  it('gives a ThumbHash with the image shape', async () => {
    const hash = decode(await placeholderOf(sampleImage('emerald-16x9.png'), limits));
    expect(hash.length).toBeLessThan(40);
    expect(thumbHashToApproximateAspectRatio(hash)).toBeCloseTo(16 / 9, 0);
  });

  it('follows the EXIF orientation and keeps the colour', async () => {
    const hash = decode(await placeholderOf(await exifRotatedJpeg(), limits));
    expect(thumbHashToApproximateAspectRatio(hash)).toBeLessThan(1);
    const { r, g, b } = thumbHashToAverageRGBA(hash);
    expect(r).toBeGreaterThan(g);
    expect(r).toBeGreaterThan(b);
  });

  it('finds an undecodable image (422)', async () => {
    const error = await placeholderOf(truncatedJpeg(), limits).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GalleryMediaError);
    expect((error as GalleryMediaError).status).toBe(422);
  });
});
