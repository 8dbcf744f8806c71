import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { boundedCache } from '../../../src/gallery/cache/bounded-cache.js';
import type { GenerationLock, MediaCache } from '../../../src/gallery/cache/media-cache.js';
import { createRedisCache } from '../../../src/gallery/cache/redis-cache.js';
import { freePort } from '../../support/ports.js';
import { listItems, spiedGallery } from '../support/gallery.js';
import { SAMPLE_DIR } from '../support/images.js';
import { describeMediaCacheContract } from './cache-contract.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
// A prefix of our own: engineers and CI runs share this Redis.
const prefix = `test:gallery:${randomBytes(6).toString('hex')}:`;
const redis = new Redis(REDIS_URL);

afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

let run = 0;
describeMediaCacheContract('redis', async () => createRedisCache({ redis, keyPrefix: `${prefix}${run++}:` }));

describe('the Redis cache', () => {
  it('stores under its prefix with an expiry', async () => {
    const cache = createRedisCache({ redis, keyPrefix: `${prefix}ttl:`, ttlSeconds: 120 });
    await cache.set('k', { bytes: Buffer.from('x'), contentType: 'image/webp' });
    const ttl = await redis.ttl(`${prefix}ttl:k`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(120);
  });

  it('lets a second node serve what the first generated', async () => {
    const keyPrefix = `${prefix}nodes:`;
    const rows = () => [{ id: 'photo', image: `${SAMPLE_DIR}grace_hopper.jpg` }];
    const first = spiedGallery(rows, { cache: createRedisCache({ redis, keyPrefix }) });
    const second = spiedGallery(rows, { cache: createRedisCache({ redis, keyPrefix }) });
    const [item] = await listItems(first.get);
    expect((await first.get(item?.previewUrl ?? '')).status).toBe(200);
    expect((await second.get(item?.previewUrl ?? '')).status).toBe(200);
    expect([first.counts.generations, second.counts.generations]).toEqual([1, 0]);
  });

  it('leaves the report of a Redis it cannot reach to the command that failed: nothing printed by the client', async () => {
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const cache = createRedisCache({
        redis: `redis://127.0.0.1:${await freePort()}`,
        keyPrefix: `${prefix}down:`,
      });
      await expect(cache.get('k')).rejects.toThrow(/ECONNREFUSED|timed out/);
      await cache.close?.().catch(() => undefined);
      expect(printed.mock.calls.map((call) => String(call[0]))).toEqual([]);
    } finally {
      printed.mockRestore();
    }
  });

  it('opens and closes a connection of its own from a URL', async () => {
    const cache = createRedisCache({ redis: REDIS_URL, keyPrefix: `${prefix}own:` });
    await cache.set('k', { bytes: Buffer.from('y'), contentType: 'image/png' });
    expect((await cache.get('k'))?.contentType).toBe('image/png');
    await cache.close?.();
  });

  // A Redis that stops answering (frozen, swapped out, behind a dead link): a real redis-server of
  // this test's own, stopped with SIGSTOP, so the shared one is never paused under other tests.
  it('gives up on a command after a second when the Redis it connected to stops answering', async () => {
    await withOwnRedis(async (server) => {
      const cache = createRedisCache({ redis: server.url, keyPrefix: `${prefix}frozen:` });
      await waitForAnswer(cache);
      server.stop();
      // Without a bound the get would wait for as long as the server stays stopped: past this test.
      await expect(cache.get('k')).rejects.toThrow(/timed out/i);
      server.resume();
      await cache.close?.();
    });
  });
});

describe('a gallery whose Redis stops answering', () => {
  it('skips the cache after a read that did not answer, then asks it again with one read at a time', async () => {
    await withOwnRedis(async (server) => {
      const watched = watchedCache(createRedisCache({ redis: server.url, keyPrefix: `${prefix}rest:` }));
      const warned: string[] = [];
      const cache = boundedCache(
        watched.cache,
        { warn: (message) => void warned.push(message) },
        { waitMs: 200, restMs: 300 },
      );
      await waitForAnswer(watched.cache);
      const before = watched.calls();
      server.stop();
      // A write kept waiting costs that write alone: the next read still asks.
      const write = { bytes: Buffer.from('lost'), contentType: 'image/webp' };
      await expect(cache.set('k', write)).rejects.toThrow(
        'the media cache did not answer a write within 200 ms',
      );
      await expect(cache.get('k')).rejects.toThrow('the media cache did not answer a read within 200 ms');
      const asked = watched.calls();
      expect(asked - before).toBe(2);
      // Skipped: a miss, a write not made, the lock the node's own; none reaches the stopped server.
      for (let i = 0; i < 20; i++) expect(await cache.get('k')).toBeUndefined();
      await cache.set('k', { bytes: Buffer.from('skipped'), contentType: 'image/webp' });
      const own = await cache.lock?.acquire('k', 1000);
      expect(own).toBeDefined();
      await own?.release();
      expect(watched.calls()).toBe(asked);
      expect(warned).toEqual([
        'the media cache kept a read waiting 200 ms or more: going on without it, asking again every 300 ms',
      ]);
      // After the rest, one read asks while the others are still skipped: it waits its bound again.
      await new Promise((resolve) => setTimeout(resolve, 350));
      const probe = cache.get('k');
      for (let i = 0; i < 5; i++) expect(await cache.get('k')).toBeUndefined();
      await expect(probe).rejects.toThrow('did not answer a read');
      expect(watched.calls()).toBe(asked + 1);
      server.resume();
      // Once the next rest is over, a read asks again, gets the entry, and the cache is used again.
      let read = await cache.get('k');
      for (let attempt = 0; read === undefined; attempt++) {
        if (attempt >= 100) throw new Error('the cache was never asked again');
        await new Promise((resolve) => setTimeout(resolve, 20));
        read = await cache.get('k');
      }
      // The write kept waiting went on in the background and was made once the server answered; the
      // one made while the cache was skipped never reached it.
      expect(Buffer.from(read.bytes).toString()).toBe('lost');
      expect(warned).toEqual([
        'the media cache kept a read waiting 200 ms or more: going on without it, asking again every 300 ms',
        'the media cache answers in time again',
      ]);
      await cache.close?.();
    });
  });

  // Before, every index read and write of a page (about five per image: its file's hash, its probe,
  // the listed mark) waited out its second: a page of 48 images took a minute.
  it('lists a page and makes a thumbnail without asking it again once one call did not answer', async () => {
    await withOwnRedis(async (server) => {
      const watched = watchedCache(createRedisCache({ redis: server.url, keyPrefix: `${prefix}page:` }));
      await waitForAnswer(watched.cache);
      const rows = () => SAMPLE_IMAGES.map((name) => ({ id: name, image: `${SAMPLE_DIR}${name}` }));
      const gallery = spiedGallery(rows, { cache: watched.cache });
      server.stop();
      const asked = watched.calls();
      const items = await listItems(gallery.get);
      expect(items.map((item) => item.id)).toEqual(SAMPLE_IMAGES);
      // At most the calls under way when the first of them waited out its second: one per image.
      const listing = watched.calls() - asked;
      expect(listing).toBeGreaterThan(0);
      expect(listing).toBeLessThanOrEqual(SAMPLE_IMAGES.length);
      const thumb = await gallery.get(items[0]?.previewUrl ?? '');
      expect(thumb.status).toBe(200);
      expect(thumb.headers.get('content-type')).toBe('image/webp');
      expect(watched.calls() - asked).toBe(listing);
      expect(gallery.counts.generations).toBe(1);
      // Said once, not once per read or per rendition's lock.
      expect(
        gallery.logged.filter((line) => line.startsWith('the media cache kept a read waiting')),
      ).toHaveLength(1);
      expect(gallery.logged.filter((line) => line.includes('generation lock'))).toEqual([]);
      server.resume();
      await watched.cache.close?.();
    });
  });
});

const SAMPLE_IMAGES = readdirSync(SAMPLE_DIR)
  .filter((name) => /\.(jpg|png)$/.test(name))
  .sort();

/** A cache that counts the calls reaching it (reads, writes, lock requests). */
function watchedCache(cache: MediaCache) {
  let calls = 0;
  const lock = cache.lock as GenerationLock;
  const watched: MediaCache = {
    get: (key) => {
      calls += 1;
      return cache.get(key);
    },
    set: (key, media) => {
      calls += 1;
      return cache.set(key, media);
    },
    lock: {
      acquire: (key, ttlMs) => {
        calls += 1;
        return lock.acquire(key, ttlMs);
      },
    },
    close: () => cache.close?.() ?? Promise.resolve(),
  };
  return { cache: watched, calls: () => calls };
}

/**
 * Runs `use` with a redis-server of its own on a free port, which `stop` freezes (SIGSTOP: it holds
 * its connections and answers nothing) and `resume` thaws; killed at the end.
 */
async function withOwnRedis(
  use: (server: { url: string; stop: () => void; resume: () => void }) => Promise<void>,
): Promise<void> {
  const port = await freePort();
  const server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', ''], {
    stdio: 'ignore',
  });
  try {
    await use({
      url: `redis://127.0.0.1:${port}`,
      stop: () => server.kill('SIGSTOP'),
      resume: () => server.kill('SIGCONT'),
    });
  } finally {
    server.kill('SIGKILL');
  }
}

/** Until the new server answers (it starts in a few milliseconds; each try is bounded by the client). */
async function waitForAnswer(cache: MediaCache): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await cache.set('k', { bytes: Buffer.from('z'), contentType: 'image/webp' });
      return;
    } catch (error) {
      if (attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
