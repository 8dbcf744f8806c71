import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Answer } from './answer.js';
import { matchesEtag } from './responses.js';

/** The content codings the text files are sent in, besides none. */
export type Encoding = 'br' | 'gzip';

const compress: Record<Encoding, (bytes: Uint8Array) => Promise<Uint8Array>> = {
  // Highest quality: each file is compressed once per process and sent many times.
  br: (bytes) =>
    promisify(brotliCompress)(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
      },
    }),
  gzip: (bytes) => promisify(gzip)(bytes, { level: 9 }),
};

/** Below this a coding saves less than a packet's headers cost: sent as is. */
const MIN_BYTES = 1024;

/**
 * The coding to send for an `Accept-Encoding` header: brotli, else gzip, else none (`undefined`).
 * A coding listed with `q=0` is refused; `*` stands for those not named.
 *
 * @example preferredEncoding('gzip, deflate, br') // 'br'; preferredEncoding('gzip;q=0, *') is 'br'
 */
export function preferredEncoding(acceptEncoding: string | null): Encoding | undefined {
  if (acceptEncoding === null) return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params
      .map((param) => /^\s*q=([0-9.]+)\s*$/.exec(param)?.[1])
      .find((value) => value !== undefined);
    weights.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const weight = (name: Encoding) => weights.get(name) ?? weights.get('*') ?? 0;
  for (const name of ['br', 'gzip'] as const) if (weight(name) > 0) return name;
  return undefined;
}

/** The strong ETag of a file's bytes (the tag of each coding is derived from it). */
export function etagOf(bytes: Uint8Array): string {
  return `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;
}

/**
 * The compressed forms of text files, made on a file's first request in each coding and kept (a
 * bounded number, keyed by the bytes' ETag, so a file that changes on disk is compressed anew).
 */
export function createCompressedFiles(maxEntries = 128) {
  const made = new Map<string, Promise<Uint8Array | undefined>>();

  /** The file in `encoding`, or `undefined` when that would not be smaller. */
  function encoded(etag: string, bytes: Uint8Array, encoding: Encoding): Promise<Uint8Array | undefined> {
    const key = `${etag}\n${encoding}`;
    let result = made.get(key);
    if (result === undefined) {
      if (made.size >= maxEntries) made.clear();
      result =
        bytes.byteLength < MIN_BYTES
          ? Promise.resolve(undefined)
          : compress[encoding](bytes).then((packed) =>
              packed.byteLength < bytes.byteLength ? packed : undefined,
            );
      // A failed compression is not remembered: the file goes as is, and the next request tries again.
      result.catch(() => made.delete(key));
      made.set(key, result);
    }
    return result.catch(() => undefined);
  }

  /**
   * A text file's answer in the coding the request accepts best: 200 with the coded bytes, its own
   * strong ETag (`"<tag>-br"`: a different representation is a different tag) and
   * `Vary: Accept-Encoding`, or 304 when `If-None-Match` names the tag of the coding it would get.
   */
  async function answer(
    file: { readonly bytes: Uint8Array; readonly etag: string },
    request: { readonly acceptEncoding: string | null; readonly ifNoneMatch: string | null },
    headers: Readonly<Record<string, string>>,
  ): Promise<Answer> {
    const encoding = preferredEncoding(request.acceptEncoding);
    const packed = encoding === undefined ? undefined : await encoded(file.etag, file.bytes, encoding);
    const etag = packed === undefined ? file.etag : `${file.etag.slice(0, -1)}-${encoding}"`;
    const common = { ...headers, Vary: 'Accept-Encoding', ETag: etag };
    if (matchesEtag(request.ifNoneMatch, etag)) return { status: 304, headers: common };
    const body = packed ?? file.bytes;
    return {
      status: 200,
      headers: {
        ...common,
        ...(packed === undefined ? {} : { 'Content-Encoding': encoding as Encoding }),
        'Content-Length': String(body.byteLength),
      },
      body,
    };
  }

  return { encoded, answer };
}

export type CompressedFiles = ReturnType<typeof createCompressedFiles>;
