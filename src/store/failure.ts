import { TaskAssociationError } from '../model/errors.js';

/**
 * A database failure in the middle of a command as one of our errors: a statement the server
 * refused (`DATABASE_ERROR`) or a connection that broke (`DATABASE_CONNECTION_LOST`), its message
 * ending with `after` (what is known of the writes, what to do). Undefined for anything else, which
 * stays a bug to report whole.
 */
export function databaseFailure(error: unknown, after: string): TaskAssociationError | undefined {
  if (error instanceof TaskAssociationError || !(error instanceof Error)) return undefined;
  if ('sqlMessage' in error) {
    return new TaskAssociationError(
      'DATABASE_ERROR',
      `the database refused a statement (${error.message}): ${after}`,
      {
        cause: error,
      },
    );
  }
  if (isConnectionLoss(error)) {
    return new TaskAssociationError(
      'DATABASE_CONNECTION_LOST',
      `the connection to the database was lost (${error.message}): ${after}`,
      { cause: error },
    );
  }
  return undefined;
}

/** mysql2's errors for a connection that broke (fatal) or a network that failed under it. */
export function isConnectionLoss(error: Error): boolean {
  const code = 'code' in error ? String(error.code) : '';
  return (
    ('fatal' in error && error.fatal === true) ||
    code.startsWith('PROTOCOL_') ||
    ['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH'].includes(code) ||
    /connection is in closed state/.test(error.message)
  );
}

/**
 * Whether a failed read says nothing of what it read: the connection broke or timed out (the
 * package's own errors say so already). A caller that words a table's refusal as its own error
 * lets these through, to be said as what they are.
 */
export function isNotTheTables(error: unknown): boolean {
  return error instanceof TaskAssociationError || (error instanceof Error && isConnectionLoss(error));
}
