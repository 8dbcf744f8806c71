import type { z } from 'zod';
import { TaskAssociationError } from '../model/errors.js';

/** Options of the gallery that cannot work (no secret, a weak secret, a bad limit). */
export class GalleryConfigError extends TaskAssociationError {}

/**
 * Parses one option group with its zod schema; a bad value becomes a {@link GalleryConfigError}
 * whose path names the option (`limits.thumbSize`), instead of a bare ZodError.
 */
export function parseOption<S extends z.ZodType>(schema: S, value: unknown, name: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = [name, ...(issue?.path ?? [])].join('.');
  throw new GalleryConfigError('GALLERY_CONFIG', `gallery option ${path}: ${issue?.message ?? 'invalid'}`, {
    path,
  });
}

/**
 * A media item that cannot be served as asked. `status` is the HTTP answer the handler gives, so
 * every refusal is a 4xx (or a 503 when busy, a 504 when the source did not answer in time) and
 * never a 500.
 */
export class GalleryMediaError extends TaskAssociationError {
  // Behind the base's getter, as every class's status is: not an own property of the error.
  readonly #status: number;

  constructor(
    code: string,
    status: number,
    message: string,
    options: { path?: string; cause?: unknown } = {},
  ) {
    super(code, message, options);
    this.#status = status;
  }

  override get status(): number {
    return this.#status;
  }
}

/** The sentence to log for anything thrown: an error's message, or the thrown value itself. */
export const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
