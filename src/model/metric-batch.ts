import { z } from 'zod';
import { abbreviated } from './errors.js';
import { withOwnKeys } from './own-keys.js';
import { InvalidRequestError } from './request-errors.js';
import { SeqDb } from './seq-db.js';

const MetricValueInput = z.union([z.number(), z.string(), z.null()], {
  error: 'a metric value is a number, a string (decimals best as exact text, "12.50") or null',
});

/** Metric column to value, with no `__proto__` slipping past as a column. */
function fieldRecord(what: string) {
  return withOwnKeys(z.record(z.string(), MetricValueInput), () => [
    { path: ['__proto__'], message: `"__proto__" is not a metric column (in ${what})` },
  ]);
}

/**
 * One metric row to save or remove: which activity, reached through which parent node, and either
 * the values to write or `remove: true`.
 *
 * `base` says, per field, the value the client started from (the saved value it loaded, null where it
 * loaded no saved row): a field whose stored value differs from its base, and from the value sent,
 * refuses the whole batch (METRIC_CONFLICT). A field without a base is written whatever is stored
 * (last writer wins, as before bases existed).
 *
 * `row` says whether the client read a live row of the key: a base of null alone cannot tell "no
 * row" (a default was shown) from "a row holding NULL" (saved empty). With `row: false`, a key that
 * has a live row now conflicts at every sent field it does not already hold as sent; with
 * `row: true`, a key without a live row now conflicts at every sent field. Left out: bases alone.
 */
export const MetricEntry = z
  .strictObject({
    /** The activity's SEQ_DB (the metric row's OPER_SEQ_DB). */
    activity: SeqDb,
    /** The parent node's SEQ_DB (the metric row's OPER_GRUPO_SEQ_DB); null only on a one-level tree. */
    group: SeqDb.nullable(),
    /** Metric column to value, only the fields that change: decimals best as exact text ("12.50"), integers as numbers, null to clear. */
    values: fieldRecord('values')
      .refine((values) => Object.keys(values).length > 0, { message: 'give at least one metric value' })
      .optional(),
    /** Metric column to the value the client started from; for a save only fields in `values`, for a remove any metric. */
    base: fieldRecord('base').optional(),
    /**
     * Whether the client read a live row of this key (true) or none, its fields showing defaults
     * (false): a row made or removed since is a conflict. Left out: the bases alone decide.
     */
    row: z
      .boolean({ error: 'row is true (a live row of this key was read), false (none was), or left out' })
      .optional(),
    /** Soft-deletes the key's live row (DELETED=1); the defaults apply again afterwards. No `values` then. */
    remove: z.literal(true, { error: 'remove is true, or left out' }).optional(),
    /**
     * When the person entered it on their device (ISO 8601 with its offset or Z), where that differs
     * from when it reaches the server (an entry queued offline): the history keeps it as DEVICE_DH
     * beside the server's CHANGED_DH. At most {@link DEVICE_CLOCK_SKEW_SECONDS} ahead of the server,
     * and no older than {@link REQUEST_RETENTION_SECONDS} (a replay older than that may no longer be
     * recognised by its request id, so it is refused rather than applied twice): checked by the save
     * after its request id is looked up (`deviceTimeProblem`), since a retry of a save stored while
     * its entry was younger is answered, not refused.
     */
    enteredAt: z
      .string()
      .pipe(
        z.iso.datetime({
          offset: true,
          message: 'enteredAt is an ISO 8601 time with its offset or Z, as 2026-11-20T14:05:00-03:00',
        }),
      )
      .optional(),
  })
  .superRefine((entry, ctx) => {
    if (entry.remove === true && entry.values !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['values'],
        message: 'an entry either saves values or removes the row (remove: true), not both',
      });
    } else if (entry.remove === undefined && entry.values === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['values'],
        message: 'give the values to save, or remove: true to remove the entry',
      });
    }
    // Removing needs a row: one read as absent has nothing of the client's to remove.
    if (entry.remove === true && entry.row === false) {
      ctx.addIssue({
        code: 'custom',
        path: ['row'],
        message: 'a remove removes the row the client read: row is true, or left out',
      });
    }
    if (entry.values === undefined || entry.base === undefined) return;
    for (const field of Object.keys(entry.base)) {
      if (!Object.hasOwn(entry.values, field)) {
        ctx.addIssue({
          code: 'custom',
          path: ['base', field],
          message: `a base for ${field}, which this entry does not change: give a base only for the fields in values`,
        });
      }
    }
  });
export type MetricEntry = z.infer<typeof MetricEntry>;

/** How long a request id is remembered: a retry within it is answered, not applied again (7 days). */
export const REQUEST_RETENTION_SECONDS = 7 * 24 * 3600;

/** How far ahead of the server's clock a device's time of entry may be: clocks of phones drift. */
export const DEVICE_CLOCK_SKEW_SECONDS = 300;

/** Why a device's time of entry `at` (ms) is refused at server time `now` (ms), if it is. */
export function deviceTimeProblem(at: number, now: number): string | undefined {
  if (at > now + DEVICE_CLOCK_SKEW_SECONDS * 1000) {
    return `enteredAt is more than ${DEVICE_CLOCK_SKEW_SECONDS / 60} minutes ahead of the server's clock: check the device's clock`;
  }
  if (at < now - REQUEST_RETENTION_SECONDS * 1000) {
    return `enteredAt is more than ${REQUEST_RETENTION_SECONDS / 86400} days old: an entry that old is no longer sent (its request id is forgotten after that)`;
  }
  return undefined;
}

/**
 * A client's id for one save, so that sending it again (a retry after a lost answer) gets the first
 * answer instead of being applied twice: 1 to 64 characters, letters, digits and `._:-` (a UUID fits).
 */
export const RequestId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/, {
  message: 'a request id is 1 to 64 letters, digits or ._:- starting with a letter or digit (a UUID fits)',
});

/**
 * Who sent a save, as the history records it: the association screen, a program through the API, the
 * screen's outbox sending what was entered offline, or values copied from another task sheet.
 */
export const SaveSource = z.enum(['screen', 'api', 'offline', 'copy'], {
  error: 'source is "screen", "api", "offline" or "copy"',
});
export type SaveSource = z.infer<typeof SaveSource>;

const OWNER_KEY_TEXT = 'owner is the key part=owner answers (22 letters, digits, - or _), or left out';

/**
 * The owner key a save was made under (`part=owner`, src/http/owner-key.ts): a label of the user
 * and scope signed in when the entries were typed. The handler refuses a batch whose owner is not the
 * session's (`OWNER_CHANGED`), so entries kept offline are never stored as whoever signed in after.
 */
export const OwnerKey = z
  .string({ error: OWNER_KEY_TEXT })
  .regex(/^[A-Za-z0-9_-]{22}$/, { message: OWNER_KEY_TEXT });

/**
 * The batch the association screen PUTs: at most 1000 entries, so one request cannot hold locks for
 * long. `owner`, optional, is the owner key the entries were made under (the outbox sends it).
 */
export const MetricBatch = z.strictObject({
  entries: z.array(MetricEntry).min(1, { message: 'give at least one entry' }).max(1000),
  requestId: RequestId.optional(),
  source: SaveSource.optional(),
  owner: OwnerKey.optional(),
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
  const unknown =
    issue?.code === 'unrecognized_keys' ? issue.keys.slice(0, 1).map((key) => abbreviated(key)) : [];
  const path = [prefix, ...(issue?.path ?? []).map(String), ...unknown]
    .filter((part) => part !== '')
    .join('.');
  // zod's own message lists every unknown key: a body of 80,000 made-up keys would be echoed whole.
  const message =
    issue?.code === 'unrecognized_keys'
      ? `unknown key ${JSON.stringify(abbreviated(issue.keys[0] ?? ''))}${issue.keys.length > 1 ? ` (and ${issue.keys.length - 1} more)` : ''}`
      : (issue?.message ?? 'invalid');
  throw new InvalidRequestError('INVALID_REQUEST', `${what}${path ? ` at ${path}` : ''}: ${message}`, {
    path,
  });
}
