import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import type { CachedMedia, GenerationLock } from '../../src/gallery/cache/media-cache.js';
import { createMemoryCache } from '../../src/gallery/cache/memory-cache.js';
import { createRedisCache } from '../../src/gallery/cache/redis-cache.js';
import { createSharedGeneration } from '../../src/gallery/shared-generation.js';
import { listItems, spiedGallery } from './support/gallery.js';
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
    const started = Date.now();
    expect(await shared.run('hang', make)).toBe(media);
    expect(calls.made).toBe(1);
    expect(Date.now() - started).toBeLessThan(500);
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
