import { TaskAssociationError } from './errors.js';
import type { MetricValue } from './metrics.js';

/** A request the caller can fix: a malformed batch, a value its column cannot hold. HTTP 400. */
export class InvalidRequestError extends TaskAssociationError {
  override get status(): number | undefined {
    return 400;
  }
}

/** A request body above the handler's limit; it was not read to the end. HTTP 413. */
export class PayloadTooLargeError extends InvalidRequestError {
  override get status(): number | undefined {
    return 413;
  }
}

/** The task sheet (or another row a request names) does not exist in the caller's scope. HTTP 404. */
export class NotFoundError extends TaskAssociationError {
  override get status(): number | undefined {
    return 404;
  }
}

/**
 * A row the package may not change would have been: RO=1 (`READ_ONLY_ROW`) or ATIVO=0 (`INACTIVE_ROW`).
 * Nothing of the batch is written. HTTP 409.
 */
export class ReadOnlyRowError extends TaskAssociationError {
  override get status(): number | undefined {
    return 409;
  }
}

/**
 * Concurrent writers kept colliding past every retry; the batch was not written and may be re-sent.
 * HTTP 503, with Retry-After 1 s: each save holds the scope for milliseconds.
 */
export class BusyError extends TaskAssociationError {
  override get status(): number | undefined {
    return 503;
  }
}

/** A write from another site (Origin / Sec-Fetch-Site), which could ride the host's cookies. HTTP 403. */
export class CrossSiteError extends TaskAssociationError {
  override get status(): number | undefined {
    return 403;
  }
}

/** A write whose body is not declared as JSON (a form or `text/plain` post a page can send anywhere). HTTP 415. */
export class UnsupportedMediaTypeError extends InvalidRequestError {
  override get status(): number | undefined {
    return 415;
  }
}

/** A request that contradicts what is stored, so it was not applied; nothing of it was written. HTTP 409. */
export class ConflictError extends TaskAssociationError {
  override get status(): number | undefined {
    return 409;
  }
}

/** One field of one entry whose stored value changed since the value the client started from. */
export interface MetricConflict {
  /** The entry's index in the batch. */
  readonly entry: number;
  readonly activity: number;
  readonly group: number | null;
  readonly field: string;
  /** The value the client started from. */
  readonly base: MetricValue;
  /** The value stored now (null: empty, or no live row; `row` tells which). */
  readonly theirs: MetricValue;
  /** Whether the key has a live row now: the `row` a save sent again after this conflict gives. */
  readonly row: boolean;
  /** The value the client sent (null for a remove). */
  readonly yours: MetricValue;
  /** Who changed it last, and when (ISO 8601), where known. */
  readonly changedBy: number | null;
  readonly changedAt: string | null;
}

/**
 * Fields of a batch changed since the values its client started from (`base`): the batch was refused
 * whole, nothing written (`METRIC_CONFLICT`, HTTP 409). `conflicts` lists each field with its base,
 * the stored value and who changed it, and the value sent, for the client to ask the person.
 */
export class MetricConflictError extends ConflictError {
  readonly conflicts: readonly MetricConflict[];

  constructor(conflicts: readonly MetricConflict[], message: string, options: { path?: string } = {}) {
    super('METRIC_CONFLICT', message, options);
    this.conflicts = conflicts;
  }

  /** The answer lists each field beside the message, for the client to ask the person. */
  override get details(): Readonly<Record<string, unknown>> {
    return { conflicts: this.conflicts };
  }
}
