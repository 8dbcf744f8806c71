import type { z } from 'zod';
import { ConfigError, type ConfigResult } from './issues.js';
import { parseJsonText } from './json-text.js';
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

/**
 * Checks a configuration document, given as JSON text (read with the strict JSON reader: syntax
 * errors with line and column, duplicate keys refused) or as a parsed value, against its model:
 * the typed value, or every problem as `{ path, code, message }`. `allowedKeys` names the keys an
 * object at a path may have, for the "unknown key" message.
 */
export function checkDocument<Schema extends z.ZodType>(
  schema: Schema,
  input: unknown,
  allowedKeys?: Parameters<typeof toConfigIssues>[2],
): ConfigResult<z.output<Schema>> {
  let value = input;
  if (typeof input === 'string') {
    const parsed = parseJsonText(input);
    if (!parsed.success) return { success: false, issues: parsed.issues };
    value = parsed.value;
  }
  const result = schema.safeParse(value);
  if (result.success) return { success: true, data: result.data };
  return { success: false, issues: toConfigIssues(result.error.issues, value, allowedKeys) };
}
