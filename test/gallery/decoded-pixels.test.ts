import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDecodedPixelCache, type DecodedPixels } from '../../src/gallery/decoded-pixels.js';
import { decodePixels } from '../../src/gallery/image-pipeline.js';
import { GalleryLimits } from '../../src/gallery/limits.js';
import { largePhoto, sampleImage } from './support/images.js';

const limits = GalleryLimits.parse({});
// Real decodes: the 4096 px photo at 1280 px (4.9 MB of pixels), a 900 px photo at 640 px (0.7 MB).
const large = async () => decodePixels(await largePhoto(), 1280, limits);
const small = () => decodePixels(sampleImage('joy-preview.jpg'), 640, limits);

afterEach(() => {
  vi.useRealTimers();
});

describe('createDecodedPixelCache', () => {
  it('holds images up to its bytes, evicting the least recently used first', async () => {
    const [photo, preview] = [await large(), await small()];
    const cache = createDecodedPixelCache({
      maxBytes: photo.data.byteLength + preview.data.byteLength,
      ttlMs: 60_000,
    });
    cache.set('photo', photo);
    cache.set('preview', preview);
    expect(cache.bytes()).toBe(photo.data.byteLength + preview.data.byteLength);
    cache.get('photo'); // now more recent than the preview
    const other: DecodedPixels = { ...preview, data: Buffer.from(preview.data) };
    cache.set('other', other);
    expect([cache.get('photo'), cache.get('preview'), cache.get('other')]).toEqual([photo, undefined, other]);
    expect(cache.bytes()).toBeLessThanOrEqual(photo.data.byteLength + preview.data.byteLength);
  });

  it('never holds pixels larger than its whole bound, nor evicts anything for them', async () => {
    const [photo, preview] = [await large(), await small()];
    const cache = createDecodedPixelCache({ maxBytes: photo.data.byteLength - 1, ttlMs: 60_000 });
    cache.set('preview', preview);
    cache.set('photo', photo);
    expect([cache.get('photo'), cache.get('preview')]).toEqual([undefined, preview]);
    expect(cache.bytes()).toBe(preview.data.byteLength);
  });

  it('holds nothing with a bound of 0', async () => {
    const cache = createDecodedPixelCache({ maxBytes: 0, ttlMs: 60_000 });
    cache.set('preview', await small());
    expect([cache.get('preview'), cache.bytes()]).toEqual([undefined, 0]);
  });

  it('lets the pixels go after ttlMs, even when nothing asks for them', async () => {
    const preview = await small();
    vi.useFakeTimers();
    const cache = createDecodedPixelCache({ maxBytes: 10_000_000, ttlMs: 5_000 });
    cache.set('preview', preview);
    vi.advanceTimersByTime(4_999);
    expect(cache.bytes()).toBe(preview.data.byteLength);
    vi.advanceTimersByTime(1);
    expect([cache.bytes(), cache.get('preview')]).toEqual([0, undefined]);
  });

  it('counts the time from the last store of an image, not the first', async () => {
    const preview = await small();
    vi.useFakeTimers();
    const cache = createDecodedPixelCache({ maxBytes: 10_000_000, ttlMs: 5_000 });
    cache.set('preview', preview);
    vi.advanceTimersByTime(4_000);
    cache.set('preview', preview);
    vi.advanceTimersByTime(4_000);
    expect(cache.get('preview')).toBe(preview);
    vi.advanceTimersByTime(1_000);
    expect(cache.get('preview')).toBeUndefined();
  });
});
