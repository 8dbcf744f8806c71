import { mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PagedGallerySource } from '../../src/gallery/source.js';
import { countingCache, type ListedItem, listItems, spiedGallery } from './support/gallery.js';

// Looking up a token no page has shown on this node: an old URL, or a page another node listed.

/** Small distinct PNGs, as a host's rows hold image bytes. */
let images: Buffer[] = [];

beforeAll(async () => {
  images = await Promise.all(
    Array.from({ length: 3 }, (_, i) =>
      sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 60 * i, g: 90, b: 200 } } })
        .png()
        .toBuffer(),
    ),
  );
});

const rowsOf = (bytes: readonly Buffer[]) => bytes.map((image, i) => ({ id: `r${i}`, image }));

async function errorOf(response: Response) {
  return {
    status: response.status,
    ...((await response.json()) as { error: { code: string; message: string } }).error,
  };
}

describe('a token no page has shown on this node', () => {
  it('is found by a walk whose other images are more than the index keeps in memory', async () => {
    // Another node listed the image; this one's host pages its rows (no stored id to go by), and
    // the image's page holds 70 MB of other images after it, more than the 64 MB of entries kept.
    const [target] = await listItems(spiedGallery(() => rowsOf(images.slice(0, 1))).get);
    const heavy = Array.from({ length: 70 }, (_, i) =>
      Buffer.concat([images[1] as Buffer, Buffer.alloc(1024 * 1024, i + 1)]),
    );
    const rows = rowsOf([images[0] as Buffer, ...heavy]);
    const source: PagedGallerySource = {
      page: async ({ limit }) => ({ rows: rows.slice(0, limit), next: null }),
    };
    const node = spiedGallery(() => [], { source });
    const answer = await node.get((target as ListedItem).previewUrl);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('image/webp');
  });

  it('answers 504 when the source never answers the walk, and the next lookup walks again', async () => {
    const listed = await listItems(spiedGallery(() => rowsOf(images)).get);
    let calls = 0;
    // The host's second query is lost (a pooled connection dropped without an error); the others answer.
    const node = spiedGallery(
      () => (++calls === 2 ? new Promise<readonly unknown[]>(() => {}) : rowsOf(images)),
      { limits: { sourceTimeoutMs: 200 } },
    );
    expect((await node.get('/caroulsel/data?limit=1')).status).toBe(200);
    // Two lookups wait on the one walk whose query hangs: both are answered.
    const [third, second] = await Promise.all([
      node.get(listed[2]?.previewUrl ?? ''),
      node.get(listed[1]?.previewUrl ?? ''),
    ]);
    for (const answer of [third, second]) {
      expect(await errorOf(answer)).toEqual({
        status: 504,
        code: 'GALLERY_UPSTREAM_TIMEOUT',
        message: 'the gallery source did not answer within 200 ms (its rows); retry later',
      });
    }
    expect(node.logged).toContain('the gallery source did not answer within 200 ms (its rows); retry later');
    // The hung query holds nothing up any more: the next lookup asks the source again.
    expect((await node.get(listed[1]?.previewUrl ?? '')).status).toBe(200);
    expect(calls).toBe(3);
  });

  it('answers 504 to a page whose host query never answers', async () => {
    const source: PagedGallerySource = { page: () => new Promise(() => {}) };
    const node = spiedGallery(() => [], { source, limits: { sourceTimeoutMs: 200 } });
    expect(await errorOf(await node.get('/caroulsel/data'))).toMatchObject({
      status: 504,
      code: 'GALLERY_UPSTREAM_TIMEOUT',
    });
  });
});

describe('an image file written over in place', () => {
  // An editor saving over a file, or a copy that keeps times (`cp -p`, rsync, `touch -r`): the size,
  // the modification time and the inode stay, only the change time moves.
  it('is listed and served with its new content, also after a restart on the same cache', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gallery-in-place-'));
    try {
      const [before, after] = await Promise.all(
        ['#c00', '#00c'].map((colour) =>
          sharp({ create: { width: 40, height: 30, channels: 3, background: colour } })
            .tiff({ compression: 'none' })
            .toBuffer(),
        ),
      );
      // The same size, or the file's size alone would tell them apart.
      expect(after?.length).toBe(before?.length);
      const file = join(dir, 'photo.tiff');
      const when = 1_700_000_000;
      await writeFile(file, before as Buffer);
      await utimes(file, when, when);
      const cache = countingCache().cache;
      const rows = () => [{ id: 'photo', image: file }];
      const first = spiedGallery(rows, { cache });
      const [old] = await listItems(first.get);
      expect((await first.get(old?.previewUrl ?? '')).status).toBe(200);
      const inode = (await stat(file)).ino;
      await writeFile(file, after as Buffer);
      await utimes(file, when, when);
      expect((await stat(file)).ino).toBe(inode);
      for (const gallery of [first, spiedGallery(rows, { cache })]) {
        const [now] = await listItems(gallery.get);
        expect(now?.previewUrl).not.toBe(old?.previewUrl);
        const thumb = await gallery.get(now?.previewUrl ?? '');
        expect(thumb.status).toBe(200);
        const { dominant } = await sharp(Buffer.from(await thumb.arrayBuffer())).stats();
        expect(dominant.b).toBeGreaterThan(dominant.r);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
