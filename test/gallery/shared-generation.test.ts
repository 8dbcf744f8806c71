import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import type { CachedMedia, GenerationLock, MediaCache } from '../../src/gallery/cache/media-cache.js';
import { createMemoryCache } from '../../src/gallery/cache/memory-cache.js';
import { createRedisCache } from '../../src/gallery/cache/redis-cache.js';
import { createLimiter } from '../../src/gallery/limiter.js';
import { createSharedGeneration } from '../../src/gallery/shared-generation.js';
import { type ListedItem, listItems, spiedGallery } from './support/gallery.js';
import { SAMPLE_DIR } from './support/images.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
// A prefix of our own: engineers and CI runs share this Redis.
const prefix = `test:shared-generation:${randomBytes(6).toString('hex')}:`;
const redis = new Redis(REDIS_URL);

afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

const rows = () => [{ id: 'photo', image: `${SAMPLE_DIR}grace_hopper.jpg` }];
const media: CachedMedia = { bytes: Buffer.from('made'), contentType: 'image/webp' };

/** The start of a thumbnail's cache keys: its content hash (the start of its URL's token) and `-thumb-`. */
const thumbKeyOf = (mediaUrl: string) => `${(mediaUrl.split('/')[3] ?? '').slice(0, 22)}-thumb-`;

/**
 * A cache that says when keys starting with a prefix have been read `count` times, and keeps the
 * lock calls it was asked for (to wait for them).
 */
function watchedCache(cache: MediaCache) {
  const reads: string[] = [];
  const waiters: { prefix: string; count: number; done: () => void }[] = [];
  const acquiring: Promise<unknown>[] = [];
  const lock = cache.lock as GenerationLock;
  const watched: MediaCache = {
    async get(key) {
      const found = await cache.get(key);
      reads.push(key);
      for (const { prefix, count, done } of waiters) {
        if (reads.filter((read) => read.startsWith(prefix)).length >= count) done();
      }
      return found;
    },
    set: (key, media) => cache.set(key, media),
    lock: {
      acquire(key, ttlMs) {
        const taken = lock.acquire(key, ttlMs);
        acquiring.push(taken);
        return taken;
      },
    },
  };
  return {
    cache: watched,
    acquiring,
    reads: (prefix: string, count: number) =>
      new Promise<void>((done) => {
        waiters.push({ prefix, count, done });
      }),
  };
}

/** A generation that counts its calls. */
function counted() {
  const calls = { made: 0 };
  const make = async () => {
    calls.made += 1;
    return media;
  };
  return { calls, make };
}

describe('one generation across nodes sharing a Redis', () => {
  it('makes a cold rendition once for 100 concurrent requests over three nodes', async () => {
    const keyPrefix = `${prefix}three:`;
    // Three handlers with a Redis cache each, as three processes have (their own connections).
    const clients = [new Redis(REDIS_URL), new Redis(REDIS_URL), new Redis(REDIS_URL)];
    const nodes = clients.map((client) =>
      spiedGallery(rows, { cache: createRedisCache({ redis: client, keyPrefix }) }),
    );
    try {
      const [item] = await listItems(nodes[0]?.get ?? (() => Promise.reject(new Error('no node'))));
      const path = item?.previewUrl ?? '';
      const answers = await Promise.all(
        Array.from({ length: 100 }, async (_, index) => {
          const answer = await nodes[index % 3]?.get(path);
          return [answer?.status, Buffer.from((await answer?.arrayBuffer()) ?? new ArrayBuffer(0))] as const;
        }),
      );
      expect(answers.map(([status]) => status)).toEqual(answers.map(() => 200));
      expect(new Set(answers.map(([, body]) => body.toString('base64'))).size).toBe(1);
      expect(nodes.map((node) => node.counts.generations).reduce((a, b) => a + b)).toBe(1);
      // The lock is gone once the rendition is stored.
      expect(await redis.keys(`${keyPrefix}lock:*`)).toEqual([]);
    } finally {
      await Promise.all(clients.map((client) => client.quit()));
    }
  });

  it('takes the lock only in a generation slot: a node queued behind its own work holds none, and the idle node makes the rendition once', async () => {
    const keyPrefix = `${prefix}queued:`;
    const dir = await mkdtemp(join(tmpdir(), 'gallery-shared-generation-'));
    const [blockerFile, targetFile] = [join(dir, 'blocker.png'), join(dir, 'target.png')];
    const png = (background: string) =>
      sharp({ create: { width: 60, height: 40, channels: 3, background } })
        .png()
        .toBuffer();
    const blockerBytes = await png('#c30');
    await writeFile(blockerFile, blockerBytes);
    await writeFile(targetFile, await png('#03c'));
    const rows = () => [
      { id: 'blocker', image: blockerFile },
      { id: 'target', image: targetFile },
    ];
    const [clientA, clientB] = [new Redis(REDIS_URL), new Redis(REDIS_URL)];
    // Node A's cache says when the target's thumbnail is read, and A's lock when it is asked for.
    const watched = watchedCache(createRedisCache({ redis: clientA, keyPrefix }));
    // One slot on A: the blocker's generation holds it for as long as the test wants.
    const a = spiedGallery(rows, { cache: watched.cache, limits: { concurrency: 1 } });
    const b = spiedGallery(rows, { cache: createRedisCache({ redis: clientB, keyPrefix }) });
    try {
      const [blocker, target] = (await listItems(a.get)) as [ListedItem, ListedItem];
      const targetKey = thumbKeyOf(target.previewUrl);
      // The blocker's file becomes a pipe: A's read of it, in A's only slot, waits for the test.
      await rm(blockerFile);
      execFileSync('mkfifo', [blockerFile]);
      const aBlocker = a.get(blocker.previewUrl);
      const pipe = await open(blockerFile, 'w'); // opened once A reads it: A's slot is taken
      const targetRead = watched.reads(targetKey, 2);
      const aTarget = a.get(target.previewUrl);
      // A's request for the target has read the cache twice (its miss, then its flight's): it is
      // now queued for A's slot, and any lock A asked for on the way is taken.
      await targetRead;
      await new Promise((resolve) => setImmediate(resolve));
      await Promise.all(watched.acquiring);
      const bTarget = await b.get(target.previewUrl);
      expect(bTarget.status).toBe(200);
      const made = Buffer.from(await bTarget.arrayBuffer());
      // Made by B while A's slot was still held: B did not wait for A.
      expect([a.counts.generations, b.counts.generations]).toEqual([0, 1]);
      await pipe.writeFile(blockerBytes);
      await pipe.close();
      expect((await aBlocker).status).toBe(200);
      const aAnswer = await aTarget;
      expect(aAnswer.status).toBe(200);
      expect(Buffer.from(await aAnswer.arrayBuffer())).toEqual(made);
      // A made its blocker only: the target was read from the cache in A's slot, not made again.
      expect([a.counts.generations, b.counts.generations]).toEqual([1, 1]);
    } finally {
      await Promise.all([clientA.quit(), clientB.quit()]);
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('releases only its own lock: one that expired and was taken by another node stays', async () => {
    const cache = createRedisCache({ redis, keyPrefix: `${prefix}owner:` });
    const first = await cache.lock?.acquire('k', 50);
    expect(first).toBeDefined();
    expect(await cache.lock?.acquire('k', 50)).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 80));
    const second = await cache.lock?.acquire('k', 5000);
    expect(second).toBeDefined();
    await first?.release();
    expect(await redis.exists(`${prefix}owner:lock:k`)).toBe(1);
    await second?.release();
    expect(await redis.exists(`${prefix}owner:lock:k`)).toBe(0);
  });
});

describe('createSharedGeneration falls back to a local generation', () => {
  const logger = {
    warned: [] as string[],
    warn(message: string) {
      this.warned.push(message);
    },
  };
  const cache = createMemoryCache();

  it('when the lock hangs (a Redis that stopped answering)', async () => {
    const hanging: GenerationLock = { acquire: () => new Promise(() => {}) };
    const shared = createSharedGeneration({ lock: hanging, read: cache.get, logger, timing: { callMs: 30 } });
    const { calls, make } = counted();
    // Without the bound this never resolves (the test's own timeout would end it, failed).
    expect(await shared.run('hang', make)).toBe(media);
    expect(calls.made).toBe(1);
    expect(logger.warned.at(-1)).toMatch(/generation lock unavailable, generating here: .*within 30 ms/);
  });

  it('when the lock fails (Redis gone)', async () => {
    const gone: GenerationLock = { acquire: () => Promise.reject(new Error('connect ECONNREFUSED')) };
    const shared = createSharedGeneration({ lock: gone, read: cache.get, logger });
    const { calls, make } = counted();
    expect(await shared.run('gone', make)).toBe(media);
    expect(calls.made).toBe(1);
  });

  it('when another node holds the lock past the wait bound (it died mid-generation)', async () => {
    const heldElsewhere: GenerationLock = { acquire: async () => undefined };
    const shared = createSharedGeneration({
      lock: heldElsewhere,
      read: cache.get,
      logger,
      timing: { waitMs: 60, pollMs: 10 },
    });
    const { calls, make } = counted();
    expect(await shared.run('dead', make)).toBe(media);
    expect(calls.made).toBe(1);
    expect(logger.warned.at(-1)).toMatch(/waited 60 ms for another node's rendition/);
  });

  it('waits for the other node’s rendition outside its slot: the slot serves other work meanwhile', async () => {
    const heldElsewhere: GenerationLock = { acquire: async () => undefined };
    const limiter = createLimiter({ concurrency: 1, queueSize: 4 });
    const shared = createSharedGeneration({
      lock: heldElsewhere,
      read: cache.get,
      logger,
      slot: limiter.run,
      timing: { pollMs: 5 },
    });
    const { calls, make } = counted();
    const waiting = shared.run('theirs-later', make);
    // The node's only slot is free while it waits: other work runs in it.
    expect(await limiter.run(async () => 'other work')).toBe('other work');
    await cache.set('theirs-later', media);
    expect((await waiting).bytes).toEqual(media.bytes);
    expect(calls.made).toBe(0);
  });

  it('takes the other node’s rendition from the cache as soon as it is there, making none', async () => {
    const heldElsewhere: GenerationLock = { acquire: async () => undefined };
    const shared = createSharedGeneration({
      lock: heldElsewhere,
      read: cache.get,
      logger,
      timing: { pollMs: 5 },
    });
    setTimeout(() => void cache.set('theirs', media), 30);
    const { calls, make } = counted();
    expect((await shared.run('theirs', make)).bytes).toEqual(media.bytes);
    expect(calls.made).toBe(0);
  });
});
