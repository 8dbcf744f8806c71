import { createHash } from 'node:crypto';
import { packageFiles } from '../web/package-files.js';
import { type Answer, type AnswerRequest, toWebHandler } from './answer.js';
import { createDiskCache, DEFAULT_CACHE_DIR } from './cache/disk-cache.js';
import type { CachedMedia, MediaCache } from './cache/media-cache.js';
import { createMemoryCache, layeredCache } from './cache/memory-cache.js';
import { GalleryMediaError, parseOption, reasonOf } from './errors.js';
import { renderImage, renditionContext, type Variant } from './image-pipeline.js';
import { createLimiter } from './limiter.js';
import { GalleryLimits, type GalleryLimitsInput } from './limits.js';
import { consoleLogger, type GalleryLogger } from './logger.js';
import { createMediaIndex, type MediaEntry } from './media-index.js';
import { createCursorSigner, nextPageUrl, parsePageQuery } from './page-query.js';
import {
  bodyAnswer,
  errorAnswer,
  IMMUTABLE,
  matchesEtag,
  mediaErrorAnswer,
  methodNotAllowed,
  notFound,
  notModified,
} from './responses.js';
import { createSingleFlight } from './single-flight.js';
import { type GallerySource, SourceColumns } from './source.js';
import { type ContentHash, createTokenSigner } from './token.js';

/** A web-standard handler: mount it in anything that speaks `Request` and `Response`. */
export type GalleryHandler = (request: Request) => Promise<Response>;

export interface GalleryHandlerOptions {
  /** "Data entry point 400": the host's query, returning rows. */
  readonly source: GallerySource;
  /** Token secrets: the first signs, all verify (rotation). At least 16 characters each. */
  readonly secrets: readonly string[];
  /** Row keys of the id, title and image (defaults `id`, `title`, `image`). */
  readonly columns?: Partial<SourceColumns>;
  readonly limits?: GalleryLimitsInput;
  /** Default: a disk cache in the user's cache folder (`DEFAULT_CACHE_DIR`). A memory layer sits in front (see limits). */
  readonly cache?: MediaCache;
  readonly logger?: GalleryLogger;
  /** Called once per rendition actually generated (not for cache hits or merged requests). */
  readonly onGenerate?: (event: { hash: string; variant: Variant }) => void;
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
  previewUrl: string;
  fullUrl: string;
  width: number;
  height: number;
  /** ThumbHash (base64) of the image, for a blurred preview while the thumbnail loads. */
  placeholder: string;
}

const PREFIX = '/caroulsel/';
// Part of every list ETag: bumped when an item's shape changes, so a kept page is not revalidated
// into a body of the old shape.
const LIST_VERSION = 'l1';
const MEDIA_PATH = /^\/caroulsel\/media\/([^/]*)\/(thumb|full)$/;
const READ_ONLY = 'GET, HEAD';
const ASSET_PREFIX = '/assets/';
// The browser component that goes with this handler, so mounting the handler alone is enough.
const componentFiles = packageFiles(['caroulsel-gallery.js', 'caroulsel-gallery.css']);

/**
 * The gallery's HTTP handler: `GET /caroulsel/data` lists the items, `GET|HEAD
 * /caroulsel/media/<token>/thumb|full` serves renditions from the media cache, and `GET|HEAD
 * /assets/caroulsel-gallery.js|css` the browser component from the package's `web/` folder.
 *
 * @example
 * const handler = createGalleryHandler({ source: folderSource('./images'), secrets: [secret] });
 * createServer(toNodeListener(handler)).listen(3000);
 */
export function createGalleryHandler(options: GalleryHandlerOptions): GalleryHandler {
  const limits = parseOption(GalleryLimits, options.limits ?? {}, 'limits');
  const context = renditionContext(limits);
  const signer = createTokenSigner(options.secrets, context);
  const logger = options.logger ?? consoleLogger;
  const backend = options.cache ?? createDiskCache({ dir: DEFAULT_CACHE_DIR });
  const cache =
    limits.memoryCacheBytes === 0
      ? backend
      : layeredCache(createMemoryCache({ maxBytes: limits.memoryCacheBytes }), backend);
  const index = createMediaIndex({
    source: options.source,
    columns: parseOption(SourceColumns, options.columns ?? {}, 'columns'),
    limits,
    logger,
    store: cache,
  });
  const cursors = createCursorSigner(options.secrets);
  const limiter = createLimiter(limits);
  const generations = createSingleFlight<CachedMedia>();

  async function data(request: AnswerRequest): Promise<Answer> {
    const query = parsePageQuery(request.query, cursors);
    const page = await index.page(query);
    const next = page.next === null ? null : nextPageUrl(`${PREFIX}data`, query, cursors.encode(page.next));
    const tokens = page.entries.map((entry) => signer.sign(entry.hash));
    // The ETag is decided before any image is probed or any item built: it covers what the body is
    // made of (each item's fields but its image, the token naming the content and the rendering,
    // the limits every derived field depends on, the next page), so a revalidation costs the
    // source's page and a digest, nothing more.
    const described = page.entries.map(({ image: _image, hash: _hash, ...fields }, i) => [fields, tokens[i]]);
    const etag = `"${createHash('sha256')
      .update(JSON.stringify([LIST_VERSION, limits, described, next]))
      .digest('base64url')
      .slice(0, 27)}"`;
    // The list changes whenever the host's data does: clients keep it but ask again each time.
    const cacheControl = 'no-cache';
    const link: Record<string, string> = next === null ? {} : { Link: `<${next}>; rel="next"` };
    if (matchesEtag(request.ifNoneMatch, etag)) {
      const answer = notModified(etag, cacheControl);
      return { ...answer, headers: { ...answer.headers, ...link } };
    }
    const tokenOf = new Map(page.entries.map((entry, i) => [entry, tokens[i] as string]));
    const items: GalleryItem[] = [];
    const { shown, settled } = await index.probePage(page.entries);
    for (const { entry, image } of shown) {
      const token = tokenOf.get(entry) as string;
      items.push({
        id: entry.id,
        title: entry.title,
        previewUrl: `${PREFIX}media/${token}/thumb`,
        fullUrl: `${PREFIX}media/${token}/full`,
        width: image.width,
        height: image.height,
        placeholder: image.placeholder,
      });
    }
    const body = Buffer.from(JSON.stringify({ items, next }));
    return bodyAnswer(body, {
      'Content-Type': 'application/json; charset=utf-8',
      // A page missing an item for a passing reason gets no ETag: a 304 must not keep it short.
      ...(settled ? { ETag: etag } : {}),
      'Cache-Control': cacheControl,
      ...link,
    });
  }

  async function generate(hash: ContentHash, variant: Variant, key: string) {
    const entry: MediaEntry | undefined = await index.find(hash);
    if (entry === undefined) return undefined;
    const probe = await index.probe(entry);
    if (probe instanceof GalleryMediaError) throw probe;
    const rendered = await limiter.run(async () => {
      // The source read (up to maxInputBytes) is under the cap too: a burst of cold images must not
      // hold every source in memory while it waits for a slot.
      const source = await index.read(entry);
      if (source === undefined) return undefined;
      options.onGenerate?.({ hash, variant });
      return renderImage(source, variant, limits);
    });
    if (rendered === undefined) return undefined;
    // A cache that cannot store (disk full, Redis down) costs a later generation, not this answer.
    await cache
      .set(key, rendered)
      .catch((error: unknown) => logger.warn(`media cache write failed: ${reasonOf(error)}`));
    return rendered;
  }

  async function cached(key: string) {
    // A cache that cannot be read is a miss: the gallery keeps working on generations alone.
    return cache.get(key).catch((error: unknown) => {
      logger.warn(`media cache read failed: ${reasonOf(error)}`);
      return undefined;
    });
  }

  async function media(request: AnswerRequest, token: string, variant: Variant): Promise<Answer> {
    // The MAC is checked before anything is looked up or read: a forged token costs one HMAC.
    const hash = signer.verify(token);
    if (hash === undefined) return notFound();
    const key = `${hash}-${variant}-${context}`;
    const etag = `"${key}"`;
    if (matchesEtag(request.ifNoneMatch, etag)) return notModified(etag, IMMUTABLE);
    const rendition =
      (await cached(key)) ??
      (await generations.run(key, async () => {
        // A miss read before an earlier flight stored its result must not start a second generation.
        // A failing cache was logged by the read above; a second warning would say nothing new.
        const stored = await cache.get(key).catch(() => undefined);
        if (stored !== undefined) return stored;
        const made = await generate(hash, variant, key);
        // Undefined is "not found"; single-flight carries values, so it travels as an error.
        if (made === undefined) throw new GalleryMediaError('MEDIA_NOT_FOUND', 404, 'no such media');
        return made;
      }));
    return bodyAnswer(rendition.bytes, {
      'Content-Type': rendition.contentType,
      ETag: etag,
      'Cache-Control': IMMUTABLE,
    });
  }

  return toWebHandler(async (request) => {
    const { pathname } = request;
    if (pathname.startsWith(ASSET_PREFIX) && componentFiles.has(pathname.slice(ASSET_PREFIX.length))) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return methodNotAllowed(READ_ONLY);
      return componentFiles.answer(pathname.slice(ASSET_PREFIX.length), request.ifNoneMatch);
    }
    if (!pathname.startsWith(PREFIX)) return notFound();
    const mediaMatch = MEDIA_PATH.exec(pathname);
    if (pathname !== `${PREFIX}data` && mediaMatch === null) return notFound();
    if (request.method !== 'GET' && request.method !== 'HEAD') return methodNotAllowed(READ_ONLY);
    try {
      if (mediaMatch === null) return await data(request);
      return await media(request, mediaMatch[1] ?? '', mediaMatch[2] as Variant);
    } catch (error) {
      if (error instanceof GalleryMediaError) return mediaErrorAnswer(error);
      logger.warn(`gallery request failed: ${reasonOf(error)}`, { path: pathname });
      // The host's source or its files failed: an upstream failure, not a bad request.
      return errorAnswer(502, 'GALLERY_UPSTREAM', 'the gallery source is unavailable; retry later');
    }
  });
}
