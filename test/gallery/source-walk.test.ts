import { describe, expect, it } from 'vitest';
import { createSourceWalk } from '../../src/gallery/source-walk.js';
import type { ContentHash } from '../../src/gallery/token.js';

type Entry = { readonly hash: ContentHash };
const entry = (name: string): Entry => ({ hash: name as ContentHash });

/**
 * A source of batches whose passes the test drives: each batch is given only once the test lets
 * it go, so what is asked when is decided by the test, not by timing.
 */
function gatedSource(batches: readonly (readonly string[])[]) {
  const passes: number[] = [];
  let release: (() => void) | undefined;
  let waiting: (() => void) | undefined;
  const reached = () =>
    new Promise<void>((resolve) => {
      if (release !== undefined) resolve();
      else waiting = resolve;
    });
  async function* pass(): AsyncGenerator<readonly Entry[]> {
    passes.push(0);
    for (const batch of batches) {
      await new Promise<void>((resolve) => {
        release = resolve;
        waiting?.();
        waiting = undefined;
      });
      release = undefined;
      passes[passes.length - 1] = (passes.at(-1) ?? 0) + 1;
      yield batch.map(entry);
    }
  }
  return {
    pass,
    /** Batches given by each pass so far. */
    passes,
    /** Lets the pass give its next batch, once it is waiting to. */
    async next() {
      await reached();
      release?.();
      // The walk looks at the batch before the test goes on.
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

describe('createSourceWalk', () => {
  it('answers each hash with the entry of the batch that held it, and stops once none is left', async () => {
    const source = gatedSource([['a', 'b'], ['c'], ['d']]);
    const walk = createSourceWalk({ pass: source.pass, intervalMs: 0 });
    const b = walk.find('b' as ContentHash);
    const c = walk.find('c' as ContentHash);
    await source.next();
    expect(await b).toEqual(entry('b'));
    await source.next();
    expect(await c).toEqual(entry('c'));
    // The third batch was never asked for.
    expect(source.passes).toEqual([2]);
  });

  it('finds a hash asked after the pass went past it, at the start of the next pass', async () => {
    const source = gatedSource([['a'], ['b'], ['c']]);
    const walk = createSourceWalk({ pass: source.pass, intervalMs: 0 });
    const c = walk.find('c' as ContentHash);
    await source.next();
    const a = walk.find('a' as ContentHash);
    await source.next();
    await source.next();
    expect(await c).toEqual(entry('c'));
    await source.next();
    expect(await a).toEqual(entry('a'));
    expect(source.passes).toEqual([3, 1]);
  });

  it('says a hash is not there only once every batch was seen since it was asked', async () => {
    const source = gatedSource([['a'], ['b'], ['c']]);
    const walk = createSourceWalk({ pass: source.pass, intervalMs: 0 });
    const gone = walk.find('gone' as ContentHash);
    await source.next();
    const late = walk.find('late' as ContentHash);
    let lateAnswered = false;
    void late.then(() => {
      lateAnswered = true;
    });
    await source.next();
    await source.next();
    expect(await gone).toBeUndefined();
    // Asked after the first batch: that batch is seen again in the next pass first.
    expect(lateAnswered).toBe(false);
    await source.next();
    expect(await late).toBeUndefined();
    expect(source.passes).toEqual([3, 1]);
  });

  it('answers at once, without a pass, for a hash a whole pass just missed; waits for one after a pass that stopped early', async () => {
    const source = gatedSource([['a'], ['b']]);
    const walk = createSourceWalk({ pass: source.pass, intervalMs: 60_000 });
    const gone = walk.find('gone' as ContentHash);
    await source.next();
    await source.next();
    expect(await gone).toBeUndefined();
    expect(await walk.find('other' as ContentHash)).toBeUndefined();
    expect(source.passes).toEqual([2]);

    const early = gatedSource([['a'], ['b']]);
    const stopping = createSourceWalk({ pass: early.pass, intervalMs: 0 });
    const a = stopping.find('a' as ContentHash);
    await early.next();
    expect(await a).toEqual(entry('a'));
    // The pass stopped at the first batch: b lies past it and is looked for by another pass.
    const b = stopping.find('b' as ContentHash);
    await early.next();
    await early.next();
    expect(await b).toEqual(entry('b'));
    expect(early.passes).toEqual([1, 2]);
  });

  it('fails the hashes waiting on a pass that fails, and starts a new pass for the next one', async () => {
    let calls = 0;
    const walk = createSourceWalk<Entry>({
      intervalMs: 0,
      async *pass() {
        calls += 1;
        if (calls === 1) throw new Error('the source failed');
        yield [entry('a')];
      },
    });
    const [first, second] = [walk.find('a' as ContentHash), walk.find('b' as ContentHash)];
    await expect(first).rejects.toThrow('the source failed');
    await expect(second).rejects.toThrow('the source failed');
    expect(await walk.find('a' as ContentHash)).toEqual(entry('a'));
    expect(calls).toBe(2);
  });
});
