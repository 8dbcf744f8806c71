/**
 * What the gallery's routes decide, before it becomes a web `Response` or is written to a Node
 * response: the web handler and the Node adapter share it, so Node pays for neither a `Request`
 * nor a `Response` (with its body stream) on every cached thumbnail.
 */
export interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Uint8Array;
}

/** The parts of a request the routes look at. */
export interface AnswerRequest {
  readonly method: string;
  readonly pathname: string;
  readonly ifNoneMatch: string | null;
}

export type Answerer = (request: AnswerRequest) => Promise<Answer>;

/** Where a web handler built here keeps its answerer, for {@link toNodeListener} to find. */
export const ANSWERER: unique symbol = Symbol('task-association.answerer');

export type AnsweringHandler = ((request: Request) => Promise<Response>) & { readonly [ANSWERER]: Answerer };

/** Wraps an answerer as a web-standard handler that also carries it for the Node adapter. */
export function toWebHandler(answer: Answerer): AnsweringHandler {
  const handler = async (request: Request): Promise<Response> => {
    const { status, headers, body } = await answer({
      method: request.method,
      pathname: new URL(request.url).pathname,
      ifNoneMatch: request.headers.get('if-none-match'),
    });
    const sent = request.method === 'HEAD' || body === undefined ? null : (body as Uint8Array<ArrayBuffer>);
    return new Response(sent, { status, headers });
  };
  return Object.assign(handler, { [ANSWERER]: answer });
}
