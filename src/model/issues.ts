import { z } from 'zod';
import { TaskAssociationError } from './errors.js';

/**
 * The stable codes of configuration problems. Scripts match on them (`validate --json`), so a code
 * is never renamed; new ones may be added.
 */
export const CONFIG_ISSUE_CODES = [
  'INVALID_JSON',
  'DUPLICATE_KEY',
  'WRONG_TYPE',
  'MISSING_KEY',
  'UNKNOWN_KEY',
  'INVALID_IDENTIFIER',
  'INVALID_VALUE',
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

/** One problem of a configuration document: where (a dot path, "" for the whole document), what, and why. */
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
 * A configuration input (a TREE_VIEW, menu input, link-field input, OPCOES string, parameter row)
 * that cannot be used. `issues` lists every problem; the message names the first ones.
 */
export class ConfigError extends TaskAssociationError {
  readonly issues: readonly ConfigIssue[];

  constructor(code: string, what: string, issues: readonly ConfigIssue[], options: { cause?: unknown } = {}) {
    const first = issues[0];
    super(code, `${what}: ${formatIssuesInline(issues)}`, {
      ...(first === undefined ? {} : { path: first.path }),
      ...options,
    });
    this.issues = issues;
  }
}

/** `layers.2.table`; numbers of arrays become segments too (`metrics.0.field`). */
export function formatPath(path: readonly PropertyKey[]): string {
  return path.map(String).join('.');
}

/** One issue per line, as zod's `prettifyError` prints them: `✖ message → at layers.2.table`. */
export function formatIssues(issues: readonly ConfigIssue[]): string {
  return issues
    .map((issue) => `✖ ${issue.message}${issue.path === '' ? '' : ` → at ${issue.path}`}`)
    .join('\n');
}

/** The issues on one line, for an error message: `layers.2.table: ...; metrics.0.field: ...`. */
export function formatIssuesInline(issues: readonly ConfigIssue[]): string {
  const count = issues.length === 1 ? '' : `${issues.length} problems: `;
  return (
    count + issues.map((issue) => (issue.path === '' ? '' : `${issue.path}: `) + issue.message).join('; ')
  );
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
