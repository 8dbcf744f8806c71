import { abbreviated } from '../model/errors.js';
import { CrossSiteError, UnsupportedMediaTypeError } from '../model/request-errors.js';

/** Sec-Fetch-Site values of a request a page of this site made. */
const SAME_SITE = new Set(['same-origin', 'same-site']);

/**
 * Refuses a write a page of another site could make with the host's cookies: the body must be
 * declared `application/json` (forms and `text/plain` are the bodies a cross-site page may send
 * without asking), and the browser's own word on where the request comes from must be this site.
 * Sec-Fetch-Site decides when present (every current browser sends it); else Origin, when present,
 * must be the request's own origin. A request with neither comes from no browser page (a script on
 * a server, curl), which has no victim's cookies to ride on.
 *
 * @example assertSameSiteJson(request) // throws CrossSiteError for Origin https://evil.example
 */
export function assertSameSiteJson(request: Request): void {
  const [mediaType = '', ...parameters] = (request.headers.get('content-type') ?? '').split(';');
  const type = mediaType.trim().toLowerCase();
  if (type !== 'application/json') {
    throw new UnsupportedMediaTypeError(
      'UNSUPPORTED_MEDIA_TYPE',
      `send the metrics as Content-Type: application/json (got ${type === '' ? 'none' : type})`,
      { path: 'content-type' },
    );
  }
  // The body is read as UTF-8, JSON's one encoding: a body declared in another would be misread.
  const charset = parameters
    .map((parameter) => parameter.split('='))
    .find(([name]) => name?.trim().toLowerCase() === 'charset')?.[1]
    ?.trim()
    .replace(/^"(.*)"$/, '$1')
    .toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw new UnsupportedMediaTypeError(
      'UNSUPPORTED_MEDIA_TYPE',
      `send the metrics as UTF-8 JSON (got charset=${charset})`,
      { path: 'content-type' },
    );
  }
  // The body is read as it comes: a gzip body would be "not JSON", and a plain one labelled gzip
  // would be saved as if nothing were wrong. Neither is what the client meant to say.
  const encoding = request.headers.get('content-encoding')?.trim().toLowerCase();
  if (encoding !== undefined && encoding !== '' && encoding !== 'identity') {
    throw new UnsupportedMediaTypeError(
      'UNSUPPORTED_MEDIA_TYPE',
      `send the metrics uncompressed (got Content-Encoding: ${abbreviated(encoding)})`,
      { path: 'content-encoding' },
    );
  }
  const site = request.headers.get('sec-fetch-site');
  if (site !== null) {
    if (!SAME_SITE.has(site.toLowerCase())) {
      throw new CrossSiteError(
        'CROSS_SITE_REQUEST',
        `metrics are saved only from pages of this site (Sec-Fetch-Site: ${site})`,
        { path: 'sec-fetch-site' },
      );
    }
    return;
  }
  const origin = request.headers.get('origin');
  if (origin !== null && origin !== new URL(request.url).origin) {
    throw new CrossSiteError(
      'CROSS_SITE_REQUEST',
      `metrics are saved only from pages of this site (Origin: ${origin})`,
      { path: 'origin' },
    );
  }
}
