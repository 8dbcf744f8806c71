import { z } from 'zod';
import { withOwnKeys } from './own-keys.js';
import { InvalidRequestError } from './request-errors.js';
import { SeqDb } from './seq-db.js';

/** One metric row to save: which activity, reached through which parent node, and the values by column. */
export const MetricEntry = z.strictObject({
  /** The activity's SEQ_DB (the metric row's OPER_SEQ_DB). */
  activity: SeqDb,
  /** The parent node's SEQ_DB (the metric row's OPER_GRUPO_SEQ_DB); null only on a one-level tree. */
  group: SeqDb.nullable(),
  /** Metric column to value: decimals best as exact text ("12.50"), integers as numbers, null to clear. */
  values: withOwnKeys(
    z
      .record(
        z.string(),
        z.union([z.number(), z.string(), z.null()], {
          error: 'a metric value is a number, a string (decimals best as exact text, "12.50") or null',
        }),
      )
      .refine((values) => Object.keys(values).length > 0, { message: 'give at least one metric value' }),
    () => [{ path: ['__proto__'], message: '"__proto__" is not a metric column' }],
  ),
});
export type MetricEntry = z.infer<typeof MetricEntry>;

/** The batch the association screen PUTs: at most 1000 entries, so one request cannot hold locks for long. */
export const MetricBatch = z.strictObject({
  entries: z.array(MetricEntry).min(1, { message: 'give at least one entry' }).max(1000),
});
export type MetricBatch = z.infer<typeof MetricBatch>;

/** Parses with `schema`; the first problem becomes an {@link InvalidRequestError} with its dot path. */
export function parseInput<Model extends z.ZodType>(
  schema: Model,
  input: unknown,
  what: string,
  prefix = '',
): z.output<Model> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  // A misspelt key is said first: it also explains the key then missing ({ ctx } for { context }).
  const issue =
    result.error.issues.find((found) => found.code === 'unrecognized_keys') ?? result.error.issues[0];
  // An unknown key is reported at its object; the path names the key itself.
  const unknown = issue?.code === 'unrecognized_keys' ? issue.keys.slice(0, 1) : [];
  const path = [prefix, ...(issue?.path ?? []).map(String), ...unknown]
    .filter((part) => part !== '')
    .join('.');
  throw new InvalidRequestError(
    'INVALID_REQUEST',
    `${what}${path ? ` at ${path}` : ''}: ${issue?.message ?? 'invalid'}`,
    {
      path,
    },
  );
}
