import { DatabaseConnectionError, DatabaseTimeoutError, TaskAssociationError } from '../model/errors.js';
import { isConnectionLoss } from '../store/failure.js';
import type { Answer } from './answer.js';
import { errorAnswer } from './responses.js';

export interface AnswerErrorOptions {
  /** Where the host's operators hear of an error: every 500, and a database that stopped answering. */
  readonly onError: (error: unknown) => void;
  /** Headers every answer of the handler carries (the association handler's `Vary: Accept`). */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * What an error that is none of ours answers: by default a 500 INTERNAL_ERROR (a bug, whose details
   * belong in the host's log, not in the answer), or a 503 for a database connection lost. Given (the
   * gallery's: its source failing, a 502), it answers every error not ours, a lost connection too:
   * that connection is the source's, not one of ours.
   */
  readonly unexpected?: { readonly status: number; readonly code: string; readonly message: string };
  /**
   * Which of our errors answer with their own status, code and message: by default all of them. The
   * gallery's: its media refusals only, since its source or cache breaking their contract during a
   * request is the upstream's failure (`unexpected`, reported), whatever class says so.
   */
  readonly answers?: (error: TaskAssociationError) => boolean;
}

const INTERNAL = { status: 500, code: 'INTERNAL_ERROR', message: 'the request failed on the server' };

/**
 * The answer to a request that failed, for any error thrown while answering it:
 * `{ "error": { "code", "message", "path"?, ...details } }`.
 *
 * - an error of ours answers with its class's `status` (see `TaskAssociationError`), its code, message
 *   and path; one without a status is the installation's to fix (500);
 * - a driver's error for a connection that broke under the request (a cluster node gone): 503
 *   `DATABASE_CONNECTION_LOST`, the client may try again;
 * - anything else: `unexpected` (500 INTERNAL_ERROR by default).
 *
 * A 503 says when to try again (Retry-After: the error's `retryAfter`, else 1 s). Every 500 and every
 * database failure is reported to `onError`; a refused request (4xx) or busy writers are not.
 *
 * @example const answer = answerError(new Error('boom'), { onError: console.error }); // 500 INTERNAL_ERROR, reported
 */
export function answerError(error: unknown, options: AnswerErrorOptions): Answer {
  const { onError, headers = {} } = options;
  if (!(error instanceof TaskAssociationError) || options.answers?.(error) === false) {
    onError(error);
    if (options.unexpected === undefined && error instanceof Error && isConnectionLoss(error)) {
      return errorAnswer(
        503,
        'DATABASE_CONNECTION_LOST',
        'the connection to the database was lost: try again',
        {
          headers: { ...headers, 'Retry-After': '1' },
        },
      );
    }
    const { status, code, message } = options.unexpected ?? INTERNAL;
    return errorAnswer(status, code, message, { headers });
  }
  const status = error.status ?? 500;
  // The operators should hear of a database that stops answering and of an installation that cannot
  // serve (every 500), not only the client.
  if (status === 500 || error instanceof DatabaseTimeoutError || error instanceof DatabaseConnectionError)
    onError(error);
  return errorAnswer(status, error.code, error.message, {
    path: error.path,
    headers: status === 503 ? { ...headers, 'Retry-After': String(retryAfterOf(error)) } : headers,
    ...(error.details === undefined ? {} : { details: error.details }),
  });
}

/** Seconds a 503 asks the client to wait: the error's own (a database timeout's 5), else a moment. */
function retryAfterOf(error: TaskAssociationError): number {
  return 'retryAfter' in error && typeof error.retryAfter === 'number' ? error.retryAfter : 1;
}
