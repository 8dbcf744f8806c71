/**
 * Merges concurrent calls for the same key into one: while a call for `key` runs, later callers get
 * its promise instead of starting their own (N requests for a cold thumbnail, one generation).
 */
export function createSingleFlight<T>() {
  const running = new Map<string, Promise<T>>();
  return {
    run(key: string, work: () => Promise<T>): Promise<T> {
      const current = running.get(key);
      if (current !== undefined) return current;
      const started = work().finally(() => running.delete(key));
      running.set(key, started);
      return started;
    },
    /** The call running for `key`, if one is. */
    running: (key: string): Promise<T> | undefined => running.get(key),
  };
}
