import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { GalleryMediaError } from './gallery-errors.js';
import { MAX_HOST_CURSOR_CHARS } from './source.js';

/** Items on a page when the request names no `limit`: four rows of a wide grid, a phone's few screens. */
export const DEFAULT_PAGE_SIZE = 48;
/** The largest `limit` accepted: a page stays small enough to probe without blocking the answer. */
export const MAX_PAGE_SIZE = 200;
const MAC_BYTES = 16;
/** base64url's length for `bytes` bytes, without padding. */
const base64Chars = (bytes: number) => Math.ceil((bytes * 4) / 3);
/**
 * The longest cursor this gallery writes, so every cursor it gives is taken back: a host cursor of
 * the most characters a source may give, each of which JSON writes as six bytes (`\u0001`, a lone
 * surrogate; anything else takes at most three in UTF-8), in `{"k":"h","c":"…"}`, base64url, a dot
 * and the MAC (8,237 characters). A longer text is refused before its MAC is computed. (It was 2,048:
 * 602 characters of Japanese already made a cursor the gallery refused.)
 */
const MAX_CURSOR_CHARS =
  base64Chars(JSON.stringify({ k: 'h', c: '' }).length + 6 * MAX_HOST_CURSOR_CHARS) +
  1 +
  base64Chars(MAC_BYTES);
// Binds the MAC to cursors, so a media token can never pass for a cursor or the other way round.
const DOMAIN = 'task-association/caroulsel-cursor/v1:';

/**
 * Where the next page starts, as the handler wrote it into `next`:
 * - `o` (a whole-list source): the number of items already given and the id of the last one, so a
 *   list that changed in between can still continue right after that item;
 * - `h` (a paged host source): the host's own cursor, handed back to it unchanged.
 */
export const PageCursor = z.discriminatedUnion('k', [
  z.strictObject({ k: z.literal('o'), o: z.number().int().positive(), a: z.string() }),
  z.strictObject({ k: z.literal('h'), c: z.string().min(1) }),
]);
export type PageCursor = z.infer<typeof PageCursor>;

export interface PageQuery {
  readonly limit: number;
  /** Whether the request named the limit (then `next` repeats it). */
  readonly limitGiven: boolean;
  readonly cursor: PageCursor | null;
}

export interface CursorSigner {
  encode(cursor: PageCursor): string;
  /** The cursor this gallery wrote, or undefined for anything else (garbled, forged, another secret). */
  decode(text: string): PageCursor | undefined;
}

/**
 * Cursors are `base64url(JSON) + "." + base64url(MAC)`, signed with the first token secret and
 * checked against all. The MAC is why a cursor is opaque in practice: a host cursor reaches the
 * host's query only if this gallery wrote it, so the host never parses a stranger's text.
 */
export function createCursorSigner(secrets: readonly string[]): CursorSigner {
  const keys = secrets.map((secret) => Buffer.from(secret, 'utf8'));
  const mac = (key: Buffer, payload: string) =>
    createHmac('sha256', key).update(DOMAIN).update(payload).digest().subarray(0, MAC_BYTES);
  const first = keys[0] as Buffer;
  return {
    encode(cursor) {
      const payload = Buffer.from(JSON.stringify(cursor)).toString('base64url');
      return `${payload}.${mac(first, payload).toString('base64url')}`;
    },
    decode(text) {
      const dot = text.indexOf('.');
      if (dot <= 0 || !/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/.test(text)) return undefined;
      const payload = text.slice(0, dot);
      const given = Buffer.from(text.slice(dot + 1), 'base64url');
      if (given.length !== MAC_BYTES || given.toString('base64url') !== text.slice(dot + 1)) return undefined;
      let valid = false;
      for (const key of keys) valid = timingSafeEqual(mac(key, payload), given) || valid;
      if (!valid) return undefined;
      // Signed by us, so it parses; checked all the same, a secret shared by an older version included.
      let json: unknown;
      try {
        json = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      } catch {
        return undefined;
      }
      const parsed = PageCursor.safeParse(json);
      return parsed.success ? parsed.data : undefined;
    },
  };
}

/** A 400 naming the query parameter that is wrong, in the gallery's error body. */
export function badParameter(name: 'limit' | 'cursor', message: string): GalleryMediaError {
  return new GalleryMediaError('BAD_QUERY', 400, `${name}: ${message}`, { path: name });
}

/** The one value of a parameter, or undefined; a repeated parameter is refused rather than guessed. */
function single(query: URLSearchParams, name: 'limit' | 'cursor'): string | undefined {
  const values = query.getAll(name);
  if (values.length > 1) throw badParameter(name, `given ${values.length} times; give it once`);
  return values[0];
}

/** Reads `limit` and `cursor` from the query; other parameters (a cache buster) are ignored. */
export function parsePageQuery(query: URLSearchParams, cursors: CursorSigner): PageQuery {
  const limitText = single(query, 'limit');
  let limit = DEFAULT_PAGE_SIZE;
  if (limitText !== undefined) {
    // Digits only, no leading zero: Number('') is 0, Number('1e2') is 100 and Number(' 5') is 5,
    // none of them meant, and `010` would be a second URL of the page `10` names.
    const value = /^[1-9]\d{0,3}$/.test(limitText) ? Number(limitText) : Number.NaN;
    if (!(value >= 1 && value <= MAX_PAGE_SIZE)) {
      throw badParameter(
        'limit',
        `must be a whole number from 1 to ${MAX_PAGE_SIZE} in plain digits (no sign, no leading zero), got ${JSON.stringify(limitText.slice(0, 40))}${limitText.includes(' ') ? ' (a + in a query string reads as a space)' : ''}`,
      );
    }
    limit = value;
  }
  const cursorText = single(query, 'cursor');
  let cursor: PageCursor | null = null;
  if (cursorText !== undefined) {
    const decoded =
      cursorText.length > 0 && cursorText.length <= MAX_CURSOR_CHARS ? cursors.decode(cursorText) : undefined;
    if (decoded === undefined) {
      throw badParameter(
        'cursor',
        'not a cursor this gallery gave (garbled, cut or forged); ask for the first page without it',
      );
    }
    cursor = decoded;
  }
  return { limit, limitGiven: limitText !== undefined, cursor };
}

/** The URL of the page after this one, as `next` and the Link header give it. */
export function nextPageUrl(path: string, query: PageQuery, next: string): string {
  const limit = query.limitGiven ? `limit=${query.limit}&` : '';
  return `${path}?${limit}cursor=${next}`;
}
