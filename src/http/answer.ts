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

/** Wraps an answerer as a web-standard handler. */
export function toWebHandler(answer: Answerer): (request: Request) => Promise<Response> {
  return async (request: Request): Promise<Response> => {
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
}

/** The web `Response` of an answer; a HEAD's carries the headers and no body. */
export function toResponse({ status, headers, body }: Answer, method = 'GET'): Response {
  const sent = method === 'HEAD' || body === undefined ? null : (body as Uint8Array<ArrayBuffer>);
  return new Response(sent, { status, headers });
}
