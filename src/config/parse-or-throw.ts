import type { z } from 'zod';
import { ConfigError } from './issues.js';
import { toConfigIssues } from './zod-issues.js';

/**
 * Parses `input` with a builder's model, or throws a {@link ConfigError} listing every issue with
 * its path: the builders all refuse bad input the same way.
 */
export function parseOrThrow<Schema extends z.ZodType>(
  schema: Schema,
  input: unknown,
  code: string,
  message: string,
): z.output<Schema> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new ConfigError(code, message, toConfigIssues(parsed.error.issues, input));
  return parsed.data;
}
