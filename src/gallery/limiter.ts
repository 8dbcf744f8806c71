import { GalleryMediaError } from './gallery-errors.js';

/** Runs image work within the gallery's bound (see {@link createLimiter}). */
export interface Limiter {
  run<T>(task: () => Promise<T>): Promise<T>;
}

/**
 * Runs at most `concurrency` tasks at once and keeps at most `queueSize` waiting; a task beyond
 * that is refused at once with a 503, so a burst of cold images cannot pile up unbounded work.
 */
export function createLimiter(options: { concurrency: number; queueSize: number }): Limiter {
  let active = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    active -= 1;
    const next = waiting.shift();
    if (next !== undefined) {
      active += 1;
      next();
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
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}
