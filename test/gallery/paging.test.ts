import type * as fs from 'node:fs/promises';
import { link, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDiskCache } from '../../src/gallery/cache/disk-cache.js';
import { folderSource } from '../../src/gallery/folder-source.js';
import { createCursorSigner } from '../../src/gallery/page-query.js';
import type { GalleryPageRequest, PagedGallerySource } from '../../src/gallery/source.js';
import { createGalleryHandler, type GalleryPage } from '../../src/http/gallery-handler.js';
import { BASE, SECRET, spiedGallery } from './support/gallery.js';
import { SAMPLE_DIR } from './support/images.js';

// Image files read and placeholders computed (each placeholder is one probe's decode), counted.
// `changing` names a file whose second read gives other bytes (it changes while a page is made).
const spy = vi.hoisted(() => ({ reads: 0, placeholders: 0, changing: '', changingReads: 0 }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const original = await importOriginal<typeof fs>();
  const readFile = async (...args: Parameters<typeof original.readFile>) => {
    if (String(args[0]).includes('gallery-paging-images')) spy.reads += 1;
    if (String(args[0]) === spy.changing && ++spy.changingReads === 2) return Buffer.from('other bytes');
    return original.readFile(...args);
  };
  return { ...original, readFile, default: { ...original, readFile } };
});
vi.mock('../../src/gallery/placeholder.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/gallery/placeholder.js')>();
  return {
    placeholderOf: (...args: Parameters<typeof original.placeholderOf>) => {
      spy.placeholders += 1;
      return original.placeholderOf(...args);
    },
  };
});

let dir: string;
let imagesDir: string;
const COUNT = 130;
// Distinct contents: a probe is remembered by content, so copies of one file would hide the count.
const nameOf = (i: number) => `img-${String(i).padStart(4, '0')}.png`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gallery-paging-'));
  imagesDir = join(dir, 'gallery-paging-images');
  await mkdir(imagesDir);
  for (let i = 0; i < COUNT; i++) {
    const png = await sharp({
      create: {
        width: 24 + (i % 7),
        height: 16,
        channels: 3,
        background: { r: i, g: 255 - i, b: (i * 7) % 256 },
      },
    })
      .png()
      .toBuffer();
    await writeFile(join(imagesDir, nameOf(i)), png);
  }
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
});
beforeEach(() => {
  spy.reads = 0;
  spy.placeholders = 0;
});

const folderRows = async () => folderSource(imagesDir)();

async function page(get: (path: string, init?: RequestInit) => Promise<Response>, path: string) {
  const response = await get(path);
  expect(response.status, path).toBe(200);
  return { response, body: (await response.json()) as GalleryPage };
}

/** Every page from `first` on, following `next`. */
async function walk(get: (path: string) => Promise<Response>, first = '/caroulsel/data') {
  const pages: GalleryPage[] = [];
  let path: string | null = first;
  while (path !== null) {
    const { response, body } = await page(get, path);
    expect(response.headers.get('link')).toBe(body.next === null ? null : `<${body.next}>; rel="next"`);
    pages.push(body);
    path = body.next;
  }
  return pages;
}

async function errorOf(response: Response) {
  return {
    status: response.status,
    ...((await response.json()) as { error: { code: string; message: string } }).error,
  };
}

describe('paging GET /caroulsel/data', () => {
  it('answers pages of 48 by default, chained by next and the Link header, every item once in order', async () => {
    const { get } = spiedGallery(folderRows);
    const pages = await walk(get);
    expect(pages.map((body) => body.items.length)).toEqual([48, 48, 34]);
    expect(pages.flatMap((body) => body.items.map((item) => item.id))).toEqual(
      Array.from({ length: COUNT }, (_, i) => nameOf(i)),
    );
    expect(pages[0]?.next).toMatch(/^\/caroulsel\/data\?cursor=[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
  });

  it('keeps a given limit in next, from 1 to 200', async () => {
    const { get } = spiedGallery(folderRows);
    const pages = await walk(get, '/caroulsel/data?limit=100');
    expect(pages.map((body) => body.items.length)).toEqual([100, 30]);
    expect(pages[0]?.next).toMatch(/^\/caroulsel\/data\?limit=100&cursor=/);
    expect((await page(get, '/caroulsel/data?limit=1')).body.items).toHaveLength(1);
    expect((await page(get, '/caroulsel/data?limit=200')).body.items).toHaveLength(COUNT);
  });

  it.each([['0'], ['201'], ['-1'], ['abc'], [''], ['1e2'], ['%205'], ['4.5'], ['99999'], ['010'], ['0200']])(
    'refuses limit=%s with a 400 naming the parameter, before asking the source',
    async (limit) => {
      const { get, counts } = spiedGallery(folderRows);
      const response = await get(`/caroulsel/data?limit=${limit}`);
      expect(await errorOf(response)).toEqual({
        status: 400,
        code: 'BAD_QUERY',
        path: 'limit',
        message: expect.stringMatching(
          /^limit: must be a whole number from 1 to 200 in plain digits \(no sign, no leading zero\), got /,
        ),
      });
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(counts.sourceCalls).toBe(0);
    },
  );

  it('says that a + read as a space when limit=+5 is refused', async () => {
    const { get } = spiedGallery(folderRows);
    expect(await errorOf(await get('/caroulsel/data?limit=+5'))).toEqual({
      status: 400,
      code: 'BAD_QUERY',
      path: 'limit',
      message:
        'limit: must be a whole number from 1 to 200 in plain digits (no sign, no leading zero), got " 5" (a + in a query string reads as a space)',
    });
  });

  it('refuses a repeated parameter rather than pick one', async () => {
    const { get } = spiedGallery(folderRows);
    expect(await errorOf(await get('/caroulsel/data?limit=5&limit=6'))).toMatchObject({
      status: 400,
      message: 'limit: given 2 times; give it once',
    });
  });

  it('refuses garbled, cut, forged and foreign cursors with a 400 naming the parameter', async () => {
    const { get, counts } = spiedGallery(folderRows);
    const { body } = await page(get, '/caroulsel/data?limit=10');
    const good = new URL(body.next ?? '', BASE).searchParams.get('cursor') ?? '';
    const [payload, mac] = good.split('.') as [string, string];
    const forged = createCursorSigner(['attacker-secret-000000']).encode({ k: 'o', o: 10, a: 'x' });
    // Another payload under a MAC made for the real one.
    const tampered = `${Buffer.from(JSON.stringify({ k: 'o', o: 5, a: 'x' })).toString('base64url')}.${mac}`;
    const calls = counts.sourceCalls;
    for (const cursor of [
      '',
      'abc',
      good.slice(0, -1),
      `${good}x`,
      `${payload}.${mac.slice(0, 21)}${mac.endsWith('A') ? 'B' : 'A'}`,
      forged,
      tampered,
      `${'A'.repeat(3000)}.${mac}`,
      encodeURIComponent('../../etc/passwd'),
    ]) {
      const response = await get(`/caroulsel/data?cursor=${cursor}`);
      expect(await errorOf(response), cursor).toEqual({
        status: 400,
        code: 'BAD_QUERY',
        path: 'cursor',
        message: expect.stringMatching(/^cursor: not a cursor this gallery gave/),
      });
    }
    expect(counts.sourceCalls).toBe(calls);
    // A cursor signed with an older secret still verifies after a rotation (all secrets verify).
    const rotated = spiedGallery(folderRows, { secrets: ['a-newer-secret-0123456', SECRET] });
    expect((await rotated.get(body.next ?? '')).status).toBe(200);
  });

  it('continues after the last item shown when the list changed, and says so when that item is gone', async () => {
    let names = Array.from({ length: 10 }, (_, i) => nameOf(i));
    const rows = () => names.map((name) => ({ id: name, image: join(imagesDir, name) }));
    const { get } = spiedGallery(rows);
    const first = (await page(get, '/caroulsel/data?limit=4')).body;
    expect(first.items.map((item) => item.id)).toEqual(names.slice(0, 4));
    // Two items before the cursor are removed and one is added at the end: no item repeated or lost.
    names = [...names.slice(2), nameOf(10)];
    const second = (await page(get, first.next ?? '')).body;
    expect(second.items.map((item) => item.id)).toEqual([nameOf(4), nameOf(5), nameOf(6), nameOf(7)]);
    // The item the cursor ends at is gone: nothing to continue after.
    names = names.filter((name) => name !== nameOf(7));
    expect(await errorOf(await get(second.next ?? ''))).toEqual({
      status: 400,
      code: 'CURSOR_STALE',
      path: 'cursor',
      message: expect.stringMatching(/^cursor: the list changed since this cursor was given/),
    });
  });

  it('decides the ETag before probing: a 304 probes nothing, reads no image, and carries the Link', async () => {
    const { get } = spiedGallery(folderRows);
    const { response } = await page(get, '/caroulsel/data?limit=20');
    const etag = response.headers.get('etag') ?? '';
    expect(spy.placeholders).toBe(20);
    // A fresh handler (a restart) with an empty index: hashing the page is needed, probing is not.
    const fresh = spiedGallery(folderRows);
    spy.placeholders = 0;
    const again = await fresh.get('/caroulsel/data?limit=20', { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('link')).toBe(response.headers.get('link'));
    expect(spy.placeholders).toBe(0);
    // Pages differ, and so do their ETags.
    const other = await get('/caroulsel/data?limit=21');
    expect(other.headers.get('etag')).not.toBe(etag);
  });

  it('sends no ETag with a page that lost an item for a passing reason, so no 304 keeps it short', async () => {
    const names = [nameOf(0), nameOf(1)];
    const rows = () => names.map((name) => ({ id: name, image: join(imagesDir, name) }));
    const { get } = spiedGallery(rows);
    spy.changing = join(imagesDir, nameOf(1));
    spy.changingReads = 0;
    const { response, body } = await page(get, '/caroulsel/data');
    spy.changing = '';
    expect(body.items.map((item) => item.id)).toEqual([nameOf(0)]);
    expect(response.headers.get('etag')).toBeNull();
    const again = await page(get, '/caroulsel/data');
    expect(again.body.items.map((item) => item.id)).toEqual(names);
    expect(again.response.headers.get('etag')).toMatch(/^"/);
  });

  it('reads and probes only the page asked, never the whole folder', async () => {
    const { get } = spiedGallery(folderRows);
    await page(get, '/caroulsel/data?limit=5');
    expect([spy.reads, spy.placeholders]).toEqual([10, 5]);
  });

  it('keeps its index across restarts in the cache folder, and shrugs off a corrupt one', async () => {
    const cacheDir = join(dir, 'cache-restart');
    const handlerOn = () =>
      createGalleryHandler({
        source: folderSource(imagesDir),
        secrets: [SECRET],
        cache: createDiskCache({ dir: cacheDir }),
        limits: { memoryCacheBytes: 0 },
        logger: { warn: () => {} },
      });
    const get = (handler: ReturnType<typeof handlerOn>) => (path: string) =>
      handler(new Request(BASE + path));
    const before = (await page(get(handlerOn()), '/caroulsel/data?limit=30')).body;
    expect(spy.placeholders).toBe(30);
    spy.reads = 0;
    spy.placeholders = 0;
    // A restart: nothing read, nothing decoded, the same page.
    const after = (await page(get(handlerOn()), '/caroulsel/data?limit=30')).body;
    expect(after).toEqual(before);
    expect([spy.reads, spy.placeholders]).toEqual([0, 0]);
    // Every index entry damaged in a different way: cut, not an entry at all, the wrong JSON.
    const files = (await readdir(cacheDir)).filter((name) => name.endsWith('.media'));
    // Per image: its file's hash, its probe, and the item holding its hash (for other nodes).
    expect(files.length).toBe(90);
    // Whole entries as the cache frames them, holding JSON that is not what the index wrote.
    const framed = (json: string) =>
      Buffer.concat([
        Buffer.from([0, 16]),
        Buffer.from('application/json'),
        Buffer.from([0, 0, 0, Buffer.byteLength(json)]),
        Buffer.from(json),
      ]);
    const damages = [
      Buffer.from('garbage'),
      Buffer.alloc(0),
      framed('{"width":-1,"height":2,"placeholder":"<script>"}'),
      // A "refusal" that would answer 200: refusals are 4xx, so this is a miss, not a hidden image.
      framed('{"refused":{"code":"MEDIA_UNSUPPORTED","status":200,"message":"x"}}'),
    ];
    for (const [i, name] of files.entries()) {
      // Hash entries' keys start with "f"; probe and item entries (keyed by content) get the false refusal.
      const damage = (name.startsWith('f') ? damages[i % 3] : damages[3]) as Buffer;
      await writeFile(join(cacheDir, name), damage);
    }
    const repaired = (await page(get(handlerOn()), '/caroulsel/data?limit=30')).body;
    expect(repaired).toEqual(before);
    expect(spy.placeholders).toBe(30);
  });
});

describe('a paged host source', () => {
  /** A host query over `ids`, paged by position, that records every request it gets. */
  function hostSource(ids: string[]) {
    const asked: GalleryPageRequest[] = [];
    const source: PagedGallerySource = {
      async page(request) {
        asked.push(request);
        const start = request.cursor === null ? 0 : Number(request.cursor.slice('after:'.length)) + 1;
        const rows = ids
          .slice(start, start + request.limit)
          .map((id) => ({ id, image: join(imagesDir, id) }));
        const end = start + rows.length;
        return { rows, next: end < ids.length ? `after:${end - 1}` : null };
      },
    };
    return { source, asked };
  }

  it('is asked one page at a time, and gets back exactly the cursor it gave', async () => {
    const ids = Array.from({ length: 25 }, (_, i) => nameOf(i));
    const { source, asked } = hostSource(ids);
    const { get } = spiedGallery(() => [], { source });
    const pages = await walk(get, '/caroulsel/data?limit=10');
    expect(pages.flatMap((body) => body.items.map((item) => item.id))).toEqual(ids);
    expect(asked).toEqual([
      { cursor: null, limit: 10 },
      { cursor: 'after:9', limit: 10 },
      { cursor: 'after:19', limit: 10 },
    ]);
    expect(spy.placeholders).toBe(25);
  });

  it('never hands the host a cursor it did not give, nor one of a whole-list source', async () => {
    const { source, asked } = hostSource([nameOf(0), nameOf(1)]);
    const { get } = spiedGallery(() => [], { source });
    const whole = spiedGallery(folderRows);
    const wholeNext = (await page(whole.get, '/caroulsel/data?limit=1')).body.next ?? '';
    expect(await errorOf(await get(wholeNext))).toMatchObject({
      status: 400,
      message: 'cursor: was given by another kind of gallery source',
    });
    const hostNext = (await page(get, '/caroulsel/data?limit=1')).body.next ?? '';
    expect(await errorOf(await whole.get(hostNext))).toMatchObject({ status: 400, code: 'BAD_QUERY' });
    expect(await errorOf(await get('/caroulsel/data?cursor=after:0'))).toMatchObject({ status: 400 });
    expect(asked).toEqual([{ cursor: null, limit: 1 }]);
  });

  it('takes back every cursor it gives: host cursors of the most characters allowed, whatever they hold', async () => {
    // Each page's cursor is its number and a filler up to the 1,024 characters a source may give:
    // characters JSON escapes to six bytes, to two, three bytes of UTF-8, surrogate pairs.
    const fillers = ['日本語', '\u0001', '\ud800', '"', '😀', 'a'];
    const cursorOf = (n: number) => `${n}:${(fillers[n - 1] ?? '').repeat(1024)}`.slice(0, 1024);
    const asked: (string | null)[] = [];
    const source: PagedGallerySource = {
      async page({ cursor }) {
        asked.push(cursor);
        const n = cursor === null ? 0 : Number(cursor.slice(0, cursor.indexOf(':')));
        return {
          rows: [{ id: nameOf(n), image: join(imagesDir, nameOf(n)) }],
          next: n < fillers.length ? cursorOf(n + 1) : null,
        };
      },
    };
    const { get } = spiedGallery(() => [], { source });
    const pages = await walk(get, '/caroulsel/data?limit=1');
    expect(pages.map((body) => body.items.map((item) => item.id))).toEqual(
      Array.from({ length: fillers.length + 1 }, (_, n) => [nameOf(n)]),
    );
    expect(asked).toEqual([null, ...fillers.map((_, i) => cursorOf(i + 1))]);
    expect(asked.every((cursor) => cursor === null || cursor.length === 1024)).toBe(true);
  });

  it.each([
    [
      'more rows than asked',
      {
        rows: [
          { id: 'a', image: 'x' },
          { id: 'b', image: 'y' },
        ],
        next: null,
      },
      /returned 2 rows for a page of at most 1/,
    ],
    ['no rows array', { items: [], next: null }, /rows: /],
    ['a next that is not text', { rows: [], next: 5 }, /next: /],
  ])('answers 502 when the host returns %s, and logs why', async (_, answer, reason) => {
    const { get, logged } = spiedGallery(() => [], { source: { page: async () => answer as never } });
    expect(await errorOf(await get('/caroulsel/data?limit=1'))).toMatchObject({
      status: 502,
      code: 'GALLERY_UPSTREAM',
    });
    expect(logged[0]).toMatch(reason);
  });
});

describe('a folder of 10,500 images', () => {
  it('walks every page twice and reads each image once: the memo does not thrash', async () => {
    const big = join(dir, 'gallery-paging-images-big');
    await mkdir(big);
    const original = join(SAMPLE_DIR, 'grace_hopper.jpg');
    // Hard links: 10,500 names, one content (the memo is keyed by name, size, time and inode).
    for (let i = 0; i < 10_500; i++) await link(original, join(big, `p-${String(i).padStart(5, '0')}.jpg`));
    const { get } = spiedGallery(folderSource(big));
    const first = await walk(get, '/caroulsel/data?limit=200');
    expect(first.reduce((sum, body) => sum + body.items.length, 0)).toBe(10_500);
    spy.reads = 0;
    spy.placeholders = 0;
    const second = await walk(get, '/caroulsel/data?limit=200');
    expect(second).toEqual(first);
    expect([spy.reads, spy.placeholders]).toEqual([0, 0]);
    // 106 pages and 10,500 files hashed once: room on a loaded machine, not a threshold.
  }, 180_000);
});
