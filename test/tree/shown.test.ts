import { describe, expect, it } from 'vitest';
import { shownOf } from '../../src/tree/shown.js';

// The one decision of which nodes the tree shows, over what was read of the levels: no database.
describe('shownOf', () => {
  it('shows the live first-level rows, then each deeper row a live link ties to a shown one', () => {
    const walk = {
      first: { live: [1, 2] },
      links: [
        [
          { child: 10, parent: 1 },
          { child: 11, parent: 3 }, // 3 is not live: 11 hangs from nothing shown
        ],
        [
          { child: 100, parent: 10 },
          { child: 101, parent: 11 },
        ],
      ],
    };
    expect(shownOf(walk)).toEqual(new Set([100]));
    expect(shownOf({ ...walk, links: walk.links.slice(0, 1) })).toEqual(new Set([10]));
    expect(shownOf({ ...walk, links: [] })).toEqual(new Set([1, 2]));
  });

  it('shows a nested group only when its chain reaches a root through live groups, never round a cycle', () => {
    const parents = new Map<number, number | null>([
      [1, null],
      [2, 1],
      [3, 9], // 9 was not read: deleted, inactive or of another scope
      [4, 5],
      [5, 4], // a cycle
    ]);
    expect(shownOf({ first: { parents }, links: [] })).toEqual(new Set([1, 2]));
    expect(
      shownOf({
        first: { parents },
        links: [
          [
            { child: 20, parent: 2 },
            { child: 30, parent: 3 },
            { child: 40, parent: 4 },
          ],
        ],
      }),
    ).toEqual(new Set([20]));
  });
});
