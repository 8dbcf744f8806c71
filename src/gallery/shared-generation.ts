import { setTimeout as sleep } from 'node:timers/promises';
import type { CachedMedia, GenerationLock, HeldLock } from './cache/media-cache.js';
import { reasonOf } from './gallery-errors.js';
import type { GalleryLogger } from './logger.js';

/** The bounds of a generation shared by several nodes. */
export interface SharedGenerationTiming {
  /** How long a node holds a rendition's lock at most (it is released as soon as the rendition is stored). */
  readonly lockMs: number;
  /** How long a node waits for another node's rendition before making it itself. */
  readonly waitMs: number;
  /** How often a waiting node looks for the rendition in the cache. */
  readonly pollMs: number;
  /** How long any one lock call may take: Redis slower than that is taken as gone. */
  readonly callMs: number;
}

export const SHARED_GENERATION_TIMING: SharedGenerationTiming = {
  lockMs: 10_000,
  waitMs: 10_000,
  pollMs: 25,
  callMs: 500,
};

/** A promise that rejects after `ms`: a lock call that hangs counts as failed. */
function bounded<T>(pending: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the generation lock did not answer within ${ms} ms`)),
      ms,
    );
    timer.unref?.();
    pending.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/**
 * One generation per rendition across nodes that share a cache with a lock (Redis): the node that
 * takes the rendition's lock makes it and stores it, then frees the lock; the others look for it in
 * the cache until it is there. Whatever goes wrong with the lock (Redis slow or gone, a holder that
 * died and whose lock expires, a wait past `waitMs`) ends in a local generation: an answer never
 * depends on the lock, only the count of generations does.
 *
 * @example
 *   const cache = createRedisCache({ redis: 'redis://127.0.0.1:6379' });
 *   const shared = createSharedGeneration({ lock: cache.lock, read: (key) => cache.get(key), logger: console });
 *   const media = await shared.run('a-rendition-key', async () => {
 *     const made = { bytes: new Uint8Array([1]), contentType: 'image/webp' };
 *     await cache.set('a-rendition-key', made); // stored before the lock is freed
 *     return made;
 *   });
 */
export function createSharedGeneration(options: {
  readonly lock: GenerationLock | undefined;
  /** The cache's read (a miss or a failure are both `undefined` here). */
  readonly read: (key: string) => Promise<CachedMedia | undefined>;
  readonly logger: GalleryLogger;
  readonly timing?: Partial<SharedGenerationTiming>;
}) {
  const { lock, read, logger } = options;
  const timing = { ...SHARED_GENERATION_TIMING, ...options.timing };

  /** The lock, `undefined` when another node holds it, or `'failed'` when it cannot be asked. */
  async function take(key: string): Promise<HeldLock | undefined | 'failed'> {
    try {
      return await bounded((lock as GenerationLock).acquire(key, timing.lockMs), timing.callMs);
    } catch (error) {
      logger.warn(`generation lock unavailable, generating here: ${reasonOf(error)}`);
      return 'failed';
    }
  }

  /** Makes the rendition under the lock, then frees it (after `make` has stored the rendition). */
  async function makeHolding(held: HeldLock, key: string, make: () => Promise<CachedMedia>) {
    try {
      // Stored by the node that held the lock just before: made once, not twice.
      return (await read(key).catch(() => undefined)) ?? (await make());
    } finally {
      bounded(held.release(), timing.callMs).catch((error: unknown) => {
        logger.warn(`generation lock release failed (it expires by itself): ${reasonOf(error)}`);
      });
    }
  }

  return {
    /** The rendition for `key`: made here (`make` stores it), or taken from the node making it. */
    async run(key: string, make: () => Promise<CachedMedia>): Promise<CachedMedia> {
      if (lock === undefined) return make();
      const deadline = Date.now() + timing.waitMs;
      for (;;) {
        const held = await take(key);
        if (held === 'failed') return make();
        if (held !== undefined) return makeHolding(held, key, make);
        if (Date.now() >= deadline) {
          logger.warn(`waited ${timing.waitMs} ms for another node's rendition, generating here`);
          return make();
        }
        await sleep(timing.pollMs);
        const stored = await read(key).catch(() => undefined);
        if (stored !== undefined) return stored;
      }
    },
  };
}
