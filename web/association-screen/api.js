// @ts-check
/**
 * The association screen's one way to the server: every request it makes to the association
 * handler, each bounded by a timeout and aborted with the screen, and the shapes of their answers.
 *
 * The answers' types are the server's own (`src/` ships in the package beside `web/`): a field
 * renamed there fails `tsc` here, not a person at the screen.
 */

import { fill } from './labels.js';
import { keepAnswer, recallData, rememberData } from './offline-cache.js';

/** @typedef {import('../../src/tree/screen/nodes.js').ScreenNode} ScreenNode */
/** @typedef {import('../../src/tree/screen/nodes.js').ScreenMetric} ScreenMetric */
/** @typedef {import('../../src/tree/screen/start.js').ScreenStart} ScreenStart */
/** @typedef {import('../../src/tree/screen/start.js').ScreenMetricColumn} MetricColumn */
/** @typedef {import('../../src/tree/screen/search.js').SearchResult} SearchResult */
/** @typedef {import('../../src/tree/screen/search.js').PathStep} PathStep */
/** @typedef {import('../../src/tree/saved-row.js').LastChange} LastChange */
/** @typedef {import('../../src/tree/metric-history.js').MetricChange} MetricChange */
/** @typedef {import('../../src/tree/save-decision.js').SavedEntry} SavedEntry */
/** @typedef {import('../../src/tree/save-metrics.js').SaveMetricsResult} SaveResult */
/** @typedef {import('../../src/model/request-errors.js').MetricConflict} MetricConflict */
/** @typedef {import('../../src/model/metric-batch.js').MetricEntry} MetricEntry */
/** @typedef {import('../../src/model/metrics.js').MetricValue} MetricValue */
/** @typedef {import('./labels.js').ScreenLabels} ScreenLabels */

/** An error answer of the handler (`{ error: { code, message, path? } }`), or no answer at all (status 0). */
export class RequestError extends Error {
  /**
   * @param {number} status 0 when no answer came
   * @param {string} message
   * @param {string | undefined} code
   * @param {string | undefined} path
   * @param {MetricConflict[]} [conflicts] a 409 `METRIC_CONFLICT`'s fields
   */
  constructor(status, message, code, path, conflicts = []) {
    super(message);
    this.status = status;
    this.code = code;
    this.path = path;
    this.conflicts = conflicts;
    /**
     * The request id a save was sent under (set by `put`): one kept after no answer is sent again
     * under it, whatever saves were made meanwhile. @type {string | undefined}
     */
    this.requestId = undefined;
  }

  /** A save refused because fields changed since the form read them (409 `METRIC_CONFLICT`). */
  get conflicted() {
    return this.code === 'METRIC_CONFLICT' && this.conflicts.length > 0;
  }
}

/**
 * A failed request as a RequestError: the server's answer, or a network failure.
 * @param {unknown} error
 * @param {string} networkError the text of a request that never got an answer
 */
export function failureOf(error, networkError) {
  return error instanceof RequestError ? error : new RequestError(0, networkError, undefined, undefined);
}

/**
 * The codes the handler refuses a request with (src/: the request errors of status 4xx,
 * src/model/request-errors.ts, as thrown; test/http/handler-refusals.test.ts reads them there and
 * holds this list to them). A 4xx with none of them, and with no path at one of its entries, is not
 * the handler's refusal of what was sent but a host's or a proxy's answer before it (a session
 * ended, a node being deployed): what was sent is not wrong and may go again. The package's other
 * routes' codes (`NOT_FOUND`, `METHOD_NOT_ALLOWED`) are not here: they never answer a save, but a
 * node whose handler is not mounted yet may answer one with them.
 * @type {ReadonlySet<string>}
 */
export const HANDLER_REFUSALS = new Set([
  'BODY_TOO_LARGE',
  'CROSS_SITE_REQUEST',
  'DUPLICATE_ENTRY',
  'DUPLICATE_KEY',
  'ENTRY_NOT_FOUND',
  'INACTIVE_ROW',
  'INVALID_BASE',
  'INVALID_JSON',
  'INVALID_METRIC_VALUE',
  'INVALID_REQUEST',
  'METRIC_CONFLICT',
  'METRIC_VALUE_REQUIRED',
  'NODE_NOT_FOUND',
  'NOT_IN_TREE',
  'OWNER_CHANGED',
  'READ_ONLY_ROW',
  'REPEATED_QUERY_PARAMETER',
  'REQUEST_ID_REUSED',
  'TASK_SHEET_NOT_FOUND',
  'UNKNOWN_METRIC',
  'UNKNOWN_QUERY_PARAMETER',
  'UNSUPPORTED_MEDIA_TYPE',
]);

/**
 * Whether an error answer is the handler's own refusal of what was sent: one of its codes, or a
 * path at one of the entries sent. @param {{ code?: unknown, path?: unknown } | undefined} error
 */
export function isHandlerRefusal(error) {
  return (
    (typeof error?.code === 'string' && HANDLER_REFUSALS.has(error.code)) ||
    (typeof error?.path === 'string' && /^entries\.\d+/.test(error.path))
  );
}

/**
 * What to tell a person about a failed request, in the page's language: the known codes by their
 * label, anything else by the server's own sentence.
 * @param {unknown} error
 * @param {ScreenLabels} labels
 * @param {number} taskSheet
 */
export function problemOf(error, labels, taskSheet) {
  if (!(error instanceof RequestError)) return String(error);
  switch (error.code) {
    case 'INVALID_METRIC_VALUE':
      return fill(labels.refusedValue, { detail: error.message });
    case 'METRICS_BUSY':
      return labels.busy;
    case 'DATABASE_TIMEOUT':
      return labels.slowServer;
    // A 500 says nothing a person can act on beyond trying again (the host's operators hear of it).
    case 'INTERNAL_ERROR':
      return labels.serverFailed;
    case 'READ_ONLY_ROW':
      return labels.readOnlyRow;
    case 'INACTIVE_ROW':
      return labels.inactiveRow;
    case 'NOT_IN_TREE':
    case 'NODE_NOT_FOUND':
      return labels.notInTree;
    case 'TASK_SHEET_NOT_FOUND':
      return fill(labels.notFound, { id: taskSheet });
    case 'ENTRY_NOT_FOUND':
      return labels.entryGone;
    case 'OWNER_CHANGED':
      return labels.signedInElsewhere;
    case 'BODY_TOO_LARGE':
      return labels.tooLarge;
    case 'CROSS_SITE_REQUEST':
      return labels.crossSite;
    default:
      // A proxy before the handler may refuse a large body with a page of its own.
      if (error.status === 413) return labels.tooLarge;
      // The host's session ended (its own 401 or 403, in words of its own or none).
      if ((error.status === 401 || error.status === 403) && !isHandlerRefusal(error)) return labels.signedOut;
      return error.message;
  }
}

/**
 * A save's request id: the same for a retry of the same save (the server then answers the first
 * one's outcome instead of applying it twice). `crypto.randomUUID` exists only in secure contexts
 * (https, localhost); a host serving the screen over plain http on its network gets the same kind
 * of id from `getRandomValues`, which every context has.
 */
export function newRequestId() {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * @typedef {object} ApiOptions
 * @property {string} endpoint the association handler's URL
 * @property {string} baseURI what a relative endpoint is read against (the page's)
 * @property {number} taskSheet
 * @property {number} timeoutMs longest wait for one request
 * @property {AbortSignal} signal aborts every request (the screen's destroy())
 * @property {string} networkError the text of a request that never got an answer
 * @property {(readAt: string | null) => void} [onCached] a read got no answer and was answered
 *   from the browser's cache instead, its data read at `readAt`
 * @property {() => string | undefined} [owner] the owner key the server confirmed this page files
 *   under (offline-owner.js), undefined while it has not: each save names it
 */

/** The reads answered from the cache when the network is gone (offline-cache.js). */
const KEPT_PARTS = new Set(['start', 'children']);

/**
 * The requests of one screen, to the handler at `endpoint` about one task sheet.
 * @param {ApiOptions} options
 */
export function createApi(options) {
  const base = new URL(options.endpoint, options.baseURI);

  /**
   * One request: bounded by `timeoutMs`, aborted by the screen's signal (and by `init.signal`).
   * Rejects with a RequestError, or with the abort when it was aborted.
   * @param {Record<string, string | number>} params
   * @param {RequestInit & { signal?: AbortSignal }} [init]
   * @param {((readAt: string | null) => void) | null | undefined} [onCached] told when the browser's cache
   *   answered; null: a read that must be the server's (after a save), never the cache's
   * @returns {Promise<unknown>}
   */
  async function call(params, init = {}, onCached = options.onCached) {
    const url = new URL(base);
    url.searchParams.set('taskSheet', String(options.taskSheet));
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, String(value));
    const signals = [options.signal, AbortSignal.timeout(options.timeoutMs)];
    if (init.signal) signals.push(init.signal);
    /** @type {Response} */
    let response;
    try {
      response = await fetch(url, {
        ...init,
        credentials: 'same-origin',
        headers: { accept: 'application/json', ...(init.headers ?? {}) },
        signal: AbortSignal.any(signals),
      });
    } catch (error) {
      if (options.signal.aborted || init.signal?.aborted) throw error;
      return unanswered(url, params, onCached);
    }
    /** @type {any} */
    let answer = null;
    try {
      answer = await response.json();
    } catch {
      // A proxy's HTML error page: the status says enough.
    }
    // A success that is not the handler's answer (a sign-in or captive portal's page reached through
    // a redirect, a proxy's page) is no answer: taken as the save's, it would count a save as stored
    // that the handler may never have seen. As the network failing: a save goes to the outbox under
    // its request id (applied once), a read takes the kept copy.
    if (response.ok && (answer === null || typeof answer !== 'object'))
      return unanswered(url, params, onCached);
    if (!response.ok) {
      const error = answer?.error;
      throw new RequestError(
        response.status,
        typeof error?.message === 'string' ? error.message : `HTTP ${response.status}`,
        typeof error?.code === 'string' ? error.code : undefined,
        typeof error?.path === 'string' ? error.path : undefined,
        Array.isArray(error?.conflicts) ? error.conflicts : [],
      );
    }
    // Not awaited: the read does not wait on the cache (a failed write only means no offline copy).
    if (keptPart(params)) void rememberData(url, answer);
    // A save's answer: what it stored, written into the branches kept for offline use.
    else if (init.method === 'PUT')
      void keepAnswer(
        { endpoint: base.href, taskSheet: options.taskSheet },
        /** @type {SaveResult} */ (answer),
      );
    return answer;
  }

  /**
   * What a request that got no answer from the handler comes to: a read the kept copy answers, else
   * a RequestError of status 0 (no answer: a save may have been stored).
   * @param {URL} url @param {Record<string, string | number>} params
   * @param {((readAt: string | null) => void) | null | undefined} onCached
   */
  async function unanswered(url, params, onCached) {
    const kept = onCached !== null && keptPart(params) ? await recallData(url) : undefined;
    if (kept) {
      onCached?.(kept.readAt);
      return kept.answer;
    }
    throw new RequestError(0, options.networkError, undefined, undefined);
  }

  /** @param {Record<string, string | number>} params */
  function keptPart(params) {
    return KEPT_PARTS.has(String(params.part));
  }

  const owner = options.owner ?? (() => undefined);
  /** The modal's saves and removes (the table's batches have their own, in `tableRequests`). */
  const saves = retrySafePut(call, owner);

  return {
    /**
     * Header, metric columns and the first level (`part=start`), with `owner`: the key of the
     * acting user and scope that this page's offline entries are filed under, and `user`: that
     * user's id. `fromCache`: the browser's cache answered (the page is offline), so `owner` and
     * `user` are whoever read it last, not necessarily who is signed in now.
     * @returns {Promise<ScreenStart & { owner: string, user: number, fromCache: boolean }>}
     */
    start: async () => {
      let fromCache = false;
      const answer = /** @type {ScreenStart & { owner: string, user: number }} */ (
        await call({ part: 'start' }, {}, (readAt) => {
          fromCache = true;
          options.onCached?.(readAt);
        })
      );
      return { ...answer, fromCache };
    },

    /**
     * The children of one node (`part=children`); without a parent, the first level. `fresh`: the
     * server's answer or a failure, never the kept copy (what a save or remove left is read again:
     * the copy still shows what was there before).
     * @param {{ level: number, id: number } | null} parent @param {{ fresh?: boolean }} [how]
     */
    children: (parent, how = {}) =>
      /** @type {Promise<{ nodes: ScreenNode[] }>} */ (
        call(
          parent ? { part: 'children', level: parent.level, node: parent.id } : { part: 'children' },
          {},
          how.fresh ? null : undefined,
        )
      ),

    /**
     * The nodes whose labels match `q`, each with its path (`part=search`).
     * @param {string} q
     * @param {AbortSignal} signal a newer search aborts this one
     */
    search: (q, signal) => /** @type {Promise<SearchResult>} */ (call({ part: 'search', q }, { signal })),

    /**
     * The changes of one activity's metrics, newest first (`part=history`).
     * @param {number} activity
     * @param {number | null | undefined} group null on a one-level tree, whose rows have none
     */
    history: (activity, group) =>
      /** @type {Promise<{ changes: MetricChange[] }>} */ (
        call(
          group === null || group === undefined
            ? { part: 'history', activity }
            : { part: 'history', activity, group },
        )
      ),

    /**
     * PUTs one entry (a save or a remove), as the modal sends it: a retry of the same entry after
     * no answer keeps its request id (`retrySafePut`). `source`: `copy` for values copied from
     * another sheet.
     * @param {MetricEntry} entry @param {SaveSource} [source]
     */
    put: (entry, source = 'screen') => saves.send(source, [entry]),

    /**
     * Forgets the save that got no answer (only the one sent under `id`, when given): the next one,
     * even of the same entry, is a new save. @param {string} [id]
     */
    forgetAttempt: (id) => saves.forget(id),

    ...tableRequests(call, owner),
  };
}

/** @typedef {ReturnType<typeof createApi>} ScreenApi */

/** @typedef {import('../../src/tree/screen/sheet.js').SheetRow} SheetRow */
/** @typedef {import('../../src/tree/screen/sheet.js').SheetPage} SheetPage */
/** @typedef {import('../../src/tree/screen/sheet.js').SheetProgress} SheetProgress */
/** @typedef {import('../../src/tree/screen/sheet.js').NodeProgress} NodeProgress */
/** @typedef {import('../../src/tree/screen/previous.js').PreviousSheet} PreviousSheet */
/** @typedef {import('../../src/model/metric-batch.js').SaveSource} SaveSource */

/**
 * The table view's requests (#29), over the same `call` as the others: a page of the sheet, its
 * progress, the previous sheet's values, and a batch of entries in one PUT.
 * @param {(params: Record<string, string | number>, init?: RequestInit & { signal?: AbortSignal }) => Promise<unknown>} call
 * @param {() => string | undefined} owner see {@link ApiOptions}
 */
export function tableRequests(call, owner) {
  /** The table's batches: apart from the modal's saves, so that a retry of one never takes the other's id. */
  const batches = retrySafePut(call, owner);
  return {
    /**
     * One page of every activity of the sheet with its path and values (`part=sheet`).
     * @param {number} page from 1
     * @param {number} size 1 to 1000
     * @param {'all' | 'empty'} [filter]
     */
    sheet: (page, size, filter = 'all') =>
      /** @type {Promise<SheetPage>} */ (call({ part: 'sheet', page, size, filter })),

    /** How many activities have values, for the sheet and per node (`part=progress`). */
    progress: () => /** @type {Promise<SheetProgress>} */ (call({ part: 'progress' })),

    /**
     * The values saved on the previous sheet (or on `from`), to copy; nothing is written (`part=previous`).
     * @param {number} [from]
     */
    previous: (from) =>
      /** @type {Promise<PreviousSheet>} */ (
        call(from === undefined ? { part: 'previous' } : { part: 'previous', from })
      ),

    /**
     * PUTs up to `MAX_BATCH_ENTRIES` (api-batches.js) entries as one batch: all written, or none. A retry of the
     * same batch after no answer (or a server failure) carries the same request id.
     * @param {MetricEntry[]} entries
     * @param {SaveSource} source
     */
    putBatch: (entries, source) => batches.send(source, entries),

    /** The request id of the batch that got no answer (the outbox sends it again under that id). */
    batchAttemptId: () => batches.attemptId(),

    /** Forgets the batch that got no answer: the outbox has it now. */
    forgetBatchAttempt: () => batches.forget(),
  };
}

/**
 * PUTs of saves whose retry is safe: sent again with the same source and entries after no answer
 * (or a server failure), a save carries the request id it was first sent under, so one that did get
 * through is answered with its outcome, not applied twice; anything else is a new save with a new
 * id. The id a failed save was sent under is on its RequestError (`requestId`), for the outbox to
 * keep it under that id.
 *
 * Each save names the owner the page files under, once the server confirmed it: someone who signed
 * in on this browser since (in another window, this page still in view) has the save refused
 * (409 `OWNER_CHANGED`, nothing written) rather than stored as theirs.
 * @param {(params: Record<string, string | number>, init?: RequestInit & { signal?: AbortSignal }) => Promise<unknown>} call
 * @param {() => string | undefined} owner
 */
function retrySafePut(call, owner) {
  /** The last save sent without an answer (or with a server failure). */
  /** @type {{ key: string, id: string } | undefined} */
  let attempt;
  return {
    /** @param {SaveSource} source @param {MetricEntry[]} entries @returns {Promise<SaveResult>} */
    async send(source, entries) {
      const by = owner();
      // A retry under another owner is someone else's save: a new one, never the first one's id.
      const key = JSON.stringify([source, by, entries]);
      const requestId = attempt?.key === key ? attempt.id : newRequestId();
      attempt = { key, id: requestId };
      try {
        const answer = /** @type {SaveResult} */ (
          await call(
            {},
            {
              method: 'PUT',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({
                requestId,
                source,
                ...(by === undefined ? {} : { owner: by }),
                entries,
              }),
            },
          )
        );
        attempt = undefined;
        return answer;
      } catch (error) {
        if (!(error instanceof RequestError && (error.status === 0 || error.status >= 500))) {
          attempt = undefined;
        }
        if (error instanceof RequestError) error.requestId = requestId;
        throw error;
      }
    },
    /** The request id of the save that got no answer, if one did not. */
    attemptId: () => attempt?.id,
    /** Forgets the save that got no answer (only the one sent under `id`, when given). @param {string} [id] */
    forget(id) {
      if (id === undefined || attempt?.id === id) attempt = undefined;
    },
  };
}
