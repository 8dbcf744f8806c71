// What a node pays to find an image it never listed, over a folder of 10,000 images sharing one
// Redis: node A lists every page (storing each item's id under its content hash), then a fresh node
// B, with its own copy of the folder (other inodes, as on another machine), is asked for the last
// image's cold thumbnail, either in A's Redis (it finds the item by id, hashes one image) or in an
// empty one (it walks its folder, hashing every image up to the last). Beside them, the read and
// SHA-256 rate of a 3 MB file, to scale the walk to folders of real photos. Needs the Redis at
// $REDIS_URL (default redis://127.0.0.1:6379). `node --import tsx bench/gallery-index.ts [count]`.
import { createHash, randomBytes } from 'node:crypto';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import sharp from 'sharp';
import { createRedisCache } from '../src/gallery/cache/redis-cache.js';
import { folderSource } from '../src/gallery/folder-source.js';
import { mapBounded } from '../src/gallery/map-bounded.js';
import { createGalleryHandler } from '../src/http/gallery-handler.js';
import { loadLine } from './report.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const SECRET = 'bench-index-secret-0123456789';

function node(folder: string, keyPrefix: string) {
  const redis = new Redis(REDIS_URL, { commandTimeout: 2000 });
  const handler = createGalleryHandler({
    source: folderSource(folder),
    secrets: [SECRET],
    cache: createRedisCache({ redis, keyPrefix }),
    logger: { warn: () => {} },
  });
  return {
    get: (path: string) => handler(new Request(`http://bench.test${path}`)),
    close: () => redis.quit(),
  };
}

/** Milliseconds for node B's first answer to `path`, and its status. */
async function firstAnswer(folder: string, keyPrefix: string, path: string) {
  const b = node(folder, keyPrefix);
  try {
    const started = performance.now();
    const answer = await b.get(path);
    await answer.arrayBuffer();
    return { ms: performance.now() - started, status: answer.status };
  } finally {
    await b.close();
  }
}

/** MB/s of reading and hashing a 3 MB file, as the walk does for each image it has not hashed. */
async function hashRate(dir: string): Promise<number> {
  const file = join(dir, 'photo.bin');
  await writeFile(file, randomBytes(3 * 1024 * 1024));
  const runs = 20;
  const started = performance.now();
  for (let run = 0; run < runs; run += 1)
    createHash('sha256')
      .update(await readFile(file))
      .digest();
  return (runs * 3) / ((performance.now() - started) / 1000);
}

export async function indexRebuild(count = 10_000) {
  const root = await mkdtemp(join(tmpdir(), 'bench-index-'));
  const prefix = `bench:index:${randomBytes(6).toString('hex')}:`;
  const redis = new Redis(REDIS_URL);
  try {
    const folderA = join(root, 'a');
    const folderB = join(root, 'b');
    await mkdir(folderA);
    await mapBounded(
      Array.from({ length: count }, (_, index) => index),
      8,
      async (index) => {
        const png = await sharp({
          create: { width: 8, height: 6, channels: 3, background: { r: index % 256, g: index >> 8, b: 9 } },
        })
          .png()
          .toBuffer();
        await writeFile(join(folderA, `img-${String(index).padStart(5, '0')}.png`), png);
      },
    );
    await cp(folderA, folderB, { recursive: true });
    const a = node(folderA, `${prefix}shared:`);
    let next: string | null = '/caroulsel/data?limit=200';
    let last = '';
    while (next !== null) {
      const page = (await (await a.get(next)).json()) as {
        items: { previewUrl: string }[];
        next: string | null;
      };
      last = page.items.at(-1)?.previewUrl ?? last;
      next = page.next;
    }
    await a.close();
    const walk = await firstAnswer(folderB, `${prefix}empty:`, last);
    const hinted = await firstAnswer(folderB, `${prefix}shared:`, last);
    return { count, walk, hinted, hashMBs: await hashRate(root) };
  } finally {
    const keys = await redis.keys(`${prefix}*`);
    for (let start = 0; start < keys.length; start += 1000)
      await redis.del(...keys.slice(start, start + 1000));
    await redis.quit();
    await rm(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { count, walk, hinted, hashMBs } = await indexRebuild(Number(process.argv[2] ?? 10_000));
  console.log(loadLine());
  console.log(
    `a node's first cold thumbnail of image ${count} of ${count} it never listed: walking its folder ${walk.ms.toFixed(0)} ms (${walk.status}), by the id another node stored ${hinted.ms.toFixed(0)} ms (${hinted.status})`,
  );
  console.log(
    `reading and hashing a 3 MB file: ${hashMBs.toFixed(0)} MB/s (a walk over 10,000 such photos: ~${((10_000 * 3) / hashMBs).toFixed(0)} s)`,
  );
}
