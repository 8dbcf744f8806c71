import { z } from 'zod';
import type { Database } from '../db/driver.js';
import { DatabaseTimeoutError, TaskAssociationError } from '../errors.js';
import type { Scope } from '../scope.js';
import { SeqDbText } from '../seq-db.js';
import {
  BusyError,
  InvalidRequestError,
  NotFoundError,
  PayloadTooLargeError,
  ReadOnlyRowError,
} from './errors.js';
import { resolveInstallation } from './installation.js';
import { loadTaskTree } from './load-task-tree.js';
import { MetricBatch, parseInput } from './metric-batch.js';
import { parseQuery } from './query-parameters.js';
import { readJsonBody } from './request-body.js';
import { saveMetrics } from './save-metrics.js';

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
   * Where unexpected errors (bugs, a lost database) are reported; they answer 500, a database that did
   * not answer in time 503. Default `console.error`.
   */
  readonly onError?: (error: unknown) => void;
}

/** Request bodies above this size are refused, and never held in memory whole. */
const MAX_BODY_BYTES = 1_000_000;

/**
 * The query parameters each method reads, one line per parameter; anything else, or a parameter
 * given twice, is a 400 naming it (`parseQuery`).
 */
const QUERY_PARAMETERS = {
  GET: z.strictObject({
    taskSheet: SeqDbText,
  }),
  PUT: z.strictObject({
    taskSheet: SeqDbText,
  }),
} as const;

/**
 * The association screen's endpoint, for the host to mount at `associationtask` (the link field's
 * `url:associationtask;p1:taskSheet`): a web-standard `(Request) => Promise<Response>`.
 *
 * - `GET ?taskSheet=42` → 200 with the tree (`loadTaskTree`) as JSON;
 * - `PUT ?taskSheet=42` with `{ "entries": [...] }` → 200 with `{ inserted, updated }` (`saveMetrics`);
 * - bad input → 400, a body over 1 MB → 413, unknown task sheet or one of another scope → 404, RO row → 409, other
 *   method → 405, writers colliding or a database that does not answer in time → 503 (the latter with
 *   Retry-After), installation misconfigured → 500; errors as
 *   `{ "error": { "code", "message", "path"? } }`.
 *
 * @example const handle = createAssociationHandler({ db, context: async (req) => session(req) });
 */
export function createAssociationHandler(
  options: AssociationHandlerOptions,
): (request: Request) => Promise<Response> {
  const { db } = options;
  const onError = options.onError ?? console.error;
  return async (request) => {
    try {
      if (request.method !== 'GET' && request.method !== 'PUT') {
        return errorJson(405, 'METHOD_NOT_ALLOWED', `${request.method} is not supported: use GET or PUT`, {
          headers: { allow: 'GET, PUT' },
        });
      }
      const { taskSheet } = parseQuery(QUERY_PARAMETERS[request.method], new URL(request.url));
      const { scope, user } = await options.context(request);
      const { names, treeView } = await resolveInstallation(db, scope);
      if (request.method === 'GET') {
        const tree = await loadTaskTree(db, { scope, taskSheet, names, treeView: treeView ?? null });
        return json(200, tree);
      }
      const batch = parseInput(MetricBatch, await readJsonBody(request, MAX_BODY_BYTES), 'request body');
      const result = await saveMetrics(db, {
        scope,
        user,
        taskSheet,
        entries: batch.entries,
        names,
        treeView: treeView ?? null,
      });
      return json(200, result);
    } catch (error) {
      if (error instanceof Response) return error;
      return errorResponse(error, onError);
    }
  };
}

function errorResponse(error: unknown, onError: (error: unknown) => void): Response {
  if (!(error instanceof TaskAssociationError)) {
    // A bug or a lost database: the details belong in the host's log, not in the response.
    onError(error);
    return errorJson(500, 'INTERNAL_ERROR', 'the request failed on the server');
  }
  // The host's operators should hear of a database that stops answering, not only the client.
  if (error instanceof DatabaseTimeoutError) onError(error);
  return errorJson(statusOf(error), error.code, error.message, {
    ...(error.path === undefined ? {} : { path: error.path }),
    // The database stopped answering: the client may try again, not at once.
    ...(error instanceof DatabaseTimeoutError
      ? { headers: { 'retry-after': String(RETRY_AFTER_SECONDS) } }
      : {}),
  });
}

/** Retry-After of a 503 for a database that did not answer: long enough not to pile onto a struggling one. */
const RETRY_AFTER_SECONDS = 5;

function statusOf(error: TaskAssociationError): number {
  if (error instanceof PayloadTooLargeError) return 413;
  if (error instanceof InvalidRequestError) return 400;
  if (error instanceof NotFoundError) return 404;
  if (error instanceof ReadOnlyRowError) return 409;
  if (error instanceof BusyError || error instanceof DatabaseTimeoutError) return 503;
  // The rest (ConfigurationError, the config reader's ConfigError, a bad table name in a parameter
  // row) is the installation's to fix, not the request's.
  return 500;
}

/** The one shape of every error answer: `{ "error": { "code", "message", "path"? } }`. */
function errorJson(
  status: number,
  code: string,
  message: string,
  options: { path?: string; headers?: Record<string, string> } = {},
): Response {
  const error = options.path === undefined ? { code, message } : { code, message, path: options.path };
  return json(status, { error }, options.headers);
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      ...headers,
    },
  });
}
