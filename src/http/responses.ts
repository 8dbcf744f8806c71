import { abbreviated } from '../model/errors.js';
import type { Answer } from './answer.js';

/** Sent with every answer of the gallery: bytes are never sniffed into HTML, nothing they hold runs. */
export const SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'",
} as const;

/** Renditions are named by their content, so a URL's bytes never change: cache them for a year. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** True when If-None-Match names `etag` (weak comparison, as RFC 9110 asks for GET and HEAD). */
export function matchesEtag(
  ifNoneMatch: string | null,
  etag: string,
  { exists = true }: { readonly exists?: boolean } = {},
): boolean {
  if (ifNoneMatch === null) return false;
  const bare = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((part) => {
    const candidate = part.trim();
    // `*` matches any current representation: only one known to exist (RFC 9110, 13.1.2).
    return (candidate === '*' && exists) || candidate.replace(/^W\//, '') === bare;
  });
}

export function notModified(etag: string, cacheControl: string): Answer {
  return { status: 304, headers: { ...SECURITY_HEADERS, ETag: etag, 'Cache-Control': cacheControl } };
}

/** A JSON answer, never cached, with the security headers. */
export function jsonAnswer(status: number, value: unknown, headers: Record<string, string> = {}): Answer {
  const body = Buffer.from(JSON.stringify(value));
  return {
    status,
    headers: {
      ...SECURITY_HEADERS,
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(body.length),
      'Cache-Control': 'no-store',
      ...headers,
    },
    body,
  };
}

/**
 * The one error answer of every handler: `{ "error": { "code", "message", "path"? } }`, a stable code,
 * a sentence, and where the problem is when it has a place (a query parameter, a body's field).
 */
export function errorAnswer(
  status: number,
  code: string,
  message: string,
  options: {
    readonly path?: string | undefined;
    readonly headers?: Record<string, string>;
    /** What the error lists beside its message, such as a conflict's fields (`conflicts`). */
    readonly details?: Readonly<Record<string, unknown>>;
  } = {},
): Answer {
  const error = {
    code,
    message,
    ...(options.path === undefined ? {} : { path: options.path }),
    ...options.details,
  };
  return jsonAnswer(status, { error }, options.headers);
}

/**
 * A path nothing answers: named, with what is served (`served`, a phrase). Cut short past 128
 * characters, which a media path of ours (about 70) never reaches.
 */
export const notFound = (path: string, served: string) =>
  errorAnswer(404, 'NOT_FOUND', `nothing is served at ${abbreviated(path, 128)}: ${served}`);

/** A method the resource does not answer: which one, and what it answers (also as `Allow`). */
export const methodNotAllowed = (method: string, allow: string, headers: Record<string, string> = {}) =>
  errorAnswer(405, 'METHOD_NOT_ALLOWED', `${method} is not supported: use ${allow}`, {
    headers: { Allow: allow, ...headers },
  });

/**
 * A 200 with a body (dropped for HEAD by whoever sends it, Content-Length kept). `csp: false` is
 * for the home page, which must run its own script (`default-src 'none'` would block it).
 */
export function bodyAnswer(
  bytes: Uint8Array,
  headers: Record<string, string>,
  options: { csp?: boolean } = {},
): Answer {
  const security = options.csp === false ? { 'X-Content-Type-Options': 'nosniff' } : SECURITY_HEADERS;
  return {
    status: 200,
    headers: { ...security, ...headers, 'Content-Length': String(bytes.byteLength) },
    body: bytes,
  };
}
