import { z } from 'zod';
import { isRecord } from './layer-rules.js';

/** A problem with a key of a record, its path relative to the record. */
export interface KeyProblem {
  readonly path: string[];
  readonly message: string;
  /** A config issue code, where the record has one (see issues.ts). */
  readonly code?: string;
}

/**
 * zod's records skip a key named `__proto__` without a word (it will not assign one), so a JSON
 * document's `{"__proto__": ...}` would vanish and the rest be called valid. Every record of ours that
 * comes from JSON goes through this: a value with its own `__proto__` key gets `problems` reported
 * against the keys as given, never the record's silent copy. Other keys (`constructor`, `prototype`)
 * are ordinary own keys to zod and to our rules.
 *
 * @example withOwnKeys(z.record(z.string(), z.number()), () => [{ path: ['__proto__'], message: 'not a column' }])
 */
export function withOwnKeys<Schema extends z.ZodType>(
  schema: Schema,
  problems: (given: Record<string, unknown>) => readonly KeyProblem[],
) {
  // The input type is the record's own, so callers keep its type (a preprocess alone takes unknown).
  return z.preprocess<unknown, Schema, z.input<Schema>>((given, ctx) => {
    if (isRecord(given) && Object.hasOwn(given, '__proto__')) {
      for (const { path, message, code } of problems(given)) {
        ctx.addIssue({
          code: 'custom',
          path,
          message,
          input: given,
          ...(code === undefined ? {} : { params: { code } }),
        });
      }
    }
    return given;
  }, schema);
}
