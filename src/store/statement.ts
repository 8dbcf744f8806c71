/**
 * One SQL statement or fragment with its `?` parameters, in order. Fragments are put together with
 * {@link joinSql}, so that each parameter travels with its own text and no caller lines them up by
 * hand.
 */
export interface Statement {
  readonly sql: string;
  readonly params: readonly unknown[];
}

/** Plain text (names already checked and quoted, fixed keywords) or a fragment with its parameters. */
export type SqlPart = string | Statement;

/** The parts in order, their texts joined by `separator` and their parameters concatenated. */
export function joinSql(parts: readonly SqlPart[], separator = ''): Statement {
  const texts: string[] = [];
  const params: unknown[] = [];
  for (const part of parts) {
    if (typeof part === 'string') texts.push(part);
    else {
      texts.push(part.sql);
      params.push(...part.params);
    }
  }
  return { sql: texts.join(separator), params };
}

/** A fragment of `text` with `params`, for the places where one is built from literal text. */
export function fragment(text: string, ...params: readonly unknown[]): Statement {
  return { sql: text, params };
}
