import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { match } from 'ts-pattern';
import { z } from 'zod';
import { createByteLru } from './cache/byte-lru.js';
import type { MediaCache } from './cache/media-cache.js';
import { withDeadline } from './deadline.js';
import { GalleryConfigError, GalleryMediaError, reasonOf } from './gallery-errors.js';
import type { ImageInput } from './image-input.js';
import { type ImageInfo, probeImage, tooManyBytes } from './image-pipeline.js';
import type { Limiter } from './limiter.js';
import type { GalleryLimits } from './limits.js';
import type { GalleryLogger } from './logger.js';
import { mapBounded } from './map-bounded.js';
import { badParameter, MAX_PAGE_SIZE, type PageCursor } from './page-query.js';
import { placeholderOf } from './placeholder.js';
import { createSingleFlight } from './single-flight.js';
import {
  type GallerySource,
  normaliseRows,
  type PagedGallerySource,
  type SourceColumns,
  type SourceItem,
  SourcePage,
  type WholeListSource,
} from './source.js';
import { createSourceWalk } from './source-walk.js';
import { type ContentHash, contentHash } from './token.js';

/** What is known of an image that can be listed: its displayed size and a ThumbHash placeholder. */
export interface ListedImage extends ImageInfo {
  readonly placeholder: string;
}

/** A source item with the content hash its token is derived from. */
export interface MediaEntry extends SourceItem {
  readonly hash: ContentHash;
}

/** One page of the source, its images hashed (not probed: that waits until the page is sent). */
export interface IndexPage {
  /** The page's items that could be hashed, in the source's order. */
  readonly entries: readonly MediaEntry[];
  readonly next: PageCursor | null;
}

export interface MediaIndex {
  /** Asks the source for one page and hashes that page's images only. */
  page(query: { cursor: PageCursor | null; limit: number }): Promise<IndexPage>;
  /** Size and placeholder of the entry's image, or why it cannot be shown; remembered across restarts. */
  probe(entry: MediaEntry): Promise<ListedImage | GalleryMediaError>;
  /**
   * The page's entries that can be shown, with their probes; the others are skipped with a logged
   * reason. `settled` is false when one was skipped for a passing reason (a file changed while read),
   * which the same request later may not meet.
   */
  probePage(
    entries: readonly MediaEntry[],
  ): Promise<{ shown: { entry: MediaEntry; image: ListedImage }[]; settled: boolean }>;
  /**
   * The entry with this content hash: known from a page, else the item the store names for it,
   * else found by walking the source (see {@link createSourceWalk}). Rejects with a 504 when the
   * source does not answer in time.
   */
  find(hash: ContentHash): Promise<MediaEntry | undefined>;
  /** The entry's bytes, or undefined when its content changed since it was listed (a stale token). */
  read(entry: MediaEntry): Promise<Uint8Array | undefined>;
}

// In-memory memos are least-recently-used: a page touches only its own items, so however large
// the folder, what a visitor scrolls through stays memoised (a bound that clears everything at
// once made every listing of 10,500 images start from nothing).
const MEMO_ENTRIES = 50_000;
// Items the hash-to-item map keeps: entries holding their bytes (a host handing over image bytes)
// count their size, so the map is bounded in memory, not only in entries.
const KNOWN_BYTES = 64 * 1024 * 1024;
const ENTRY_OVERHEAD = 256;
// Lookups of tokens no page has shown (an old URL replayed, a page another node listed) read the
// source at most this often, and walk it at most this often, so they cannot turn into one host
// query per request.
const REFRESH_INTERVAL_MS = 1000;
// Images hashed or probed at once for one page: a cold page must not hold every file in memory.
const PAGE_CONCURRENCY = 4;
// Images a walk hashes between two looks at what it found.
const WALK_BATCH = 16;
// Versions the stored index entries' form: a change of what is stored makes older entries misses.
const INDEX_VERSION = 'i1';

const StoredProbe = z.union([
  z.strictObject({
    width: z.number().int().positive(),
    height: z.number().int().positive(),
    placeholder: z.string().regex(/^[A-Za-z0-9+/]{1,200}={0,2}$/),
  }),
  z.strictObject({
    // A refusal is always a 4xx: a damaged entry must not turn into some other answer.
    refused: z.strictObject({
      code: z.string().regex(/^MEDIA_[A-Z_]+$/),
      status: z.number().int().min(400).max(499),
      message: z.string().max(500),
    }),
  }),
]);
const STORED_HASH = /^[A-Za-z0-9_-]{22}$/;

/**
 * The stored key naming the item that holds a content hash. A node that has not listed the image's
 * page (several nodes behind one balancer, one node after a restart) finds the item by that id and
 * hashes its one image, instead of walking the source and hashing every image before it.
 */
const listedKey = (hash: ContentHash) => `${hash}-${INDEX_VERSION}-item`;

export function createMediaIndex(options: {
  source: GallerySource;
  columns: SourceColumns;
  limits: GalleryLimits;
  logger: GalleryLogger;
  /** Where facts found about images are kept across restarts (the media cache). */
  store: MediaCache;
  /**
   * The handler's bound on image work: a probe decodes its image (for the placeholder), so it takes
   * a slot as a rendition does, and a full queue answers 503 for a page as for a rendition.
   */
  limiter: Limiter;
}): MediaIndex {
  const { source, columns, limits, logger, store, limiter } = options;
  const memo = <V>() => {
    const lru = createByteLru<V>(MEMO_ENTRIES);
    return {
      get: (key: string) => lru.get(key),
      set: (key: string, value: V) => void lru.set(key, value, 1),
    };
  };
  // A file is hashed again only when its name, size, modification time or inode changes.
  const fileHashes = memo<{
    size: number;
    mtimeMs: number;
    ctimeMs: number;
    ino: number;
    hash: ContentHash;
  }>();
  const probes = memo<ListedImage | GalleryMediaError>();
  const known = createByteLru<MediaEntry>(KNOWN_BYTES);
  const hashById = memo<ContentHash>();
  let normalised: { rows: readonly unknown[]; items: readonly SourceItem[] } | undefined;
  // The source lists a bad row or image again on every request: its reason is logged the first
  // time only, once per item and content (a new bad content of the item is logged again).
  const warned = memo<true>();
  const warnOnce = (key: string, message: string, details: Record<string, unknown>) => {
    if (warned.get(key) !== undefined) return;
    warned.set(key, true);
    logger.warn(message, details);
  };
  const rowLogger: GalleryLogger = {
    warn: (message, details = {}) => warnOnce(`row\0${message}`, message, details),
  };
  const probing = createSingleFlight<ListedImage | GalleryMediaError>();

  /**
   * `work` (a call of the host's source, or the reading of its images), bounded by
   * `limits.sourceTimeoutMs`: one that never settles (a query on a dropped connection) must not
   * hold its request, nor every lookup waiting on the same walk, until a restart.
   */
  const inTime = <T>(work: T | PromiseLike<T>, what: string): Promise<T> =>
    withDeadline(work, limits.sourceTimeoutMs, () => {
      const message = `the gallery source did not answer within ${limits.sourceTimeoutMs} ms (${what}); retry later`;
      logger.warn(message);
      return new GalleryMediaError('GALLERY_UPSTREAM_TIMEOUT', 504, message);
    });

  /** The stored index entry under `key`, if it is there and whole; a broken one is a miss. */
  const stored = async (key: string): Promise<string | undefined> => {
    const found = await store.get(key).catch((error: unknown) => {
      warnOnce('index-read', `gallery index read failed: ${reasonOf(error)}`, {});
      return undefined;
    });
    if (found === undefined || found.contentType !== 'application/json') return undefined;
    return Buffer.from(found.bytes).toString('utf8');
  };
  const keep = (key: string, value: unknown) =>
    store
      .set(key, { contentType: 'application/json', bytes: Buffer.from(JSON.stringify(value)) })
      .catch((error: unknown) =>
        warnOnce('index-write', `gallery index write failed: ${reasonOf(error)}`, {}),
      );

  // ts-pattern's exhaustive match: a new kind of image input cannot be forgotten here.
  const hashOf = (image: ImageInput): Promise<ContentHash> =>
    match(image)
      .with({ kind: 'bytes' }, async ({ bytes }) => {
        if (bytes.byteLength > limits.maxInputBytes) throw tooManyBytes(bytes.byteLength, limits);
        return contentHash(bytes);
      })
      .with({ kind: 'file' }, ({ path }) => hashFile(path))
      .exhaustive();

  async function hashFile(path: string): Promise<ContentHash> {
    const info = await stat(path);
    if (!info.isFile()) throw new GalleryMediaError('MEDIA_NOT_FOUND', 404, `${path} is not a file`);
    if (info.size > limits.maxInputBytes) throw tooManyBytes(info.size, limits);
    // The change time too: a file written over in place keeping its size and modification time (an
    // editor, `cp -p`, `touch -r`) keeps its inode, but nothing sets its change time back.
    const same = { size: info.size, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs, ino: info.ino };
    const memoised = fileHashes.get(path);
    if (
      memoised !== undefined &&
      memoised.size === same.size &&
      memoised.mtimeMs === same.mtimeMs &&
      memoised.ctimeMs === same.ctimeMs &&
      memoised.ino === same.ino
    ) {
      return memoised.hash;
    }
    const key = `f${digest(JSON.stringify([INDEX_VERSION, path, same.size, same.mtimeMs, same.ctimeMs, same.ino]))}`;
    const text = await stored(key);
    const parsed = text === undefined ? undefined : safeJson(text);
    let hash: ContentHash;
    if (typeof parsed === 'string' && STORED_HASH.test(parsed)) {
      hash = parsed as ContentHash;
    } else {
      hash = contentHash(await readFile(path));
      await keep(key, hash);
    }
    fileHashes.set(path, { ...same, hash });
    return hash;
  }

  /** The current bytes of a file, or undefined when it is gone or no longer has `hash`. */
  async function readFresh(path: string, hash: ContentHash): Promise<Uint8Array | undefined> {
    const info = await stat(path).catch(() => undefined);
    if (info === undefined) return undefined;
    if (info.size > limits.maxInputBytes) throw tooManyBytes(info.size, limits);
    const bytes = await readFile(path);
    return contentHash(bytes) === hash ? bytes : undefined;
  }

  const read = (entry: MediaEntry) =>
    match(entry.image)
      .with({ kind: 'bytes' }, async ({ bytes }) => bytes)
      .with({ kind: 'file' }, ({ path }) => readFresh(path, entry.hash))
      .exhaustive();

  async function probeFresh(entry: MediaEntry, key: string): Promise<ListedImage | GalleryMediaError> {
    const text = await stored(key);
    const parsed = text === undefined ? undefined : StoredProbe.safeParse(safeJson(text));
    if (parsed?.success) {
      const value = parsed.data;
      return 'refused' in value
        ? new GalleryMediaError(value.refused.code, value.refused.status, value.refused.message)
        : value;
    }
    const data = await read(entry);
    if (data === undefined)
      throw new GalleryMediaError('MEDIA_NOT_FOUND', 404, 'the image file changed while read');
    // The header is checked first: a bomb or an SVG is refused before anything is decoded. A busy
    // limiter throws before the task runs: that is no refusal of the image, and is not kept.
    const probe = await limiter.run(() =>
      probeImage(data, limits)
        .then(async (info) => ({ ...info, placeholder: await placeholderOf(data, limits) }))
        .catch((error: unknown) => {
          if (error instanceof GalleryMediaError) return error;
          throw error;
        }),
    );
    await keep(
      key,
      probe instanceof GalleryMediaError
        ? { refused: { code: probe.code, status: probe.status, message: probe.message } }
        : probe,
    );
    return probe;
  }

  async function probe(entry: MediaEntry): Promise<ListedImage | GalleryMediaError> {
    const memoised = probes.get(entry.hash);
    if (memoised !== undefined) return memoised;
    // The limits that decide a refusal are in the key: raising one gives the image another chance.
    const key = `${entry.hash}-${INDEX_VERSION}-${limits.maxInputPixels}-${limits.maxInputBytes}`;
    const found = await probing.run(key, () => probeFresh(entry, key));
    probes.set(entry.hash, found);
    return found;
  }

  /** Every item of a source that returns every row. */
  async function wholeList(fetchAll: WholeListSource): Promise<readonly SourceItem[]> {
    const rows: unknown = await inTime(fetchAll(), 'its rows');
    if (!Array.isArray(rows)) {
      throw new GalleryConfigError(
        'GALLERY_SOURCE',
        `the gallery source returned ${typeof rows}, not an array of rows`,
      );
    }
    // Rows that cannot have changed (the same frozen array of frozen rows, as the folder source
    // returns while its folder is unchanged) are not normalised again: a page of a large list then
    // costs the page, not the list.
    if (normalised?.rows === rows) return normalised.items;
    const items = normaliseRows(rows, columns, rowLogger);
    normalised =
      Object.isFrozen(rows) && rows.every((row) => Object.isFrozen(row)) ? { rows, items } : undefined;
    return items;
  }

  /** A page cut out of a source that returns every row. */
  async function wholeListPage(fetchAll: WholeListSource, cursor: PageCursor | null, limit: number) {
    const items = await wholeList(fetchAll);
    let start = 0;
    if (cursor !== null) {
      if (cursor.k !== 'o') throw badParameter('cursor', 'was given by another kind of gallery source');
      // Usually the list is unchanged and the item before the offset is the one the cursor names;
      // otherwise the page continues after that item wherever it moved.
      start =
        items[cursor.o - 1] !== undefined && digest((items[cursor.o - 1] as SourceItem).id) === cursor.a
          ? cursor.o
          : items.findIndex((item) => digest(item.id) === cursor.a) + 1;
      if (start === 0) {
        throw new GalleryMediaError(
          'CURSOR_STALE',
          400,
          'cursor: the list changed since this cursor was given and its last item is gone; ask for the first page again',
          { path: 'cursor' },
        );
      }
    }
    const slice = items.slice(start, start + limit);
    const end = start + slice.length;
    const last = slice.at(-1);
    const next: PageCursor | null =
      end < items.length && last !== undefined ? { k: 'o', o: end, a: digest(last.id) } : null;
    return { items: slice, next };
  }

  /** A page of a host source that pages itself. */
  async function hostPage(paged: PagedGallerySource, cursor: PageCursor | null, limit: number) {
    if (cursor !== null && cursor.k !== 'h')
      throw badParameter('cursor', 'was given by another kind of gallery source');
    const answer = SourcePage.safeParse(
      await inTime(paged.page({ cursor: cursor?.c ?? null, limit }), 'a page of rows'),
    );
    if (!answer.success) {
      const issue = answer.error.issues[0];
      throw new GalleryConfigError(
        'GALLERY_SOURCE',
        `the gallery source's page is not { rows: [...], next: string | null }: ${issue?.path.join('.') || 'page'}: ${issue?.message ?? 'invalid'}`,
      );
    }
    const { rows, next } = answer.data;
    if (rows.length > limit) {
      throw new GalleryConfigError(
        'GALLERY_SOURCE',
        `the gallery source returned ${rows.length} rows for a page of at most ${limit}`,
      );
    }
    return {
      items: normaliseRows(rows, columns, rowLogger),
      next: next === null ? null : ({ k: 'h', c: next } as const),
    };
  }

  async function page(query: { cursor: PageCursor | null; limit: number }): Promise<IndexPage> {
    const { items, next } =
      typeof source === 'function'
        ? await wholeListPage(source, query.cursor, query.limit)
        : await hostPage(source, query.cursor, query.limit);
    const entries = await mapBounded(items, PAGE_CONCURRENCY, enter);
    return { entries: entries.filter((entry) => entry !== undefined), next };
  }

  /** Hashes a listed item and makes its hash findable; undefined (with a logged reason) when it cannot be. */
  async function enter(item: SourceItem): Promise<MediaEntry | undefined> {
    try {
      const entry: MediaEntry = { ...item, hash: await hashOf(item.image) };
      // An item whose content changed: its old token must stop serving the old bytes it held.
      const before = hashById.get(item.id);
      if (before !== undefined && before !== entry.hash && known.get(before)?.id === item.id) {
        known.delete(before);
      }
      hashById.set(item.id, entry.hash);
      const size = entry.image.kind === 'bytes' ? entry.image.bytes.byteLength : 0;
      known.set(entry.hash, entry, size + ENTRY_OVERHEAD);
      // Only a source that returns every row can be asked for one item by its id; once per item
      // and content in this process, so a page seen again writes nothing.
      if (typeof source === 'function' && before !== entry.hash) await keep(listedKey(entry.hash), item.id);
      return entry;
    } catch (error) {
      const message = `gallery item "${item.id}" skipped: ${skipReason(error)}`;
      warnOnce(`item\0${message}`, message, { id: item.id });
      return undefined;
    }
  }

  // The rows lookups of unknown tokens read (by stored id, or walking), kept for
  // REFRESH_INTERVAL_MS: a page of tokens asked of a node that did not list them, and a walk right
  // after, cost one read of the source, and replayed tokens one read a second at most.
  let lookupRows: { readonly at: number; readonly items: Promise<readonly SourceItem[]> } | undefined;
  function rowsForLookup(fetchAll: WholeListSource): Promise<readonly SourceItem[]> {
    if (lookupRows === undefined || Date.now() - lookupRows.at >= REFRESH_INTERVAL_MS) {
      const items = wholeList(fetchAll);
      lookupRows = { at: Date.now(), items };
      // A failed read (a timeout included) is not kept: the next lookup asks again.
      items.catch(() => {
        if (lookupRows?.items === items) lookupRows = undefined;
      });
    }
    return lookupRows.items;
  }

  /**
   * The item the store names for `hash` (listed by another node sharing it, or by this one before a
   * restart), its one image hashed: no walk, and no wait for one, so every token of a page another
   * node listed is found at once. The stored id is a hint only: an item whose content here no longer
   * has the hash is not taken for it.
   */
  async function findListed(fetchAll: WholeListSource, hash: ContentHash): Promise<MediaEntry | undefined> {
    const text = await stored(listedKey(hash));
    const id = text === undefined ? undefined : safeJson(text);
    if (typeof id !== 'string') return undefined;
    const item = (await rowsForLookup(fetchAll)).find((candidate) => candidate.id === id);
    const entry = item === undefined ? undefined : await inTime(enter(item), `the image of item "${id}"`);
    return entry?.hash === hash ? entry : undefined;
  }

  /**
   * The source's items in order, hashed in batches. Each image is bounded in time on its own, not
   * the walk: a long walk that goes on hashing is never cut, one that hangs on a file fails.
   */
  async function* hashed(items: readonly SourceItem[]): AsyncGenerator<readonly MediaEntry[]> {
    const enterInTime = (item: SourceItem) => inTime(enter(item), `the image of item "${item.id}"`);
    for (let start = 0; start < items.length; start += WALK_BATCH) {
      const entries = await mapBounded(items.slice(start, start + WALK_BATCH), PAGE_CONCURRENCY, enterInTime);
      yield entries.filter((entry) => entry !== undefined);
    }
  }

  /** One pass of the walk: a whole-list source read once, a paged one page after page. */
  async function* walkPass(): AsyncGenerator<readonly MediaEntry[]> {
    if (typeof source === 'function') {
      yield* hashed(await rowsForLookup(source));
      return;
    }
    let cursor: PageCursor | null = null;
    do {
      const found: { items: SourceItem[]; next: PageCursor | null } = await hostPage(
        source,
        cursor,
        MAX_PAGE_SIZE,
      );
      yield* hashed(found.items);
      cursor = found.next;
    } while (cursor !== null);
  }

  // Hashes asked for by media requests that no page has shown yet, and no stored id names: one
  // walk of the source looks for all of them at once and stops as soon as each is seen.
  const walk = createSourceWalk<MediaEntry>({ pass: walkPass, intervalMs: REFRESH_INTERVAL_MS });

  async function probePage(entries: readonly MediaEntry[]) {
    let settled = true;
    // No wider than the limiter's slots and queue together: a page alone never overflows the queue,
    // only many cold pages at once do. (Wider than its slots, reads and hashing overlap the decodes.)
    const width = Math.min(PAGE_CONCURRENCY, limits.concurrency + limits.queueSize);
    const probed = await mapBounded(entries, width, async (entry) => {
      const image = await probe(entry).catch((error: unknown) => {
        // Too much image work under way: the page answers 503 (retry), it does not drop the item.
        if (isBusy(error)) throw error;
        settled = false;
        const message = `gallery item "${entry.id}" skipped: ${skipReason(error)}`;
        warnOnce(`item\0${message}`, message, { id: entry.id });
        return undefined;
      });
      if (image instanceof GalleryMediaError) {
        warnOnce(
          `probe\0${entry.id}\0${entry.hash}`,
          `gallery item "${entry.id}" skipped: ${image.message}`,
          {
            id: entry.id,
          },
        );
        return undefined;
      }
      return image === undefined ? undefined : { entry, image };
    });
    return { shown: probed.filter((pair) => pair !== undefined), settled };
  }

  return {
    page,
    probe,
    probePage,
    read,
    async find(hash) {
      const hit = known.get(hash);
      if (hit !== undefined) return hit;
      // Only a source that returns every row can be asked for one item by its id.
      const listed = typeof source === 'function' ? await findListed(source, hash) : undefined;
      return listed ?? walk.find(hash);
    },
  };
}

/** A short, URL-safe digest of `text`: keys of stored index entries, ids inside cursors. */
function digest(text: string): string {
  return createHash('sha256').update(text).digest().subarray(0, 12).toString('base64url');
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Why an item was skipped: the common file errors in words, anything else by its message. */
function skipReason(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ENOENT') return 'the image file does not exist';
  if (code === 'EACCES') return 'the image file cannot be read (permission denied)';
  return reasonOf(error);
}

function isBusy(error: unknown): boolean {
  return error instanceof GalleryMediaError && error.status === 503;
}
