import { createGallery, type Gallery, type GalleryOptions } from '../gallery/gallery.js';
import { GalleryMediaError, reasonOf } from '../gallery/gallery-errors.js';
import type { Variant } from '../gallery/image-pipeline.js';
import { consoleLogger, type GalleryLogger } from '../gallery/logger.js';
import { type Answer, type AnswerRequest, toWebHandler } from './answer.js';
import { answerError } from './error-answer.js';
import { COMPONENT_OWN_FILES } from './gallery-routes.js';
import { GALLERY_DEPENDENCY_FILES, PackageFileError, packageFiles } from './package-files.js';
import {
  bodyAnswer,
  errorAnswer,
  IMMUTABLE,
  matchesEtag,
  methodNotAllowed,
  notFound,
  notModified,
} from './responses.js';

export type { GalleryItem, GalleryPage } from '../gallery/gallery.js';

/** A web-standard handler: mount it in anything that speaks `Request` and `Response`. */
export type GalleryHandler = (request: Request) => Promise<Response>;

/** The handler's options are the gallery's: it makes one with {@link createGallery} and answers with it. */
export type GalleryHandlerOptions = GalleryOptions;

const PREFIX = '/caroulsel/';
// `w` and a width without leading zeros; whether the width is one we serve is checked after the MAC.
const MEDIA_PATH = /^\/caroulsel\/media\/([^/]*)\/(thumb|full|w[1-9][0-9]{0,3})$/;
const READ_ONLY = 'GET, HEAD';
const ASSET_PREFIX = '/assets/';
/** What a 404 for a path outside the gallery's says it answers. */
const GALLERY_PATHS =
  "the gallery answers /caroulsel/data, /caroulsel/media/<token>/<thumb, full or w<width>> and its component's files under /assets/";
// The list changes whenever the host's data does: clients keep it but ask again each time.
const LIST_CACHE_CONTROL = 'no-cache';
// The browser component that goes with this handler, and the dependencies' files it loads next to
// itself (lightbox, placeholder decoder), so mounting the handler alone is enough.
const componentFiles = packageFiles(COMPONENT_OWN_FILES, GALLERY_DEPENDENCY_FILES);

/** The host's source or its files failed: an upstream failure, not a bad request. */
const UPSTREAM = {
  status: 502,
  code: 'GALLERY_UPSTREAM',
  message: 'the gallery source is unavailable; retry later',
} as const;

/**
 * What a failed gallery request answers, through the one mapping both handlers use: the gallery's
 * own refusals with their status (a 4xx, or a 503 when busy), anything else an upstream failure,
 * logged.
 */
function failureAnswer(error: unknown, pathname: string, logger: GalleryLogger): Answer {
  return answerError(error, {
    onError: (failed) => logger.warn(`gallery request failed: ${reasonOf(failed)}`, { path: pathname }),
    unexpected: UPSTREAM,
    answers: (failed) => failed instanceof GalleryMediaError,
  });
}

/** `GET /caroulsel/data`: the page's ETag is compared before any of its images is probed. */
async function data(gallery: Gallery, request: AnswerRequest): Promise<Answer> {
  const listing = await gallery.page(request.query);
  const { etag, next } = listing;
  const link: Record<string, string> = next === null ? {} : { Link: `<${next}>; rel="next"` };
  if (matchesEtag(request.ifNoneMatch, etag)) {
    const answer = notModified(etag, LIST_CACHE_CONTROL);
    return { ...answer, headers: { ...answer.headers, ...link } };
  }
  const { page, settled } = await listing.load();
  return bodyAnswer(Buffer.from(JSON.stringify(page)), {
    'Content-Type': 'application/json; charset=utf-8',
    // A page missing an item for a passing reason gets no ETag: a 304 must not keep it short.
    ...(settled ? { ETag: etag } : {}),
    'Cache-Control': LIST_CACHE_CONTROL,
    ...link,
  });
}

/** `GET /caroulsel/media/<token>/<variant>`: a tag the client holds is a 304 before any lookup. */
async function media(
  gallery: Gallery,
  request: AnswerRequest,
  token: string,
  variant: Variant,
): Promise<Answer> {
  const rendition = gallery.rendition(token, variant);
  const { etag } = rendition;
  // The tag names the content itself: `*` is answered once the rendition is known to exist.
  if (matchesEtag(request.ifNoneMatch, etag, { exists: false })) return notModified(etag, IMMUTABLE);
  const { bytes, contentType } = await rendition.load();
  if (matchesEtag(request.ifNoneMatch, etag)) return notModified(etag, IMMUTABLE);
  return bodyAnswer(bytes, { 'Content-Type': contentType, ETag: etag, 'Cache-Control': IMMUTABLE });
}

/** The component's files under `/assets/`; a broken installation is logged and answered 500. */
async function componentFile(request: AnswerRequest, logger: GalleryLogger): Promise<Answer> {
  if (request.method !== 'GET' && request.method !== 'HEAD')
    return methodNotAllowed(request.method, READ_ONLY);
  const name = request.pathname.slice(ASSET_PREFIX.length);
  try {
    return await componentFiles.answer(name, request.ifNoneMatch, undefined, request.acceptEncoding);
  } catch (error) {
    // Our own installation is broken: the operators hear of it, the page gets the usual error body.
    logger.warn(`gallery component file failed: ${reasonOf(error)}`, { path: request.pathname });
    return error instanceof PackageFileError
      ? errorAnswer(500, error.code, error.message)
      : errorAnswer(500, 'INTERNAL_ERROR', 'the request failed on the server');
  }
}

/**
 * The gallery's HTTP handler: `GET /caroulsel/data` lists the items, `GET|HEAD
 * /caroulsel/media/<token>/thumb|w<width>|full` serves renditions from the media cache, and `GET|HEAD
 * /assets/caroulsel-gallery.js|css` and `/assets/caroulsel-gallery/<module>.js` the browser component
 * from the package's `web/` folder (the list is `GALLERY_ASSET_FILES`), with the files it loads from
 * its dependencies (`/assets/photoswipe.esm.min.js`, `photoswipe.css`, `thumbhash.js`). It routes and
 * answers only: the work is the gallery's ({@link createGallery}, made from the same options).
 *
 * @example
 * const handler = createGalleryHandler({ source: folderSource('./images'), secrets: [secret] });
 * createServer(toNodeListener(handler)).listen(3000);
 */
export function createGalleryHandler(options: GalleryHandlerOptions): GalleryHandler {
  const gallery = createGallery(options);
  const logger = options.logger ?? consoleLogger;
  return toWebHandler(async (request) => {
    const { pathname } = request;
    if (pathname.startsWith(ASSET_PREFIX) && componentFiles.has(pathname.slice(ASSET_PREFIX.length))) {
      return componentFile(request, logger);
    }
    const mediaMatch = MEDIA_PATH.exec(pathname);
    if (pathname !== `${PREFIX}data` && mediaMatch === null) return notFound(pathname, GALLERY_PATHS);
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return methodNotAllowed(request.method, READ_ONLY);
    try {
      if (mediaMatch === null) return await data(gallery, request);
      return await media(gallery, request, mediaMatch[1] ?? '', mediaMatch[2] as Variant);
    } catch (error) {
      return failureAnswer(error, pathname, logger);
    }
  });
}
