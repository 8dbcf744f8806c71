import { describe, expect, it } from 'vitest';
import { createMemoryCache, layeredCache } from '../../../src/gallery/cache/memory-cache.js';
import { countingCache } from '../support/gallery.js';
import { describeMediaCacheContract } from './cache-contract.js';

describeMediaCacheContract('memory', async () => createMemoryCache());

const entry = (size: number) => ({ bytes: Buffer.alloc(size, 1), contentType: 'image/webp' });

describe('the memory cache', () => {
  it('evicts the least recently used entries beyond its size', async () => {
    const cache = createMemoryCache({ maxBytes: 3000 });
    await cache.set('a', entry(1000));
    await cache.set('b', entry(1000));
    await cache.set('c', entry(1000));
    await cache.get('a');
    await cache.set('d', entry(1000));
    expect(await cache.get('b')).toBeUndefined();
    expect(
      await Promise.all(['a', 'c', 'd'].map(async (key) => (await cache.get(key)) !== undefined)),
    ).toEqual([true, true, true]);
  });
});

describe('layeredCache', () => {
  it('answers from the front, fills it from the back, and writes both', async () => {
    const front = countingCache();
    const back = countingCache();
    const cache = layeredCache(front.cache, back.cache);
    await back.cache.set('old', entry(10));
    expect((await cache.get('old'))?.bytes.byteLength).toBe(10);
    expect(front.entries.has('old')).toBe(true);
    await cache.get('old');
    expect(back.counts.gets).toBe(1);
    await cache.set('new', entry(20));
    expect([front.entries.has('new'), back.entries.has('new')]).toEqual([true, true]);
    expect(await cache.get('missing')).toBeUndefined();
  });
});
