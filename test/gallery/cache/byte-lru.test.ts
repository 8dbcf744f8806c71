import { describe, expect, it } from 'vitest';
import { createByteLru } from '../../../src/gallery/cache/byte-lru.js';

describe('createByteLru', () => {
  it('evicts the least recently used keys, oldest first, to stay within its bytes', () => {
    const lru = createByteLru<string>(30);
    expect([lru.set('a', 'A', 10), lru.set('b', 'B', 10), lru.set('c', 'C', 10)]).toEqual([[], [], []]);
    expect(lru.get('a')).toBe('A'); // a is now more recent than b and c
    expect(lru.set('d', 'D', 15)).toEqual(['b', 'c']);
    expect([lru.get('a'), lru.get('b'), lru.get('c'), lru.get('d')]).toEqual([
      'A',
      undefined,
      undefined,
      'D',
    ]);
  });

  it('counts a key set again at its new size only', () => {
    const lru = createByteLru<number>(20);
    lru.set('a', 1, 10);
    lru.set('a', 2, 15);
    expect(lru.set('b', 3, 5)).toEqual([]);
    expect(lru.get('a')).toBe(2);
  });

  it('does not hold an entry larger than its bound, and keeps the others', () => {
    const lru = createByteLru<number>(20);
    lru.set('a', 1, 10);
    expect(lru.set('huge', 2, 21)).toEqual(['huge']);
    expect([lru.get('huge'), lru.get('a')]).toEqual([undefined, 1]);
  });

  it('frees the room of a deleted key', () => {
    const lru = createByteLru<number>(20);
    lru.set('a', 1, 15);
    lru.delete('a');
    lru.delete('never-set');
    expect(lru.set('b', 2, 20)).toEqual([]);
    expect(lru.get('a')).toBeUndefined();
  });

  it('counts the bytes it holds through sets, evictions and deletes', () => {
    const lru = createByteLru<number>(20);
    lru.set('a', 1, 10);
    lru.set('b', 2, 5);
    expect(lru.bytes()).toBe(15);
    lru.set('c', 3, 10); // evicts a
    expect(lru.bytes()).toBe(15);
    lru.set('huge', 4, 21); // not held
    lru.delete('b');
    expect(lru.bytes()).toBe(10);
  });
});
