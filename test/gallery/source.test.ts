import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { folderSource } from '../../src/gallery/folder-source.js';
import { normaliseRows, SourceColumns } from '../../src/gallery/source.js';
import { SAMPLE_DIR, sampleImage } from './support/images.js';

function spyLogger() {
  const lines: string[] = [];
  return { lines, warn: (message: string) => void lines.push(message) };
}

describe('normaliseRows', () => {
  const columns = SourceColumns.parse({});
  const png = sampleImage('debian-logo-256.png');

  it('keeps good rows in the source order, with the id standing in for a missing title', () => {
    const logger = spyLogger();
    const items = normaliseRows(
      [
        { id: 2, title: 'Two', image: '/img/two.jpg' },
        { id: 'one', image: png },
      ],
      columns,
      logger,
    );
    expect(items).toEqual([
      { id: '2', title: 'Two', alt: 'Two', image: { kind: 'file', path: '/img/two.jpg' } },
      { id: 'one', title: 'one', alt: 'one', image: { kind: 'bytes', bytes: png } },
    ]);
    expect(logger.lines).toEqual([]);
  });

  it('reads the configured columns (host column names)', () => {
    const custom = SourceColumns.parse({ id: 'SEQ_DB', title: 'DESCRICAO', image: 'IMAGEM' });
    const items = normaliseRows(
      [{ SEQ_DB: 7n, DESCRICAO: 'Foto', IMAGEM: `data:image/png;base64,${png.toString('base64')}` }],
      custom,
      spyLogger(),
    );
    expect(items).toEqual([{ id: '7', title: 'Foto', alt: 'Foto', image: { kind: 'bytes', bytes: png } }]);
  });

  it('reads an alt column when one is configured, the title standing in for a blank or missing one', () => {
    const custom = SourceColumns.parse({ alt: 'TEXTO_ALT' });
    const logger = spyLogger();
    const items = normaliseRows(
      [
        { id: 1, title: 'Harvest', TEXTO_ALT: 'Two people loading crates onto a truck', image: '/a.jpg' },
        { id: 2, title: 'Field', TEXTO_ALT: '   ', image: '/b.jpg' },
        { id: 3, title: 'Barn', TEXTO_ALT: 42, image: '/c.jpg' },
        { id: 4, title: 'Gate', image: '/d.jpg' },
      ],
      custom,
      logger,
    );
    expect(items.map((item) => item.alt)).toEqual([
      'Two people loading crates onto a truck',
      'Field',
      'Barn',
      'Gate',
    ]);
    expect(logger.lines).toEqual([]);
  });

  it('skips each bad row with a logged reason and keeps the rest', () => {
    const logger = spyLogger();
    const items = normaliseRows(
      [
        null,
        { title: 'no id', image: '/a.jpg' },
        { id: 'x', title: 'bad image', image: 12 },
        { id: 'ok', image: '/ok.jpg' },
        { id: 'ok', image: '/again.jpg' },
        { id: '  ', image: '/blank-id.jpg' },
      ],
      columns,
      logger,
    );
    expect(items.map((item) => item.id)).toEqual(['ok']);
    expect(logger.lines).toEqual([
      expect.stringMatching(/^gallery row 0 skipped: /),
      expect.stringMatching(/^gallery row 1 skipped: id: /),
      expect.stringMatching(/^gallery row 2 skipped: image: image must be a file path/),
      'gallery row 4 skipped: id "ok" repeats an earlier row',
      expect.stringMatching(/^gallery row 5 skipped: id: /),
    ]);
  });
});

describe('folderSource', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('lists the image files of a folder, sorted by name', async () => {
    const rows = await folderSource(SAMPLE_DIR)();
    expect(rows.map((row) => (row as { id: string }).id)).toEqual([
      'debian-logo-256.png',
      'emerald-16x9.png',
      'grace_hopper.jpg',
      'joy-preview.jpg',
      'spacefun-preview.jpg',
    ]);
    expect(rows[2]).toEqual({
      id: 'grace_hopper.jpg',
      title: 'grace_hopper',
      image: join(SAMPLE_DIR, 'grace_hopper.jpg'),
    });
  });

  it('ignores files that are not images by name, and folders', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gallery-folder-'));
    dirs.push(dir);
    await writeFile(join(dir, 'notes.md'), 'hello');
    await writeFile(join(dir, 'b.webp'), 'x');
    await writeFile(join(dir, 'a.JPG'), 'x');
    const rows = await folderSource(dir)();
    expect(rows.map((row) => (row as { id: string }).id)).toEqual(['a.JPG', 'b.webp']);
  });

  it('reads the folder again only when a name in it changes, returning the same frozen rows meanwhile', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gallery-folder-'));
    dirs.push(dir);
    await writeFile(join(dir, 'a.jpg'), 'x');
    // A folder changed long ago (a recent change is always read again: coarse clocks).
    const past = new Date(Date.now() - 60_000);
    await utimes(dir, past, past);
    const source = folderSource(dir);
    const first = await source();
    expect(await source()).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first[0])).toBe(true);
    await writeFile(join(dir, 'b.jpg'), 'x');
    expect((await source()).map((row) => (row as { id: string }).id)).toEqual(['a.jpg', 'b.jpg']);
  });

  it('fails clearly when the folder does not exist', async () => {
    await expect(folderSource('/nonexistent/gallery')()).rejects.toThrow(/ENOENT/);
  });
});
