// `task-association/testing`: helpers for configuration authors' own test suites. Nothing here
// imports a test framework, so the module loads under vitest, jest or node:test alike.
import { ConfigError, type ConfigIssue, type ConfigIssueCode, formatIssues } from './issues.js';
import { parseTreeView, type TreeView } from './tree-view.js';

/**
 * Thrown by {@link assertValidTreeView}: a {@link ConfigError} whose message lists every problem, one
 * per line, as a test report shows it best.
 */
export class TreeViewAssertionError extends ConfigError {
  declare readonly issues: readonly ConfigIssue[];

  constructor(issues: readonly ConfigIssue[]) {
    const count = issues.length === 1 ? '1 problem' : `${issues.length} problems`;
    super('INVALID_TREE_VIEW', 'the TREE_VIEW is invalid', issues, {
      message: `the TREE_VIEW is invalid (${count}):\n${formatIssues(issues)}`,
      path: issues[0]?.path ?? '',
    });
  }
}

/**
 * Throws a {@link TreeViewAssertionError} listing every problem (`✖ message → at layers.2.table`)
 * unless `input` (JSON text or a parsed value) is a valid TREE_VIEW; returns the checked tree.
 *
 * @example const tree = assertValidTreeView(await readFile('tree-view.json', 'utf8'));
 */
export function assertValidTreeView(input: unknown): TreeView {
  const result = parseTreeView(input);
  if (!result.success) throw new TreeViewAssertionError(result.issues);
  return result.data;
}

/** The problems of `input`, `[]` when it is valid: handy with `toMatchInlineSnapshot()`. */
export function treeViewIssues(input: unknown): readonly ConfigIssue[] {
  const result = parseTreeView(input);
  return result.success ? [] : result.issues;
}

/** What a matcher returns to `expect.extend` (the shape vitest and jest share). */
interface MatcherResult {
  pass: boolean;
  message: () => string;
}

/**
 * Matchers for `expect.extend(treeViewMatchers)`:
 * - `expect(json).toBeValidTreeView()`;
 * - `expect(json).toHaveTreeViewIssue('LAYER_GAP')` or `.toHaveTreeViewIssue('MISSING_KEY', 'layers.2.table')`.
 * Failure messages list the problems found, one per line.
 */
export const treeViewMatchers = {
  toBeValidTreeView(received: unknown): MatcherResult {
    const issues = treeViewIssues(received);
    return {
      pass: issues.length === 0,
      message: () =>
        issues.length === 0
          ? 'expected an invalid TREE_VIEW, but it is valid'
          : `expected a valid TREE_VIEW, but found:\n${formatIssues(issues)}`,
    };
  },
  toHaveTreeViewIssue(received: unknown, code: ConfigIssueCode, path?: string): MatcherResult {
    const issues = treeViewIssues(received);
    const wanted = path === undefined ? code : `${code} at ${path === '' ? 'the document' : path}`;
    const pass = issues.some((issue) => issue.code === code && (path === undefined || issue.path === path));
    return {
      pass,
      message: () =>
        pass
          ? `expected no ${wanted}, but found it`
          : `expected ${wanted}, but found${issues.length === 0 ? ' no problem' : `:\n${issues.map((issue) => `${issue.code} ${formatIssues([issue])}`).join('\n')}`}`,
    };
  },
};

/**
 * The matchers' types, for the author's declaration file:
 * `declare module 'vitest' { interface Assertion<T> extends TreeViewMatchers<T> {} }`.
 */
export interface TreeViewMatchers<R = unknown> {
  toBeValidTreeView(): R;
  toHaveTreeViewIssue(code: ConfigIssueCode, path?: string): R;
}
