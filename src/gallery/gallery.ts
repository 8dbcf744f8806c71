import { createHash } from 'node:crypto';
import { z } from 'zod';
import { hasMethods, isFunction, optionProblem } from '../model/options.js';
import { boundedCache } from './cache/bounded-cache.js';
import { createDiskCache, DEFAULT_CACHE_DIR } from './cache/disk-cache.js';
import type { CachedMedia, MediaCache } from './cache/media-cache.js';
import { createMemoryCache, layeredCache } from './cache/memory-cache.js';
import { createDecodedPixelCache, type DecodedPixels } from './decoded-pixels.js';
import { GalleryConfigError, GalleryMediaError, parseOption, reasonOf } from './gallery-errors.js';
import {
  decodePixels,
  encodeWidth,
  renderImage,
  renditionContext,
  type SrcsetEntry,
  sharedEntries,
  srcsetOf,
  type Variant,
} from './image-pipeline.js';
import { createLimiter } from './limiter.js';
import { GalleryLimits, type GalleryLimitsInput } from './limits.js';
import { consoleLogger, type GalleryLogger } from './logger.js';
import { createMediaIndex, type MediaEntry } from './media-index.js';
import { createCursorSigner, nextPageUrl, parsePageQuery } from './page-query.js';
import { createSharedGeneration } from './shared-generation.js';
import { createSingleFlight } from './single-flight.js';
import { type GallerySource, SourceColumns } from './source.js';
import { type ContentHash, createTokenSigner } from './token.js';

export interface GalleryOptions {
  /** "Data entry point 400": the host's query, returning rows. */
  readonly source: GallerySource;
  /** Token secrets: the first signs, all verify (rotation). At least 16 characters each. */
  readonly secrets: readonly string[];
  /** Row keys of the id, title and image (defaults `id`, `title`, `image`), and of the alt text (optional). */
  readonly columns?: Partial<SourceColumns>;
  readonly limits?: GalleryLimitsInput;
  /** Default: a disk cache in the user's cache folder (`DEFAULT_CACHE_DIR`). A memory layer sits in front (see limits). */
  readonly cache?: MediaCache;
  readonly logger?: GalleryLogger;
  /**
   * Called once per decode of a source (not for cache hits, merged requests or widths encoded from
   * held pixels): `variant` is the rendition asked for, `variants` every rendition the decode's pixels
   * serve (the widths of the item's srcset, or `variant` alone for `thumb` and `full`).
   */
  readonly onGenerate?: (event: { hash: string; variant: Variant; variants: readonly Variant[] }) => void;
}

/** The body of `GET /caroulsel/data`: one page of items and the URL of the next page (null on the last). */
export interface GalleryPage {
  items: GalleryItem[];
  next: string | null;
}

/** The one item of `GET /caroulsel/data`. */
export interface GalleryItem {
  id: string;
  title: string;
  /** The image's text alternative: the source's alt column, or the title. */
  alt: string;
  previewUrl: string;
  fullUrl: string;
  width: number;
  height: number;
  /** ThumbHash (base64) of the image, for a blurred preview while the thumbnail loads. */
  placeholder: string;
  /**
   * The img `srcset`: the thumbnail and the `/w<width>` renditions not wider than the image, each
   * with its width (`…/thumb 320w, …/w640 640w, …`), so the browser picks by layout width and DPR.
   */
  srcset: string;
}

/**
 * One page of the list, its validator known before its images are probed: a revalidation that
 * matches `etag` costs the source's page and a digest, and never calls `load`.
 */
export interface GalleryListing {
  /** The page's ETag (quoted): covers every field of the body, so equal tags mean equal bodies. */
  readonly etag: string;
  /** The URL of the next page, null on the last. */
  readonly next: string | null;
  /**
   * The page with its items, each image probed (size, placeholder). `settled` is false when an item
   * is missing for a passing reason (a file changed while read): such a page must not be kept under
   * its ETag.
   */
  load(): Promise<{ readonly page: GalleryPage; readonly settled: boolean }>;
}

/**
 * One rendition of one token, its validator known from the token alone: a client that holds
 * `etag` holds the bytes, so a revalidation never calls `load`.
 */
export interface GalleryRendition {
  /** The rendition's ETag (quoted): names the content and the rendering, never the cache. */
  readonly etag: string;
  /** The bytes and content type: from the cache, or generated once however many ask (across nodes with a lock). */
  load(): Promise<CachedMedia>;
}

/** The gallery without HTTP: the list's pages and the renditions of its tokens. */
export interface Gallery {
  /**
   * One page of `/caroulsel/data` for the request's query (`limit`, `cursor`). Throws a
   * {@link GalleryMediaError} `BAD_QUERY` (400) for a wrong parameter, `GALLERY_UPSTREAM_TIMEOUT` (504)
   * for a source that does not answer within `limits.sourceTimeoutMs`; a failing source rejects as it failed.
   */
  page(query: URLSearchParams): Promise<GalleryListing>;
  /**
   * The rendition `variant` of the image `token` names. Checks the token's MAC and the width before
   * anything is looked up (a forged token costs one HMAC), throwing a {@link GalleryMediaError}
   * `MEDIA_NOT_FOUND` (404); `load` rejects with one when the image or this width of it is gone.
   */
  rendition(token: string, variant: Variant): GalleryRendition;
}

/** Where the list's items point: the media URLs the handler answers. */
const PREFIX = '/caroulsel/';
// Part of every list ETag: bumped when an item's shape changes, so a kept page is not revalidated
// into a body of the old shape.
const LIST_VERSION = 'l4';
// Long enough for the widths a page, or a browser changing its layout, asks for right after the
// first; short enough that pixels no request needs any more are not kept (one 1280 px image is
// megabytes of them).
const DECODED_TTL_MS = 10_000;
/** A genuine token whose image the source no longer holds (removed, or its content changed). */
const GONE =
  "the image of this token is no longer in the gallery's source: take media URLs from /caroulsel/data";
const FORGED =
  'this media token is not one this gallery issued (altered, cut short, or signed with a secret it no longer holds): take media URLs from /caroulsel/data';

/**
 * The shape of the options, checked when the gallery is made: a plain-JavaScript host that leaves
 * out the source or misspells an option learns it then, not from a 502 on every request. Each group
 * (`secrets`, `columns`, `limits`) is checked by its own model below.
 */
const GalleryOptionsShape = z.strictObject({
  source: z.custom<GallerySource>(
    (value) => isFunction(value) || hasMethods('page')(value),
    'must be a function returning the rows, or an object with a page(request) method',
  ),
  secrets: z.unknown(),
  columns: z.unknown().optional(),
  limits: z.unknown().optional(),
  cache: z
    .custom<MediaCache>(hasMethods('get', 'set'), 'must be a media cache, an object with get and set methods')
    .optional(),
  logger: z.custom<GalleryLogger>(hasMethods('warn'), 'must be an object with a warn method').optional(),
  onGenerate: z.custom<unknown>(isFunction, 'must be a function').optional(),
});

/** The gallery's option errors are its own (GALLERY_CONFIG), found as every factory's are. */
function checkOptionsShape(options: unknown): void {
  const problem = optionProblem(GalleryOptionsShape, options, 'gallery');
  if (problem !== undefined) {
    throw new GalleryConfigError('GALLERY_CONFIG', problem.message, { path: problem.path });
  }
}

/**
 * The gallery's engine, which knows nothing of HTTP (as ipx's `createIPX` beside its server): the
 * media index over the host's source, the tokens and cursors, and the renditions with their caches,
 * single-flights, decoded pixels, limiter and generation shared across nodes.
 * `createGalleryHandler` answers requests with it.
 *
 * @example
 * const gallery = createGallery({ source: folderSource('./images'), secrets: [secret] });
 * const listing = await gallery.page(new URLSearchParams('limit=12'));
 * const { page } = await listing.load();
 * console.log(listing.etag, page.items[0]?.previewUrl); // "…" /caroulsel/media/<token>/thumb
 */
export function createGallery(options: GalleryOptions): Gallery {
  checkOptionsShape(options);
  const limits = parseOption(GalleryLimits, options.limits ?? {}, 'limits');
  const context = renditionContext(limits);
  const signer = createTokenSigner(options.secrets, context);
  const logger = options.logger ?? consoleLogger;
  // Bounded: a backend that stops answering (a Redis reconnecting) costs a call a second at most,
  // and is then skipped for a few seconds.
  const backend = boundedCache(options.cache ?? createDiskCache({ dir: DEFAULT_CACHE_DIR }), logger);
  const cache =
    limits.memoryCacheBytes === 0
      ? backend
      : layeredCache(createMemoryCache({ maxBytes: limits.memoryCacheBytes }), backend);
  const limiter = createLimiter(limits);
  const index = createMediaIndex({
    source: options.source,
    columns: parseOption(SourceColumns, options.columns ?? {}, 'columns'),
    limits,
    logger,
    store: cache,
    limiter,
  });
  const cursors = createCursorSigner(options.secrets);
  // One generation per rendition however many requests ask for it; one decode per image however
  // many of its widths are asked for while it runs, or while its pixels are held.
  const generations = createSingleFlight<CachedMedia>();
  // Across nodes: with a cache that has a lock (Redis), one node makes a rendition, the others wait.
  // The lock is taken in a limiter slot, so a node queued behind its own work holds none.
  const acrossNodes = createSharedGeneration({
    lock: backend.lock,
    read: (key) => cache.get(key),
    logger,
    slot: limiter.run,
  });
  const decodes = createSingleFlight<DecodedPixels>();
  const decoded = createDecodedPixelCache({ maxBytes: limits.decodedCacheBytes, ttlMs: DECODED_TTL_MS });
  const servedWidths = new Set(limits.srcsetWidths.map((width) => `w${width}`));
  const widestServed = Math.max(0, ...limits.srcsetWidths);
  const keyOf = (hash: ContentHash, variant: Variant) => `${hash}-${variant}-${context}`;
  const mediaUrl = (token: string, variant: Variant) => `${PREFIX}media/${token}/${variant}`;
  const srcsetAttribute = (token: string, entries: readonly SrcsetEntry[]) =>
    entries.map(({ variant, width }) => `${mediaUrl(token, variant)} ${width}w`).join(', ');

  async function page(request: URLSearchParams): Promise<GalleryListing> {
    const query = parsePageQuery(request, cursors);
    const found = await index.page(query);
    const next = found.next === null ? null : nextPageUrl(`${PREFIX}data`, query, cursors.encode(found.next));
    const tokens = found.entries.map((entry) => signer.sign(entry.hash));
    // The ETag is decided before any image is probed or any item built: it covers what the body is
    // made of (each item's fields but its image, the token naming the content and the rendering,
    // the limits every derived field depends on, the next page), so a revalidation costs the
    // source's page and a digest, nothing more.
    const described = found.entries.map(({ image: _image, hash: _hash, ...fields }, i) => [
      fields,
      tokens[i],
    ]);
    const etag = `"${createHash('sha256')
      .update(JSON.stringify([LIST_VERSION, limits, described, next]))
      .digest('base64url')
      .slice(0, 27)}"`;
    async function load() {
      const tokenOf = new Map(found.entries.map((entry, i) => [entry, tokens[i] as string]));
      const items: GalleryItem[] = [];
      const { shown, settled } = await index.probePage(found.entries);
      for (const { entry, image } of shown) {
        const token = tokenOf.get(entry) as string;
        items.push({
          id: entry.id,
          title: entry.title,
          alt: entry.alt,
          previewUrl: mediaUrl(token, 'thumb'),
          fullUrl: mediaUrl(token, 'full'),
          width: image.width,
          height: image.height,
          placeholder: image.placeholder,
          srcset: srcsetAttribute(token, srcsetOf(image, limits)),
        });
      }
      return { page: { items, next }, settled };
    }
    return { etag, next, load };
  }

  /**
   * The source's bytes, or a 404 when the source lost them. Read under the caller's generation slot:
   * a burst of cold images must not hold every source (up to maxInputBytes each) while it waits.
   */
  async function sourceOf(entry: MediaEntry): Promise<Uint8Array> {
    const source = await index.read(entry);
    if (source === undefined) throw new GalleryMediaError('MEDIA_NOT_FOUND', 404, GONE);
    return source;
  }

  /**
   * The image's pixels for the widths of its srcset: held from a recent decode, or decoded now, once
   * for every request that needs them meanwhile. Each decode is one generation.
   */
  function pixelsOf(
    hash: ContentHash,
    entry: MediaEntry,
    variant: Variant,
    shared: readonly SrcsetEntry[],
  ): Promise<DecodedPixels> {
    const held = decoded.get(hash);
    if (held !== undefined) return Promise.resolve(held);
    return decodes.run(hash, async () => {
      const source = await sourceOf(entry);
      options.onGenerate?.({ hash, variant, variants: shared.map((candidate) => candidate.variant) });
      const pixels = await decodePixels(source, Math.max(...shared.map(({ width }) => width)), limits);
      // Pixels that serve one width only are done with once it is encoded.
      if (shared.length > 1) decoded.set(hash, pixels);
      return pixels;
    });
  }

  /**
   * Makes the one rendition asked for and stores it: `full` and the thumbnail from their own
   * decode, a width from the pixels the widths of its srcset share. The generation keeps its limiter
   * slot until the rendition is stored; the other widths are not made until they are asked for, so
   * no answer waits for the encoding of renditions it did not ask for. With a lock shared by several
   * nodes, it is made by one of them ({@link createSharedGeneration}, which takes the slot).
   */
  async function generate(
    hash: ContentHash,
    entry: MediaEntry,
    variant: Variant,
    set: readonly SrcsetEntry[],
  ): Promise<CachedMedia> {
    const shared = sharedEntries(set);
    const own = shared.find((candidate) => candidate.variant === variant);
    // A decode of this image already under way is waited for before a slot is taken: holding a
    // slot while it ends would keep another image's generation waiting for nothing. Only its end is
    // waited for, not its pixels: a request queued for a slot must not hold pixels the byte-bounded
    // cache may let go meanwhile (up to queueSize images of them); in the slot they are taken from
    // that cache, or decoded again if they are gone.
    if (own !== undefined) await decodes.running(hash)?.catch(() => undefined);
    const key = keyOf(hash, variant);
    return acrossNodes.run(key, async () => {
      let media: CachedMedia;
      if (own === undefined) {
        const source = await sourceOf(entry);
        options.onGenerate?.({ hash, variant, variants: [variant] });
        media = await renderImage(source, variant === 'full' ? 'full' : 'thumb', limits);
      } else {
        const pixels = await pixelsOf(hash, entry, variant, shared);
        media = await encodeWidth(pixels, own.width, limits);
      }
      // A cache that cannot store (disk full, Redis down) costs a later generation, not this answer.
      await cache.set(key, media).catch((error: unknown) => {
        logger.warn(`media cache write failed: ${reasonOf(error)}`);
      });
      return media;
    });
  }

  /** A rendition the cache does not hold: generated, or joined to the generation already running. */
  async function missed(hash: ContentHash, variant: Variant): Promise<CachedMedia> {
    const entry: MediaEntry | undefined = await index.find(hash);
    if (entry === undefined) throw new GalleryMediaError('MEDIA_NOT_FOUND', 404, GONE);
    const probe = await index.probe(entry);
    if (probe instanceof GalleryMediaError) throw probe;
    const set = srcsetOf(probe, limits);
    // Checked before anything is generated: a width this image does not list (wider than the image,
    // or the thumbnail's own) is a 404, not a generation.
    if (variant !== 'full' && !set.some((candidate) => candidate.variant === variant)) {
      throw new GalleryMediaError(
        'MEDIA_NOT_FOUND',
        404,
        `this image (${probe.width}x${probe.height} px) has no ${variant} rendition: take widths from its item's srcset`,
      );
    }
    const key = keyOf(hash, variant);
    return generations.run(key, async () => {
      // A miss read before an earlier flight stored its result must not start a second generation.
      const stored = await cache.get(key).catch(() => undefined);
      return stored ?? generate(hash, entry, variant, set);
    });
  }

  async function cached(key: string) {
    // A cache that cannot be read is a miss: the gallery keeps working on generations alone.
    return cache.get(key).catch((error: unknown) => {
      logger.warn(`media cache read failed: ${reasonOf(error)}`);
      return undefined;
    });
  }

  function rendition(token: string, variant: Variant): GalleryRendition {
    // The MAC is checked before anything is looked up or read: a forged token costs one HMAC.
    const hash = signer.verify(token);
    if (hash === undefined) throw new GalleryMediaError('MEDIA_NOT_FOUND', 404, FORGED);
    // A configured width, or one narrower than the widest (an image's own width between two steps,
    // checked against the image's srcset once it is looked up): anything else reads nothing.
    if (variant.startsWith('w') && !servedWidths.has(variant) && !(Number(variant.slice(1)) < widestServed)) {
      throw new GalleryMediaError(
        'MEDIA_NOT_FOUND',
        404,
        `${variant} is not a width this gallery serves (${[...servedWidths].join(', ') || 'it serves none'}): take widths from an item's srcset`,
      );
    }
    const key = keyOf(hash, variant);
    return {
      // The tag names the content itself: a client holding it holds the bytes, whether or not this
      // rendition is still cached here.
      etag: `"${key}"`,
      // One promise for a hit (this is every warm request's path): no async wrapper around it.
      load: () => cached(key).then((hit) => hit ?? missed(hash, variant)),
    };
  }

  return { page, rendition };
}
