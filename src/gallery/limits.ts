import { z } from 'zod';

/** What the gallery accepts and produces; every field has a default documented in the README. */
export const GalleryLimits = z.strictObject({
  /** Largest source image accepted, in bytes. */
  maxInputBytes: z
    .number()
    .int()
    .positive()
    .default(25 * 1024 * 1024),
  /** Largest source image accepted, in pixels (width × height): stops decompression bombs from the header. */
  maxInputPixels: z.number().int().positive().default(40_000_000),
  /** Thumbnails fit inside this many pixels square (WebP). */
  thumbSize: z.number().int().min(16).max(2048).default(320),
  /**
   * Widths of the responsive renditions (`/w<width>`) an item's `srcset` offers beside its
   * thumbnail, in pixels: only those not wider than the source are offered. `[]` offers the
   * thumbnail alone.
   */
  srcsetWidths: z
    .array(z.number().int().min(16).max(4096))
    .max(8)
    .default([320, 640, 960, 1280])
    .transform((widths) => [...new Set(widths)].sort((a, b) => a - b)),
  /** Full images fit inside this many pixels square (WebP), never enlarged. */
  fullSize: z.number().int().min(64).max(8192).default(2048),
  /** Renditions kept in this process's memory in front of the cache backend, in bytes (0: none). */
  memoryCacheBytes: z
    .number()
    .int()
    .nonnegative()
    .default(32 * 1024 * 1024),
  /**
   * Decoded pixels kept in this process's memory for a few seconds, in bytes, so the widths of an
   * image asked for one after the other share one decode (0: every width decodes its source).
   */
  decodedCacheBytes: z
    .number()
    .int()
    .nonnegative()
    .default(32 * 1024 * 1024),
  /** Image generations running at once. */
  concurrency: z.number().int().positive().default(2),
  /** Generations waiting for a slot; beyond this the answer is 503 with Retry-After. */
  queueSize: z.number().int().nonnegative().default(64),
  /**
   * How long one call of the host's source (its rows, a page of them), or the reading of one of its
   * images while looking for a token, may take, in milliseconds; beyond it the answer is a 504.
   */
  sourceTimeoutMs: z.number().int().min(1).max(600_000).default(10_000),
});
export type GalleryLimits = z.infer<typeof GalleryLimits>;
export type GalleryLimitsInput = z.input<typeof GalleryLimits>;
