import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { ANSWERER, type Answer, type Answerer } from './answer.js';
import { errorAnswer } from './responses.js';

type WebHandler = (request: Request) => Promise<Response>;

/**
 * Mounts a web-standard handler in Node's http server (and anything built on it: Express, Fastify's
 * raw request). Handlers of this package are answered directly, without building a `Request` and a
 * `Response`; any other handler goes through the web objects, request body included (the
 * association screen's PUT).
 *
 * @example createServer(toNodeListener(createGalleryHandler(options))).listen(3000);
 */
export function toNodeListener(handler: WebHandler) {
  const answer = (handler as Partial<Record<typeof ANSWERER, Answerer>>)[ANSWERER];
  return (req: IncomingMessage, res: ServerResponse): void => {
    const work = answer === undefined ? viaWeb(handler, req) : viaAnswer(answer, req);
    work.then(
      ({ status, headers, body }) => {
        res.writeHead(status, headers);
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      () => {
        // A handler that throws is a bug; the client still gets an answer instead of a hung socket.
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end('internal error');
      },
    );
  };
}

/**
 * The request target as a URL, or undefined when it is none: Node's parser lets through an
 * absolute-form target such as `http://[/caroulsel/data`, which is the client's mistake (400).
 */
function targetOf(req: IncomingMessage, base: string): URL | undefined {
  try {
    return new URL(req.url ?? '/', base);
  } catch {
    return undefined;
  }
}

const badTarget = () => errorAnswer(400, 'BAD_REQUEST_TARGET', 'the request target is not a valid URL');

async function viaAnswer(answer: Answerer, req: IncomingMessage): Promise<Answer> {
  // Parsed like the web path does, so both see the same pathname (dot segments resolved).
  const target = targetOf(req, 'http://localhost');
  if (target === undefined) return badTarget();
  const ifNoneMatch = req.headers['if-none-match'];
  return answer({ method: req.method ?? 'GET', pathname: target.pathname, ifNoneMatch: ifNoneMatch ?? null });
}

async function viaWeb(handler: WebHandler, req: IncomingMessage): Promise<Answer> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  // A Host header that is not a host name must not turn into a 500: the path is what routes.
  const base = URL.canParse(`http://${req.headers.host}`) ? `http://${req.headers.host}` : 'http://localhost';
  const target = targetOf(req, base);
  if (target === undefined) return badTarget();
  const method = req.method ?? 'GET';
  // GET and HEAD may not carry a body in a web Request; any other method streams the Node one.
  const body =
    method === 'GET' || method === 'HEAD'
      ? {}
      : // Node's web stream type and the DOM one differ only in their typings.
        { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' as const };
  const response = await handler(new Request(target, { method, headers, ...body }));
  const bytes = response.body === null ? undefined : new Uint8Array(await response.arrayBuffer());
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    ...(bytes && { body: bytes }),
  };
}
