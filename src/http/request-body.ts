import { parseJsonText } from '../model/json-text.js';
import { InvalidRequestError, PayloadTooLargeError } from '../model/request-errors.js';
import { decodeUtf8 } from '../model/utf8-text.js';

/**
 * Reads a request body as JSON, holding at most `maxBytes` in memory; a body that is not UTF-8 JSON,
 * or that gives a key twice in one object, is refused. Content-Length is only a hint
 * (a chunked body has none, and a client may lie), so the bytes are counted as they arrive and the
 * stream is cancelled as soon as the count passes the limit: the rest is never read.
 *
 * @example const body = await readJsonBody(request, 1_000_000);
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  const tooLarge = () =>
    new PayloadTooLargeError(
      'BODY_TOO_LARGE',
      `the request body is larger than ${maxBytes} bytes: send fewer entries`,
    );
  if (Number(request.headers.get('content-length') ?? '0') > maxBytes) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body !== null) {
    const reader = request.body.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      size += read.value.byteLength;
      if (size > maxBytes) {
        await reader.cancel('request body too large');
        throw tooLarge();
      }
      chunks.push(read.value);
    }
  }
  const notJson = () =>
    new InvalidRequestError('INVALID_JSON', 'the request body is not JSON: send {"entries": [...]}');
  // Bytes that are not UTF-8 are refused where they are, not turned into U+FFFD and parsed.
  const decoded = decodeUtf8(Buffer.concat(chunks, size), 'send the body encoded as UTF-8');
  if (!decoded.success) {
    throw new InvalidRequestError(
      'INVALID_JSON',
      `the request body is not JSON (${decoded.issues[0]?.message ?? 'not UTF-8'})`,
    );
  }
  // The configuration files' parser: a key given twice in one object is refused (JSON.parse would keep
  // the last without a word, so a body naming an entry's activity twice would save under one of them).
  const parsed = parseJsonText(decoded.text, 'request body');
  if (parsed.success) return parsed.value;
  const [issue] = parsed.issues;
  if (issue === undefined) throw notJson();
  if (issue.code === 'INVALID_JSON') {
    // Where the parser stopped, as the configuration files' errors say it.
    throw new InvalidRequestError(
      'INVALID_JSON',
      `the request body is not JSON (${issue.message}): send {"entries": [...]}`,
    );
  }
  throw new InvalidRequestError(
    'DUPLICATE_KEY',
    `request body${issue.path === '' ? '' : ` at ${issue.path}`}: ${issue.message}`,
    { path: issue.path },
  );
}
