import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import { GalleryMediaError } from '../../src/gallery/gallery-errors.js';
import type { Variant } from '../../src/gallery/image-pipeline.js';
import { decodePixels, encodeWidth, renditionContext, srcsetOf } from '../../src/gallery/image-pipeline.js';
import { GalleryLimits } from '../../src/gallery/limits.js';
import { contentHash, createTokenSigner } from '../../src/gallery/token.js';
import { countingCache, holdingCache, listItems, SECRET, spiedGallery } from './support/gallery.js';
import {
  bombPng,
  cmykJpeg,
  exifRotatedJpeg,
  largePhoto,
  png16Bit,
  SAMPLE_DIR,
  sampleImage,
  svgWithScript,
  textNamedJpg,
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
      // 900x506: nothing wider than the image; its own width, between 640 and 960, closes the set.
      [
        [mediaPath('joy-preview.jpg', 'thumb'), 320],
        [mediaPath('joy-preview.jpg', 'w640'), 640],
        [mediaPath('joy-preview.jpg', 'w900'), 900],
      ],
      // 256x256: the thumbnail alone, never enlarged.
      [[mediaPath('debian-logo-256.png', 'thumb'), 256]],
      // 512x600 (portrait): the thumbnail is 273 wide, w320 is a rendition of its own, and so is
      // its own 512 px (it stopped at 320 and was stretched 3 times on a phone at DPR 3).
      [
        [mediaPath('grace_hopper.jpg', 'thumb'), 273],
        [mediaPath('grace_hopper.jpg', 'w320'), 320],
        [mediaPath('grace_hopper.jpg', 'w512'), 512],
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

  it('offers the image’s own width only between two steps, never past the widest step', () => {
    const widths = (width: number, height: number) =>
      srcsetOf({ width, height }, limits).map((entry) => entry.width);
    // Between 640 and 960: the 700 px source is offered whole.
    expect(widths(700, 400)).toEqual([320, 640, 700]);
    // Wider than every step: the widest step is the limit the host chose.
    expect(widths(1600, 900)).toEqual([320, 640, 960, 1280]);
    // Exactly a step, or no wider than the thumbnail: nothing added.
    expect(widths(960, 540)).toEqual([320, 640, 960]);
    expect(widths(300, 200)).toEqual([300]);
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
  it('makes every width of an image from one decode, whichever is asked first; the thumbnail from its own', async () => {
    for (const order of ['narrowest first', 'widest first'] as const) {
      const { get, cacheCounts, made } = recordedGallery();
      const [emerald] = await listItems(get);
      // Listing stores what it learnt of the images in the cache too; count after it.
      const setsAfterListing = cacheCounts.sets;
      const paths = candidates(emerald?.srcset ?? '').map(([path]) => path);
      if (order === 'widest first') paths.reverse();
      for (const path of paths) expect((await get(path)).status, order).toBe(200);
      const widths = ['w640', 'w960', 'w1280'];
      expect(made, order).toEqual(
        order === 'widest first'
          ? [
              { variant: 'w1280', variants: widths },
              { variant: 'thumb', variants: ['thumb'] },
            ]
          : [
              { variant: 'thumb', variants: ['thumb'] },
              { variant: 'w640', variants: widths },
            ],
      );
      expect(cacheCounts.sets - setsAfterListing).toBe(4);
    }
  });

  it('merges concurrent requests for the widths of one cold image into one decode', async () => {
    const { get, made } = recordedGallery();
    const [emerald] = await listItems(get);
    const paths = candidates(emerald?.srcset ?? '').map(([path]) => path);
    const responses = await Promise.all(paths.flatMap((path) => [get(path), get(path), get(path)]));
    expect(responses.map((response) => response.status)).toEqual(Array(paths.length * 3).fill(200));
    expect(made.map((generation) => generation.variants).sort()).toEqual([
      ['thumb'],
      ['w640', 'w960', 'w1280'],
    ]);
  });

  it('answers the rendition asked for without making the widths nobody asked for', async () => {
    const { get, cacheCounts, made } = recordedGallery();
    const [emerald] = await listItems(get);
    const setsAfterListing = cacheCounts.sets;
    expect((await get(emerald?.previewUrl.replace(/thumb$/, 'w640') ?? '')).status).toBe(200);
    expect(cacheCounts.sets - setsAfterListing).toBe(1);
    // Asked for later, another width is encoded from the pixels of the same decode.
    expect((await get(emerald?.previewUrl.replace(/thumb$/, 'w960') ?? '')).status).toBe(200);
    expect(cacheCounts.sets - setsAfterListing).toBe(2);
    expect(made).toHaveLength(1);
  });

  it('answers a thumbnail while a wider rendition of the same image is still being made', async () => {
    // The w1280 rendition is held in its store until released: its generation stays unfinished.
    const { cache: holding, entries, release } = holdingCache(/-w1280-/);
    const { get, made } = recordedGallery({ cache: holding, limits: { memoryCacheBytes: 0 } });
    const [emerald] = await listItems(get);
    let wideDone = false;
    const wide = get(emerald?.previewUrl.replace(/thumb$/, 'w1280') ?? '').then((response) => {
      wideDone = true;
      return response;
    });
    // The wide rendition's decode is under way or done before the thumbnail is asked for.
    await vi.waitFor(() => expect(made).toHaveLength(1));
    const thumb = await get(emerald?.previewUrl ?? '');
    expect([thumb.status, wideDone]).toEqual([200, false]);
    release();
    expect((await wide).status).toBe(200);
    expect(made.map((generation) => generation.variant)).toEqual(['w1280', 'thumb']);
    expect([...entries.keys()].filter((key) => /-(thumb|w\d+)-/.test(key))).toHaveLength(2);
  });

  it("frees its generation slot once the thumbnail is stored: the next image's thumbnail waits for no width", async () => {
    // Every width's store is held until released: a generation that went on to make the widths
    // after answering the thumbnail would keep the only slot, and the second thumbnail would wait.
    const { cache: holding, release } = holdingCache(/-w\d+-/);
    const { get, made } = recordedGallery({
      cache: holding,
      limits: { concurrency: 1, queueSize: 4, memoryCacheBytes: 0 },
    });
    const [emerald, joy] = await listItems(get);
    expect((await get(emerald?.previewUrl ?? '')).status).toBe(200);
    expect((await get(joy?.previewUrl ?? '')).status).toBe(200);
    expect(made.map((generation) => generation.variant)).toEqual(['thumb', 'thumb']);
    release();
  });

  it('decodes again for each width when the pixels do not fit in decodedCacheBytes', async () => {
    // emerald's pixels at 1280 px wide: 1280x720x3 bytes, more than the bound.
    const { get, made } = recordedGallery({ limits: { decodedCacheBytes: 1_000_000 } });
    const [emerald] = await listItems(get);
    for (const [path] of candidates(emerald?.srcset ?? '')) expect((await get(path)).status).toBe(200);
    expect(made.map((generation) => generation.variant)).toEqual(['thumb', 'w640', 'w960', 'w1280']);
  });

  it('makes the full image on its own: the lightbox does not pay for the srcset, nor the grid for it', async () => {
    const { get, made } = recordedGallery();
    const [emerald] = await listItems(get);
    expect((await get(emerald?.fullUrl ?? '')).status).toBe(200);
    expect((await get(emerald?.previewUrl ?? '')).status).toBe(200);
    expect(made.map((generation) => generation.variants)).toEqual([['full'], ['thumb']]);
  });

  it('serves the widths from a shared cache without generating again in another process', async () => {
    const shared = countingCache();
    const first = spiedGallery(sampleRows, { cache: shared.cache, limits: { memoryCacheBytes: 0 } });
    const [emerald] = await listItems(first.get);
    for (const [path] of candidates(emerald?.srcset ?? '')) expect((await first.get(path)).status).toBe(200);
    const second = spiedGallery(sampleRows, { cache: shared.cache, limits: { memoryCacheBytes: 0 } });
    for (const [path] of candidates(emerald?.srcset ?? '')) expect((await second.get(path)).status).toBe(200);
    // The first made the thumbnail and the widths: two decodes; the second made nothing.
    expect([first.counts.generations, second.counts.generations]).toEqual([2, 0]);
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
    ['w0', 'emerald-16x9.png', 'NOT_FOUND', /^nothing is served at \/caroulsel\/media\/[^/]+\/w0: /],
    ['w99999', 'emerald-16x9.png', 'NOT_FOUND', /^nothing is served at .*\/w99999: /],
    ['w0640', 'emerald-16x9.png', 'NOT_FOUND', /^nothing is served at .*\/w0640: /],
    ['w-640', 'emerald-16x9.png', 'NOT_FOUND', /^nothing is served at .*\/w-640: /],
    ['w', 'emerald-16x9.png', 'NOT_FOUND', /^nothing is served at .*\/w: /],
    ['wabc', 'emerald-16x9.png', 'NOT_FOUND', /^nothing is served at .*\/wabc: /],
    ['w640x', 'emerald-16x9.png', 'NOT_FOUND', /^nothing is served at .*\/w640x: /],
    ['W640', 'emerald-16x9.png', 'NOT_FOUND', /^nothing is served at .*\/W640: /],
    ['640', 'emerald-16x9.png', 'NOT_FOUND', /^nothing is served at .*\/640: /],
    [
      'w1281',
      'emerald-16x9.png',
      'MEDIA_NOT_FOUND',
      /^w1281 is not a width this gallery serves \(w320, w640, w960, w1280\)/,
    ],
    // Narrower than the widest step, so it could be an image's own width: not this image's.
    ['w641', 'emerald-16x9.png', 'MEDIA_NOT_FOUND', /^this image \(1920x1080 px\) has no w641 rendition/],
    ['w512', 'joy-preview.jpg', 'MEDIA_NOT_FOUND', /^this image \(900x\d+ px\) has no w512 rendition/],
    // Listed as the thumbnail, not as a width of its own.
    ['w320', 'emerald-16x9.png', 'MEDIA_NOT_FOUND', /^this image \(\d+x\d+ px\) has no w320 rendition/],
    // Wider than the 900 px image.
    ['w960', 'joy-preview.jpg', 'MEDIA_NOT_FOUND', /^this image \(900x\d+ px\) has no w960 rendition/],
    ['w640', 'debian-logo-256.png', 'MEDIA_NOT_FOUND', /^this image \(\d+x\d+ px\) has no w640 rendition/],
  ])('answers %s of %s with 404, generating nothing', async (variant, name, code, message) => {
    const { get, counts } = spiedGallery(sampleRows);
    const response = await get(mediaPath(name, variant));
    expect(response.status).toBe(404);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ error: { code, message: expect.stringMatching(message) } });
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

describe('decodePixels and encodeWidth', () => {
  /** Every width of `widths`, encoded from one decode at the widest of them. */
  const encodeAll = async (bytes: Uint8Array, widths: readonly number[]) => {
    const pixels = await decodePixels(bytes, Math.max(...widths), limits);
    return Promise.all(widths.map(async (width) => (await encodeWidth(pixels, width, limits)).bytes));
  };

  it('applies the EXIF orientation to every width', async () => {
    for (const bytes of await encodeAll(await exifRotatedJpeg(), [100, 16])) {
      const meta = await sharp(bytes).metadata();
      expect(meta.height / meta.width).toBe(2);
      expect(meta.orientation).toBeUndefined();
    }
  });

  it('turns CMYK and 16-bit inputs into 8-bit sRGB at every width', async () => {
    for (const input of [await cmykJpeg(), await png16Bit()]) {
      for (const bytes of await encodeAll(input, [60, 32])) {
        const meta = await sharp(bytes).metadata();
        expect([meta.space, meta.depth]).toEqual(['srgb', 'uchar']);
        // The colour survives: not clipped to white or black by the 16-bit to 8-bit step.
        const { dominant } = await sharp(bytes).stats();
        expect(dominant.b).toBeGreaterThan(dominant.r);
      }
    }
  });

  it('refuses a truncated JPEG (422), a bomb (413), SVG and text (415) before encoding anything', async () => {
    for (const [input, status, code] of [
      [truncatedJpeg(), 422, 'MEDIA_UNDECODABLE'],
      [bombPng(), 413, 'MEDIA_TOO_LARGE'],
      [svgWithScript(), 415, 'MEDIA_UNSUPPORTED'],
      [textNamedJpg(), 415, 'MEDIA_UNSUPPORTED'],
    ] as const) {
      const error = await decodePixels(input, 320, limits).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(GalleryMediaError);
      expect([(error as GalleryMediaError).status, (error as GalleryMediaError).code]).toEqual([
        status,
        code,
      ]);
    }
  });

  it('keeps the pixels no wider than the widest width asked, nor than the image', async () => {
    const large = await decodePixels(await largePhoto(), 1280, limits);
    expect([large.width, large.height, large.data.byteLength]).toEqual([1280, 1280, 1280 * 1280 * 3]);
    const small = await decodePixels(sampleImage('debian-logo-256.png'), 1280, limits);
    expect([small.width, small.height]).toEqual([256, 256]);
  });

  it('encodes every width of the srcset exactly as wide as listed, from one decode', async () => {
    const bytes = await largePhoto();
    const widths = srcsetOf(await sharp(bytes).metadata(), limits)
      .filter(({ variant }) => variant !== 'thumb')
      .map(({ width }) => width);
    expect(widths).toEqual([640, 960, 1280]);
    const sizes = await Promise.all(
      (await encodeAll(bytes, widths)).map(async (made) => {
        const meta = await sharp(made).metadata();
        return [meta.format, meta.width, meta.height];
      }),
    );
    expect(sizes).toEqual([
      ['webp', 640, 640],
      ['webp', 960, 960],
      ['webp', 1280, 1280],
    ]);
  });
});
