/**
 * The one base class for every error this package raises on purpose.
 *
 * `code` is stable (scripts and tests match on it), `path` says where the problem is (a dot path into
 * a document, a table and column, a row), and `message` is a sentence a person can act on.
 * Each boundary has its own subclass so callers can tell them apart with `instanceof`.
 */
export class TaskAssociationError extends Error {
  readonly code: string;
  readonly path: string | undefined;

  constructor(code: string, message: string, options: { path?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.path = options.path;
  }
}

/** A name that was meant to be an SQL identifier and is not one. Raised before any SQL is built. */
export class IdentifierError extends TaskAssociationError {}

/** The database could not be reached or refused us: one line, no stack trace, password redacted. */
export class DatabaseConnectionError extends TaskAssociationError {}

/**
 * The database did not answer in time (a pool connection, a statement): nothing of the call was
 * committed, and the connection it used was destroyed. Worth trying again later; HTTP 503.
 */
export class DatabaseTimeoutError extends TaskAssociationError {}

/** Text a client made up, cut short for messages: an error never echoes kilobytes of input. */
export function abbreviated(text: string, max = 64): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}
