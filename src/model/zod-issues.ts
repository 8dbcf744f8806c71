import type { z } from 'zod';
import { IDENTIFIER_PATTERN, IDENTIFIER_RULE } from './identifier.js';
import {
  CONFIG_ISSUE_CODES,
  type ConfigIssue,
  type ConfigIssueCode,
  describeValue,
  formatPath,
} from './issues.js';

/**
 * Turns zod's issues into ours: a stable code and a message that says what to write instead. zod's
 * own messages ("Invalid input: expected string, received undefined") do not tell a configuration
 * author what to do. `input` is the checked value, used to tell a missing key from a wrong type.
 * `allowedKeys` lists the keys an object at a path may have, for the "unknown key" message.
 *
 * Written for the models of this folder: their only regex is the identifier's, their only
 * discriminated union the metric default, their plain unions a `value` default's
 * number | string | null and a header column's name | { column, label }, and their only non-empty
 * array `metrics`.
 */
export function toConfigIssues(
  issues: readonly z.core.$ZodIssue[],
  input: unknown,
  allowedKeys: (path: readonly PropertyKey[], value: unknown) => readonly string[] | undefined = () =>
    undefined,
): ConfigIssue[] {
  // One value broken two ways by checks that overlap (an integer past 2^53 is refused by both the
  // integer check and the maximum) is said once: the first, most specific, message stays.
  const seen = new Set<string>();
  return issues
    .flatMap((issue) => convert(issue, input, allowedKeys))
    .filter((issue) => {
      if (issue.code !== 'INVALID_VALUE') return true;
      const key = `${issue.path}\u0000${issue.code}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

function convert(
  issue: z.core.$ZodIssue,
  input: unknown,
  allowedKeys: (path: readonly PropertyKey[], value: unknown) => readonly string[] | undefined,
): ConfigIssue[] {
  const path = formatPath(issue.path);
  const value = valueAt(input, issue.path);
  const one = (code: ConfigIssueCode, message: string): ConfigIssue[] => [{ path, code, message }];
  switch (issue.code) {
    case 'custom': {
      const code = issue.params?.code;
      return one(isIssueCode(code) ? code : 'INVALID_VALUE', issue.message);
    }
    case 'invalid_type':
      if (value === undefined) return one('MISSING_KEY', `"${String(issue.path.at(-1))}" is required`);
      if (issue.path.length === 0)
        return one(
          'WRONG_TYPE',
          `the document must be a JSON ${issue.expected}, got ${describeValue(value)}`,
        );
      return one('WRONG_TYPE', `expected ${article(typeName(issue.expected))}, got ${describeValue(value)}`);
    case 'unrecognized_keys': {
      const parent = valueAt(input, issue.path);
      const allowed = allowedKeys(issue.path, parent);
      const hint = allowed === undefined ? '' : `: allowed keys are ${allowed.join(', ')}`;
      return issue.keys.map((key) => ({
        path: formatPath([...issue.path, key]),
        code: 'UNKNOWN_KEY' as const,
        message: `unknown key "${key}"${hint}`,
      }));
    }
    case 'invalid_format':
      if (
        issue.format === 'regex' &&
        issue.pattern === String(IDENTIFIER_PATTERN) &&
        typeof value === 'string'
      )
        return one(
          'INVALID_IDENTIFIER',
          `${shown(value)} is not an SQL identifier: ${hiddenCharacter(value) ?? IDENTIFIER_RULE}`,
        );
      return one('INVALID_VALUE', issue.message);
    case 'invalid_union':
      if ('discriminator' in issue && issue.discriminator !== undefined) {
        const options = (issue as { options?: unknown[] }).options?.map(String).join(', ') ?? '';
        if (value === undefined)
          return one('MISSING_KEY', `"${issue.discriminator}" is required: one of ${options}`);
        return one(
          'UNKNOWN_DEFAULT_TYPE',
          `unknown default ${issue.discriminator} ${shown(value)}: use one of ${options}`,
        );
      }
      if (value === undefined) return one('MISSING_KEY', `"${String(issue.path.at(-1))}" is required`);
      if (issue.path.at(-2) === 'taskSheetColumns') {
        // A header column: a name, or { column, label }. The option of the value's own kind says
        // what is wrong inside it (a name that is no identifier, a label left out).
        const ofItsKind = issue.errors.find((option) =>
          option.every((inner) => inner.code !== 'invalid_type' || inner.path.length > 0),
        );
        if (ofItsKind !== undefined) {
          return ofItsKind.flatMap((inner) =>
            convert({ ...inner, path: [...issue.path, ...inner.path] }, input, allowedKeys),
          );
        }
        return one(
          'WRONG_TYPE',
          `expected a column name, or { "column": ..., "label": ... }, got ${describeValue(value)}`,
        );
      }
      return one('WRONG_TYPE', `expected a number, a string or null, got ${describeValue(value)}`);
    case 'too_small':
      if (issue.origin === 'array')
        return one(
          'EMPTY_METRICS',
          'the list is empty: list at least one metric, or leave the key out for the defaults',
        );
      if (issue.origin === 'string')
        return one('INVALID_VALUE', 'the text is empty: write something or leave the key out');
      if (issue.origin === 'number')
        return one(
          'INVALID_VALUE',
          `${String(value)} is too small: use a whole number of at least ${String(issue.minimum)}`,
        );
      return one('INVALID_VALUE', issue.message);
    case 'too_big':
      if (issue.origin === 'number')
        return one(
          'INVALID_VALUE',
          `${String(value)} is too large: use a whole number of at most ${String(issue.maximum)}`,
        );
      if (issue.origin === 'string' && typeof value === 'string')
        return one(
          'INVALID_VALUE',
          `the text has ${[...value].length} characters: use at most ${String(issue.maximum)}`,
        );
      if (issue.origin === 'array')
        return one('INVALID_VALUE', `the list is too long: give at most ${String(issue.maximum)} items`);
      return one('INVALID_VALUE', issue.message);
    case 'invalid_key': {
      // A key of an object whose keys have a rule (hostColumns' column names).
      const key = issue.path.at(-1);
      const [inner] = issue.issues;
      const rule =
        inner?.code === 'invalid_format' &&
        inner.format === 'regex' &&
        inner.pattern === String(IDENTIFIER_PATTERN)
          ? IDENTIFIER_RULE
          : (inner?.message ?? 'not allowed here');
      return one('INVALID_IDENTIFIER', `the key ${shown(String(key))} is not allowed: ${rule}`);
    }
    default:
      return one('INVALID_VALUE', issue.message);
  }
}

/**
 * "it holds U+00A0 at character 8 (invisible in most editors)", for a name with a character a person
 * cannot see or tell apart (a no-break space, a byte-order mark, an accented letter), as the parameter
 * rows' reader says it; undefined when every character is plain ASCII.
 */
function hiddenCharacter(value: string): string | undefined {
  // Spaces are visible: only what is not printable ASCII is named.
  const found = /[^\x20-\x7e]/u.exec(value);
  if (found === null) return undefined;
  const point = found[0].codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0');
  return `it holds U+${point} at character ${found.index + 1}: ${IDENTIFIER_RULE}`;
}

function isIssueCode(code: unknown): code is ConfigIssueCode {
  return typeof code === 'string' && (CONFIG_ISSUE_CODES as readonly string[]).includes(code);
}

/** A string in quotes (cut at 64 characters), anything else described. */
function shown(value: unknown): string {
  if (typeof value !== 'string') return describeValue(value);
  return value.length > 64
    ? `${JSON.stringify(value.slice(0, 64))}... (${value.length} characters)`
    : JSON.stringify(value);
}

// zod's "record" is a JSON object to the person writing the file.
function typeName(expected: string): string {
  return expected === 'record' ? 'object' : expected;
}

function article(expected: string): string {
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

/** The value at `path` inside `input`, or undefined when the path leaves the document. */
export function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}
