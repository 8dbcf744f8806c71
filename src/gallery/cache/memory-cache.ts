import { z } from 'zod';
import { parseOption } from '../gallery-errors.js';
import { createByteLru } from './byte-lru.js';
import { type CachedMedia, checkCacheKey, type MediaCache } from './media-cache.js';

export const MemoryCacheOptions = z.object({
  /** Total body bytes kept; least recently used entries go first. */
  maxBytes: z
    .number()
    .int()
    .positive()
    .default(32 * 1024 * 1024),
});

/**
 * A media cache in this process's memory, bounded in bytes with least-recently-used eviction.
 * The handler puts one in front of the configured backend, so hot thumbnails are answered without
 * a disk read or a network round trip.
 */
export function createMemoryCache(options: z.input<typeof MemoryCacheOptions> = {}): MediaCache {
  const { maxBytes } = parseOption(MemoryCacheOptions, options, 'memoryCache');
  const entries = createByteLru<CachedMedia>(maxBytes);
  return {
    async get(key) {
      return entries.get(checkCacheKey(key));
    },
    async set(key, media) {
      entries.set(checkCacheKey(key), media, media.bytes.byteLength);
    },
  };
}

/** `front` answers first; a miss there is looked up in `back` and copied to `front`. */
export function layeredCache(front: MediaCache, back: MediaCache): MediaCache {
  return {
    async get(key) {
      const hot = await front.get(key);
      if (hot !== undefined) return hot;
      const stored = await back.get(key);
      if (stored !== undefined) await front.set(key, stored);
      return stored;
    },
    async set(key, media) {
      await Promise.all([front.set(key, media), back.set(key, media)]);
    },
    async close() {
      await Promise.all([front.close?.(), back.close?.()]);
    },
  };
}
