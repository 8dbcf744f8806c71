import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener, RequestError } from '@hono/node-server';
import { toResponse } from './answer.js';
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
export function toNodeListener(handler: WebHandler): (req: IncomingMessage, res: ServerResponse) => void {
  const listener = getRequestListener(handler, {
    overrideGlobalObjects: false,
    // HTTP/1.0 clients may send no Host: the path is what routes.
    hostname: 'localhost',
    errorHandler: (error) => (error instanceof RequestError ? badTarget() : internalError()),
  });
  return (req, res) => {
    void listener(req, res);
  };
}

function badTarget(): Response {
  return toResponse(
    errorAnswer(400, 'BAD_REQUEST_TARGET', 'the request target or Host header is not a valid URL'),
  );
}

function internalError(): Response {
  return toResponse(errorAnswer(500, 'INTERNAL_ERROR', 'the request failed on the server'));
}
