import { describe, expect, it } from 'vitest';
import type { MediaCache } from '../../../src/gallery/cache/media-cache.js';

/**
 * What every media cache backend promises; each backend's test file runs it against a real store.
 * `open` gives a fresh, empty cache for one test.
 */
export function describeMediaCacheContract(name: string, open: () => Promise<MediaCache>) {
  describe(`${name}: the media cache contract`, () => {
    it('returns what was set, bytes and content type', async () => {
      const cache = await open();
      const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
      await cache.set('abc-thumb', { bytes, contentType: 'image/webp' });
      const got = await cache.get('abc-thumb');
      expect(got?.contentType).toBe('image/webp');
      expect(Buffer.from(got?.bytes ?? [])).toEqual(Buffer.from(bytes));
    });

    it('answers undefined for a key never set', async () => {
      const cache = await open();
      expect(await cache.get('never-set')).toBeUndefined();
    });

    it('keeps keys apart and lets a key be written again', async () => {
      const cache = await open();
      await cache.set('a', { bytes: Buffer.from('first'), contentType: 'image/webp' });
      await cache.set('b', { bytes: Buffer.from('other'), contentType: 'image/png' });
      await cache.set('a', { bytes: Buffer.from('second'), contentType: 'image/webp' });
      expect(Buffer.from((await cache.get('a'))?.bytes ?? []).toString()).toBe('second');
      expect((await cache.get('b'))?.contentType).toBe('image/png');
    });

    it('holds a large entry whole', async () => {
      const cache = await open();
      const bytes = Buffer.alloc(1024 * 1024, 7);
      await cache.set('large', { bytes, contentType: 'image/webp' });
      expect((await cache.get('large'))?.bytes.byteLength).toBe(bytes.length);
    });

    it('refuses keys that could name anything else, writing nothing', async () => {
      const cache = await open();
      for (const key of ['../escape', 'a/b', 'a*', '', 'a b']) {
        await expect(cache.set(key, { bytes: Buffer.from('x'), contentType: 'image/webp' })).rejects.toThrow(
          /not a media cache key/,
        );
        await expect(cache.get(key)).rejects.toThrow(/not a media cache key/);
      }
    });
  });
}
