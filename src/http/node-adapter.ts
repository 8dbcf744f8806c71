import type { IncomingMessage, ServerResponse } from 'node:http';
import { ANSWERER, type Answer, type Answerer, type AnsweringHandler, toResponse } from './answer.js';
import { requestTarget } from './request-target.js';
import { errorAnswer } from './responses.js';

type WebHandler = (request: Request) => Promise<Response>;

/**
 * Mounts a web-standard handler in Node's http server (and anything built on it: Express, Fastify's
 * raw request), every handler the same way: @hono/node-server's bridge builds the `Request` lazily,
 * streams the request and response bodies, and after an answer given before the request body was
 * read (a 413 on Content-Length, a 400 on the query) drains a bounded remainder of that body or
 * closes the connection, so the next request on a keep-alive connection is answered.
 *
 * - The process's global `Request` and `Response` are left alone (hono would replace them).
 * - A request target or Host header that is not a URL is a 400 `BAD_REQUEST_TARGET`; a handler that
 *   throws (a bug) is a 500, never a hung socket.
 *
 * @example createServer(toNodeListener(createGalleryHandler(options))).listen(3000);
 */
export function toNodeListener(
  handler: WebHandler | AnsweringHandler,
): (req: IncomingMessage, res: ServerResponse) => void {
  let bridged: Promise<NodeListener> | undefined;
  const answer = (handler as AnsweringHandler)[ANSWERER];
  return (req, res) => {
    // Our own handlers' reads (every cached thumbnail) skip the web Request and Response: hono
    // reads a native Response's body through a web stream, which cost the warm path most of its
    // time. Anything unusual (a body to drain, an absolute or odd target, HTTP/2) takes hono's path.
    if (answer !== undefined && isPlainRead(req)) {
      void answerDirectly(answer, req, res);
      return;
    }
    bridged ??= bridgeListener(handler);
    bridged.then(
      (listener) => listener(req, res),
      () => {
        // The bridge failed to load (a broken install): the request still gets an answer.
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end('the request failed on the server');
      },
    );
  };
}

type NodeListener = (req: IncomingMessage, res: ServerResponse) => unknown;

/**
 * hono's bridge for `handler`, loaded on the first request that needs it: importing
 * @hono/node-server (with node:http2 and the web Response it reaches for at once, which loads
 * Node's undici) is about 40 ms, a seventh of a start, and a gallery's plain reads never need it.
 */
async function bridgeListener(handler: WebHandler | AnsweringHandler): Promise<NodeListener> {
  const { getRequestListener, RequestError } = await import('@hono/node-server');
  return getRequestListener(handler, {
    overrideGlobalObjects: false,
    // HTTP/1.0 clients may send no Host: the path is what routes.
    hostname: 'localhost',
    errorHandler: (error) => (error instanceof RequestError ? badTarget() : internalError()),
  });
}

// What hono accepts as a Host without question; anything else gets its full check (and its 400).
const PLAIN_HOST = /^[A-Za-z0-9.-]+(?::\d{1,5})?$/;

/** A GET or HEAD over HTTP/1 with an origin-form target and a plain Host (or none). */
function isPlainRead(req: IncomingMessage): boolean {
  const { method, url, headers } = req;
  return (
    (method === 'GET' || method === 'HEAD') &&
    req.httpVersionMajor === 1 &&
    url !== undefined &&
    url.charCodeAt(0) === 47 &&
    !url.includes('\\') &&
    (headers.host === undefined || PLAIN_HOST.test(headers.host))
  );
}

async function answerDirectly(answer: Answerer, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const answered = await directAnswer(answer, req);
  if (res.destroyed) return;
  res.writeHead(answered.status, answered.headers);
  res.end(req.method === 'HEAD' ? undefined : answered.body);
}

async function directAnswer(answer: Answerer, req: IncomingMessage): Promise<Answer> {
  // Read as the bridge reads it (`//a/x` is a path), so a handler answers the same on both paths;
  // a target that is no URL is the client's mistake, never a 500.
  const url = requestTarget(req.url as string);
  if (url === undefined) return BAD_TARGET;
  const header = (name: string) => {
    const value = req.headers[name];
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  };
  try {
    return await answer({
      method: req.method as string,
      pathname: url.pathname,
      query: url.searchParams,
      ifNoneMatch: header('if-none-match'),
      acceptEncoding: header('accept-encoding'),
    });
  } catch {
    return errorAnswer(500, 'INTERNAL_ERROR', 'the request failed on the server');
  }
}

const BAD_TARGET = errorAnswer(
  400,
  'BAD_REQUEST_TARGET',
  'the request target or Host header is not a valid URL',
);

function badTarget(): Response {
  return toResponse(BAD_TARGET);
}

function internalError(): Response {
  return toResponse(errorAnswer(500, 'INTERNAL_ERROR', 'the request failed on the server'));
}
