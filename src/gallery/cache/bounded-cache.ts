import { withDeadline } from '../deadline.js';
import type { GalleryLogger } from '../logger.js';
import type { MediaCache } from './media-cache.js';

/** How long the gallery waits for its cache backend on any one call before going on without it. */
export const CACHE_WAIT_MS = 1000;

/**
 * How long the gallery goes on without a backend that let a call wait out {@link CACHE_WAIT_MS}:
 * its calls are skipped meanwhile (a read is a miss, a write is not made, the lock is not asked),
 * then tried again.
 */
export const CACHE_REST_MS = 5000;

/** The bounds of {@link boundedCache}. */
export interface CacheBounds {
  /** How long one call may take. */
  readonly waitMs: number;
  /** How long calls are skipped after one did not answer in time. */
  readonly restMs: number;
}

/**
 * A cache whose every call answers within `waitMs`: a backend that does not (a Redis reconnecting
 * with its commands queued, stopped, behind a dead link; a disk that hangs) costs an answer at most
 * that long, as a miss or a write not made (each caller already treats a failed call so), never the
 * answer itself. The call left behind settles in the background; its own failure is then nobody's to
 * report.
 *
 * A backend that once let a call wait that long (or fail after half of it: a client timing out by
 * itself, as the Redis cache's does after the same second) is skipped for `restMs` (said once): without that,
 * every call of every request paid the wait again, and a page of the list, which reads and writes
 * the index several times per image, took a minute with Redis stopped. Reads then miss and writes
 * are not made at once, and the generation lock is not asked (each node makes its renditions, as
 * without a lock). A call that fails fast (refused, a full disk) costs little and rests nothing.
 */
export function boundedCache(
  cache: MediaCache,
  logger: GalleryLogger,
  bounds: CacheBounds = { waitMs: CACHE_WAIT_MS, restMs: CACHE_REST_MS },
): MediaCache {
  const { waitMs, restMs } = bounds;
  let restingUntil = 0;
  const resting = () => Date.now() < restingUntil;
  const rest = (what: string) => {
    if (!resting())
      logger.warn(
        `the media cache kept a ${what} waiting ${waitMs} ms or more: going on without it for ${restMs} ms`,
      );
    restingUntil = Date.now() + restMs;
  };
  const bounded = <T>(pending: Promise<T>, what: string): Promise<T> => {
    const started = Date.now();
    return withDeadline(pending, waitMs, () => {
      rest(what);
      return new Error(`the media cache did not answer a ${what} within ${waitMs} ms`);
    }).catch((error: unknown) => {
      // A client with a timeout of its own (the Redis cache's is the same second) fails the call
      // itself, after the same wait.
      if (Date.now() - started >= waitMs / 2) rest(what);
      throw error;
    });
  };
  const { lock } = cache;
  return {
    get: (key) => (resting() ? Promise.resolve(undefined) : bounded(cache.get(key), 'read')),
    set: (key, media) => (resting() ? Promise.resolve() : bounded(cache.set(key, media), 'write')),
    ...(lock === undefined
      ? {}
      : {
          lock: {
            acquire: (key, ttlMs) =>
              resting()
                ? Promise.reject(
                    new Error(`the media cache is skipped for ${restMs} ms after a call that did not answer`),
                  )
                : lock.acquire(key, ttlMs),
          },
        }),
    ...(cache.close === undefined ? {} : { close: cache.close.bind(cache) }),
  };
}
