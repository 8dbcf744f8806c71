import { afterEach, expect, it, vi } from 'vitest';
import { inTurn, LOCK_TIMEOUT_SECONDS } from '../../src/tree/save-turns.js';

// The saves of one scope through one pool take turns in the process (src/tree/save-turns.ts). The
// clock is Vitest's: the turn's bound is ten seconds, and only the order of events is asserted.

afterEach(() => {
  vi.useRealTimers();
});

it('runs saves of one scope one after another, in the order they came', async () => {
  const pool = {};
  const events: string[] = [];
  const save = (name: string) =>
    inTurn(pool, 'scope', async () => {
      events.push(`${name} starts`);
      await new Promise((resolve) => setTimeout(resolve, 5));
      events.push(`${name} ends`);
    });
  await Promise.all([save('a'), save('b'), save('c')]);
  expect(events).toEqual(['a starts', 'a ends', 'b starts', 'b ends', 'c starts', 'c ends']);
});

it('keeps the next save waiting for one still running after a save between them gave up its turn', async () => {
  vi.useFakeTimers();
  const pool = {};
  const events: string[] = [];
  let finishFirst = () => {};
  const first = inTurn(
    pool,
    'scope',
    () =>
      new Promise<void>((resolve) => {
        finishFirst = () => {
          events.push('first ends');
          resolve();
        };
      }),
  );
  const second = inTurn(pool, 'scope', async () => {
    events.push('second runs');
  });
  const refused = expect(second).rejects.toMatchObject({ code: 'METRICS_BUSY' });
  await vi.advanceTimersByTimeAsync(LOCK_TIMEOUT_SECONDS * 1000 + 1);
  await refused;
  const third = inTurn(pool, 'scope', async () => {
    events.push('third runs');
  });
  await vi.advanceTimersByTimeAsync(0);
  expect(events).toEqual([]);
  finishFirst();
  await Promise.all([first, third]);
  expect(events).toEqual(['first ends', 'third runs']);
});
