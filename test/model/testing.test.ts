import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/model/issues.js';
import {
  assertValidTreeView,
  TreeViewAssertionError,
  type TreeViewMatchers,
  treeViewIssues,
  treeViewMatchers,
} from '../../src/model/testing.js';
import { PRODUCT_EXAMPLE } from './tree-view-cases.js';

expect.extend(treeViewMatchers);
declare module 'vitest' {
  interface Assertion<T> extends TreeViewMatchers<T> {}
}

const GAP = { layers: { '1': { table: 'app_oper_grupo' }, '3': { table: 'app_oper', isTask: true } } };

describe('task-association/testing', () => {
  it('assertValidTreeView returns the checked tree', () => {
    expect(assertValidTreeView(JSON.stringify(PRODUCT_EXAMPLE))).toStrictEqual(PRODUCT_EXAMPLE);
  });

  it('assertValidTreeView throws every problem, one per line', () => {
    expect(() => assertValidTreeView(GAP)).toThrowError(TreeViewAssertionError);
    // A ConfigError like every other configuration problem: one catch, the same `issues`.
    expect(() => assertValidTreeView(GAP)).toThrowError(ConfigError);
    expect(() => assertValidTreeView(GAP)).toThrow(
      expect.objectContaining({ code: 'INVALID_TREE_VIEW', issues: treeViewIssues(GAP), path: 'layers' }),
    );
    expect(() => assertValidTreeView(GAP)).toThrowErrorMatchingInlineSnapshot(`
      [TreeViewAssertionError: the TREE_VIEW is invalid (2 problems):
      ✖ layer "2" is missing: layers are numbered "1" to "3" without gaps → at layers
      ✖ layer 1 needs "associationTable", the table linking it to layer 2 → at layers.1.associationTable]
    `);
  });

  it('treeViewIssues lists the problems', () => {
    expect(treeViewIssues(PRODUCT_EXAMPLE)).toStrictEqual([]);
    expect(treeViewIssues('{').map((issue) => issue.code)).toStrictEqual(['INVALID_JSON']);
  });

  it('matchers pass and fail with readable messages', () => {
    expect(PRODUCT_EXAMPLE).toBeValidTreeView();
    expect(GAP).not.toBeValidTreeView();
    expect(GAP).toHaveTreeViewIssue('LAYER_GAP');
    expect(GAP).toHaveTreeViewIssue('MISSING_ASSOCIATION_TABLE', 'layers.1.associationTable');
    expect(GAP).not.toHaveTreeViewIssue('LAYER_GAP', 'layers.1');
    expect(() => expect(GAP).toBeValidTreeView()).toThrowErrorMatchingInlineSnapshot(`
      [Error: expected a valid TREE_VIEW, but found:
      ✖ layer "2" is missing: layers are numbered "1" to "3" without gaps → at layers
      ✖ layer 1 needs "associationTable", the table linking it to layer 2 → at layers.1.associationTable]
    `);
    expect(() => expect(PRODUCT_EXAMPLE).toHaveTreeViewIssue('LAYER_GAP')).toThrowErrorMatchingInlineSnapshot(
      `[Error: expected LAYER_GAP, but found no problem]`,
    );
    expect(() => expect(PRODUCT_EXAMPLE).not.toBeValidTreeView()).toThrowError(
      'expected an invalid TREE_VIEW, but it is valid',
    );
  });
});

describe('toHaveTreeViewIssue', () => {
  it('lists the problems found when the wanted one is absent', () => {
    expect(() =>
      expect(GAP).toHaveTreeViewIssue('DUPLICATE_METRIC_FIELD'),
    ).toThrowErrorMatchingInlineSnapshot(`
      [Error: expected DUPLICATE_METRIC_FIELD, but found:
      LAYER_GAP ✖ layer "2" is missing: layers are numbered "1" to "3" without gaps → at layers
      MISSING_ASSOCIATION_TABLE ✖ layer 1 needs "associationTable", the table linking it to layer 2 → at layers.1.associationTable]
    `);
  });
});
