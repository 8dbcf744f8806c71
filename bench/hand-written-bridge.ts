// The hand-written Node bridge this package used before adopting @hono/node-server (its web path:
// the gallery's shortcut past Request and Response is gone with it), kept only as the bench's
// baseline. It buffers the response body, and after an answer given before the request body was
// read it neither drains nor closes: the next request on that keep-alive connection stalls.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

type WebHandler = (request: Request) => Promise<Response>;

export function handWrittenListener(handler: WebHandler) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    answer(handler, req).then(
      ({ status, headers, body }) => {
        res.writeHead(status, headers);
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      () => {
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end('internal error');
      },
    );
  };
}

async function answer(handler: WebHandler, req: IncomingMessage) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const method = req.method ?? 'GET';
  const body =
    method === 'GET' || method === 'HEAD'
      ? {}
      : { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' as const };
  const response = await handler(
    new Request(new URL(req.url ?? '/', 'http://localhost'), { method, headers, ...body }),
  );
  const bytes = response.body === null ? undefined : new Uint8Array(await response.arrayBuffer());
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    ...(bytes && { body: bytes }),
  };
}
