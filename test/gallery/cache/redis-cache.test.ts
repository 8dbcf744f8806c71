import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createRedisCache } from '../../../src/gallery/cache/redis-cache.js';
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

  it('opens and closes a connection of its own from a URL', async () => {
    const cache = createRedisCache({ redis: REDIS_URL, keyPrefix: `${prefix}own:` });
    await cache.set('k', { bytes: Buffer.from('y'), contentType: 'image/png' });
    expect((await cache.get('k'))?.contentType).toBe('image/png');
    await cache.close?.();
  });
});
