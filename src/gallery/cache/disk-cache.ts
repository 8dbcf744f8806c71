import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { z } from 'zod';
import { GalleryConfigError, parseOption } from '../gallery-errors.js';
import { createByteLru } from './byte-lru.js';
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

/**
 * The user's own cache folder (`$XDG_CACHE_HOME`, else `~/.cache`), not the shared temporary
 * directory: there the keys are predictable and another user could plant entries before us.
 */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg !== undefined && isAbsolute(xdg) ? xdg : join(homedir(), '.cache');
  return join(base, 'task-association', 'media');
}

/** Where the disk cache lives unless told otherwise (see {@link defaultCacheDir}). */
export const DEFAULT_CACHE_DIR = defaultCacheDir();

/**
 * Creates the cache folder for this user only (mode 0700) and refuses one owned by another user or
 * that other users may write in (`/tmp`, a group's folder): whoever can write there chooses the
 * bytes and Content-Type the gallery serves.
 */
export async function openCacheDir(dir: string): Promise<void> {
  const path = 'diskCache.dir';
  await mkdir(dir, { recursive: true, mode: 0o700 }).catch((error: unknown) => {
    throw new GalleryConfigError(
      'GALLERY_CACHE_DIR',
      `cannot create the media cache folder ${dir}: ${(error as Error).message}`,
      { path, cause: error },
    );
  });
  const info = await stat(dir);
  if (!info.isDirectory()) {
    throw new GalleryConfigError('GALLERY_CACHE_DIR', `the media cache folder ${dir} is not a folder`, {
      path,
    });
  }
  const uid = process.getuid?.();
  if (uid !== undefined && info.uid !== uid) {
    throw new GalleryConfigError(
      'GALLERY_CACHE_DIR',
      `the media cache folder ${dir} belongs to another user (uid ${info.uid}, we are ${uid}): ` +
        'its entries could be planted; use a folder of your own (--cache DIR or the cache option)',
      { path },
    );
  }
  // Group or others may add files (a sticky bit stops them removing ours, not adding their own).
  // POSIX only, as the owner's check: elsewhere the mode's bits mean nothing.
  if (uid !== undefined && (info.mode & 0o022) !== 0) {
    throw new GalleryConfigError(
      'GALLERY_CACHE_DIR',
      `the media cache folder ${dir} can be written by other users (mode ${(info.mode & 0o7777).toString(8)}): ` +
        `its entries could be planted; use a folder only you can write (chmod 700 ${dir})`,
      { path },
    );
  }
}

const ENTRY = '.media';
const TEMP = '.tmp';
/** A temporary file of ours ({@link createDiskCache}'s `write`): a key, six random bytes in hex. */
const OUR_TEMP = /^[A-Za-z0-9_-]{1,200}\.[0-9a-f]{12}\.tmp$/;

/**
 * The default media cache: one file per entry in `dir`, bounded in bytes with least-recently-used
 * eviction. A write goes to a temporary file renamed into place, so a crash leaves either the whole
 * entry or none (a left-over temporary file is never read, and is removed at the next start).
 * Recency is tracked in memory; after a restart it starts from the files' modification times.
 * The folder is made and checked by {@link openCacheDir} at the first read or write.
 */
export function createDiskCache(options: DiskCacheOptions): MediaCache {
  const { dir, maxBytes } = parseOption(DiskCacheOptions, options, 'diskCache');
  // Only sizes are kept in memory; the bytes stay in the files.
  const lru = createByteLru<null>(maxBytes);
  let ready: Promise<void> | undefined;

  const fileOf = (key: string) => join(dir, `${checkCacheKey(key)}${ENTRY}`);
  /** Counts the entry as the most recent and deletes the files of the entries that makes too many. */
  const remember = async (key: string, size: number) => {
    for (const evicted of lru.set(key, null, size)) await unlink(fileOf(evicted)).catch(() => undefined);
  };

  async function load(): Promise<void> {
    await openCacheDir(dir);
    const found: { key: string; size: number; mtimeMs: number }[] = [];
    for (const name of await readdir(dir)) {
      // Only a temporary file a write of ours left (a crash): another program's are not ours to remove.
      if (OUR_TEMP.test(name)) {
        await unlink(join(dir, name)).catch(() => undefined);
      } else if (name.endsWith(ENTRY)) {
        const info = await stat(join(dir, name)).catch(() => undefined);
        if (info !== undefined)
          found.push({ key: name.slice(0, -ENTRY.length), size: info.size, mtimeMs: info.mtimeMs });
      }
    }
    for (const entry of found.sort((a, b) => a.mtimeMs - b.mtimeMs)) await remember(entry.key, entry.size);
  }

  const start = () => {
    // A folder refused (or not made) is checked again at the next call: put right (`chmod 700`),
    // it is used without a restart.
    ready ??= load().catch((error: unknown) => {
      ready = undefined;
      throw error;
    });
    return ready;
  };

  /** Writes a temporary file and renames it into place: a reader sees the whole entry or none. */
  async function write(file: string, stored: Buffer): Promise<void> {
    const temp = `${file.slice(0, -ENTRY.length)}.${randomBytes(6).toString('hex')}${TEMP}`;
    try {
      await writeFile(temp, stored);
      await rename(temp, file);
    } catch (error) {
      // A write that failed (a full disk) leaves no temp file taking room the byte count never sees.
      await unlink(temp).catch(() => undefined);
      throw error;
    }
  }

  return {
    async get(key) {
      const file = fileOf(key);
      await start();
      const stored = await readFile(file).catch(() => undefined);
      const media = stored === undefined ? undefined : decodeEntry(stored);
      if (media === undefined || stored === undefined) {
        lru.delete(key);
        // A damaged entry (cut by a full disk, edited by hand) is removed: it would never be read
        // again, yet keep taking room the byte count no longer sees.
        if (stored !== undefined) await unlink(file).catch(() => undefined);
        return undefined;
      }
      await remember(key, stored.length);
      return media;
    },
    async set(key, media: CachedMedia) {
      const file = fileOf(key);
      await start();
      const stored = encodeEntry(media);
      // An entry larger than the whole cache would only evict everything else and then itself.
      if (stored.length > maxBytes) return;
      try {
        await write(file, stored);
      } catch (error) {
        // The folder was removed while the gallery ran (a cache cleaner, an operator): made again,
        // checked as at the start, else every write failed until a restart.
        if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
        await openCacheDir(dir);
        await write(file, stored);
      }
      await remember(key, stored.length);
    },
  };
}
