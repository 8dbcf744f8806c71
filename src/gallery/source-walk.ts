import { setTimeout as sleep } from 'node:timers/promises';
import type { ContentHash } from './token.js';

/** Finds entries by content hash by walking the whole source (see {@link createSourceWalk}). */
export interface SourceWalk<E> {
  /** The entry with `hash`, or undefined once the walk has seen the whole source without it. */
  find(hash: ContentHash): Promise<E | undefined>;
}

/** Where a hash was asked for: in which pass, after how many of its batches. */
interface Asked<E> {
  readonly pass: number;
  readonly batch: number;
  readonly resolve: (entry: E | undefined) => void;
  readonly reject: (error: unknown) => void;
  readonly found: Promise<E | undefined>;
}

/**
 * Looks for content hashes no page has shown on this node (an old URL, a page listed by another
 * node) by walking the source in passes, one pass for every hash asked meanwhile:
 *
 * - each hash is answered with the entry the pass found for it, at the batch that held it, not
 *   read back from a bounded memo afterwards (a long walk could have evicted it by then);
 * - a hash asked while a pass runs joins it, and is "not there" only once the walk has seen every
 *   batch since it was asked: the rest of this pass, then the start of the next;
 * - passes start at most once per `intervalMs`, so genuine tokens for images gone cannot turn into
 *   a walk of the host's source per request. Within that time of a pass that saw the whole source,
 *   a hash it did not find is not there (an old URL replayed: answered at once, the source not
 *   asked); after a pass that stopped early, having found what it was asked, a hash waits for the
 *   next pass instead (it may lie past where that pass stopped);
 * - a pass stops as soon as nothing is asked for any more. One that fails (the source failed, or
 *   did not answer in time) fails the hashes waiting for it, and the next hash asked starts anew.
 *
 * @example
 *   // One pass over the source, a batch of entries at a time (this source has none).
 *   const walk = createSourceWalk({ pass: async function* () {}, intervalMs: 1000 });
 *   // walk.find(hash) answers the entry of that content, or undefined when the source has none.
 */
export function createSourceWalk<E extends { readonly hash: ContentHash }>(options: {
  /** One pass over the whole source, in order, as batches of entries: each a bounded piece of work. */
  readonly pass: () => AsyncIterable<readonly E[]>;
  readonly intervalMs: number;
}): SourceWalk<E> {
  const asked = new Map<ContentHash, Asked<E>>();
  let passes = 0;
  // The batches the running pass has given, or undefined between passes.
  let batches: number | undefined;
  let startedAt = Number.NEGATIVE_INFINITY;
  let walking = false;
  // Whether the last pass went through the whole source (it did not stop early, nor fail).
  let sawAll = false;

  const answer = (hash: ContentHash, entry: E | undefined) => {
    asked.get(hash)?.resolve(entry);
    asked.delete(hash);
  };

  async function walk(): Promise<void> {
    walking = true;
    try {
      while (asked.size > 0) {
        const wait = startedAt + options.intervalMs - Date.now();
        if (wait > 0) await sleep(wait);
        startedAt = Date.now();
        passes += 1;
        batches = 0;
        sawAll = false;
        let stopped = false;
        for await (const entries of options.pass()) {
          for (const entry of entries) answer(entry.hash, entry);
          batches += 1;
          // Asked during an earlier pass, after as many batches as this one has now given: seen all.
          for (const [hash, one] of asked)
            if (one.pass < passes && one.batch <= batches) answer(hash, undefined);
          stopped = asked.size === 0;
          if (stopped) break;
        }
        sawAll = !stopped;
        // Asked before this pass gave anything, or during an earlier one: every batch was seen.
        for (const [hash, one] of asked) {
          if (one.pass < passes || one.batch === 0) answer(hash, undefined);
        }
        batches = undefined;
      }
    } catch (error) {
      for (const one of asked.values()) one.reject(error);
      asked.clear();
      batches = undefined;
    } finally {
      walking = false;
    }
  }

  return {
    find(hash) {
      const already = asked.get(hash);
      if (already !== undefined) return already.found;
      if (!walking && sawAll && Date.now() - startedAt < options.intervalMs)
        return Promise.resolve(undefined);
      let resolve: (entry: E | undefined) => void = () => {};
      let reject: (error: unknown) => void = () => {};
      const found = new Promise<E | undefined>((ok, fail) => {
        resolve = ok;
        reject = fail;
      });
      // Between passes, the next pass starts at its first batch.
      const at = batches === undefined ? { pass: passes + 1, batch: 0 } : { pass: passes, batch: batches };
      asked.set(hash, { ...at, resolve, reject, found });
      if (!walking) void walk();
      return found;
    },
  };
}
