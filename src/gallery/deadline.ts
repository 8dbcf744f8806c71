/**
 * `pending`, or a rejection with `late()` once `ms` have passed: a call that never settles (a host
 * query on a dropped connection, a hung file system) costs its caller `ms`, not the request. The
 * call left behind settles in the background; nobody waits for it any more.
 */
export function withDeadline<T>(pending: T | PromiseLike<T>, ms: number, late: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(late()), ms);
    timer.unref?.();
    // A plain value too: a host's source written in plain JavaScript may return its rows as they are.
    Promise.resolve(pending).then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
