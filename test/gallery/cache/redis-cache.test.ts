import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it, vi } from 'vitest';
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
    const port = await freePort();
    const server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', ''], {
      stdio: 'ignore',
    });
    try {
      const cache = createRedisCache({ redis: `redis://127.0.0.1:${port}`, keyPrefix: `${prefix}frozen:` });
      await waitForAnswer(cache);
      server.kill('SIGSTOP');
      // Without a bound the get would wait for as long as the server stays stopped: past this test.
      await expect(cache.get('k')).rejects.toThrow(/timed out/i);
      server.kill('SIGCONT');
      await cache.close?.();
    } finally {
      server.kill('SIGKILL');
    }
  });
});

/** Until the new server answers (it starts in a few milliseconds; each try is bounded by the client). */
async function waitForAnswer(cache: ReturnType<typeof createRedisCache>): Promise<void> {
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
