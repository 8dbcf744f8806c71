import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { CachedMedia, MediaCache } from '../../src/gallery/cache/media-cache.js';
import { GalleryConfigError } from '../../src/gallery/gallery-errors.js';
import { renditionContext } from '../../src/gallery/image-pipeline.js';
import { GalleryLimits } from '../../src/gallery/limits.js';
import { contentHash, createTokenSigner } from '../../src/gallery/token.js';
import { createGalleryHandler, type GalleryHandlerOptions } from '../../src/http/gallery-handler.js';
import { holdingCache, listItems, SECRET, spiedGallery } from '../gallery/support/gallery.js';
import {
  bombPng,
  SAMPLE_DIR,
  sampleImage,
  svgWithScript,
  textNamedJpg,
  truncatedJpeg,
} from '../gallery/support/images.js';

const samples = ['grace_hopper.jpg', 'debian-logo-256.png', 'joy-preview.jpg'];
const sampleRows = () =>
  samples.map((name) => ({ id: name, title: `Title ${name}`, image: `${SAMPLE_DIR}${name}` }));
const context = renditionContext(GalleryLimits.parse({}));
const tokenOf = (bytes: Uint8Array) => createTokenSigner([SECRET], context).sign(contentHash(bytes));
const thumbPath = (bytes: Uint8Array) => `/caroulsel/media/${tokenOf(bytes)}/thumb`;

describe('GET /caroulsel/data', () => {
  it('lists light items in the source order, with signed preview and full URLs', async () => {
    const { get } = spiedGallery(sampleRows);
    const response = await get('/caroulsel/data');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const text = await response.text();
    expect(text).not.toMatch(/base64|data:/);
    expect(Number(response.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    const { items } = JSON.parse(text) as { items: { id: string; previewUrl: string; fullUrl: string }[] };
    expect(items[0]).toEqual({
      id: 'grace_hopper.jpg',
      title: 'Title grace_hopper.jpg',
      alt: 'Title grace_hopper.jpg',
      previewUrl: thumbPath(sampleImage('grace_hopper.jpg')),
      fullUrl: `/caroulsel/media/${tokenOf(sampleImage('grace_hopper.jpg'))}/full`,
      width: 512,
      height: 600,
      placeholder: expect.stringMatching(/^[A-Za-z0-9+/]{20,60}={0,2}$/),
      // 512 px wide: the thumbnail (273 px) and the one configured width not wider than the image.
      srcset: `${thumbPath(sampleImage('grace_hopper.jpg'))} 273w, /caroulsel/media/${tokenOf(sampleImage('grace_hopper.jpg'))}/w320 320w, /caroulsel/media/${tokenOf(sampleImage('grace_hopper.jpg'))}/w512 512w`,
    });
    expect(items.map((item) => item.id)).toEqual(samples);
  });

  it('gives each item the alt text of the configured column', async () => {
    const { get } = spiedGallery(
      () => [
        {
          id: 'hopper',
          title: 'Grace Hopper',
          caption: 'Portrait in uniform',
          image: sampleImage('grace_hopper.jpg'),
        },
      ],
      { columns: { alt: 'caption' } },
    );
    const { items } = (await (await get('/caroulsel/data')).json()) as {
      items: { title: string; alt: string }[];
    };
    expect(items.map(({ title, alt }) => ({ title, alt }))).toEqual([
      { title: 'Grace Hopper', alt: 'Portrait in uniform' },
    ]);
  });

  it('has an ETag of its own and answers 304 when it still matches', async () => {
    const { get } = spiedGallery(sampleRows);
    const first = await get('/caroulsel/data');
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const again = await get('/caroulsel/data', { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
  });

  it('answers HEAD with the headers and no body', async () => {
    const { get } = spiedGallery(sampleRows);
    const response = await get('/caroulsel/data', { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(Number(response.headers.get('content-length'))).toBeGreaterThan(0);
    expect(await response.text()).toBe('');
  });

  it('skips bad rows and bad images with a logged reason and lists the rest', async () => {
    const { get, logged } = spiedGallery(() => [
      { id: 'good', image: sampleImage('grace_hopper.jpg') },
      { id: 'missing', image: '/nonexistent/photo.jpg' },
      { id: 'bomb', image: bombPng() },
      { id: 'svg', image: svgWithScript() },
      { id: 'text', image: textNamedJpg() },
      { id: 'empty', image: Buffer.alloc(0) },
      { title: 'no id', image: sampleImage('joy-preview.jpg') },
      { id: 'truncated', image: truncatedJpeg() },
    ]);
    const items = await listItems(get);
    expect(items.map((item) => item.id)).toEqual(['good']);
    expect(logged).toEqual(
      expect.arrayContaining([
        'gallery row 5 skipped: image: image bytes are empty',
        expect.stringMatching(/^gallery row 6 skipped: id/),
        'gallery item "missing" skipped: the image file does not exist',
        expect.stringMatching(/^gallery item "bomb" skipped: the image has 30000x30000 pixels/),
        expect.stringMatching(/^gallery item "svg" skipped: the file is not a JPEG/),
        expect.stringMatching(/^gallery item "text" skipped: the file is not a JPEG/),
        expect.stringMatching(/^gallery item "truncated" skipped: the image cannot be decoded/),
      ]),
    );
    expect(logged).toHaveLength(7);
    // Listed again (a browser reloading the page), the same rows and images log nothing new.
    expect((await listItems(get)).map((item) => item.id)).toEqual(['good']);
    expect(logged).toHaveLength(7);
  });

  it('gives a new token when an image changes', async () => {
    let bytes: Buffer = sampleImage('grace_hopper.jpg');
    const { get } = spiedGallery(() => [{ id: 'photo', image: bytes }]);
    const [before] = await listItems(get);
    bytes = sampleImage('joy-preview.jpg');
    const [after] = await listItems(get);
    expect(after?.previewUrl).not.toBe(before?.previewUrl);
    expect((await get(before?.previewUrl ?? '')).status).toBe(404);
    expect((await get(after?.previewUrl ?? '')).status).toBe(200);
  });

  it('notices a file whose content changed: its old URL is a 404 and the list gives a new one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gallery-handler-'));
    try {
      const file = join(dir, 'photo.jpg');
      await writeFile(file, sampleImage('grace_hopper.jpg'));
      const { get, counts } = spiedGallery(() => [{ id: 'photo', image: file }]);
      const [before] = await listItems(get);
      await writeFile(file, sampleImage('joy-preview.jpg'));
      expect((await get(before?.previewUrl ?? '')).status).toBe(404);
      const [after] = await listItems(get);
      expect(after?.previewUrl).not.toBe(before?.previewUrl);
      expect((await get(after?.previewUrl ?? '')).status).toBe(200);
      // Replaying the old URL does not query the host each time: one walk of the source looks for
      // the unknown token, and the replays after it within a second ask nothing.
      const calls = counts.sourceCalls;
      for (let i = 0; i < 5; i++) expect((await get(before?.previewUrl ?? '')).status).toBe(404);
      expect(counts.sourceCalls - calls).toBeLessThanOrEqual(1);
    } finally {
      await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    }
  });

  it('answers 502 when the host source returns something that is not a list of rows', async () => {
    const { get, logged } = spiedGallery(() => ({ rows: [] }) as unknown as unknown[]);
    expect((await get('/caroulsel/data')).status).toBe(502);
    expect(logged).toEqual([
      'gallery request failed: the gallery source returned object, not an array of rows',
    ]);
  });

  it('answers 502 when the host source fails, and logs why', async () => {
    const { get, logged } = spiedGallery(() => {
      throw new Error('connection refused');
    });
    const response = await get('/caroulsel/data');
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ error: { code: 'GALLERY_UPSTREAM' } });
    expect(logged[0]).toContain('connection refused');
  });
});

describe('GET /caroulsel/media/<token>/thumb and /full', () => {
  it('serves a WebP thumbnail with content, caching and security headers', async () => {
    const { get } = spiedGallery(sampleRows);
    const [item] = await listItems(get);
    const response = await get(item?.previewUrl ?? '');
    expect(response.status).toBe(200);
    const body = Buffer.from(await response.arrayBuffer());
    expect(Object.fromEntries(response.headers)).toEqual({
      'content-type': 'image/webp',
      'content-length': String(body.length),
      etag: expect.stringMatching(/^"[A-Za-z0-9_-]{22}-thumb-p4-320-2048-w320_640_960_1280"$/),
      'cache-control': 'public, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'",
    });
    expect(await sharp(body).metadata()).toMatchObject({ format: 'webp', width: 273, height: 320 });
  });

  it('serves the full image (capped) and HEAD without a body', async () => {
    const { get } = spiedGallery(sampleRows, { limits: { fullSize: 300 } });
    const [item] = await listItems(get);
    const full = await get(item?.fullUrl ?? '');
    expect(full.status).toBe(200);
    expect(await sharp(Buffer.from(await full.arrayBuffer())).metadata()).toMatchObject({
      width: 256,
      height: 300,
    });
    const head = await get(item?.fullUrl ?? '', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(full.headers.get('content-length'));
    expect(await head.text()).toBe('');
  });

  it('answers If-None-Match with 304 before any lookup or image work', async () => {
    const first = spiedGallery(sampleRows);
    const [item] = await listItems(first.get);
    const etag = (await first.get(item?.previewUrl ?? '')).headers.get('etag') ?? '';
    const fresh = spiedGallery(sampleRows);
    const response = await fresh.get(item?.previewUrl ?? '', { headers: { 'If-None-Match': etag } });
    expect(response.status).toBe(304);
    expect(response.headers.get('etag')).toBe(etag);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect([fresh.counts.generations, fresh.counts.sourceCalls, fresh.cacheCounts.gets]).toEqual([0, 0, 0]);
  });

  it('answers If-None-Match: * with 304 only for a rendition that exists', async () => {
    const { get } = spiedGallery(sampleRows);
    const [item] = await listItems(get);
    const star = { headers: { 'If-None-Match': '*' } };
    const listed = await get(item?.previewUrl ?? '', star);
    expect(listed.status).toBe(304);
    // A width no item lists for this token, and a token of content never listed: no representation.
    const token = (item?.previewUrl ?? '').split('/').at(-2) ?? '';
    const unlisted = await get(`/caroulsel/media/${token}/w1280`, star);
    expect([unlisted.status, unlisted.headers.get('cache-control')]).toEqual([404, 'no-store']);
  });

  it('generates once, then serves from the cache', async () => {
    const { get, counts, cacheCounts } = spiedGallery(sampleRows);
    const [item] = await listItems(get);
    // Listing stores what it learnt of the images (hashes, sizes) in the cache too; count after it.
    const setsAfterListing = cacheCounts.sets;
    const first = Buffer.from(await (await get(item?.previewUrl ?? '')).arrayBuffer());
    const second = Buffer.from(await (await get(item?.previewUrl ?? '')).arrayBuffer());
    expect(second).toEqual(first);
    expect(counts.generations).toBe(1);
    expect(cacheCounts.sets - setsAfterListing).toBe(1);
  });

  it('merges concurrent requests for a cold thumbnail into one generation', async () => {
    const { get, counts } = spiedGallery(sampleRows);
    const [item] = await listItems(get);
    const responses = await Promise.all(Array.from({ length: 25 }, () => get(item?.previewUrl ?? '')));
    expect(responses.map((response) => response.status)).toEqual(Array(25).fill(200));
    expect(counts.generations).toBe(1);
  });

  it('does not generate again for a request whose cache miss arrives after the generation ended', async () => {
    // A slow cache: the first read answers only when released, with what it found when asked.
    const entries = new Map<string, CachedMedia>();
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reads = 0;
    const cache: MediaCache = {
      async get(key) {
        const found = entries.get(key);
        // Only renditions are held: the listing's own index reads go through.
        if (key.includes('-thumb-')) reads += 1;
        if (key.includes('-thumb-') && reads === 1) await released;
        return found;
      },
      async set(key, media) {
        entries.set(key, media);
      },
    };
    const { get, counts } = spiedGallery(sampleRows, { cache, limits: { memoryCacheBytes: 0 } });
    const [item] = await listItems(get);
    const late = get(item?.previewUrl ?? '');
    expect((await get(item?.previewUrl ?? '')).status).toBe(200);
    expect(counts.generations).toBe(1);
    release();
    expect((await late).status).toBe(200);
    expect(counts.generations).toBe(1);
  });

  it('answers 503 with Retry-After when the generation queue is full', async () => {
    const rows = () => samples.map((name) => ({ id: name, image: sampleImage(name) }));
    // Storing a rendition waits here: the generation in the slot stays there, one request waits in
    // the queue, the third finds the queue full.
    const { cache: holding, release } = holdingCache(/-(thumb|w\d+)-/);
    const { get, counts } = spiedGallery(rows, {
      cache: holding,
      limits: { concurrency: 1, queueSize: 1, memoryCacheBytes: 0 },
    });
    const pending = samples.map((name) => get(thumbPath(sampleImage(name))));
    const first = await Promise.race(
      pending.map((answer, index) => answer.then((response) => ({ response, index }))),
    );
    // Which one is refused is not promised; that one is answered before the others.
    expect(first.response.status).toBe(503);
    expect(first.response.headers.get('retry-after')).toBe('1');
    release();
    const responses = await Promise.all(pending);
    expect(responses.map((response) => response.status).sort()).toEqual([200, 200, 503]);
    expect(counts.generations).toBe(2);
    const refused = samples[first.index] ?? '';
    expect((await get(thumbPath(sampleImage(refused)))).status).toBe(200);
  });

  it('keeps serving when the cache backend fails, and logs it', async () => {
    const failing = {
      get: () => Promise.reject(new Error('redis is down')),
      set: () => Promise.reject(new Error('redis is down')),
    };
    const { get, logged } = spiedGallery(sampleRows, { cache: failing, limits: { memoryCacheBytes: 0 } });
    const [item] = await listItems(get);
    expect((await get(item?.previewUrl ?? '')).status).toBe(200);
    expect(logged).toEqual([
      // The listing's index lives in the same backend: it goes on without it, saying so once.
      'gallery index read failed: redis is down',
      'gallery index write failed: redis is down',
      'media cache read failed: redis is down',
      'media cache write failed: redis is down',
    ]);
  });

  it('keeps answering when the cache backend stops answering (a Redis reconnecting), and logs it', async () => {
    const silent = { get: () => new Promise<never>(() => {}), set: () => new Promise<never>(() => {}) };
    const { get, logged } = spiedGallery(sampleRows, { cache: silent, limits: { memoryCacheBytes: 0 } });
    // A wait on the backend is bounded (a second), and the backend is then skipped for a while: the
    // answers come, from generations alone, the first one paying the second once.
    const [item] = await listItems(get);
    expect((await get(item?.previewUrl ?? '')).status).toBe(200);
    expect(logged).toEqual([
      'the media cache kept a read waiting 1000 ms or more: going on without it, asking again every 5000 ms',
      'gallery index read failed: the media cache did not answer a read within 1000 ms',
    ]);
  }, 20_000);

  it('answers forged, tampered, truncated and path-like tokens with 404, reading nothing', async () => {
    const { get, counts, cacheCounts } = spiedGallery(sampleRows);
    const good = tokenOf(sampleImage('grace_hopper.jpg'));
    const forged = createTokenSigner(['attacker-secret-0000000']).sign(
      contentHash(sampleImage('grace_hopper.jpg')),
    );
    for (const token of [
      forged,
      `${good.slice(0, 30)}${good[30] === 'x' ? 'y' : 'x'}${good.slice(31)}`,
      good.slice(0, 40),
      `${good}AAAA`,
      '..%2F..%2Fetc%2Fpasswd',
      'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    ]) {
      const response = await get(`/caroulsel/media/${token}/thumb`);
      expect(response.status, token).toBe(404);
      expect(await response.json()).toEqual({
        error: {
          code: 'MEDIA_NOT_FOUND',
          message:
            'this media token is not one this gallery issued (altered, cut short, or signed with a secret it no longer holds): take media URLs from /caroulsel/data',
        },
      });
    }
    // Dot segments are resolved by the URL itself: these name other paths, which are not the gallery's.
    for (const path of ['/caroulsel/media/%2e%2e/thumb', '/caroulsel/media/../../../etc/passwd']) {
      const response = await get(path);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    }
    expect([counts.sourceCalls, cacheCounts.gets, counts.generations]).toEqual([0, 0, 0]);
  });

  it('changes every URL when the renditions change (a new size), so no browser keeps an old one', async () => {
    const before = await listItems(spiedGallery(sampleRows).get);
    const resized = spiedGallery(sampleRows, { limits: { thumbSize: 200 } });
    const after = await listItems(resized.get);
    expect(after.map((item) => item.previewUrl)).not.toContain(before[0]?.previewUrl);
    expect((await resized.get(before[0]?.previewUrl ?? '')).status).toBe(404);
    expect((await resized.get(after[0]?.previewUrl ?? '')).status).toBe(200);
  });

  it('answers a genuine token for media the source does not hold with 404', async () => {
    const { get } = spiedGallery(sampleRows);
    const response = await get(thumbPath(sampleImage('spacefun-preview.jpg')));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: {
        code: 'MEDIA_NOT_FOUND',
        message:
          "the image of this token is no longer in the gallery's source: take media URLs from /caroulsel/data",
      },
    });
  });

  it.each([
    ['a truncated JPEG', truncatedJpeg, 422, 'MEDIA_UNDECODABLE'],
    ['a decompression bomb', () => bombPng(), 413, 'MEDIA_TOO_LARGE'],
    ['an SVG with a script', svgWithScript, 415, 'MEDIA_UNSUPPORTED'],
    ['text named .jpg', textNamedJpg, 415, 'MEDIA_UNSUPPORTED'],
  ])('answers %s with a clear 4xx, never a 500', async (_name, make, status, code) => {
    const bytes = make();
    const { get } = spiedGallery(() => [{ id: 'bad', image: bytes }]);
    for (const variant of ['thumb', 'w320', 'full']) {
      const response = await get(`/caroulsel/media/${tokenOf(bytes)}/${variant}`);
      expect(response.status).toBe(status);
      expect(await response.json()).toMatchObject({ error: { code } });
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
  });
});

describe('routing', () => {
  it.each([
    '/',
    '/caroulsel',
    '/caroulsel/',
    '/caroulsel/data/',
    '/caroulsel/other',
    '/caroulsel/media/abc',
    '/caroulsel/media/abc/large',
    '/caroulsel/media/abc/thumb/extra',
    '/elsewhere/caroulsel/data',
  ])('answers %s with 404, naming the path and what is served', async (path) => {
    const { get, counts } = spiedGallery(sampleRows);
    const response = await get(path);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: {
        code: 'NOT_FOUND',
        message: `nothing is served at ${path}: the gallery answers /caroulsel/data, /caroulsel/media/<token>/<thumb, full or w<width>> and its component's files under /assets/`,
      },
    });
    expect(counts.sourceCalls).toBe(0);
  });

  it.each([
    ['POST', '/caroulsel/data'],
    ['PUT', '/caroulsel/data'],
    ['DELETE', '/caroulsel/media/abc/thumb'],
    ['PATCH', '/caroulsel/media/abc/full'],
  ])('answers %s %s with 405 and Allow', async (method, path) => {
    const { get, counts } = spiedGallery(sampleRows);
    const response = await get(path, { method });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
    expect(counts.sourceCalls).toBe(0);
  });

  it('refuses bad options with an error naming the option', () => {
    const attempt = (options: Parameters<typeof spiedGallery>[1]) => {
      try {
        spiedGallery(sampleRows, options);
        return undefined;
      } catch (error) {
        return error;
      }
    };
    expect(attempt({ limits: { thumbSize: 0 } })).toMatchObject({
      code: 'GALLERY_CONFIG',
      path: 'limits.thumbSize',
    });
    expect(attempt({ columns: { id: '' } })).toMatchObject({ code: 'GALLERY_CONFIG', path: 'columns.id' });
    expect(attempt({ limits: { concurrency: 1.5 } })).toBeInstanceOf(GalleryConfigError);
  });

  // A plain-JavaScript host gets no type errors: a missing source or a misspelt option used to be
  // accepted, then every request answered 502 or the option was silently ignored.
  it('refuses a missing or malformed source, an unknown option and a cache or logger of the wrong shape', () => {
    const secrets = [SECRET];
    const attempt = (options: unknown) => {
      try {
        createGalleryHandler(options as GalleryHandlerOptions);
        return undefined;
      } catch (error) {
        return error;
      }
    };
    expect(attempt({ sources: () => [], secrets })).toMatchObject({
      code: 'GALLERY_CONFIG',
      path: 'sources',
      message:
        'gallery option sources: is not an option (its options: source, secrets, columns, limits, cache, logger, onGenerate)',
    });
    expect(attempt({ secrets })).toMatchObject({
      path: 'source',
      message: 'gallery option source: is required',
    });
    expect(attempt({ source: 'rows', secrets })).toMatchObject({
      path: 'source',
      message:
        'gallery option source: must be a function returning the rows, or an object with a page(request) method',
    });
    expect(attempt({ source: async () => [], secrets, cache: {} })).toMatchObject({ path: 'cache' });
    expect(attempt({ source: async () => [], secrets, logger: console.log })).toMatchObject({
      path: 'logger',
    });
    expect(attempt({ source: async () => [], secrets, limits: { thumbsize: 100 } })).toMatchObject({
      code: 'GALLERY_CONFIG',
      path: 'limits',
      message: expect.stringContaining('thumbsize'),
    });
    expect(attempt({ source: async () => [], secrets, columns: { ID: 'SEQ_DB' } })).toMatchObject({
      path: 'columns',
      message: expect.stringContaining('ID'),
    });
    expect(attempt(undefined)).toMatchObject({
      code: 'GALLERY_CONFIG',
      message:
        'gallery takes its options as an object (its options: source, secrets, columns, limits, cache, logger, onGenerate)',
    });
    expect(attempt(undefined)).toBeInstanceOf(GalleryConfigError);
    expect(attempt({ source: { page: async () => ({ rows: [], next: null }) }, secrets })).toBeUndefined();
  });

  it('refuses to start without a strong secret', () => {
    expect(() => spiedGallery(sampleRows, { secrets: [] })).toThrow(/at least one secret/);
    expect(() => spiedGallery(sampleRows, { secrets: ['weak'] })).toThrow(/at least 16 characters/);
  });
});
