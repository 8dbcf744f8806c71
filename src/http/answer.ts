/** What the gallery's routes decide, before it becomes a web `Response`. */
export interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Uint8Array;
}

/** The parts of a request the routes look at. */
export interface AnswerRequest {
  readonly method: string;
  readonly pathname: string;
  /** The query string's parameters (the list's page is chosen there). */
  readonly query: URLSearchParams;
  readonly ifNoneMatch: string | null;
  /** Which content codings the client takes (the component's text files are sent compressed). */
  readonly acceptEncoding: string | null;
}

export type Answerer = (request: AnswerRequest) => Promise<Answer>;

/**
 * Where a handler made by {@link toWebHandler} keeps its answerer: `toNodeListener` answers Node's
 * GET and HEAD requests with it directly, without a web `Request` and `Response` in between.
 */
export const ANSWERER: unique symbol = Symbol('answerer');

/** A web handler that can also be asked without Request and Response objects. */
export type AnsweringHandler = ((request: Request) => Promise<Response>) & { readonly [ANSWERER]?: Answerer };

/** Wraps an answerer as a web-standard handler. */
export function toWebHandler(answer: Answerer): AnsweringHandler {
  const handler = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const answered = await answer({
      method: request.method,
      pathname: url.pathname,
      query: url.searchParams,
      ifNoneMatch: request.headers.get('if-none-match'),
      acceptEncoding: request.headers.get('accept-encoding'),
    });
    return toResponse(answered, request.method);
  };
  return Object.assign(handler, { [ANSWERER]: answer });
}

/** The web `Response` of an answer; a HEAD's carries the headers and no body. */
export function toResponse({ status, headers, body }: Answer, method = 'GET'): Response {
  const sent = method === 'HEAD' || body === undefined ? null : (body as Uint8Array<ArrayBuffer>);
  return new Response(sent, { status, headers });
}
