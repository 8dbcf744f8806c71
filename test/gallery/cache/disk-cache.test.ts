import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDiskCache } from '../../../src/gallery/cache/disk-cache.js';
import { encodeEntry } from '../../../src/gallery/cache/media-cache.js';
import { describeMediaCacheContract } from './cache-contract.js';

const dirs: string[] = [];
const freshDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'gallery-disk-cache-'));
  dirs.push(dir);
  return dir;
};
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describeMediaCacheContract('disk', async () => createDiskCache({ dir: await freshDir() }));

const entry = (size: number) => ({ bytes: Buffer.alloc(size, 1), contentType: 'image/webp' });
// Stored size of an entry of 1000 body bytes: the body plus the small header.
const STORED = encodeEntry(entry(1000)).length;

describe('the disk cache', () => {
  it('evicts the least recently used entries when it would exceed its size', async () => {
    const dir = await freshDir();
    const cache = createDiskCache({ dir, maxBytes: STORED * 3 });
    await cache.set('a', entry(1000));
    await cache.set('b', entry(1000));
    await cache.set('c', entry(1000));
    await cache.get('a'); // a is now more recent than b
    await cache.set('d', entry(1000));
    expect(await cache.get('b')).toBeUndefined();
    expect(await cache.get('a')).toBeDefined();
    expect(await cache.get('d')).toBeDefined();
    expect((await readdir(dir)).sort()).toEqual(['a.media', 'c.media', 'd.media']);
  });

  it('does not keep an entry larger than the whole cache', async () => {
    const dir = await freshDir();
    const cache = createDiskCache({ dir, maxBytes: 500 });
    await cache.set('huge', entry(1000));
    expect(await cache.get('huge')).toBeUndefined();
    expect(await readdir(dir)).toEqual([]);
  });

  it('never serves a half-written file and clears left-overs of a crash at start', async () => {
    const dir = await freshDir();
    const whole = encodeEntry(entry(1000));
    // A crash during a write leaves the temporary file only; a damaged entry has the wrong length.
    await writeFile(join(dir, 'k.1234.tmp'), whole.subarray(0, 500));
    await writeFile(join(dir, 'cut.media'), whole.subarray(0, 700));
    const cache = createDiskCache({ dir });
    expect(await cache.get('k')).toBeUndefined();
    expect(await cache.get('cut')).toBeUndefined();
    expect(await readdir(dir)).not.toContain('k.1234.tmp');
  });

  it('finds entries written before a restart and counts them against its size', async () => {
    const dir = await freshDir();
    await createDiskCache({ dir }).set('old', entry(1000));
    const restarted = createDiskCache({ dir, maxBytes: STORED * 2 });
    expect((await restarted.get('old'))?.bytes.byteLength).toBe(1000);
    await restarted.set('new1', entry(1000));
    await restarted.set('new2', entry(1000));
    expect(await restarted.get('old')).toBeUndefined();
  });

  it('refuses a bad size limit', () => {
    expect(() => createDiskCache({ dir: '/tmp/x', maxBytes: -1 })).toThrow();
  });
});
