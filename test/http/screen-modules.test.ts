import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { lastPathSegment, rewriteImports } from '../../src/http/module-imports.js';
import { screenRelease, workerManifest } from '../../src/http/screen-assets.js';
import { SCREEN_ASSETS, SCREEN_MODULES, SERVICE_WORKER } from '../../src/http/screen-page.js';
import type { Database } from '../../src/store/driver.js';
import { createAssociationHandler } from '../../src/tree.js';

const ORIGIN = 'http://erp.test';

/** Asset requests are answered before the session or the database is asked: neither is ever used. */
const handler = createAssociationHandler({
  db: {
    query: () => Promise.reject(new Error('no query expected')),
    execute: () => Promise.reject(new Error('no query expected')),
    transaction: () => Promise.reject(new Error('no query expected')),
  } as unknown as Database,
  context: () => Promise.reject(new Error('no session expected')),
});

const webFile = (name: string) => readFile(new URL(`../../web/${name}`, import.meta.url), 'utf8');

/** Every relative specifier of a static import or export-from in a module's text. */
const relativeImports = (source: string) =>
  [...source.matchAll(/\b(?:from|import)\s*['"](\.{1,2}\/[^'"\n]+)['"]/g)].map((match) => match[1] ?? '');

/** A module's text with the relative specifiers of its imports left out. */
const withoutSpecifiers = (source: string) =>
  source.replace(/\b(from|import)(\s*)(['"])\.{1,2}\/[^'"\n]+\3/g, '$1$2$3…$3');

describe("the screen's modules", () => {
  it('are listed one by one: SCREEN_MODULES is the folder web/association-screen/, no file forgotten', async () => {
    const files = await readdir(new URL('../../web/association-screen/', import.meta.url));
    expect([...SCREEN_MODULES].sort()).toEqual(files.map((file) => `association-screen/${file}`).sort());
  });

  it('each import of each module names a served file', async () => {
    for (const name of SCREEN_ASSETS.filter((asset) => asset.endsWith('.js'))) {
      // Throws, naming the module and the file, for an import of a file not served.
      expect(() => rewriteImports('', name, new Set(SCREEN_ASSETS), 'x')).not.toThrow();
      const source = await webFile(name);
      expect(() => rewriteImports(source, name, new Set(SCREEN_ASSETS), 'x'), name).not.toThrow();
    }
    expect(relativeImports(await webFile('association-screen.js')).length).toBeGreaterThan(0);
  });

  for (const [mount, segment] of [
    ['/erp/associationtask', 'associationtask'],
    ['/erp/associationtask/', ''],
  ] as const) {
    it(`are served at ${mount}?asset=…, their imports resolving to the same endpoint, with an ETag over the bytes served`, async () => {
      for (const name of SCREEN_ASSETS) {
        const url = `${ORIGIN}${mount}?asset=${name}`;
        const answer = await handler(new Request(url));
        expect(answer.status, name).toBe(200);
        expect(answer.headers.get('cache-control')).toBe('no-cache');
        expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
        const text = await answer.text();
        const etag = answer.headers.get('etag');
        expect(etag).toBe(`"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`);
        expect((await handler(new Request(url, { headers: { 'if-none-match': etag ?? '' } }))).status).toBe(
          304,
        );
        if (!name.endsWith('.js')) {
          expect(text).toBe(await webFile(name));
          continue;
        }
        // As a browser resolves them against the module's URL: the same handler, another asset.
        for (const specifier of relativeImports(text)) {
          expect(specifier.startsWith(`./${segment}?asset=association-screen/`), specifier).toBe(true);
          const resolved = new URL(specifier, url);
          expect(`${resolved.origin}${resolved.pathname}`).toBe(`${ORIGIN}${mount}`);
          expect(SCREEN_ASSETS).toContain(resolved.searchParams.get('asset'));
        }
        // Nothing else of the module changes (the worker gets its release written in).
        const source = await webFile(name);
        const expected = name === SERVICE_WORKER ? workerManifest(source, await screenRelease()) : source;
        expect(withoutSpecifiers(text)).toBe(withoutSpecifiers(expected));
      }
    });
  }

  it('differ by the URL they are served at, each with its own ETag', async () => {
    const etag = async (path: string) =>
      (await handler(new Request(`${ORIGIN}${path}?asset=association-screen.js`))).headers.get('etag');
    expect(await etag('/erp/associationtask')).not.toBe(await etag('/erp/associationtask/'));
    expect(await etag('/erp/associationtask')).toBe(await etag('/other/associationtask'));
  });

  it('never let a request path break out of the quoted specifier', () => {
    expect(lastPathSegment('/erp/a\'b"c\\d e')).toBe('a%27b%22c%5Cd%20e');
    expect(lastPathSegment('/erp/associationtask')).toBe('associationtask');
    expect(rewriteImports("export { a } from './b.js';", 'x/c.js', new Set(['x/b.js']), 'a%27b')).toBe(
      "export { a } from './a%27b?asset=x/b.js';",
    );
    expect(() => rewriteImports("import '../y.js';", 'x/c.js', new Set(['x/b.js']), 'a')).toThrow(
      'x/c.js imports ../y.js (y.js), which is not a served file of the screen',
    );
  });

  it('are preloaded by the screen page, at the URLs the entry imports them from', async () => {
    // The page itself needs the session and the database; its markup is checked through screenPage.
    const { screenPage } = await import('../../src/http/screen-page.js');
    const page = screenPage({ endpoint: '/erp/associationtask', taskSheet: 42, lang: 'en' });
    for (const name of SCREEN_MODULES)
      expect(page).toContain(`<link rel="modulepreload" href="/erp/associationtask?asset=${name}">`);
  });
});
