/**
 * The one base class for every error this package raises on purpose.
 *
 * `code` is stable (scripts and tests match on it), `path` says where the problem is (a dot path into
 * a document, a table and column, a row), and `message` is a sentence a person can act on.
 * Each boundary has its own subclass so callers can tell them apart with `instanceof`.
 *
 * An error that is an HTTP answer says so where it is made, as hono's `HTTPException` does: its class
 * has a `status` (a 404, a 409, a 503...), and `undefined` for one that is not an answer to a request
 * (the installer's, the command line's, and this base class's). A subclass whose status varies per
 * error (the gallery's `GalleryMediaError`) keeps it in a field of its own behind the same getter. One
 * function turns any error into a handler's answer (`src/http/error-answer.ts`).
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

  /**
   * The HTTP status the error answers with: none here (`undefined`: not an answer to a request, or
   * the installation's to fix, 500). A getter, so spreading or serialising an error shows no more.
   */
  get status(): number | undefined {
    return undefined;
  }

  /**
   * What the error's answer lists beside its code and message (a conflict's fields): none here.
   * A getter, as `status` is in the subclasses: nothing is added to the error's own properties.
   */
  get details(): Readonly<Record<string, unknown>> | undefined {
    return undefined;
  }
}

/** A name that was meant to be an SQL identifier and is not one. Raised before any SQL is built. */
export class IdentifierError extends TaskAssociationError {
  /** A table name of a parameter row or TREE_VIEW: the installation's to fix, not the request's. */
  override get status(): number | undefined {
    return 500;
  }
}

/** The database could not be reached or refused us: one line, no stack trace, password redacted. HTTP 503. */
export class DatabaseConnectionError extends TaskAssociationError {
  override get status(): number | undefined {
    return 503;
  }
}

/**
 * The database did not answer in time (a pool connection, a statement): nothing of the call was
 * committed, and the connection it used was destroyed. Worth trying again later; HTTP 503. A COMMIT
 * that goes unanswered is not one: its outcome is unknown (`DatabaseConnectionError`,
 * `DATABASE_CONNECTION_LOST`).
 */
export class DatabaseTimeoutError extends TaskAssociationError {
  override get status(): number | undefined {
    return 503;
  }

  /** Seconds a client waits before trying again: long enough not to pile onto a struggling database. */
  get retryAfter(): number {
    return 5;
  }
}

/** Text a client made up, cut short for messages: an error never echoes kilobytes of input. */
export function abbreviated(text: string, max = 64): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}
