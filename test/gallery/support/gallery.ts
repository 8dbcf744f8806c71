import type { CachedMedia, MediaCache } from '../../../src/gallery/cache/media-cache.js';
import type { GallerySource } from '../../../src/gallery/source.js';
import {
  createGalleryHandler,
  type GalleryHandlerOptions,
  type GalleryItem,
} from '../../../src/http/gallery-handler.js';

export const SECRET = 'test-secret-0123456789';
export const BASE = 'http://gallery.test';

/** A cache in memory that counts its reads, so tests can prove a request read nothing. */
export function countingCache() {
  const entries = new Map<string, CachedMedia>();
  const counts = { gets: 0, sets: 0 };
  const cache: MediaCache = {
    async get(key) {
      counts.gets += 1;
      return entries.get(key);
    },
    async set(key, media) {
      counts.sets += 1;
      entries.set(key, media);
    },
  };
  return { cache, counts, entries };
}

/**
 * A {@link countingCache} whose stores of keys matching `held` wait until `release()`: a generation
 * keeps its limiter slot until its rendition is stored, so it stays unfinished, in its slot, for
 * as long as a test needs, however fast the machine is.
 */
export function holdingCache(held: RegExp) {
  const counting = countingCache();
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const cache: MediaCache = {
    get: (key) => counting.cache.get(key),
    set: async (key, media) => {
      if (held.test(key)) await released;
      await counting.cache.set(key, media);
    },
  };
  return { ...counting, cache, release };
}

/**
 * A gallery handler over `rows`, with spies on everything a request could touch: source calls,
 * cache reads, generations, logged reasons.
 */
export function spiedGallery(
  rows: () => readonly unknown[] | Promise<readonly unknown[]>,
  options: Partial<GalleryHandlerOptions> = {},
) {
  const counts = { sourceCalls: 0, generations: 0 };
  const logged: string[] = [];
  const { cache, counts: cacheCounts } = countingCache();
  const source: GallerySource = async () => {
    counts.sourceCalls += 1;
    return rows();
  };
  const handler = createGalleryHandler({
    source,
    secrets: [SECRET],
    cache,
    logger: { warn: (message) => void logged.push(message) },
    onGenerate: () => {
      counts.generations += 1;
    },
    ...options,
  });
  const get = (path: string, init: RequestInit = {}) => handler(new Request(BASE + path, init));
  return { handler, get, counts, cacheCounts, logged };
}

/** An item of `GET /caroulsel/data`, as the handler's own type says. */
export type ListedItem = GalleryItem;

export async function listItems(get: (path: string) => Promise<Response>): Promise<ListedItem[]> {
  const response = await get('/caroulsel/data');
  return ((await response.json()) as { items: ListedItem[] }).items;
}
