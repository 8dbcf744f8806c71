import { randomBytes } from 'node:crypto';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MediaCache } from '../../src/gallery/cache/media-cache.js';
import { createRedisCache } from '../../src/gallery/cache/redis-cache.js';
import { folderSource } from '../../src/gallery/folder-source.js';
import { type ListedItem, spiedGallery } from './support/gallery.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
// A prefix of our own: engineers and CI runs share this Redis.
const prefix = `test:shared-index:${randomBytes(6).toString('hex')}:`;
const redis = new Redis(REDIS_URL);
const clients: Redis[] = [];
// Past two walk slices of 200 (the largest page).
const IMAGES = 401;
let root: string;
// Each node has its own copy of the images (other inodes), as nodes on separate machines do.
let folderA: string;
let folderB: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'gallery-shared-index-'));
  folderA = join(root, 'a');
  folderB = join(root, 'b');
  await mkdir(folderA);
  await Promise.all(
    Array.from({ length: IMAGES }, async (_, index) => {
      const png = await sharp({
        create: { width: 8, height: 6, channels: 3, background: { r: index % 256, g: index >> 8, b: 77 } },
      })
        .png()
        .toBuffer();
      await writeFile(join(folderA, `img-${String(index).padStart(4, '0')}.png`), png);
    }),
  );
  await cp(folderA, folderB, { recursive: true });
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.quit()));
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
  await rm(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
});

/** A node: a gallery over `folder` whose cache is the shared Redis under `keyPrefix`, on its own connection. */
function node(folder: string, keyPrefix: string, cache?: MediaCache) {
  const client = new Redis(REDIS_URL);
  clients.push(client);
  const source = folderSource(folder);
  return spiedGallery(() => source(), { cache: cache ?? createRedisCache({ redis: client, keyPrefix }) });
}

/**
 * The images whose hash a node stored under `keyPrefix` (`f` and a digest of path, size, time and
 * inode): one per image the nodes hashed, the count that says whether a node walked its folder.
 */
async function hashedImages(keyPrefix: string): Promise<number> {
  const keys = await redis.keys(`${keyPrefix}f*`);
  return keys.filter((key) => /^f[A-Za-z0-9_-]{16}$/.test(key.slice(keyPrefix.length))).length;
}

/** Every item, page after page of 200. */
async function listAll(get: (path: string) => Promise<Response>): Promise<ListedItem[]> {
  const items: ListedItem[] = [];
  let next: string | null = '/caroulsel/data?limit=200';
  while (next !== null) {
    const page = (await (await get(next)).json()) as { items: ListedItem[]; next: string | null };
    items.push(...page.items);
    next = page.next;
  }
  return items;
}

describe('the media index shared through the Redis cache', () => {
  it('lets a node serve an image another node listed by hashing that one image, not its whole folder', async () => {
    const keyPrefix = `${prefix}shared:`;
    const a = node(folderA, keyPrefix);
    const last = (await listAll(a.get)).at(-1) as ListedItem;
    expect(last.id).toBe(`img-0${IMAGES - 1}.png`);
    expect(await hashedImages(keyPrefix)).toBe(IMAGES);
    const b = node(folderB, keyPrefix);
    const answer = await b.get(last.previewUrl);
    expect(answer.status).toBe(200);
    // B's copy of the image has another inode: one hash of its own, found by the item's id.
    expect(await hashedImages(keyPrefix)).toBe(IMAGES + 1);
    expect(b.counts.sourceCalls).toBe(1);
  }, 60_000);

  it('serves every image of a page another node listed, one request after another, by their stored ids', async () => {
    const keyPrefix = `${prefix}page:`;
    const a = node(folderA, keyPrefix);
    const page = (await (await a.get('/caroulsel/data?limit=6')).json()) as { items: ListedItem[] };
    const b = node(folderB, keyPrefix);
    // Each thumbnail once the one before is answered, as a browser on a slow link asks them: no
    // lookup may wait for, or be refused by, the one before it.
    const statuses: number[] = [];
    for (const item of page.items) statuses.push((await b.get(item.previewUrl)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
    // A's six hashes and B's own six (its copies have other inodes): B walked nothing.
    expect(await hashedImages(keyPrefix)).toBe(12);
    // The six lookups shared one read of B's source.
    expect(b.counts.sourceCalls).toBe(1);
  }, 60_000);

  it('walks its source, read once, when no node listed the image in that Redis', async () => {
    const listed = (await listAll(node(folderA, `${prefix}walk-a:`).get)).at(-1) as ListedItem;
    const b = node(folderB, `${prefix}walk-b:`);
    expect((await b.get(listed.previewUrl)).status).toBe(200);
    // Every image up to the last hashed, from one read of the list.
    expect(await hashedImages(`${prefix}walk-b:`)).toBe(IMAGES);
    expect(b.counts.sourceCalls).toBe(1);
  }, 60_000);

  it('takes the stored id as a hint only: an item whose copy on this node differs is not served for it', async () => {
    const keyPrefix = `${prefix}differs:`;
    const folderC = join(root, 'c');
    await cp(folderA, folderC, { recursive: true });
    const name = `img-${String(IMAGES - 1).padStart(4, '0')}.png`;
    const listed = (await listAll(node(folderA, keyPrefix).get)).at(-1) as ListedItem;
    // The same name on node C holds other pixels: the token names A's content, which C does not have.
    await writeFile(
      join(folderC, name),
      await sharp({ create: { width: 8, height: 6, channels: 3, background: '#fff' } })
        .png()
        .toBuffer(),
    );
    const c = node(folderC, keyPrefix);
    const answer = await c.get(listed.previewUrl);
    expect(answer.status).toBe(404);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('MEDIA_NOT_FOUND');
    // The hinted image, then the walk through the rest, which did not find the content either.
    expect(c.counts.sourceCalls).toBe(1);
  }, 60_000);

  it('walks its source when the Redis cannot be read (gone or slow)', async () => {
    const listed = (await listAll(node(folderA, `${prefix}gone:`).get)).at(-1) as ListedItem;
    const gone: MediaCache = {
      get: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379')),
      set: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379')),
    };
    const b = node(folderB, `${prefix}gone:`, gone);
    expect((await b.get(listed.previewUrl)).status).toBe(200);
    expect(b.counts.sourceCalls).toBe(1);
    expect(b.logged).toContain('gallery index read failed: connect ECONNREFUSED 127.0.0.1:6379');
  }, 60_000);
});
