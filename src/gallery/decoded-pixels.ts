import { createByteLru } from './cache/byte-lru.js';

/** An image decoded once to raw 8-bit sRGB pixels, oriented: what its widths are encoded from. */
export interface DecodedPixels {
  readonly data: Buffer;
  readonly width: number;
  readonly height: number;
  readonly channels: 1 | 2 | 3 | 4;
}

export interface DecodedPixelCacheOptions {
  /** Total pixel bytes held; the least recently used image goes first. 0 holds nothing. */
  readonly maxBytes: number;
  /** How long an image's pixels are held after they are stored, in milliseconds. */
  readonly ttlMs: number;
}

/**
 * Decoded images held for a few seconds, so the sibling widths a page (or the next page) asks for
 * right after the first are encoded from the same decode instead of decoding the source again.
 * Bounded twice: in bytes, because one 1280 px image is several megabytes of raw pixels, and in
 * time, because pixels held after the requests for an image stopped are memory spent on nothing;
 * the timer frees them even when no request comes to notice they are stale.
 */
export function createDecodedPixelCache(options: DecodedPixelCacheOptions) {
  const lru = createByteLru<DecodedPixels>(options.maxBytes);
  const timers = new Map<string, NodeJS.Timeout>();
  const forget = (key: string) => {
    clearTimeout(timers.get(key));
    timers.delete(key);
    lru.delete(key);
  };
  return {
    get: (key: string): DecodedPixels | undefined => lru.get(key),
    /** Holds `pixels` for `ttlMs`, unless they alone exceed the bound (then nothing else is evicted). */
    set(key: string, pixels: DecodedPixels): void {
      if (options.maxBytes === 0) return;
      clearTimeout(timers.get(key));
      timers.delete(key);
      for (const evicted of lru.set(key, pixels, pixels.data.byteLength)) forget(evicted);
      if (lru.get(key) === undefined) return;
      // Unref'd: held pixels must not keep a process alive that has nothing else to do.
      timers.set(key, setTimeout(() => forget(key), options.ttlMs).unref());
    },
    /** Bytes of pixels held now. */
    bytes: (): number => lru.bytes(),
  };
}
