import type { IncomingMessage, ServerResponse } from 'node:http';
import { bodyBytesOf } from './responses.js';

type WebHandler = (request: Request) => Promise<Response>;

/**
 * Mounts a web-standard handler in Node's http server (and anything built on it: Express, Fastify's
 * raw request). Request bodies are not forwarded: the gallery only answers GET and HEAD.
 *
 * @example createServer(toNodeListener(createGalleryHandler(options))).listen(3000);
 */
export function toNodeListener(handler: WebHandler) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    void respond(handler, req, res);
  };
}

async function respond(handler: WebHandler, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    // A Host header that is not a host name must not turn into a 500: the path is what routes.
    const base = URL.canParse(`http://${req.headers.host}`)
      ? `http://${req.headers.host}`
      : 'http://localhost';
    const url = new URL(req.url ?? '/', base);
    const response = await handler(new Request(url, { method: req.method ?? 'GET', headers }));
    const body =
      response.body === null
        ? undefined
        : (bodyBytesOf(response) ?? Buffer.from(await response.arrayBuffer()));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(body);
  } catch {
    // A handler that throws is a bug; the client still gets an answer instead of a hung socket.
    if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('internal error');
  }
}
