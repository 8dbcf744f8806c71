import { chmod, chown, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createDiskCache,
  DEFAULT_CACHE_DIR,
  defaultCacheDir,
} from '../../../src/gallery/cache/disk-cache.js';
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
    await writeFile(join(dir, 'k.0123456789ab.tmp'), whole.subarray(0, 500));
    await writeFile(join(dir, 'cut.media'), whole.subarray(0, 700));
    const cache = createDiskCache({ dir });
    expect(await cache.get('k')).toBeUndefined();
    expect(await cache.get('cut')).toBeUndefined();
    // Neither is left behind: the damaged entry would otherwise take room nothing counts.
    expect(await readdir(dir)).toEqual([]);
  });

  it("removes at start only the temporary files its own writes leave, not another program's", async () => {
    const dir = await freshDir();
    for (const name of ['notes.tmp', 'k.tmp', 'k.0123456789AB.tmp', 'a.b.tmp'])
      await writeFile(join(dir, name), 'kept');
    await writeFile(join(dir, 'k.0123456789ab.tmp'), 'a write of ours, cut');
    await createDiskCache({ dir }).get('k');
    expect((await readdir(dir)).sort()).toEqual(['a.b.tmp', 'k.0123456789AB.tmp', 'k.tmp', 'notes.tmp']);
  });

  it('leaves no temp file behind when a write fails', async () => {
    const dir = await freshDir();
    const cache = createDiskCache({ dir });
    await cache.set('kept', entry(10));
    // The entry's own path taken by a folder: the rename of the written temp file onto it fails.
    const [name] = (await readdir(dir)).filter((file) => file.startsWith('kept'));
    await mkdir(join(dir, String(name).replace('kept', 'blocked')));
    await expect(cache.set('blocked', entry(10))).rejects.toThrow();
    expect((await readdir(dir)).filter((file) => file.endsWith('.tmp'))).toEqual([]);
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

  it('creates its folder for this user only (mode 0700)', async () => {
    const dir = join(await freshDir(), 'a', 'cache');
    await createDiskCache({ dir }).set('k', entry(10));
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
  });

  it('makes its folder again when it is removed while in use, and keeps writing', async () => {
    const dir = join(await freshDir(), 'cache');
    const cache = createDiskCache({ dir });
    await cache.set('before', entry(10));
    await rm(dir, { recursive: true });
    expect(await cache.get('before')).toBeUndefined();
    await cache.set('after', entry(10));
    expect((await cache.get('after'))?.bytes).toEqual(entry(10).bytes);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect(await readdir(dir)).toEqual(['after.media']);
  });

  it('refuses a folder owned by another user, clearly, and writes nothing there', async () => {
    // As root a fresh folder is given away; otherwise / already belongs to someone else.
    const root = process.getuid?.() === 0;
    const dir = root ? await freshDir() : '/';
    if (root) await chown(dir, 65534, 65534);
    const before = await readdir(dir);
    const cache = createDiskCache({ dir });
    const refusal = { code: 'GALLERY_CACHE_DIR', path: 'diskCache.dir' };
    await expect(cache.set('k', entry(10))).rejects.toMatchObject(refusal);
    await expect(cache.get('k')).rejects.toThrow(/belongs to another user .*use a folder of your own/);
    expect(await readdir(dir)).toEqual(before);
  });

  // As /tmp is (1777): another user could put an entry there under a key the gallery will read.
  it('refuses a folder other users may write in, clearly, and writes nothing there', async () => {
    for (const mode of [0o1777, 0o770, 0o702]) {
      const dir = await freshDir();
      await chmod(dir, mode);
      await writeFile(join(dir, 'notes.tmp'), 'kept');
      const cache = createDiskCache({ dir });
      const refusal = { code: 'GALLERY_CACHE_DIR', path: 'diskCache.dir' };
      await expect(cache.set('k', entry(10))).rejects.toMatchObject(refusal);
      await expect(cache.get('k')).rejects.toThrow(
        `the media cache folder ${dir} can be written by other users (mode ${mode.toString(8)}): ` +
          `its entries could be planted; use a folder only you can write (chmod 700 ${dir})`,
      );
      expect(await readdir(dir)).toEqual(['notes.tmp']);
      // Put right as the message says, the same cache uses it at its next call, without a restart.
      await chmod(dir, 0o700);
      await cache.set('k', entry(10));
      expect((await cache.get('k'))?.bytes).toEqual(entry(10).bytes);
    }
  });

  it("defaults to the user's own cache folder, never the shared temporary directory", () => {
    expect(defaultCacheDir({ XDG_CACHE_HOME: '/srv/cache' })).toBe('/srv/cache/task-association/media');
    // A relative XDG_CACHE_HOME is invalid by the XDG spec and ignored.
    for (const env of [{}, { XDG_CACHE_HOME: 'relative' }]) {
      expect(defaultCacheDir(env)).toBe(join(homedir(), '.cache', 'task-association', 'media'));
    }
    expect(DEFAULT_CACHE_DIR.startsWith(tmpdir())).toBe(false);
  });

  it('refuses a bad size limit', () => {
    expect(() => createDiskCache({ dir: '/tmp/x', maxBytes: -1 })).toThrow();
  });
});
