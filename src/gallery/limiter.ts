import { GalleryMediaError } from './errors.js';

/**
 * Runs at most `concurrency` tasks at once and keeps at most `queueSize` waiting; a task beyond
 * that is refused at once with a 503, so a burst of cold images cannot pile up unbounded work.
 *
 * `runBackground` is for work nobody waits for (the rest of a srcset after the rendition asked for):
 * it shares the same slots, but starts only when no `run` task is waiting, so it never delays an
 * answer by more than the one background task already running. It is never refused: its callers
 * bound how much of it they queue.
 */
export function createLimiter(options: { concurrency: number; queueSize: number }) {
  let active = 0;
  const waiting: (() => void)[] = [];
  const background: (() => void)[] = [];
  const release = () => {
    active -= 1;
    const next = waiting.shift() ?? background.shift();
    if (next !== undefined) {
      active += 1;
      next();
    }
  };
  const slotted = async <T>(task: () => Promise<T>): Promise<T> => {
    try {
      return await task();
    } finally {
      release();
    }
  };
  return {
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (active >= options.concurrency) {
        if (waiting.length >= options.queueSize) {
          throw new GalleryMediaError(
            'GALLERY_BUSY',
            503,
            'too many images are being prepared; retry shortly',
          );
        }
        await new Promise<void>((resolve) => waiting.push(resolve));
      } else {
        active += 1;
      }
      return slotted(task);
    },
    async runBackground<T>(task: () => Promise<T>): Promise<T> {
      if (active >= options.concurrency) await new Promise<void>((resolve) => background.push(resolve));
      else active += 1;
      return slotted(task);
    },
  };
}
