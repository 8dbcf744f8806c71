import { describe, expect, it } from 'vitest';
import { mapBounded } from '../../src/gallery/map-bounded.js';

describe('mapBounded', () => {
  it('keeps the order of the items and never runs more than the limit at once', async () => {
    let running = 0;
    let peak = 0;
    const results = await mapBounded([5, 1, 4, 2, 3, 0, 6], 3, async (n) => {
      running += 1;
      peak = Math.max(peak, running);
      // Later items finish first, so order could only come from the bookkeeping.
      for (let i = 0; i < 10 - n; i++) await Promise.resolve();
      running -= 1;
      return n * 10;
    });
    expect(results).toEqual([50, 10, 40, 20, 30, 0, 60]);
    expect(peak).toBe(3);
  });

  it('handles an empty list', async () => {
    expect(await mapBounded([], 4, async () => 1)).toEqual([]);
  });
});
