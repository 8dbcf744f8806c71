import { readFile } from 'node:fs/promises';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createCompressedFiles, etagOf, preferredEncoding } from '../../src/http/compression.js';
import { createWebRootHandler } from '../../src/http/web-root.js';
import { spiedGallery } from '../gallery/support/gallery.js';

const webFile = (name: string) => readFile(new URL(`../../web/${name}`, import.meta.url));
const WEB_ROOT = new URL('../../web/', import.meta.url).pathname;

describe('preferredEncoding', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip;q=0.5', 'gzip'],
    ['gzip;q=0, *', 'br'],
    ['*;q=0', undefined],
    ['identity', undefined],
    ['', undefined],
    [null, undefined],
  ] as const)('%j takes %s', (header, expected) => {
    expect(preferredEncoding(header)).toBe(expected);
  });
});

describe('the component’s text files, compressed', () => {
  const decode = { br: brotliDecompressSync, gzip: gunzipSync } as const;

  for (const encoding of ['br', 'gzip'] as const) {
    it(`sends ${encoding} to a client that takes it, with its own strong ETag and Vary, and 304 on that tag`, async () => {
      const { get } = spiedGallery(() => []);
      const name = 'caroulsel-gallery/mount.js';
      const plain = await get(`/assets/${name}`);
      const plainTag = plain.headers.get('etag') ?? '';
      expect(plain.headers.get('content-encoding')).toBeNull();
      expect(plain.headers.get('vary')).toBe('Accept-Encoding');

      const packed = await get(`/assets/${name}`, {
        headers: { 'accept-encoding': `${encoding}, identity` },
      });
      expect(packed.status).toBe(200);
      expect(packed.headers.get('content-encoding')).toBe(encoding);
      expect(packed.headers.get('vary')).toBe('Accept-Encoding');
      expect(packed.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      const tag = packed.headers.get('etag') ?? '';
      expect(tag).toBe(`${plainTag.slice(0, -1)}-${encoding}"`);
      const body = Buffer.from(await packed.arrayBuffer());
      expect(Number(packed.headers.get('content-length'))).toBe(body.length);
      expect(decode[encoding](body)).toEqual(await webFile(name));
      // Less than half the bytes: what the slow phone saves on every module.
      expect(body.length).toBeLessThan((await webFile(name)).length / 2);

      const again = await get(`/assets/${name}`, {
        headers: { 'accept-encoding': encoding, 'if-none-match': tag },
      });
      expect([again.status, again.headers.get('etag'), again.headers.get('vary')]).toEqual([
        304,
        tag,
        'Accept-Encoding',
      ]);
      // The plain tag does not stand for the compressed bytes, nor the other way round.
      expect(
        (
          await get(`/assets/${name}`, {
            headers: { 'accept-encoding': encoding, 'if-none-match': plainTag },
          })
        ).status,
      ).toBe(200);
      expect((await get(`/assets/${name}`, { headers: { 'if-none-match': tag } })).status).toBe(200);
    });
  }

  it('compresses a file once per coding, then serves the kept bytes', async () => {
    const files = createCompressedFiles();
    const bytes = await webFile('caroulsel-gallery/mount.js');
    const etag = etagOf(bytes);
    const first = await files.encoded(etag, bytes, 'br');
    expect(first).toBeInstanceOf(Uint8Array);
    expect(await files.encoded(etag, bytes, 'br')).toBe(first);
    // A file too small to gain is sent as it is.
    expect(await files.encoded(etagOf(Buffer.from('tiny')), Buffer.from('tiny'), 'br')).toBeUndefined();
  });

  it('compresses the home page and its files from the web root too', async () => {
    const web = createWebRootHandler(WEB_ROOT);
    for (const path of ['/', '/assets/caroulsel-gallery.css', '/assets/caroulsel-gallery/grid.js']) {
      const response = await web(
        new Request(`http://gallery.test${path}`, { headers: { 'accept-encoding': 'br' } }),
      );
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-encoding'), path).toBe('br');
      expect(response.headers.get('vary'), path).toBe('Accept-Encoding');
      const tag = response.headers.get('etag') ?? '';
      expect(tag).toMatch(/^"[\w-]{27}-br"$/);
      const again = await web(
        new Request(`http://gallery.test${path}`, {
          headers: { 'accept-encoding': 'br', 'if-none-match': tag },
        }),
      );
      expect(again.status, path).toBe(304);
    }
  });
});

describe('the home page preloads the modules the gallery imports, the list’s first, and only those', () => {
  /** The modules `name` imports statically, and theirs, as relative paths under web/. */
  async function staticImports(name: string, seen = new Set<string>()): Promise<Set<string>> {
    const text = (await webFile(name)).toString('utf8');
    for (const match of text.matchAll(/^import\s[^;]*?from\s+'(\.[^']+)';/gms)) {
      const target = new URL(match[1] ?? '', new URL(name, 'file:///web/')).pathname.slice('/web/'.length);
      if (!seen.has(target)) {
        seen.add(target);
        await staticImports(target, seen);
      }
    }
    return seen;
  }

  it('lists in web/index.html the entry and its modules first, then the grid’s, and nothing else', async () => {
    const page = (await webFile('index.html')).toString('utf8');
    const preloaded = [...page.matchAll(/<link rel="modulepreload" href="\/assets\/([^"]+)" \/>/g)].map(
      (match) => match[1] ?? '',
    );
    const imported = await staticImports('caroulsel-gallery.js');
    // The grid's modules are imported when the list is asked for, so that the list's request does
    // not wait for them; the page still asks for them at once, after those the list waits for.
    const grid = await staticImports('caroulsel-gallery/grid.js', new Set(['caroulsel-gallery/grid.js']));
    const gridOnly = [...grid].filter((name) => !imported.has(name));
    expect(imported.has('caroulsel-gallery/grid.js')).toBe(false);
    expect(gridOnly.length).toBeGreaterThan(0);
    const first = preloaded.slice(0, imported.size + 1);
    expect(first.sort()).toEqual(['caroulsel-gallery.js', ...imported].sort());
    expect(preloaded.slice(imported.size + 1).sort()).toEqual(gridOnly.sort());
    // The lightbox's own modules are loaded when it is first needed, never with the page.
    for (const name of ['caroulsel-gallery/lightbox.js', 'caroulsel-gallery/history.js']) {
      expect(imported.has(name)).toBe(false);
      expect(grid.has(name)).toBe(false);
    }
  });
});
