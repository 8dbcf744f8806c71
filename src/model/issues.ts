import { z } from 'zod';
import { TaskAssociationError } from './errors.js';

/**
 * The stable codes of configuration problems. Scripts match on them (`validate --json`), so a code
 * is never renamed; new ones may be added.
 */
export const CONFIG_ISSUE_CODES = [
  // a file's bytes that are not UTF-8 (saved as Latin-1, say).
  'INVALID_UTF8',
  'INVALID_JSON',
  'DUPLICATE_KEY',
  'WRONG_TYPE',
  'MISSING_KEY',
  'UNKNOWN_KEY',
  'INVALID_IDENTIFIER',
  'INVALID_VALUE',
  // a text written to the host that UTF-8 cannot hold (a lone UTF-16 surrogate).
  'INVALID_TEXT',
  'INVALID_LAYER_KEY',
  'NO_LAYERS',
  'LAYER_GAP',
  'TOO_MANY_LAYERS',
  'MISSING_TASK_LAYER',
  'TASK_LAYER_NOT_LAST',
  'MISSING_ASSOCIATION_TABLE',
  'ASSOCIATION_ON_TASK_LAYER',
  'DERIVED_COLUMN_TOO_LONG',
  'EMPTY_METRICS',
  'DUPLICATE_METRIC_FIELD',
  'RESERVED_METRIC_FIELD',
  'UNKNOWN_DEFAULT_TYPE',
  'CONFLICTING_PARAMETERS',
  'HOST_TABLE',
  // an install file's tableNames: two logical tables on one name.
  'DUPLICATE_TABLE_NAME',
  // validate --scope: override rows every load would refuse (as verify says them).
  'OVERRIDE_INVALID',
  'OVERRIDE_CLASH',
  'OVERRIDE_TABLE_MISSING',
  // validate --scope: a valid TREE_VIEW that does not fit the scope's database (as verify says it).
  'TREE_VIEW_TABLE_MISSING',
  'TREE_VIEW_COLUMN_MISSING',
  'TREE_VIEW_METRIC_TYPE',
  'TREE_VIEW_DEFAULT_UNFIT',
  'TREE_VIEW_METRIC_TABLE',
] as const;
export const ConfigIssueCode = z.enum(CONFIG_ISSUE_CODES);
export type ConfigIssueCode = z.infer<typeof ConfigIssueCode>;

/**
 * One problem of an input: where (a dot path, "" for the whole input), what (a stable code scripts
 * match on), and why, in a sentence that says what to do. Every check of the package reports its
 * problems in this one shape: configuration documents, the installer's findings, `verify`, the
 * TREE_VIEW's fit to the database, override rows.
 */
export interface Issue<Code extends string = string> {
  readonly path: string;
  readonly code: Code;
  readonly message: string;
}

/** `issues` found inside a part of a larger input, their paths made to start at `prefix`. */
export function issuesUnder<T extends Issue>(prefix: string, issues: readonly T[]): T[] {
  return issues.map((issue) => ({ ...issue, path: issue.path === '' ? prefix : `${prefix}.${issue.path}` }));
}

/** One issue on one line: `layers.2.table: message`, or the message alone for the whole input. */
export function formatIssue(issue: Issue): string {
  return issue.path === '' ? issue.message : `${issue.path}: ${issue.message}`;
}

/** One problem of a configuration document, its code one of {@link CONFIG_ISSUE_CODES}. */
export const ConfigIssue = z.object({
  path: z.string(),
  code: ConfigIssueCode,
  message: z.string(),
});
export type ConfigIssue = z.infer<typeof ConfigIssue>;

/** The outcome of checking a document: the typed value, or every problem found at once (zod's safeParse shape). */
export type ConfigResult<T> =
  | { readonly success: true; readonly data: T }
  | { readonly success: false; readonly issues: readonly ConfigIssue[] };

/**
 * A configuration that cannot be used: an input (a TREE_VIEW, menu input, link-field input, OPCOES
 * string, parameter row), or an installation whose configuration does not fit its tables
 * ({@link ConfigurationError}). `issues` lists every problem; the message names the first ones.
 */
export class ConfigError extends TaskAssociationError {
  readonly issues: readonly Issue[];

  constructor(
    code: string,
    what: string,
    issues: readonly Issue[],
    options: { cause?: unknown; message?: string; path?: string | undefined } = {},
  ) {
    const first = issues[0];
    // The error's own path: the one given, else the first issue's.
    const path = 'path' in options ? options.path : first?.path;
    super(code, options.message ?? `${what}: ${formatIssuesInline(issues)}`, {
      ...(path === undefined ? {} : { path }),
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
    this.issues = issues;
  }

  /**
   * Met by a request, a configuration is the installation's to fix (a parameter row, a TREE_VIEW that
   * does not fit its tables), not the request's: a 500 the host's operators hear of.
   */
  override get status(): number | undefined {
    return 500;
  }
}

/**
 * An installation's configuration that does not fit its tables: a metric default names a column the
 * row lacks, a metric column is missing from the metric table, the TREE_VIEW's metric table does not
 * match its tree. A {@link ConfigError} with one issue, its own code, path and message: an operator
 * fixes it, not the end user (the association handler answers 500).
 */
export class ConfigurationError extends ConfigError {
  constructor(code: string, message: string, options: { path?: string; cause?: unknown } = {}) {
    super(code, message, [{ code, path: options.path ?? '', message }], {
      message,
      // No path given: the error has none (its issue, the whole configuration's, has '').
      ...(options.path === undefined ? { path: undefined } : { path: options.path }),
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
  }
}

/** `layers.2.table`; numbers of arrays become segments too (`metrics.0.field`). */
export function formatPath(path: readonly PropertyKey[]): string {
  return path.map(String).join('.');
}

/** One issue per line, as zod's `prettifyError` prints them: `✖ message → at layers.2.table`. */
export function formatIssues(issues: readonly Issue[]): string {
  return issues
    .map((issue) => `✖ ${issue.message}${issue.path === '' ? '' : ` → at ${issue.path}`}`)
    .join('\n');
}

/** The issues on one line, for an error message: `layers.2.table: ...; metrics.0.field: ...`. */
export function formatIssuesInline(issues: readonly Issue[]): string {
  const count = issues.length === 1 ? '' : `${issues.length} problems: `;
  return count + issues.map(formatIssue).join('; ');
}

/** What a JSON value is, for messages: `a string ("x")`, `an array`, `null`. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') {
    const shown = value.length > 40 ? `${JSON.stringify(value.slice(0, 40))}...` : JSON.stringify(value);
    return `a string (${shown})`;
  }
  if (typeof value === 'number') return `a number (${value})`;
  if (typeof value === 'boolean') return `a boolean (${value})`;
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}
