import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { parseOption } from '../errors.js';
import { type CachedMedia, checkCacheKey, decodeEntry, encodeEntry, type MediaCache } from './media-cache.js';

export const DiskCacheOptions = z.object({
  dir: z.string().min(1),
  /** Total bytes kept; the least recently used entries go first when a write would exceed it. */
  maxBytes: z
    .number()
    .int()
    .positive()
    .default(256 * 1024 * 1024),
});
export type DiskCacheOptions = z.input<typeof DiskCacheOptions>;

/** Where the disk cache lives unless told otherwise: a folder of the system's temporary directory. */
export const DEFAULT_CACHE_DIR = join(tmpdir(), 'task-association', '.cache', 'media');

const ENTRY = '.media';
const TEMP = '.tmp';

/**
 * The default media cache: one file per entry in `dir`, bounded in bytes with least-recently-used
 * eviction. A write goes to a temporary file renamed into place, so a crash leaves either the whole
 * entry or none (a left-over temporary file is never read, and is removed at the next start).
 * Recency is tracked in memory; after a restart it starts from the files' modification times.
 */
export function createDiskCache(options: DiskCacheOptions): MediaCache {
  const { dir, maxBytes } = parseOption(DiskCacheOptions, options, 'diskCache');
  // Map order is recency order: the first key is the least recently used.
  const sizes = new Map<string, number>();
  let total = 0;
  let ready: Promise<void> | undefined;

  const fileOf = (key: string) => join(dir, `${checkCacheKey(key)}${ENTRY}`);
  const remember = (key: string, size: number) => {
    total += size - (sizes.get(key) ?? 0);
    sizes.delete(key);
    sizes.set(key, size);
  };

  async function load(): Promise<void> {
    await mkdir(dir, { recursive: true });
    const found: { key: string; size: number; mtimeMs: number }[] = [];
    for (const name of await readdir(dir)) {
      if (name.endsWith(TEMP)) {
        await unlink(join(dir, name)).catch(() => undefined);
      } else if (name.endsWith(ENTRY)) {
        const info = await stat(join(dir, name)).catch(() => undefined);
        if (info !== undefined)
          found.push({ key: name.slice(0, -ENTRY.length), size: info.size, mtimeMs: info.mtimeMs });
      }
    }
    for (const entry of found.sort((a, b) => a.mtimeMs - b.mtimeMs)) remember(entry.key, entry.size);
    await evict();
  }

  async function evict(): Promise<void> {
    while (total > maxBytes) {
      const oldest = sizes.keys().next().value;
      if (oldest === undefined) return;
      total -= sizes.get(oldest) ?? 0;
      sizes.delete(oldest);
      await unlink(fileOf(oldest)).catch(() => undefined);
    }
  }

  const start = () => {
    ready ??= load();
    return ready;
  };

  return {
    async get(key) {
      const file = fileOf(key);
      await start();
      const stored = await readFile(file).catch(() => undefined);
      const media = stored === undefined ? undefined : decodeEntry(stored);
      if (media === undefined || stored === undefined) {
        if (sizes.has(key)) {
          total -= sizes.get(key) ?? 0;
          sizes.delete(key);
        }
        return undefined;
      }
      remember(key, stored.length);
      return media;
    },
    async set(key, media: CachedMedia) {
      const file = fileOf(key);
      await start();
      const stored = encodeEntry(media);
      // An entry larger than the whole cache would only evict everything else and then itself.
      if (stored.length > maxBytes) return;
      const temp = join(dir, `${key}.${randomBytes(6).toString('hex')}${TEMP}`);
      await writeFile(temp, stored);
      await rename(temp, file);
      remember(key, stored.length);
      await evict();
    },
  };
}
