import { TaskAssociationError } from '../errors.js';

/** Options of the gallery that cannot work (no secret, a weak secret, a bad limit). */
export class GalleryConfigError extends TaskAssociationError {}

/**
 * A media item that cannot be served as asked. `status` is the HTTP answer the handler gives, so
 * every refusal is a 4xx (or a 503 when busy) and never a 500.
 */
export class GalleryMediaError extends TaskAssociationError {
  readonly status: number;

  constructor(
    code: string,
    status: number,
    message: string,
    options: { path?: string; cause?: unknown } = {},
  ) {
    super(code, message, options);
    this.status = status;
  }
}
