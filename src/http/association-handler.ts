import { z } from 'zod';
import { TaskAssociationError } from '../model/errors.js';
import { MetricBatch, parseInput } from '../model/metric-batch.js';
import { checkOptions, hasMethods, isFunction } from '../model/options.js';
import { InvalidRequestError } from '../model/request-errors.js';
import { checkScope, type Scope } from '../model/scope.js';
import { SearchText } from '../model/search-text.js';
import { SeqDb, SeqDbText } from '../model/seq-db.js';
import type { Database } from '../store/driver.js';
import { loadTaskTree } from '../tree/load-task-tree.js';
import { readMetricHistory } from '../tree/metric-history.js';
import { plansOf } from '../tree/plan-memo.js';
import { saveMetrics } from '../tree/save-metrics.js';
import { readBranch } from '../tree/screen/branch.js';
import { readPreviousSheet } from '../tree/screen/previous.js';
import { searchTree } from '../tree/screen/search.js';
import { MAX_SHEET_PAGE_SIZE, readSheetPage, readSheetProgress, SheetFilter } from '../tree/screen/sheet.js';
import { readScreenStart } from '../tree/screen/start.js';
import { explainTableErrors } from '../tree/table-diagnosis.js';
import { loadTaskSheet } from '../tree/task-sheet.js';
import { toResponse } from './answer.js';
import { answerError } from './error-answer.js';
import { lastPathSegment, rewriteImports } from './module-imports.js';
import { ownerKey } from './owner-key.js';
import { type FileVariant, packageFiles } from './package-files.js';
import { parseQuery } from './query-parameters.js';
import { readJsonBody } from './request-body.js';
import { errorAnswer, jsonAnswer, methodNotAllowed, SECURITY_HEADERS } from './responses.js';
import { assertSameSiteJson } from './same-site.js';
import {
  invalidLinkPage,
  PAGE_CSP,
  pageLanguage,
  SCREEN_ASSETS,
  SERVICE_WORKER,
  SERVICE_WORKER_CSP,
  screenPage,
  wantsHtml,
} from './screen-page.js';

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
   * installation, a bad scope or user from `context`) and a database that did not answer in time
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
  db: z.custom<Database>(
    hasMethods('query', 'execute', 'transaction'),
    'must be a Database (openDatabase or wrapPool)',
  ),
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
 * The query parameters each method reads, one line per parameter; anything else, or a parameter
 * given twice, is a 400 naming it (`parseQuery`). Without `part`, a GET answers the whole tree
 * (JSON) or the screen's page (a browser navigation); `part` asks for the screen's light data.
 */
const QUERY_PARAMETERS = {
  GET: z.strictObject({
    taskSheet: SeqDbText,
    /**
     * `start`: header, metric columns, first level; `children`: one node's children; `search`: matches
     * with paths; `history`: the changes of one activity's metrics (`activity`, and `group` unless null);
     * `sheet`: a page of every activity with its path and values (`page`, `size`, `filter`);
     * `progress`: how many activities have values, per node and for the sheet; `previous`: the values
     * saved on the previous sheet (or on `from`), to copy; `owner`: the key the screen's offline entries
     * are filed under (no database read).
     */
    part: z
      .enum(['start', 'children', 'search', 'history', 'sheet', 'progress', 'previous', 'owner'])
      .optional(),
    /** `part=children`: the TREE_VIEW level (1, 2, ...) and the SEQ_DB of the node whose children are asked for. */
    level: z
      .string()
      .regex(/^[1-9][0-9]?$/, { message: 'a level is a whole number from 1, as in TREE_VIEW' })
      .transform(Number)
      .optional(),
    node: SeqDbText.optional(),
    /** `part=search`: the words searched for in the label columns of every level (at most 100 characters, 8 words). */
    q: SearchText.optional(),
    /** `part=history`: the activity, and the node it hangs under (left out on a one-level tree). */
    activity: SeqDbText.optional(),
    group: SeqDbText.optional(),
    /** `part=sheet`: the page, from 1; rows per page, 1 to 1000 (default 500); `empty` for the activities without values. */
    page: z
      .string()
      .regex(/^[1-9][0-9]{0,3}$/, { message: 'a page is a whole number from 1 to 9999' })
      .transform(Number)
      .optional(),
    size: z
      .string()
      .regex(/^[1-9][0-9]{0,3}$/, { message: 'a page size is a whole number from 1 to 1000' })
      .transform(Number)
      .refine((size) => size <= MAX_SHEET_PAGE_SIZE, {
        message: `a page size is a whole number from 1 to ${MAX_SHEET_PAGE_SIZE}`,
      })
      .optional(),
    filter: SheetFilter.optional(),
    /** `part=previous`: the task sheet to copy from, when not the previous one. */
    from: SeqDbText.optional(),
  }),
  PUT: z.strictObject({
    taskSheet: SeqDbText,
  }),
} as const;
type Query = z.output<typeof QUERY_PARAMETERS.GET>;

/** `?asset=<name>`: the screen's module and stylesheet, answered before any session or query check. */
const ASSET_PARAMETER = 'asset';
/** An asset request reads `asset` alone, held to the same rule as the other queries. */
const ASSET_QUERY = z.strictObject({ [ASSET_PARAMETER]: z.string() });

const screenFiles = packageFiles(SCREEN_ASSETS);
const servedFiles: ReadonlySet<string> = new Set(SCREEN_ASSETS);

/**
 * A module as served at this request's URL: its relative imports name the handler's URL of each
 * file (`./associationtask?asset=association-screen/tree.js`; see module-imports.ts), one variant
 * per last path segment. Stylesheets are served as they are.
 */
function servedAs(url: URL, name: string): FileVariant | undefined {
  if (!name.endsWith('.js')) return undefined;
  const segment = lastPathSegment(url.pathname);
  return {
    key: segment,
    make: (bytes) =>
      Buffer.from(rewriteImports(Buffer.from(bytes).toString('utf8'), name, servedFiles, segment)),
  };
}

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
 * - `PUT ?taskSheet=42` with `{ "entries": [...], "requestId"?, "source"? }` as `application/json` from this
 *   site → 200 with `{ inserted, updated, removed, unchanged, entries, replayed }` (`saveMetrics`); an
 *   entry `{ activity, group, remove: true }` removes the key's entry; a field whose stored value
 *   changed since its `base` → 409 METRIC_CONFLICT with `conflicts`;
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
        return await assetResponse(request, url, parseQuery(ASSET_QUERY, url)[ASSET_PARAMETER]);
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
      const { taskSheet } = query;
      const { scope, user } = checkContext(await options.context(request));
      if (request.method === 'GET' && query.part === undefined && wantsHtml(request.headers.get('accept'))) {
        const lang = options.lang ?? pageLanguage(request.headers.get('accept-language'));
        return html(screenPage({ endpoint: url.pathname, taskSheet, lang }));
      }
      // The outbox asks whose entries it may send before sending any (see web/association-screen/sync.js).
      if (request.method === 'GET' && query.part === 'owner')
        return json(200, { owner: ownerKey(scope, user) });
      if (request.method === 'GET' && query.part === 'start')
        return json(200, { ...((await screenPart(query, scope)) as object), owner: ownerKey(scope, user) });
      if (request.method === 'GET' && query.part !== undefined)
        return json(200, await screenPart(query, scope));
      // The parameter rows are read on every request, checked and planned once per text of them.
      const { plan } = await plans.read(db, scope);
      if (request.method === 'GET') return json(200, await loadTaskTree(db, { scope, taskSheet, plan }));
      const batch = parseInput(MetricBatch, await readJsonBody(request, MAX_BODY_BYTES), 'request body');
      const result = await saveMetrics(db, {
        scope,
        user,
        taskSheet,
        entries: batch.entries,
        ...(batch.requestId === undefined ? {} : { requestId: batch.requestId }),
        ...(batch.source === undefined ? {} : { source: batch.source }),
        plan,
      });
      return json(200, result);
    } catch (error) {
      if (error instanceof Response) return error;
      return toResponse(answerError(error, { onError, headers: VARY }));
    }
  };
  return (request) => (request.method === 'HEAD' ? answerHead(request) : handle(request));

  /**
   * The screen's light data. The installation and the task sheet are read together (neither needs
   * the other), then the part's own reads; an expand of a scope seen before sends its own reads
   * with them, so it costs one round trip of waiting.
   */
  async function screenPart(query: Query, scope: AssociationContext['scope']): Promise<unknown> {
    const { taskSheet } = query;
    if (query.part === 'search' && query.q === undefined)
      throw missing('q', 'give the text to search for as &q=');
    if (query.part === 'history' && query.activity === undefined)
      throw missing('activity', 'give the activity whose history is asked for as &activity=');
    if (query.part === 'children' && (query.level === undefined) !== (query.node === undefined)) {
      throw missing(
        query.level === undefined ? 'level' : 'node',
        'give both &level= and &node= (or neither, for the roots)',
      );
    }
    const parent =
      query.level === undefined || query.node === undefined ? null : { level: query.level, id: query.node };
    // An unknown task sheet is a 404 for every part, a search included.
    const sheetRead = loadTaskSheet(db, scope, taskSheet);
    // An expand does not wait for the parameter rows: its queries start at once with the plan this
    // scope had last time, and their answer counts only if the rows read meanwhile still give that
    // plan (else the branch is read again with the new one). A branch costs one round trip, not two.
    const guess = query.part === 'children' ? plans.last(scope) : undefined;
    const early =
      guess === undefined
        ? undefined
        : readBranch(db, { scope, plan: guess.plan, parent, taskSheet: sheetRead, taskSheetId: taskSheet });
    // Marked handled now: a guess that turns out stale may fail, and is then never awaited.
    early?.catch(() => undefined);
    // The parameter rows alone, checked and planned once per text of them.
    const [planned, sheet] = await Promise.all([plans.read(db, scope), sheetRead]);
    const { treeView, plan } = planned;
    // A table of the plan that is missing or lacks a column is said as the tree's own reads say it:
    // which table, and which parameter row or TREE_VIEW key named it.
    return explainTableErrors(db, scope, plan, async () => {
      if (query.part === 'start') {
        return readScreenStart(db, {
          scope,
          taskSheet: sheet,
          plan,
          headerColumns: treeView?.taskSheetColumns,
        });
      }
      if (query.part === 'search') return searchTree(db, { scope, plan, text: query.q ?? '' });
      if (query.part === 'sheet') {
        return readSheetPage(db, {
          scope,
          taskSheet,
          plan,
          ...(query.page === undefined ? {} : { page: query.page }),
          ...(query.size === undefined ? {} : { size: query.size }),
          ...(query.filter === undefined ? {} : { filter: query.filter }),
        });
      }
      if (query.part === 'progress') return readSheetProgress(db, { scope, taskSheet, plan });
      if (query.part === 'previous') {
        return readPreviousSheet(db, {
          scope,
          taskSheet,
          plan,
          ...(query.from === undefined ? {} : { from: query.from }),
        });
      }
      if (query.part === 'history') {
        const changes = await readMetricHistory(db, {
          scope,
          taskSheet,
          activity: query.activity,
          group: query.group ?? null,
          plan,
        });
        return { changes };
      }
      if (early !== undefined && guess === planned) return { nodes: await early };
      return { nodes: await readBranch(db, { scope, plan, parent, taskSheet: sheet }) };
    });
  }
}

/** The query parameters each kind of GET reads (no `part`: the whole tree or the page). */
const PART_READS: Record<NonNullable<Query['part']> | 'tree', readonly string[]> = {
  tree: ['taskSheet'],
  start: ['taskSheet', 'part'],
  children: ['taskSheet', 'part', 'level', 'node'],
  search: ['taskSheet', 'part', 'q'],
  history: ['taskSheet', 'part', 'activity', 'group'],
  sheet: ['taskSheet', 'part', 'page', 'size', 'filter'],
  progress: ['taskSheet', 'part'],
  previous: ['taskSheet', 'part', 'from'],
  owner: ['taskSheet', 'part'],
};

/**
 * A parameter this GET does not read is refused, as an unknown one is: `?part=start&node=7` would
 * otherwise answer the roots to a client that meant to ask for node 7's children.
 */
function assertPartReads(url: URL, part: Query['part']): void {
  const reads = PART_READS[part ?? 'tree'];
  for (const name of url.searchParams.keys()) {
    if (!reads.includes(name)) {
      throw new InvalidRequestError(
        'UNKNOWN_QUERY_PARAMETER',
        `query parameter ${name} is not read ${part === undefined ? 'without part' : `by part=${part}`} (it reads ${reads.join(', ')})`,
        { path: name },
      );
    }
  }
}

function missing(parameter: string, message: string): InvalidRequestError {
  return new InvalidRequestError('INVALID_REQUEST', `query at ${parameter}: ${message}`, { path: parameter });
}

async function assetResponse(request: Request, url: URL, name: string): Promise<Response> {
  // A HEAD arrives here as its GET (see createAssociationHandler), and loses the body there.
  if (request.method !== 'GET') {
    return toResponse(methodNotAllowed(request.method, 'GET, HEAD', VARY));
  }
  if (!screenFiles.has(name)) {
    return errorJson(
      404,
      'NOT_FOUND',
      'no such file of the screen: association-screen.js, association-screen.css or a module of association-screen/',
      { path: ASSET_PARAMETER },
    );
  }
  const answer = await screenFiles.answer(
    name,
    request.headers.get('if-none-match'),
    servedAs(url, name),
    request.headers.get('accept-encoding'),
  );
  if (name !== SERVICE_WORKER) return toResponse(answer);
  // The service worker runs under its own response's policy, not the page's: it imports the
  // screen's modules and fetches from this origin. Served at the endpoint's own path, its scope may
  // be that path without Service-Worker-Allowed; the header says so for whoever reads the answer.
  return toResponse({
    ...answer,
    headers: {
      ...answer.headers,
      'Content-Security-Policy': SERVICE_WORKER_CSP,
      'Service-Worker-Allowed': url.pathname,
    },
  });
}

/**
 * The session the host's `context` gave: a bad scope or user is the host's bug (a 500 its operators
 * hear of through onError), never the client's 400.
 */
function checkContext(given: AssociationContext): AssociationContext {
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

/** An error answer of this handler, as a web `Response`. */
function errorJson(
  status: number,
  code: string,
  message: string,
  options: { path?: string; headers?: Record<string, string>; details?: Record<string, unknown> } = {},
): Response {
  return toResponse(
    errorAnswer(status, code, message, {
      path: options.path,
      headers: { ...VARY, ...options.headers },
      ...(options.details === undefined ? {} : { details: options.details }),
    }),
  );
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
