/**
 * Keys in recency order with a size each, bounded in total bytes: the accounting the disk and the
 * memory caches share. It holds no bytes itself; `value` is whatever the cache needs per key.
 */
export function createByteLru<V>(maxBytes: number) {
  // Map order is recency order: the first key is the least recently used.
  const entries = new Map<string, { value: V; size: number }>();
  let total = 0;
  const remove = (key: string) => {
    const entry = entries.get(key);
    if (entry === undefined) return;
    total -= entry.size;
    entries.delete(key);
  };
  return {
    /** The key's value, now the most recently used; undefined when it is not held. */
    get(key: string): V | undefined {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      entries.delete(key);
      entries.set(key, entry);
      return entry.value;
    },
    /**
     * Holds the key as the most recently used and returns the keys evicted to stay within the bound.
     * An entry larger than the whole bound is not held (it would evict everything else, then
     * itself): its own key is returned.
     */
    set(key: string, value: V, size: number): string[] {
      remove(key);
      if (size > maxBytes) return [key];
      entries.set(key, { value, size });
      total += size;
      const evicted: string[] = [];
      for (const [oldest, entry] of entries) {
        if (total <= maxBytes) break;
        total -= entry.size;
        entries.delete(oldest);
        evicted.push(oldest);
      }
      return evicted;
    },
    delete: remove,
    /** Bytes held, the sum of the sizes of the keys held. */
    bytes: () => total,
  };
}
