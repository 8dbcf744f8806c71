import { TaskAssociationError } from './errors.js';

/** A request the caller can fix: a malformed batch, a value its column cannot hold. HTTP 400. */
export class InvalidRequestError extends TaskAssociationError {}

/** A request body above the handler's limit; it was not read to the end. HTTP 413. */
export class PayloadTooLargeError extends InvalidRequestError {}

/** The task sheet (or another row a request names) does not exist in the caller's scope. HTTP 404. */
export class NotFoundError extends TaskAssociationError {}

/**
 * A row the package may not change would have been: RO=1 (`READ_ONLY_ROW`) or ATIVO=0 (`INACTIVE_ROW`).
 * Nothing of the batch is written. HTTP 409.
 */
export class ReadOnlyRowError extends TaskAssociationError {}

/** Concurrent writers kept colliding past every retry; the batch was not written and may be re-sent. */
export class BusyError extends TaskAssociationError {}

/** A write from another site (Origin / Sec-Fetch-Site), which could ride the host's cookies. HTTP 403. */
export class CrossSiteError extends TaskAssociationError {}

/** A write whose body is not declared as JSON (a form or `text/plain` post a page can send anywhere). HTTP 415. */
export class UnsupportedMediaTypeError extends InvalidRequestError {}
