import { readFile, stat } from 'node:fs/promises';
import { match } from 'ts-pattern';
import { GalleryConfigError, GalleryMediaError, reasonOf } from './errors.js';
import type { ImageInput } from './image-input.js';
import { type ImageInfo, probeImage, tooManyBytes } from './image-pipeline.js';
import type { GalleryLimits } from './limits.js';
import type { GalleryLogger } from './logger.js';
import { mapBounded } from './map-bounded.js';
import { placeholderOf } from './placeholder.js';
import { createSingleFlight } from './single-flight.js';
import { type GallerySource, normaliseRows, type SourceColumns, type SourceItem } from './source.js';
import { type ContentHash, contentHash } from './token.js';

/** An image's content hash, and how to get its bytes when they are needed (a file is not kept read). */
interface Hashed {
  readonly hash: ContentHash;
  load(): Promise<Uint8Array | undefined>;
}

/** What is known of an image that can be listed: its displayed size and a ThumbHash placeholder. */
export interface ListedImage extends ImageInfo {
  readonly placeholder: string;
}

/** A source item with the hash its token is derived from, and what its probe found. */
export interface MediaEntry extends SourceItem {
  readonly hash: ContentHash;
  readonly probe: ListedImage | GalleryMediaError;
}

export interface MediaIndex {
  /** Calls the source and returns the items that can be shown, in the source's order. */
  list(): Promise<MediaEntry[]>;
  /** The entry with this content hash; asks the source once more when the hash is not known yet. */
  find(hash: ContentHash): Promise<MediaEntry | undefined>;
  /** The entry's bytes, or undefined when its content changed since it was listed (a stale token). */
  read(entry: MediaEntry): Promise<Uint8Array | undefined>;
}

// Remembered facts are keyed by content, so they never go stale; the bound only caps memory.
const MEMO_LIMIT = 10_000;
// A genuine but unknown token (an old URL replayed) asks the source again at most this often, so
// it cannot turn into one host query per request.
const REFRESH_INTERVAL_MS = 1000;
// Items read and probed at once while listing: a large gallery seen for the first time must not
// hold every file in memory at the same moment.
const LISTING_CONCURRENCY = 4;

export function createMediaIndex(options: {
  source: GallerySource;
  columns: SourceColumns;
  limits: GalleryLimits;
  logger: GalleryLogger;
}): MediaIndex {
  const { source, columns, limits, logger } = options;
  // A file is hashed again only when its size or modification time changes.
  const fileHashes = new Map<string, { size: number; mtimeMs: number; hash: ContentHash }>();
  const probes = new Map<ContentHash, ListedImage | GalleryMediaError>();
  let byHash = new Map<ContentHash, MediaEntry>();
  let builtAt = Number.NEGATIVE_INFINITY;
  // The source lists a bad row or image again on every request: its reason is logged the first
  // time only, once per item and content (a new bad content of the item is logged again).
  const warned = new Set<string>();
  const warnOnce = (key: string, message: string, details: Record<string, unknown>) => {
    if (warned.has(key)) return;
    if (warned.size >= MEMO_LIMIT) warned.clear();
    warned.add(key);
    logger.warn(message, details);
  };
  const rowLogger: GalleryLogger = {
    warn: (message, details = {}) => warnOnce(`row\0${message}`, message, details),
  };
  const refresh = createSingleFlight<MediaEntry[]>();

  // ts-pattern's exhaustive match: a new kind of image input cannot be forgotten here.
  const hashOf = (image: ImageInput): Promise<Hashed> =>
    match(image)
      .with({ kind: 'bytes' }, async ({ bytes }) => {
        if (bytes.byteLength > limits.maxInputBytes) throw tooManyBytes(bytes.byteLength, limits);
        return { hash: contentHash(bytes), load: async () => bytes };
      })
      .with({ kind: 'file' }, ({ path }) => hashFile(path))
      .exhaustive();

  async function hashFile(path: string): Promise<Hashed> {
    const info = await stat(path);
    if (!info.isFile()) throw new GalleryMediaError('MEDIA_NOT_FOUND', 404, `${path} is not a file`);
    if (info.size > limits.maxInputBytes) throw tooManyBytes(info.size, limits);
    const known = fileHashes.get(path);
    if (known !== undefined && known.size === info.size && known.mtimeMs === info.mtimeMs) {
      return { hash: known.hash, load: () => readFresh(path, known.hash) };
    }
    const bytes = await readFile(path);
    const hash = contentHash(bytes);
    if (fileHashes.size >= MEMO_LIMIT) fileHashes.clear();
    fileHashes.set(path, { size: info.size, mtimeMs: info.mtimeMs, hash });
    return { hash, load: async () => bytes };
  }

  /** The current bytes of a file, or undefined when it is gone or no longer has `hash`. */
  async function readFresh(path: string, hash: ContentHash): Promise<Uint8Array | undefined> {
    const info = await stat(path).catch(() => undefined);
    if (info === undefined) return undefined;
    if (info.size > limits.maxInputBytes) throw tooManyBytes(info.size, limits);
    const bytes = await readFile(path);
    return contentHash(bytes) === hash ? bytes : undefined;
  }

  async function entryOf(item: SourceItem): Promise<MediaEntry> {
    const { hash, load } = await hashOf(item.image);
    let probe = probes.get(hash);
    if (probe === undefined) {
      const data = await load();
      if (data === undefined)
        throw new GalleryMediaError('MEDIA_NOT_FOUND', 404, 'the image file changed while read');
      // The header is checked first: a bomb or an SVG is refused before anything is decoded.
      probe = await probeImage(data, limits)
        .then(async (info) => ({ ...info, placeholder: await placeholderOf(data, limits) }))
        .catch((error: unknown) => {
          if (error instanceof GalleryMediaError) return error;
          throw error;
        });
      if (probes.size >= MEMO_LIMIT) probes.clear();
      probes.set(hash, probe);
    }
    return { ...item, hash, probe };
  }

  async function build(): Promise<MediaEntry[]> {
    const rows: unknown = await source();
    if (!Array.isArray(rows)) {
      throw new GalleryConfigError(
        'GALLERY_SOURCE',
        `the gallery source returned ${typeof rows}, not an array of rows`,
      );
    }
    const items = normaliseRows(rows, columns, rowLogger);
    const entries = await mapBounded(items, LISTING_CONCURRENCY, (item) =>
      entryOf(item).catch((error: unknown) => {
        const message = `gallery item "${item.id}" skipped: ${skipReason(error)}`;
        warnOnce(`item\0${message}`, message, { id: item.id });
        return undefined;
      }),
    );
    const next = new Map<ContentHash, MediaEntry>();
    const listed: MediaEntry[] = [];
    for (const entry of entries) {
      if (entry === undefined) continue;
      if (!next.has(entry.hash)) next.set(entry.hash, entry);
      if (entry.probe instanceof GalleryMediaError) {
        warnOnce(
          `probe\0${entry.id}\0${entry.hash}`,
          `gallery item "${entry.id}" skipped: ${entry.probe.message}`,
          {
            id: entry.id,
          },
        );
      } else {
        listed.push(entry);
      }
    }
    byHash = next;
    builtAt = Date.now();
    return listed;
  }

  return {
    list: () => refresh.run('list', build),
    async find(hash) {
      if (!byHash.has(hash) && Date.now() - builtAt >= REFRESH_INTERVAL_MS) await refresh.run('list', build);
      return byHash.get(hash);
    },
    read: (entry) =>
      match(entry.image)
        .with({ kind: 'bytes' }, async ({ bytes }) => bytes)
        .with({ kind: 'file' }, ({ path }) => readFresh(path, entry.hash))
        .exhaustive(),
  };
}

/** Why an item was skipped: the common file errors in words, anything else by its message. */
function skipReason(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ENOENT') return 'the image file does not exist';
  if (code === 'EACCES') return 'the image file cannot be read (permission denied)';
  return reasonOf(error);
}
