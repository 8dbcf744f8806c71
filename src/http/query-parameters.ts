import type { z } from 'zod';
import { abbreviated } from '../model/errors.js';
import { InvalidRequestError } from '../model/request-errors.js';

/** A handler's query string: each parameter a model of the text it is given as. */
export type QueryModel = z.ZodObject<Record<string, z.ZodType<unknown, string | undefined>>>;

/**
 * Reads `url`'s query string against `model`, the handler's table of the parameters it accepts.
 * A parameter given twice is refused, not resolved to its first value (a proxy or a cache may read
 * the other one); a parameter the table does not name is refused, so a typo (`?tasksheet=`) is an
 * answer, not an ignored filter. A parameter whose %-escapes are not UTF-8 (`q=%FF`) is refused, not
 * read with U+FFFD in their place. Each error names the parameter, as its path.
 *
 * @example parseQuery(z.strictObject({ taskSheet: SeqDbText }), new URL('http://h/a?taskSheet=42')) // { taskSheet: 42 }
 */
export function parseQuery<Model extends QueryModel>(model: Model, url: URL): z.output<Model> {
  const known = Object.keys(model.shape);
  assertDecodable(url);
  const values: Record<string, string> = Object.create(null);
  for (const [name, value] of url.searchParams) {
    if (!known.includes(name)) {
      throw new InvalidRequestError(
        'UNKNOWN_QUERY_PARAMETER',
        `query parameter ${JSON.stringify(abbreviated(name))} is not one this endpoint reads (it reads ${known.join(', ')})`,
        { path: abbreviated(name) },
      );
    }
    if (Object.hasOwn(values, name)) {
      throw new InvalidRequestError(
        'REPEATED_QUERY_PARAMETER',
        `query parameter ${name} is given more than once: give it once`,
        { path: name },
      );
    }
    values[name] = value;
  }
  for (const name of known) {
    if (!Object.hasOwn(values, name) && !model.shape[name]?.safeParse(undefined).success) {
      throw new InvalidRequestError('INVALID_REQUEST', `query parameter ${name} is missing: give ?${name}=`, {
        path: name,
      });
    }
  }
  const result = model.safeParse({ ...values });
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const name = String(issue?.path[0] ?? '');
  throw new InvalidRequestError(
    'INVALID_REQUEST',
    `query parameter ${name}: ${issue?.message ?? 'invalid'}`,
    {
      path: name,
    },
  );
}

/**
 * Refuses a query parameter whose %-escapes do not decode as UTF-8: `URLSearchParams` turns them into
 * U+FFFD without a word, so `q=%FF` searched for a character nobody typed and answered no matches.
 */
function assertDecodable(url: URL): void {
  for (const pair of url.search.slice(1).split('&')) {
    const [rawName = '', rawValue = ''] = pair.split(/=(.*)/s);
    const name = decoded(rawName);
    const bad = name === undefined ? rawName : decoded(rawValue) === undefined ? rawValue : undefined;
    if (bad === undefined) continue;
    const path = abbreviated(name ?? rawName);
    throw new InvalidRequestError(
      'INVALID_REQUEST',
      `query parameter ${path}: ${JSON.stringify(abbreviated(bad))} has %-escapes that are not UTF-8: escape the text's UTF-8 bytes (encodeURIComponent)`,
      { path },
    );
  }
}

/**
 * A query string's part as `URLSearchParams` reads it, or undefined where its escapes are not UTF-8.
 * A `%` that starts no escape stays as it is, as `URLSearchParams` keeps it.
 */
function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replaceAll('+', ' ').replace(/%(?![0-9A-Fa-f]{2})/g, '%25'));
  } catch {
    return undefined;
  }
}
