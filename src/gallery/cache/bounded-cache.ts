import { withDeadline } from '../deadline.js';
import type { GalleryLogger } from '../logger.js';
import type { HeldLock, MediaCache } from './media-cache.js';

/** How long the gallery waits for its cache backend on any one call before going on without it. */
export const CACHE_WAIT_MS = 1000;

/**
 * How long the gallery goes on without a backend that kept a read waiting {@link CACHE_WAIT_MS}
 * before it asks again (one read at a time, until one answers in time).
 */
export const CACHE_REST_MS = 5000;

/** The bounds of {@link boundedCache}. */
export interface CacheBounds {
  /** How long one call may take. */
  readonly waitMs: number;
  /** How long calls are skipped after a read did not answer in time, before one read asks again. */
  readonly restMs: number;
}

/** The lock a node takes for itself while the cache is skipped: it makes the rendition, as without a lock. */
const OWN_LOCK: HeldLock = { release: async () => undefined };

/**
 * A cache whose every call answers within `waitMs`: a backend that does not (a Redis reconnecting
 * with its commands queued, stopped, behind a dead link; a disk that hangs) costs an answer at most
 * that long, as a miss or a write not made (each caller already treats a failed call so), never the
 * answer itself. The call left behind settles in the background; its own failure is then nobody's to
 * report.
 *
 * A backend that keeps a read waiting that long (or fails it after half of it: a client timing out
 * by itself, as the Redis cache's does after the same second) is skipped: without that, every call
 * of every request paid the wait again, and a page of the list, which reads and writes the index
 * several times per image, took a minute with Redis stopped. Reads then miss and writes are not made
 * at once, and the generation lock is taken by the node for itself (it makes its renditions, as
 * without a lock, and says nothing more). After `restMs` one read asks the backend again, the
 * others still skipped, until one answers in time. Said once when skipped, once when it answers
 * again. Only a read skips it: a slow write (a large rendition on a slow disk) costs that write.
 * Times are the process's monotonic clock: a system clock set back does not make the rest longer.
 */
export function boundedCache(
  cache: MediaCache,
  logger: GalleryLogger,
  bounds: CacheBounds = { waitMs: CACHE_WAIT_MS, restMs: CACHE_REST_MS },
): MediaCache {
  const { waitMs, restMs } = bounds;
  /** Whether the backend is skipped: a read kept waiting, and none answered in time since. */
  let skipped = false;
  let restingUntil = 0;
  /** Whether a read asks the skipped backend again right now (the others are still skipped). */
  let probing = false;

  const bounded = <T>(pending: Promise<T>, what: string) =>
    withDeadline(
      pending,
      waitMs,
      () => new Error(`the media cache did not answer a ${what} within ${waitMs} ms`),
    );

  function rest(): void {
    if (!skipped) {
      logger.warn(
        `the media cache kept a read waiting ${waitMs} ms or more: going on without it, asking again every ${restMs} ms`,
      );
    }
    skipped = true;
    restingUntil = performance.now() + restMs;
  }

  async function read(key: string) {
    if (skipped && (probing || performance.now() < restingUntil)) return undefined;
    const probe = skipped;
    if (probe) probing = true;
    const started = performance.now();
    try {
      const found = await bounded(cache.get(key), 'read');
      answered(probe);
      return found;
    } catch (error) {
      // A client with a timeout of its own fails the call itself, after the same wait; a call that
      // fails at once (refused, a full disk) is an answer.
      if (performance.now() - started >= waitMs / 2) rest();
      else answered(probe);
      throw error;
    } finally {
      if (probe) probing = false;
    }
  }

  function answered(probe: boolean): void {
    if (!probe || !skipped) return;
    skipped = false;
    logger.warn('the media cache answers in time again');
  }

  const { lock } = cache;
  return {
    get: read,
    set: (key, media) => (skipped ? Promise.resolve() : bounded(cache.set(key, media), 'write')),
    ...(lock === undefined
      ? {}
      : {
          lock: {
            acquire: (key, ttlMs) => (skipped ? Promise.resolve(OWN_LOCK) : lock.acquire(key, ttlMs)),
          },
        }),
    ...(cache.close === undefined ? {} : { close: cache.close.bind(cache) }),
  };
}
