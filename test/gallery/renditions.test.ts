import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { GalleryMediaError } from '../../src/gallery/errors.js';
import type { Variant } from '../../src/gallery/image-pipeline.js';
import { renderSrcset, renditionContext, srcsetOf } from '../../src/gallery/image-pipeline.js';
import { GalleryLimits } from '../../src/gallery/limits.js';
import { contentHash, createTokenSigner } from '../../src/gallery/token.js';
import { countingCache, listItems, SECRET, spiedGallery } from './support/gallery.js';
import {
  bombPng,
  cmykJpeg,
  exifRotatedJpeg,
  png16Bit,
  SAMPLE_DIR,
  sampleImage,
  truncatedJpeg,
} from './support/images.js';

const limits = GalleryLimits.parse({});
const samples = ['emerald-16x9.png', 'joy-preview.jpg', 'debian-logo-256.png', 'grace_hopper.jpg'];
const sampleRows = () => samples.map((name) => ({ id: name, title: name, image: `${SAMPLE_DIR}${name}` }));
const tokenOf = (name: string) =>
  createTokenSigner([SECRET], renditionContext(limits)).sign(contentHash(sampleImage(name)));
const mediaPath = (name: string, variant: string) => `/caroulsel/media/${tokenOf(name)}/${variant}`;

/** The srcset attribute as [path, width] pairs. */
const candidates = (srcset: string) =>
  srcset.split(', ').map((candidate) => {
    const [path, descriptor] = candidate.split(' ');
    return [path ?? '', Number(descriptor?.replace(/w$/, ''))] as const;
  });

/** A spied gallery that also records what each generation made. */
function recordedGallery(options: Parameters<typeof spiedGallery>[1] = {}) {
  const made: { variant: Variant; variants: readonly Variant[] }[] = [];
  const gallery = spiedGallery(sampleRows, {
    onGenerate: ({ variant, variants }) => {
      made.push({ variant, variants });
    },
    ...options,
  });
  return { ...gallery, made };
}

describe('srcset of the listed items', () => {
  it('offers the thumbnail and every configured width not wider than the image, narrowest first', async () => {
    const { get } = spiedGallery(sampleRows);
    const items = await listItems(get);
    expect(items.map((item) => candidates(item.srcset))).toEqual([
      // 1920x1080: the thumbnail is 320 wide, so it stands for the 320 width.
      [
        [mediaPath('emerald-16x9.png', 'thumb'), 320],
        [mediaPath('emerald-16x9.png', 'w640'), 640],
        [mediaPath('emerald-16x9.png', 'w960'), 960],
        [mediaPath('emerald-16x9.png', 'w1280'), 1280],
      ],
      // 900x506: nothing wider than the image.
      [
        [mediaPath('joy-preview.jpg', 'thumb'), 320],
        [mediaPath('joy-preview.jpg', 'w640'), 640],
      ],
      // 256x256: the thumbnail alone, never enlarged.
      [[mediaPath('debian-logo-256.png', 'thumb'), 256]],
      // 512x600 (portrait): the thumbnail is 273 wide, w320 is a rendition of its own.
      [
        [mediaPath('grace_hopper.jpg', 'thumb'), 273],
        [mediaPath('grace_hopper.jpg', 'w320'), 320],
      ],
    ]);
    expect(items.map((item) => item.previewUrl)).toEqual(samples.map((name) => mediaPath(name, 'thumb')));
  });

  it('serves every candidate as a WebP exactly as wide as its descriptor says, with the image shape', async () => {
    const { get } = spiedGallery(sampleRows);
    for (const item of await listItems(get)) {
      for (const [path, width] of candidates(item.srcset)) {
        const response = await get(path);
        expect(response.status, path).toBe(200);
        expect(response.headers.get('content-type')).toBe('image/webp');
        expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
        const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
        expect([meta.format, meta.width], path).toEqual(['webp', width]);
        expect(Math.abs(meta.height / meta.width - item.height / item.width)).toBeLessThan(0.01);
      }
    }
  });

  it('keeps a very tall image within fullSize in height: wider widths are not offered', () => {
    // 1000x3000: 320 wide is 960 tall; 640 would be 1920 tall, more than a fullSize of 1000.
    const entries = srcsetOf({ width: 1000, height: 3000 }, { ...limits, fullSize: 1000 });
    expect(entries).toEqual([
      { variant: 'thumb', width: 107 },
      { variant: 'w320', width: 320 },
    ]);
  });

  it('offers the thumbnail alone with srcsetWidths [], and serves no width then', async () => {
    const { get, counts } = spiedGallery(sampleRows, { limits: { srcsetWidths: [] } });
    const [emerald] = await listItems(get);
    expect(emerald?.srcset).toBe(`${emerald?.previewUrl} 320w`);
    expect((await get(emerald?.previewUrl.replace(/thumb$/, 'w640') ?? '')).status).toBe(404);
    expect(counts.generations).toBe(0);
  });

  it('refuses bad srcset widths with an error naming the option', () => {
    for (const srcsetWidths of [[0], [320.5], [5000], [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => n * 100)]) {
      expect(() => spiedGallery(sampleRows, { limits: { srcsetWidths } })).toThrow(
        expect.objectContaining({
          code: 'GALLERY_CONFIG',
          path: expect.stringMatching(/^limits\.srcsetWidths/),
        }),
      );
    }
  });
});

describe('one decode for the whole srcset', () => {
  it('makes every width of an image in one generation, whichever width is asked first', async () => {
    const { get, cacheCounts, made } = recordedGallery();
    const [emerald] = await listItems(get);
    // Listing stores what it learnt of the images in the cache too; count after it.
    const setsAfterListing = cacheCounts.sets;
    const paths = candidates(emerald?.srcset ?? '').map(([path]) => path);
    // The widest first, then the rest: all from the first generation.
    for (const path of [...paths].reverse()) expect((await get(path)).status).toBe(200);
    expect(made).toEqual([{ variant: 'w1280', variants: ['thumb', 'w640', 'w960', 'w1280'] }]);
    expect(cacheCounts.sets - setsAfterListing).toBe(4);
  });

  it('merges concurrent requests for different widths of one cold image into one generation', async () => {
    const { get, made } = recordedGallery();
    const [emerald] = await listItems(get);
    const paths = candidates(emerald?.srcset ?? '').map(([path]) => path);
    const responses = await Promise.all(paths.flatMap((path) => [get(path), get(path), get(path)]));
    expect(responses.map((response) => response.status)).toEqual(Array(paths.length * 3).fill(200));
    expect(made).toHaveLength(1);
  });

  it('makes the full image on its own: the lightbox does not pay for the srcset, nor the grid for it', async () => {
    const { get, made } = recordedGallery();
    const [emerald] = await listItems(get);
    expect((await get(emerald?.fullUrl ?? '')).status).toBe(200);
    expect((await get(emerald?.previewUrl ?? '')).status).toBe(200);
    expect(made.map((generation) => generation.variants)).toEqual([
      ['full'],
      ['thumb', 'w640', 'w960', 'w1280'],
    ]);
  });

  it('serves the widths from a shared cache without generating again in another process', async () => {
    const shared = countingCache();
    const first = spiedGallery(sampleRows, { cache: shared.cache, limits: { memoryCacheBytes: 0 } });
    const [emerald] = await listItems(first.get);
    for (const [path] of candidates(emerald?.srcset ?? '')) expect((await first.get(path)).status).toBe(200);
    const second = spiedGallery(sampleRows, { cache: shared.cache, limits: { memoryCacheBytes: 0 } });
    for (const [path] of candidates(emerald?.srcset ?? '')) expect((await second.get(path)).status).toBe(200);
    expect([first.counts.generations, second.counts.generations]).toEqual([1, 0]);
  });

  it('answers WebP whatever the Accept header says (AVIF is not served), so answers need no Vary', async () => {
    const { get } = spiedGallery(sampleRows);
    const [emerald] = await listItems(get);
    for (const accept of ['image/avif,image/webp,*/*', 'image/webp', '*/*']) {
      const response = await get(emerald?.previewUrl.replace(/thumb$/, 'w640') ?? '', {
        headers: { accept },
      });
      expect(response.headers.get('content-type')).toBe('image/webp');
      expect(response.headers.get('vary')).toBeNull();
    }
  });
});

describe('media paths that are not renditions', () => {
  it.each([
    ['w0', 'emerald-16x9.png'],
    ['w99999', 'emerald-16x9.png'],
    ['w641', 'emerald-16x9.png'],
    ['w0640', 'emerald-16x9.png'],
    ['w-640', 'emerald-16x9.png'],
    ['w', 'emerald-16x9.png'],
    ['wabc', 'emerald-16x9.png'],
    ['w640x', 'emerald-16x9.png'],
    ['W640', 'emerald-16x9.png'],
    ['640', 'emerald-16x9.png'],
    // Listed as the thumbnail, not as a width of its own.
    ['w320', 'emerald-16x9.png'],
    // Wider than the 900 px image.
    ['w960', 'joy-preview.jpg'],
    ['w640', 'debian-logo-256.png'],
  ])('answers %s of %s with 404, generating nothing', async (variant, name) => {
    const { get, counts } = spiedGallery(sampleRows);
    const response = await get(mediaPath(name, variant));
    expect(response.status).toBe(404);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toMatchObject({ error: { code: expect.stringMatching(/NOT_FOUND/) } });
    expect(counts.generations).toBe(0);
  });

  it('checks the token before the width: a forged token reads nothing', async () => {
    const { get, counts, cacheCounts } = spiedGallery(sampleRows);
    const forged = createTokenSigner(['attacker-secret-0000000'], renditionContext(limits)).sign(
      contentHash(sampleImage('emerald-16x9.png')),
    );
    for (const variant of ['w640', 'w641']) {
      expect((await get(`/caroulsel/media/${forged}/${variant}`)).status).toBe(404);
    }
    expect([counts.sourceCalls, cacheCounts.gets, counts.generations]).toEqual([0, 0, 0]);
  });
});

describe('renderSrcset', () => {
  const entriesOf = async (bytes: Buffer) => srcsetOf(await sharp(bytes).metadata(), limits);

  it('applies the EXIF orientation to every width', async () => {
    const input = await exifRotatedJpeg();
    const made = await renderSrcset(
      input,
      [
        { variant: 'thumb', width: 100 },
        { variant: 'w16' as Variant, width: 16 },
      ],
      limits,
    );
    for (const [variant, rendition] of made) {
      const meta = await sharp((await rendition).bytes).metadata();
      expect(meta.height / meta.width, variant).toBe(2);
      expect(meta.orientation).toBeUndefined();
    }
  });

  it('turns CMYK and 16-bit inputs into 8-bit sRGB at every width', async () => {
    for (const input of [await cmykJpeg(), await png16Bit()]) {
      const widths = [
        { variant: 'thumb' as Variant, width: 60 },
        { variant: 'w32' as Variant, width: 32 },
      ];
      for (const [, rendition] of await renderSrcset(input, widths, limits)) {
        const { bytes } = await rendition;
        const meta = await sharp(bytes).metadata();
        expect([meta.space, meta.depth]).toEqual(['srgb', 'uchar']);
        // The colour survives: not clipped to white or black by the 16-bit to 8-bit step.
        const { dominant } = await sharp(bytes).stats();
        expect(dominant.b).toBeGreaterThan(dominant.r);
      }
    }
  });

  it('answers a truncated JPEG with a 422 and a bomb with a 413, never a crash', async () => {
    const set = [
      { variant: 'thumb' as Variant, width: 273 },
      { variant: 'w320' as Variant, width: 320 },
    ];
    for (const [input, status] of [
      [truncatedJpeg(), 422],
      [bombPng(), 413],
    ] as const) {
      const error = await renderSrcset(input, set, limits).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(GalleryMediaError);
      expect((error as GalleryMediaError).status).toBe(status);
    }
  });

  it('encodes the rendition asked for first, and the rest one after the other', async () => {
    const bytes = sampleImage('emerald-16x9.png');
    const made = await renderSrcset(bytes, await entriesOf(bytes), limits, 'w960');
    expect([...made.keys()]).toEqual(['w960', 'thumb', 'w640', 'w1280']);
    const finished: string[] = [];
    await Promise.all([...made].map(([variant, rendition]) => rendition.then(() => finished.push(variant))));
    expect(finished).toEqual(['w960', 'thumb', 'w640', 'w1280']);
  });

  it('gives the thumbnail of a set the size the thumbnail alone has', async () => {
    const bytes = sampleImage('joy-preview.jpg');
    const made = await renderSrcset(bytes, await entriesOf(bytes), limits);
    expect([...made.keys()]).toEqual(['thumb', 'w640']);
    const thumb = await sharp((await made.get('thumb'))?.bytes).metadata();
    expect([thumb.width, thumb.height]).toEqual([320, 180]);
  });
});
