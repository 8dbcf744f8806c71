import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createGallery } from '../../src/gallery/gallery.js';
import { GalleryMediaError } from '../../src/gallery/gallery-errors.js';
import { countingCache, SECRET } from './support/gallery.js';

// The engine without HTTP (#31): what the handler answers with, asked directly.

const image = (width: number, height: number, red: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: red, g: 90, b: 40 } } })
    .png()
    .toBuffer();

async function spiedCore() {
  const rows = [
    { id: 'a', title: 'Wide', image: await image(900, 500, 10) },
    { id: 'b', title: 'Tall', image: await image(300, 600, 200) },
  ];
  const counts = { sourceCalls: 0, generations: 0 };
  const { cache, counts: cacheCounts, entries } = countingCache();
  const gallery = createGallery({
    source: async () => {
      counts.sourceCalls += 1;
      return rows;
    },
    secrets: [SECRET],
    cache,
    limits: { memoryCacheBytes: 0 },
    logger: { warn: () => {} },
    onGenerate: () => {
      counts.generations += 1;
    },
  });
  // A probe is stored under `<hash>-i1-<pixel limit>-<byte limit>`: how a test sees one was made.
  const probes = () => [...entries.keys()].filter((key) => /-i1-\d+-\d+$/.test(key)).length;
  return { gallery, counts, cacheCounts, probes };
}

const tokenOf = (previewUrl: string) => previewUrl.split('/')[3] ?? '';

describe('createGallery', () => {
  it('gives a page its ETag before its images are probed, and the same ETag for the same page', async () => {
    const { gallery, probes } = await spiedCore();
    const listing = await gallery.page(new URLSearchParams('limit=1'));
    expect(listing.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(probes()).toBe(0);
    expect(listing.next).toMatch(/^\/caroulsel\/data\?limit=1&cursor=/);
    const { page, settled } = await listing.load();
    expect(settled).toBe(true);
    expect(probes()).toBe(1);
    expect(page.next).toBe(listing.next);
    expect(page.items.map(({ id, width, height }) => ({ id, width, height }))).toEqual([
      { id: 'a', width: 900, height: 500 },
    ]);
    expect((await gallery.page(new URLSearchParams('limit=1'))).etag).toBe(listing.etag);
    expect((await gallery.page(new URLSearchParams())).etag).not.toBe(listing.etag);
  });

  it("knows a rendition's ETag from its token alone, and generates it once when loaded", async () => {
    const { gallery, counts, cacheCounts } = await spiedCore();
    const { page } = await (await gallery.page(new URLSearchParams())).load();
    const token = tokenOf(page.items[0]?.previewUrl ?? '');
    const reads = cacheCounts.gets;
    const sourceCalls = counts.sourceCalls;

    const rendition = gallery.rendition(token, 'thumb');
    expect(rendition.etag).toMatch(/^"[^"]+-thumb-[^"]+"$/);
    expect(cacheCounts.gets).toBe(reads);
    expect(counts).toEqual({ sourceCalls, generations: 0 });

    const [first, second] = await Promise.all([rendition.load(), gallery.rendition(token, 'thumb').load()]);
    expect(first.contentType).toMatch(/^image\//);
    expect((await sharp(first.bytes).metadata()).width).toBeGreaterThan(0);
    expect(second.bytes).toEqual(first.bytes);
    expect(counts.generations).toBe(1);
    expect(gallery.rendition(token, 'thumb').etag).toBe(rendition.etag);
  });

  it('refuses a forged token and an unserved width before reading anything', async () => {
    const { gallery, counts, cacheCounts } = await spiedCore();
    const { page } = await (await gallery.page(new URLSearchParams())).load();
    const token = tokenOf(page.items[0]?.previewUrl ?? '');
    const before = { ...counts, gets: cacheCounts.gets };
    const refusal = (make: () => unknown) => {
      try {
        make();
      } catch (error) {
        return error instanceof GalleryMediaError ? { code: error.code, status: error.status } : error;
      }
      return 'not thrown';
    };
    const notFound = { code: 'MEDIA_NOT_FOUND', status: 404 };
    expect(refusal(() => gallery.rendition(`${token.slice(0, -2)}xx`, 'thumb'))).toEqual(notFound);
    expect(refusal(() => gallery.rendition(token, 'w9999'))).toEqual(notFound);
    expect({ ...counts, gets: cacheCounts.gets }).toEqual(before);
  });

  it('rejects a width the image does not list, when loaded', async () => {
    const { gallery, counts } = await spiedCore();
    const { page } = await (await gallery.page(new URLSearchParams())).load();
    const tall = page.items.find((item) => item.id === 'b');
    await expect(gallery.rendition(tokenOf(tall?.previewUrl ?? ''), 'w1280').load()).rejects.toMatchObject({
      code: 'MEDIA_NOT_FOUND',
      status: 404,
    });
    expect(counts.generations).toBe(0);
  });
});
