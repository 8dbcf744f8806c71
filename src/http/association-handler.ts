import { z } from 'zod';
import { abbreviated, TaskAssociationError } from '../model/errors.js';
import { MetricBatch, parseInput } from '../model/metric-batch.js';
import { checkOptions, isFunction } from '../model/options.js';
import { InvalidRequestError } from '../model/request-errors.js';
import { checkScope, type Scope } from '../model/scope.js';
import { SeqDb } from '../model/seq-db.js';
import type { Database } from '../store/driver.js';
import { databaseProblem } from '../tree/arguments.js';
import { childrenPart } from '../tree/parts/children.js';
import type { PartContext } from '../tree/parts/context.js';
import { historyPart } from '../tree/parts/history.js';
import { previousPart } from '../tree/parts/previous.js';
import { savePart } from '../tree/parts/save.js';
import { searchPart } from '../tree/parts/search.js';
import { progressPart, sheetPart } from '../tree/parts/sheet.js';
import { startPart } from '../tree/parts/start.js';
import { treePart } from '../tree/parts/tree.js';
import { plansOf } from '../tree/plan-memo.js';
import { toResponse } from './answer.js';
import {
  ASSET_PARAMETER,
  ASSET_QUERY,
  assertPartReads,
  QUERY_PARAMETERS,
  type Query,
} from './association-query.js';
import { answerError } from './error-answer.js';
import { assertOwner, ownerKey } from './owner-key.js';
import { parseQuery } from './query-parameters.js';
import { readJsonBody } from './request-body.js';
import { jsonAnswer, methodNotAllowed, SECURITY_HEADERS } from './responses.js';
import { assertSameSiteJson } from './same-site.js';
import { screenAsset } from './screen-assets.js';
import { invalidLinkPage, PAGE_CSP, pageLanguage, screenPage, wantsHtml } from './screen-page.js';

/** Who is asking, as the host knows it from its own session: never taken from the request. */
export interface AssociationContext {
  readonly scope: Scope;
  /** The acting user's SEQ_DB. */
  readonly user: number;
}

export interface AssociationHandlerOptions {
  readonly db: Database;
  /**
   * The scope and user of a request, from the host's session. Throw a `Response` (e.g. a 401) to
   * answer the request with it instead.
   */
  readonly context: (request: Request) => Promise<AssociationContext>;
  /**
   * Where errors the host's operators should hear of are reported: every 500 (a bug, a misconfigured
   * installation, a bad scope or user from `context`, or no `{ scope, user }` at all) and a database that did not answer in time
   * (503). Default `console.error`.
   */
  readonly onError?: (error: unknown) => void;
  /** The language of the screen's page (`en`, `pt-BR`); default from the request's Accept-Language. */
  readonly lang?: string;
}

/**
 * The options' shape, checked when the handler is made: `context` is where each request's scope and
 * user come from, so a misspelt or missing one must stop the host at start, not answer every request
 * with a 500.
 */
const HandlerOptionsShape = z.strictObject({
  // Said as the library's functions say it (a mysql2 pool as it is, a transaction's executor).
  db: z.custom<Database>((db) => databaseProblem(db, 'writes') === undefined, {
    error: (issue) => databaseProblem(issue.input, 'writes'),
  }),
  context: z.custom<AssociationHandlerOptions['context']>(
    isFunction,
    'must be a function of the request returning { scope, user }',
  ),
  onError: z.custom<(error: unknown) => void>(isFunction, 'must be a function').optional(),
  lang: z.string().min(1).optional(),
});

/** Request bodies above this size are refused, and never held in memory whole. */
const MAX_BODY_BYTES = 1_000_000;

/**
 * The parts a GET names with `part` that answer their data as it is (tree/parts/); `start` adds the
 * owner key, `owner` is the key alone, and a GET without `part` is the whole tree (or the page).
 */
const PARTS = {
  children: childrenPart,
  search: searchPart,
  history: historyPart,
  sheet: sheetPart,
  progress: progressPart,
  previous: previousPart,
} satisfies Record<string, (context: PartContext, query: Query) => Promise<unknown>>;

/**
 * The association screen's endpoint, for the host to mount at `associationtask` (the link field's
 * `url:associationtask;p1:taskSheet`): a web-standard `(Request) => Promise<Response>`.
 *
 * - `GET ?taskSheet=42` from a browser navigation (Accept: text/html) → the screen's page; asking
 *   for JSON → 200 with the tree (`loadTaskTree`); answers vary on Accept;
 * - `GET ?taskSheet=42&part=start` → header, metric columns and first level; `&part=children&level=1&node=7`
 *   → that node's children; `&part=search&q=seed` → matching nodes with their paths;
 * - `GET ?asset=association-screen.js|css` (and `association-screen/<module>.js`) → the screen's browser files;
 * - `GET ?taskSheet=42&part=history&activity=3&group=7` → `{ changes }`, the activity's metric history, newest first;
 * - `GET ?taskSheet=42&part=sheet&page=1&size=500&filter=empty` → a page of the sheet's activities with
 *   paths and values (`readSheetPage`); `&part=progress` → counts per node and for the sheet
 *   (`readSheetProgress`); `&part=previous&from=41` → the values saved on the previous sheet, or on 41,
 *   to copy (`readPreviousSheet`);
 * - `PUT ?taskSheet=42` with `{ "entries": [...], "requestId"?, "source"?, "owner"? }` as `application/json` from this
 *   site → 200 with `{ inserted, updated, removed, unchanged, entries, replayed }` (`saveMetrics`); an
 *   entry `{ activity, group, remove: true }` removes the key's entry; a field whose stored value
 *   changed since its `base` → 409 METRIC_CONFLICT with `conflicts`; an `owner` that is not the
 *   session's owner key → 409 OWNER_CHANGED, nothing written;
 * - bad input → 400, a cross-site write → 403, a body over 1 MB → 413, a body not declared JSON → 415,
 *   unknown task sheet or one of another scope → 404, RO row → 409, other method → 405, writers
 *   colliding or a database that does not answer in time → 503 (the latter with Retry-After),
 *   installation misconfigured → 500; errors as `{ "error": { "code", "message", "path"? } }`.
 *
 * @example const handle = createAssociationHandler({ db, context: async (req) => session(req) });
 */
export function createAssociationHandler(
  options: AssociationHandlerOptions,
): (request: Request) => Promise<Response> {
  checkOptions(HandlerOptionsShape, options, 'createAssociationHandler');
  const { db } = options;
  const onError = options.onError ?? console.error;
  // The plans of this pool's scopes, shared with the library calls a host makes on the same pool.
  const plans = plansOf(db);
  // HEAD is the GET without its body: same status and headers, as HTTP asks of any GET resource. The
  // GET is made from the URL and headers, not from the request itself: a Node bridge's request
  // (@hono/node-server's) cannot be copied by `new Request(request, ...)`.
  const answerHead = async (request: Request) => {
    const get = new Request(request.url, { method: 'GET', headers: request.headers, signal: request.signal });
    const answer = await handle(get);
    // The GET's headers (its Content-Length too), without its body.
    return new Response(null, { status: answer.status, headers: answer.headers });
  };
  const handle = async (request: Request): Promise<Response> => {
    try {
      const url = new URL(request.url);
      if (url.searchParams.has(ASSET_PARAMETER)) {
        const asked = parseQuery(ASSET_QUERY, url);
        return await screenAsset(request, url, asked[ASSET_PARAMETER], VARY, asked.release);
      }
      if (request.method !== 'GET' && request.method !== 'PUT') {
        return toResponse(methodNotAllowed(request.method, 'GET, HEAD, PUT', VARY));
      }
      // Before the session is asked and before a byte of the body is read: nothing of a refused
      // write runs.
      if (request.method === 'PUT') assertSameSiteJson(request);
      let query: Query;
      try {
        query = parseQuery(QUERY_PARAMETERS[request.method], url);
      } catch (error) {
        // A person followed a broken link: a page in their language, not the JSON a program gets.
        if (
          !(error instanceof InvalidRequestError) ||
          request.method !== 'GET' ||
          url.searchParams.has('part') ||
          !wantsHtml(request.headers.get('accept'))
        )
          throw error;
        const lang = options.lang ?? pageLanguage(request.headers.get('accept-language'));
        return html(invalidLinkPage({ endpoint: url.pathname, lang, detail: error.message }), 400);
      }
      if (request.method === 'GET') assertPartReads(url, query.part);
      const { scope, user } = checkContext(await options.context(request));
      const context: PartContext = { db, plans, scope, user };
      if (request.method === 'PUT') {
        const batch = async () => {
          const parsed = parseInput(MetricBatch, await readJsonBody(request, MAX_BODY_BYTES), 'request body');
          // Entries made as someone else than the session (they signed in meanwhile): refused whole.
          assertOwner(parsed.owner, scope, user);
          return parsed;
        };
        return json(200, await savePart(context, query, batch));
      }
      if (query.part === undefined) {
        if (!wantsHtml(request.headers.get('accept'))) return json(200, await treePart(context, query));
        const lang = options.lang ?? pageLanguage(request.headers.get('accept-language'));
        return html(screenPage({ endpoint: url.pathname, taskSheet: query.taskSheet, lang }));
      }
      // The outbox asks whose entries it may send before sending any (see web/association-screen/sync.js).
      if (query.part === 'owner') return json(200, { owner: ownerKey(scope, user) });
      // The user too: the screen names its own user's changes "you" (another tab's, say).
      if (query.part === 'start')
        return json(200, { ...(await startPart(context, query)), owner: ownerKey(scope, user), user });
      return json(200, await PARTS[query.part](context, query));
    } catch (error) {
      if (error instanceof Response) return error;
      return toResponse(answerError(error, { onError, headers: VARY }));
    }
  };
  return (request) => (request.method === 'HEAD' ? answerHead(request) : handle(request));
}

/**
 * The session the host's `context` gave: a bad scope or user is the host's bug (a 500 its operators
 * hear of through onError), never the client's 400.
 */
function checkContext(given: AssociationContext): AssociationContext {
  // A plain-JavaScript host's context may forget its return (undefined) or return its 401 instead of
  // throwing it: said as such, not as a TypeError reading `scope` of it.
  if (typeof given !== 'object' || given === null || Array.isArray(given) || given instanceof Response) {
    const [returned, fix] =
      given instanceof Response
        ? [`a Response (${given.status})`, 'throw it to answer the request with it']
        : [abbreviated(JSON.stringify(given) ?? String(given)), "check the host's context"];
    throw new TaskAssociationError(
      'INVALID_CONTEXT',
      `the host's context returned ${returned}, not { scope, user }: ${fix}`,
    );
  }
  const scope = checkScope(given.scope);
  if (!SeqDb.safeParse(given.user).success) {
    throw new TaskAssociationError(
      'INVALID_USER',
      `user ${JSON.stringify(given.user) ?? String(given.user)} is not a SEQ_DB (a positive whole number): check the host's context`,
      { path: 'user' },
    );
  }
  return { scope, user: given.user };
}

// The same URL answers a page or JSON by Accept: caches must keep them apart.
const VARY = { Vary: 'Accept' };

function json(status: number, body: unknown): Response {
  return toResponse(jsonAnswer(status, body, VARY));
}

function html(page: string, status = 200): Response {
  const bytes = Buffer.from(page);
  return toResponse({
    status,
    headers: {
      ...SECURITY_HEADERS,
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Length': String(bytes.length),
      'Cache-Control': 'no-store',
      // The page runs the screen's own script and style, and nothing else.
      'Content-Security-Policy': PAGE_CSP,
      'Referrer-Policy': 'same-origin',
      ...VARY,
    },
    body: bytes,
  });
}
