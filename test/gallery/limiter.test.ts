import { describe, expect, it } from 'vitest';
import { GalleryMediaError } from '../../src/gallery/gallery-errors.js';
import { createLimiter } from '../../src/gallery/limiter.js';
import { createSingleFlight } from '../../src/gallery/single-flight.js';

/** A task the test finishes by hand, so ordering is decided by the test and not by timing. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe('createLimiter', () => {
  it('runs at most `concurrency` tasks and starts queued ones as slots free up', async () => {
    const limiter = createLimiter({ concurrency: 2, queueSize: 5 });
    const gates = [gate(), gate(), gate()];
    let running = 0;
    let peak = 0;
    const done = gates.map((g, i) =>
      limiter.run(async () => {
        running += 1;
        peak = Math.max(peak, running);
        await g.opened;
        running -= 1;
        return i;
      }),
    );
    await Promise.resolve();
    expect(running).toBe(2);
    for (const g of gates) g.open();
    expect(await Promise.all(done)).toEqual([0, 1, 2]);
    expect(peak).toBe(2);
  });

  it('refuses work with a 503 when the queue is full, and frees the slot after a failure', async () => {
    const limiter = createLimiter({ concurrency: 1, queueSize: 0 });
    const g = gate();
    const first = limiter.run(() => g.opened);
    const refused = await limiter.run(async () => 'never').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(GalleryMediaError);
    expect((refused as GalleryMediaError).status).toBe(503);
    g.open();
    await first;
    await expect(limiter.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await limiter.run(async () => 'after')).toBe('after');
  });
});

describe('createSingleFlight', () => {
  it('gives concurrent callers of one key the same run, and starts a new one afterwards', async () => {
    const flight = createSingleFlight<number>();
    let calls = 0;
    const g = gate();
    const work = async () => {
      calls += 1;
      await g.opened;
      return calls;
    };
    const both = Promise.all([flight.run('k', work), flight.run('k', work)]);
    const other = flight.run('other', async () => 99);
    g.open();
    expect(await both).toEqual([1, 1]);
    expect(await other).toBe(99);
    expect(await flight.run('k', async () => 7)).toBe(7);
  });

  it('shares a failure with every waiter and forgets it', async () => {
    const flight = createSingleFlight<number>();
    const failing = () => Promise.reject(new Error('nope'));
    await expect(Promise.all([flight.run('k', failing), flight.run('k', failing)])).rejects.toThrow('nope');
    expect(await flight.run('k', async () => 1)).toBe(1);
  });
});
