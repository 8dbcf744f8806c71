import { BusyError } from '../model/request-errors.js';

/**
 * How long a save waits for the writer ahead of it (its turn in the process, the database's lock)
 * before answering busy.
 */
export const LOCK_TIMEOUT_SECONDS = 10;

/** The saves of each pool waiting for their turn on a scope, by metric table and scope (see {@link inTurn}). */
const turns = new WeakMap<object, Map<string, Promise<void>>>();

/**
 * Runs `work` once every earlier save of the same scope through the same pool has finished. The
 * scope's writers of one pool take their turns here instead of each holding a pooled connection while
 * it waits for the database's lock: on one server that wait is `GET_LOCK`'s, on a Galera cluster it is
 * worse, since writers of the lock row through other nodes are not queued but fail at certification
 * and run again (measured: with ten connections spread over three nodes, 2 of 180 saves ran out of
 * attempts). The database's lock still serialises the writers of other pools and processes. A save
 * that waits more than {@link LOCK_TIMEOUT_SECONDS} for its turn is answered METRICS_BUSY, nothing
 * written, as one that waits that long for the database's lock.
 */
export async function inTurn<T>(db: object, key: string, work: () => Promise<T>): Promise<T> {
  let waiting = turns.get(db);
  if (waiting === undefined) {
    waiting = new Map();
    turns.set(db, waiting);
  }
  const before = waiting.get(key);
  let done = () => {};
  const mine = new Promise<void>((resolve) => {
    done = resolve;
  });
  // The next save waits for this one and, through it, for every save before.
  const turn = before === undefined ? mine : before.then(() => mine);
  waiting.set(key, turn);
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    // Nothing ahead (the usual case): no wait, and no timer armed for one.
    if (before !== undefined) {
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), LOCK_TIMEOUT_SECONDS * 1000);
      });
      if ((await Promise.race([before, late])) === 'late') {
        throw new BusyError(
          'METRICS_BUSY',
          `metrics of this scope are being saved by other requests of this process for more than ${LOCK_TIMEOUT_SECONDS} s: nothing was written, send the batch again`,
        );
      }
    }
    return await work();
  } finally {
    clearTimeout(timer);
    done();
    // Forgotten once every save before it has finished too, not now: a save that gave up waiting
    // (busy) ends while the one ahead of it still runs, and the next one must still wait for that.
    void turn.then(() => {
      if (waiting.get(key) === turn) waiting.delete(key);
    });
  }
}
