import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { GalleryMediaError } from '../../src/gallery/gallery-errors.js';
import { probeImage, renderImage } from '../../src/gallery/image-pipeline.js';
import { GalleryLimits } from '../../src/gallery/limits.js';
import {
  bombPng,
  cmykJpeg,
  exifRotatedJpeg,
  png16Bit,
  sampleImage,
  svgWithScript,
  textNamedJpg,
  truncatedJpeg,
} from './support/images.js';

const limits = GalleryLimits.parse({});

async function refusal(work: Promise<unknown>) {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(GalleryMediaError);
  return error as GalleryMediaError;
}

describe('probeImage (header only)', () => {
  it('reports the displayed size of a real photo', async () => {
    expect(await probeImage(sampleImage('grace_hopper.jpg'), limits)).toEqual({ width: 512, height: 600 });
  });

  it('swaps width and height when EXIF says the image is turned', async () => {
    expect(await probeImage(await exifRotatedJpeg(), limits)).toEqual({ width: 100, height: 200 });
  });

  it('stops a 30000x30000 decompression bomb from its header (413)', async () => {
    const bomb = bombPng();
    expect(bomb.length).toBeLessThan(400_000);
    const error = await refusal(probeImage(bomb, limits));
    expect([error.status, error.code]).toEqual([413, 'MEDIA_TOO_LARGE']);
    expect(error.message).toContain('30000x30000');
  });

  it('refuses more bytes than the limit before decoding (413)', async () => {
    const error = await refusal(
      probeImage(sampleImage('grace_hopper.jpg'), { ...limits, maxInputBytes: 1000 }),
    );
    expect([error.status, error.code]).toEqual([413, 'MEDIA_TOO_LARGE']);
  });

  it.each([
    ['an empty file', () => Buffer.alloc(0), 422, 'MEDIA_EMPTY'],
    ['text named .jpg', textNamedJpg, 415, 'MEDIA_UNSUPPORTED'],
    ['an SVG with a script', svgWithScript, 415, 'MEDIA_UNSUPPORTED'],
    [
      'a JPEG signature with garbage after it',
      () => Buffer.from([0xff, 0xd8, 0xff, 0, 1, 2, 3]),
      422,
      'MEDIA_UNDECODABLE',
    ],
  ])('refuses %s with a clear 4xx', async (_name, make, status, code) => {
    const error = await refusal(probeImage(make(), limits));
    expect([error.status, error.code]).toEqual([status, code]);
  });
});

describe('renderImage', () => {
  it('makes a WebP thumbnail that fits inside the thumbnail square', async () => {
    const { bytes, contentType } = await renderImage(sampleImage('grace_hopper.jpg'), 'thumb', limits);
    const meta = await sharp(bytes).metadata();
    expect(contentType).toBe('image/webp');
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 273, 320]);
  });

  it('caps full images and never enlarges small ones', async () => {
    const capped = await renderImage(sampleImage('emerald-16x9.png'), 'full', { ...limits, fullSize: 1000 });
    expect(await sharp(capped.bytes).metadata()).toMatchObject({ width: 1000, height: 563 });
    const small = await renderImage(sampleImage('debian-logo-256.png'), 'full', limits);
    expect(await sharp(small.bytes).metadata()).toMatchObject({ width: 256, height: 256, hasAlpha: true });
  });

  it('applies the EXIF orientation and strips metadata', async () => {
    const { bytes } = await renderImage(await exifRotatedJpeg(), 'thumb', limits);
    const meta = await sharp(bytes).metadata();
    expect([meta.width, meta.height]).toEqual([100, 200]);
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
  });

  it('turns CMYK and 16-bit inputs into 8-bit sRGB', async () => {
    for (const input of [await cmykJpeg(), await png16Bit()]) {
      const meta = await sharp((await renderImage(input, 'thumb', limits)).bytes).metadata();
      expect([meta.space, meta.depth]).toEqual(['srgb', 'uchar']);
    }
  });

  it('answers a truncated JPEG with a 422, not a crash', async () => {
    const error = await refusal(renderImage(truncatedJpeg(), 'thumb', limits));
    expect([error.status, error.code]).toEqual([422, 'MEDIA_UNDECODABLE']);
  });

  it('refuses to decode a bomb even when called without a probe', async () => {
    const error = await refusal(renderImage(bombPng(), 'thumb', limits));
    expect([error.status, error.code]).toEqual([413, 'MEDIA_TOO_LARGE']);
  });

  it('never hands SVG or text to the decoder', async () => {
    for (const input of [svgWithScript(), textNamedJpg()]) {
      const error = await refusal(renderImage(input, 'full', limits));
      expect(error.status).toBe(415);
    }
  });
});
