import { setTimeout as sleep } from 'node:timers/promises';
import type { CachedMedia, GenerationLock, HeldLock } from './cache/media-cache.js';
import { withDeadline } from './deadline.js';
import { reasonOf } from './gallery-errors.js';
import type { GalleryLogger } from './logger.js';

/** The bounds of a generation shared by several nodes. */
export interface SharedGenerationTiming {
  /**
   * How long a node holds a rendition's lock at most (it is released as soon as the rendition is
   * stored; it is taken only once the node has a generation slot, so this bounds one generation).
   */
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

/** A lock call that hangs counts as failed. */
const bounded = <T>(pending: Promise<T>, ms: number): Promise<T> =>
  withDeadline(pending, ms, () => new Error(`the generation lock did not answer within ${ms} ms`));

/** Runs a task in one of this node's generation slots (the gallery's {@link Limiter}). */
export type Slot = <T>(task: () => Promise<T>) => Promise<T>;

// What a node answers in its slot when another node holds the rendition's lock.
const ELSEWHERE = Symbol('made by another node');

/**
 * One generation per rendition across nodes that share a cache with a lock (Redis). A node first
 * takes one of its own generation slots (`slot`), then, in it, the rendition's lock, reads the
 * cache once more and makes the rendition, stores it and frees the lock. The lock is thus held only
 * while the rendition is being made, never while a node waits for a slot: a node with a long queue
 * of its own cannot hold a rendition's lock past its expiry while an idle node waits for it (which
 * then made it a second time). A node that finds the lock taken gives its slot back and looks for
 * the rendition in the cache until it is there; when the lock is free again without it (its holder
 * failed or died), it tries again. Whatever goes wrong with the lock (Redis slow or gone, a wait past
 * `waitMs`) ends in a local generation: an answer never depends on the lock, only the count of
 * generations does.
 *
 * @example
 *   const cache = createRedisCache({ redis: 'redis://127.0.0.1:6379' });
 *   const shared = createSharedGeneration({
 *     lock: cache.lock, read: (key) => cache.get(key), logger: console,
 *     slot: (task) => task(), // the gallery passes its limiter's run: one of its generation slots
 *   });
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
  /** Where `make` runs: one of the node's generation slots (default: at once). */
  readonly slot?: Slot;
  readonly timing?: Partial<SharedGenerationTiming>;
}) {
  const { lock, read, logger } = options;
  const slot: Slot = options.slot ?? ((task) => task());
  const timing = { ...SHARED_GENERATION_TIMING, ...options.timing };
  const stored = (key: string) => read(key).catch(() => undefined);
  /** In a slot: what another node or an earlier request stored while this one waited, or `make`. */
  const storedOrMade = async (key: string, make: () => Promise<CachedMedia>) => (await stored(key)) ?? make();

  /** The lock, `undefined` when another node holds it, or `'failed'` when it cannot be asked. */
  async function take(key: string): Promise<HeldLock | undefined | 'failed'> {
    try {
      return await bounded((lock as GenerationLock).acquire(key, timing.lockMs), timing.callMs);
    } catch (error) {
      logger.warn(`generation lock unavailable, generating here: ${reasonOf(error)}`);
      return 'failed';
    }
  }

  function release(held: HeldLock): void {
    bounded(held.release(), timing.callMs).catch((error: unknown) => {
      logger.warn(`generation lock release failed (it expires by itself): ${reasonOf(error)}`);
    });
  }

  /** In a slot: the rendition made under its lock, or ELSEWHERE when another node holds the lock. */
  async function attempt(key: string, make: () => Promise<CachedMedia>) {
    const before = await stored(key);
    if (before !== undefined) return before;
    const held = await take(key);
    if (held === 'failed') return make();
    if (held === undefined) return ELSEWHERE;
    try {
      // Read again under the lock, right before making: stored by the node that held it just before.
      return await storedOrMade(key, make);
    } finally {
      release(held);
    }
  }

  /**
   * Outside any slot, until `deadline`: the other node's rendition once it is stored, `'free'` once
   * the lock is free again without it, `'failed'` when the lock cannot be asked, `'late'` at the end.
   */
  async function awaitOther(key: string, deadline: number) {
    for (;;) {
      if (Date.now() >= deadline) return 'late' as const;
      await sleep(timing.pollMs);
      const theirs = await stored(key);
      if (theirs !== undefined) return theirs;
      const held = await take(key);
      if (held === 'failed') return 'failed' as const;
      if (held !== undefined) {
        release(held);
        return 'free' as const;
      }
    }
  }

  return {
    /** The rendition for `key`: made here in a slot (`make` stores it), or taken from the node making it. */
    async run(key: string, make: () => Promise<CachedMedia>): Promise<CachedMedia> {
      if (lock === undefined) return slot(() => storedOrMade(key, make));
      const deadline = Date.now() + timing.waitMs;
      for (;;) {
        const made = await slot(() => attempt(key, make));
        if (made !== ELSEWHERE) return made;
        const waited = await awaitOther(key, deadline);
        if (waited === 'late') {
          logger.warn(`waited ${timing.waitMs} ms for another node's rendition, generating here`);
          return slot(() => storedOrMade(key, make));
        }
        if (waited === 'failed') return slot(() => storedOrMade(key, make));
        if (waited !== 'free') return waited;
      }
    },
  };
}
