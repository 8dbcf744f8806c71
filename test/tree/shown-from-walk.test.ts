import { describe, expect, it } from 'vitest';
import { CHAIN_STEPS } from '../../src/store/save-checks.js';
import { shownFromWalk } from '../../src/tree/shown-from-walk.js';
import { DEFAULT_PLAN, THREE_LEVEL_PLAN } from './fixture.js';

const defaultPlan = DEFAULT_PLAN;
const threeLevels = THREE_LEVEL_PLAN;

describe('shownFromWalk', () => {
  it('shows a nested group whose chain reaches a root, not one below a hidden group or in a cycle', () => {
    // 3 -> 2 -> 1 (root); 5 -> 4, 4 not live (absent); 6 <-> 7.
    const w0 = JSON.stringify([
      [3, 2, 1],
      [2, 1, 2],
      [1, null, 3],
      [5, 4, 1],
      [6, 7, 1],
      [7, 6, 2],
    ]);
    expect(shownFromWalk(defaultPlan, { w0 })).toEqual(new Set([3, 2, 1]));
  });

  it('reads JSON the driver already parsed (MySQL types it) as well as text (MariaDB)', () => {
    expect(shownFromWalk(defaultPlan, { w0: [[1, null, 1]] })).toEqual(new Set([1]));
    expect(shownFromWalk(defaultPlan, { w0: null })).toEqual(new Set());
  });

  it('says when a chain is longer than the walk went, so that the caller walks on', () => {
    expect(shownFromWalk(defaultPlan, { w0: JSON.stringify([[9, 8, CHAIN_STEPS]]) })).toBeUndefined();
    // A parent not read at the last step is hidden only when the walk did not stop there.
    expect(shownFromWalk(defaultPlan, { w0: JSON.stringify([[9, 8, CHAIN_STEPS - 1]]) })).toEqual(new Set());
  });

  it('says when a column is not whole JSON (an aggregate the server cut), so that the caller walks again', () => {
    expect(shownFromWalk(defaultPlan, { w0: '[[1, null, 1], [2, 1' })).toBeUndefined();
    expect(shownFromWalk(threeLevels, { w0: '[1, 2]', w1: '[[10, 1], [11' })).toBeUndefined();
  });

  it('follows TREE_VIEW levels down from the live first-level rows through live links', () => {
    // Regions 1 and 2 live (3 is not); groups 10 and 11 under region 1, group 12 under region 3.
    const row = { w0: '[1, 2]', w1: '[[10, 1], [11, 1], [12, 3]]' };
    expect(shownFromWalk(threeLevels, row)).toEqual(new Set([10, 11]));
  });
});
