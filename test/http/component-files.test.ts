import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { GALLERY_ASSET_FILES, GALLERY_ROUTES, isGalleryPath } from '../../src/gallery.js';
import { spiedGallery } from '../gallery/support/gallery.js';

const webFile = (name: string) => readFile(new URL(`../../web/${name}`, import.meta.url), 'utf8');
/** The files in web/caroulsel-gallery/, the component's modules, as the folder has them now. */
const moduleFiles = async () =>
  (await readdir(new URL('../../web/caroulsel-gallery/', import.meta.url))).map(
    (name) => `caroulsel-gallery/${name}`,
  );

describe('the gallery handler serves its own browser component', () => {
  it('GET /assets/caroulsel-gallery.js and .css answer the package files with their types, an ETag and security headers', async () => {
    const { get, counts } = spiedGallery(() => []);
    for (const [name, type] of [
      ['caroulsel-gallery.js', 'text/javascript; charset=utf-8'],
      ['caroulsel-gallery.css', 'text/css; charset=utf-8'],
    ] as const) {
      const response = await get(`/assets/${name}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(type);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(response.headers.get('etag')).toMatch(/^"[\w-]{27}"$/);
      expect(await response.text()).toBe(await webFile(name));
    }
    // Serving the component never asks the host's source for anything.
    expect(counts.sourceCalls).toBe(0);
  });

  it('serves the files the component loads from its dependencies, byte for byte from node_modules', async () => {
    const { get, counts } = spiedGallery(() => []);
    const expected = [
      ['photoswipe.esm.min.js', 'text/javascript; charset=utf-8', 'photoswipe/dist/photoswipe.esm.min.js'],
      ['photoswipe.css', 'text/css; charset=utf-8', 'photoswipe/dist/photoswipe.css'],
      ['thumbhash.js', 'text/javascript; charset=utf-8', 'thumbhash/thumbhash.js'],
    ] as const;
    for (const [name, type, file] of expected) {
      const response = await get(`/assets/${name}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(type);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('etag')).toMatch(/^"[\w-]{27}"$/);
      expect(await response.text()).toBe(
        await readFile(new URL(`../../node_modules/${file}`, import.meta.url), 'utf8'),
      );
      const again = await get(`/assets/${name}`, {
        headers: { 'if-none-match': response.headers.get('etag') ?? '' },
      });
      expect(again.status).toBe(304);
    }
    // Only the named files: the rest of a dependency's folder stays out of reach.
    for (const path of [
      '/assets/photoswipe.esm.js',
      '/assets/photoswipe-lightbox.esm.min.js',
      '/assets/package.json',
    ]) {
      expect((await get(path)).status).toBe(404);
    }
    expect(counts.sourceCalls).toBe(0);
  });

  it("serves every module of the component's folder, and the served list is exactly the folder's files", async () => {
    const modules = await moduleFiles();
    // A module added to the folder and not to the list would be a 404 for every page: the lists agree.
    expect(GALLERY_ASSET_FILES.filter((name) => name.startsWith('caroulsel-gallery/')).sort()).toEqual(
      modules.sort(),
    );
    const { get, counts } = spiedGallery(() => []);
    for (const name of modules) {
      const response = await get(`/assets/${name}`);
      expect([name, response.status, response.headers.get('content-type')]).toEqual([
        name,
        200,
        'text/javascript; charset=utf-8',
      ]);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('content-security-policy')).toBe("default-src 'none'");
      expect(response.headers.get('cache-control')).toBe('no-cache');
      const etag = response.headers.get('etag') ?? '';
      expect(etag).toMatch(/^"[\w-]{27}"$/);
      expect(await response.text()).toBe(await webFile(name));
      const again = await get(`/assets/${name}`, { headers: { 'if-none-match': etag } });
      expect([again.status, await again.text()]).toEqual([304, '']);
    }
    expect(counts.sourceCalls).toBe(0);
  });

  it('answers 304 without a body when If-None-Match names the ETag, and HEAD without a body', async () => {
    const { get } = spiedGallery(() => []);
    const first = await get('/assets/caroulsel-gallery.js');
    const etag = first.headers.get('etag') ?? '';
    const again = await get('/assets/caroulsel-gallery.js', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const head = await get('/assets/caroulsel-gallery.css', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('serves nothing else: other names, paths out of the folder and writes are refused', async () => {
    const { get } = spiedGallery(() => []);
    for (const path of [
      '/assets/index.html',
      '/assets/../package.json',
      '/assets/%2e%2e/package.json',
      '/assets/caroulsel-gallery/',
      '/assets/caroulsel-gallery/../../package.json',
      '/assets/caroulsel-gallery/missing.js',
      '/assets/caroulsel-gallery/mount.js/x',
    ]) {
      expect((await get(path)).status).toBe(404);
    }
    expect((await get('/assets/caroulsel-gallery.js', { method: 'POST' })).status).toBe(405);
  });
});

describe('the routes a host gives the gallery', () => {
  it('name every component file the handler serves, and only paths it answers', async () => {
    const { get } = spiedGallery(() => []);
    const modules = (await moduleFiles()).sort().map((name) => `/assets/${name}`);
    expect(GALLERY_ROUTES).toEqual([
      '/caroulsel/*',
      '/assets/caroulsel-gallery.js',
      '/assets/caroulsel-gallery.css',
      ...modules,
      '/assets/photoswipe.esm.min.js',
      '/assets/photoswipe.css',
      '/assets/thumbhash.js',
    ]);
    // The handler answers each file; the component loads the last three from next to its entry.
    for (const route of GALLERY_ROUTES.filter((path) => path.startsWith('/assets/'))) {
      expect(isGalleryPath(route)).toBe(true);
      expect((await get(route)).status).toBe(200);
    }
    const component = (
      await Promise.all(['caroulsel-gallery.js', ...(await moduleFiles())].map((name) => webFile(name)))
    ).join('\n');
    for (const name of ['photoswipe.esm.min.js', 'photoswipe.css', 'thumbhash.js'])
      expect(component).toContain(name);
    expect(isGalleryPath('/caroulsel/data')).toBe(true);
    expect(isGalleryPath('/caroulsel/media/abc/thumb')).toBe(true);
    for (const path of [
      '/assets/app.js',
      '/assets/',
      '/caroulsel',
      '/assets/caroulsel-gallery.js/x',
      '/assets/caroulsel-gallery/',
      '/assets/caroulsel-gallery/app.js',
      '/assets/caroulsel-gallery/../caroulsel-gallery.js',
      '/',
    ])
      expect(isGalleryPath(path)).toBe(false);
  });
});
