import { withDeadline } from '../deadline.js';
import type { MediaCache } from './media-cache.js';

/** How long the gallery waits for its cache backend on any one call before going on without it. */
export const CACHE_WAIT_MS = 1000;

/**
 * A cache whose every call answers within `ms`: a backend that does not (a Redis reconnecting with
 * its commands queued, a disk that hangs) costs an answer at most that long, as a miss or a write
 * not made (each caller already treats a failed call so), never the answer itself. The call left
 * behind settles in the background; its own failure is then nobody's to report.
 */
export function boundedCache(cache: MediaCache, ms = CACHE_WAIT_MS): MediaCache {
  const bounded = <T>(pending: Promise<T>, what: string) =>
    withDeadline(pending, ms, () => new Error(`the media cache did not answer a ${what} within ${ms} ms`));
  return {
    get: (key) => bounded(cache.get(key), 'read'),
    set: (key, media) => bounded(cache.set(key, media), 'write'),
    ...(cache.close === undefined ? {} : { close: cache.close.bind(cache) }),
  };
}
