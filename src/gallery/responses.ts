import type { GalleryMediaError } from './errors.js';

/** Sent with every answer of the gallery: bytes are never sniffed into HTML, nothing they hold runs. */
export const SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'",
} as const;

/** Renditions are named by their content, so a URL's bytes never change: cache them for a year. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** True when the request's If-None-Match names `etag` (weak comparison, as RFC 9110 asks for GET). */
export function matchesEtag(request: Request, etag: string): boolean {
  const header = request.headers.get('if-none-match');
  if (header === null) return false;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((part) => {
    const candidate = part.trim();
    return candidate === '*' || candidate.replace(/^W\//, '') === bare;
  });
}

export function notModified(etag: string, cacheControl: string): Response {
  return new Response(null, {
    status: 304,
    headers: { ...SECURITY_HEADERS, ETag: etag, 'Cache-Control': cacheControl },
  });
}

/** An error answer: a small JSON body with a stable code and a sentence, never cached. */
export function errorResponse(
  status: number,
  code: string,
  message: string,
  extra: Record<string, string> = {},
) {
  const body = JSON.stringify({ error: { code, message } });
  return new Response(body, {
    status,
    headers: {
      ...SECURITY_HEADERS,
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'no-store',
      ...extra,
    },
  });
}

export function mediaErrorResponse(error: GalleryMediaError): Response {
  return errorResponse(
    error.status,
    error.code,
    error.message,
    error.status === 503 ? { 'Retry-After': '1' } : {},
  );
}

export const notFound = () => errorResponse(404, 'NOT_FOUND', 'no such gallery resource');

export const methodNotAllowed = (allow: string) =>
  errorResponse(405, 'METHOD_NOT_ALLOWED', `use ${allow}`, { Allow: allow });

/**
 * A body answer; HEAD gets the same headers, Content-Length included, and no body. `csp: false` is
 * for the home page, which must run its own script (`default-src 'none'` would block it).
 */
export function bodyResponse(
  request: Request,
  bytes: Uint8Array,
  headers: Record<string, string>,
  options: { csp?: boolean } = {},
): Response {
  const security = options.csp === false ? { 'X-Content-Type-Options': 'nosniff' } : SECURITY_HEADERS;
  const head = request.method === 'HEAD';
  const response = new Response(head ? null : (bytes as Uint8Array<ArrayBuffer>), {
    headers: { ...security, ...headers, 'Content-Length': String(bytes.byteLength) },
  });
  if (!head) BODIES.set(response, bytes);
  return response;
}

// The bytes of the responses built here, so the Node adapter can write them directly instead of
// draining a web stream (a third of a cached thumbnail's time). Weak: gone with the response.
const BODIES = new WeakMap<Response, Uint8Array>();

/** The bytes of a response {@link bodyResponse} built, while its body is still unread. */
export function bodyBytesOf(response: Response): Uint8Array | undefined {
  return response.bodyUsed ? undefined : BODIES.get(response);
}
