import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { parseOption } from '../gallery-errors.js';
import {
  checkCacheKey,
  decodeEntry,
  encodeEntry,
  type GenerationLock,
  type MediaCache,
} from './media-cache.js';

// Deletes the lock only if it still holds this owner's token: a holder whose lock expired (a slow
// generation) must not free the lock another node has taken since.
const RELEASE =
  "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

export const RedisCacheOptions = z.object({
  /** Prepended to every key, so several galleries (or test runs) can share one Redis. */
  keyPrefix: z.string().default('caroulsel:media:'),
  /** Entries expire this many seconds after they are written; Redis's own maxmemory policy bounds the rest. */
  ttlSeconds: z
    .number()
    .int()
    .positive()
    .default(30 * 24 * 3600),
});

/**
 * A media cache shared by several nodes. Pass a connected ioredis client (the host owns it) or a
 * URL (the cache owns the connection and `close()` ends it).
 */
export function createRedisCache(
  options: { redis: Redis | string } & z.input<typeof RedisCacheOptions>,
): MediaCache {
  const { keyPrefix, ttlSeconds } = parseOption(RedisCacheOptions, options, 'redisCache');
  const owned = typeof options.redis === 'string';
  const redis = typeof options.redis === 'string' ? redisClient(options.redis) : options.redis;
  const lock: GenerationLock = {
    async acquire(key, ttlMs) {
      const name = `${keyPrefix}lock:${checkCacheKey(key)}`;
      // A token of this holder's own: the release deletes the lock only while it still holds it.
      const token = randomBytes(16).toString('base64url');
      const taken = await redis.set(name, token, 'PX', Math.max(1, Math.round(ttlMs)), 'NX');
      if (taken !== 'OK') return undefined;
      return {
        async release() {
          await redis.eval(RELEASE, 1, name, token);
        },
      };
    },
  };
  return {
    lock,
    async get(key) {
      const stored = await redis.getBuffer(keyPrefix + checkCacheKey(key));
      return stored === null ? undefined : decodeEntry(stored);
    },
    async set(key, media) {
      await redis.set(keyPrefix + checkCacheKey(key), encodeEntry(media), 'EX', ttlSeconds);
    },
    async close() {
      if (owned) await redis.quit();
    },
  };
}

/**
 * The client of a cache made from a URL. A command gives up after a second rather than wait out a
 * reconnect (the handler bounds its calls too, whatever client it is given). Connection errors are
 * not reported by the client itself: each one reaches the command it fails, which the gallery logs
 * through its logger; without a listener ioredis would print every failed reconnect to stderr.
 */
export function redisClient(url: string): Redis {
  const redis = new Redis(url, { lazyConnect: true, commandTimeout: 1000 });
  redis.on('error', () => undefined);
  return redis;
}
