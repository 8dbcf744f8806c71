import { chown, mkdir, mkdtemp, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { Agent, get as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GalleryServer, startGalleryServer } from '../../src/http/server.js';
import { listItems } from '../gallery/support/gallery.js';
import { rawRequest, replyOf } from '../support/raw-http.js';

let dir = '';
let server: GalleryServer;
/** What the mounted handler saw of each request that reached it. */
const mountedSaw: { method: string; url: string; body: string }[] = [];
const get = (path: string, init?: RequestInit) => fetch(server.url + path, init);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gallery-server-'));
  const web = join(dir, 'web');
  await mkdir(web);
  await writeFile(join(web, 'index.html'), '<!doctype html><title>stub home</title>');
  await writeFile(join(web, 'gallery.js'), 'export {};');
  await writeFile(join(web, 'gallery.css'), 'body{}');
  await writeFile(join(web, 'notes.txt'), 'not an asset');
  await writeFile(join(dir, 'secret.js'), 'outside the web root');
  await symlink(join(dir, 'secret.js'), join(web, 'link.js'));
  // A component's modules sit in a folder of the root; a linked folder leads out of it.
  await mkdir(join(web, 'parts', 'deeper'), { recursive: true });
  await writeFile(join(web, 'parts', 'grid.js'), 'export const grid = 1;');
  await writeFile(join(web, 'parts', 'deeper', 'more.js'), 'export {};');
  await symlink(dir, join(web, 'outside'));
  server = await startGalleryServer({
    port: 0,
    webRoot: web,
    cacheDir: join(dir, 'cache'),
    logger: { warn() {} },
    mount: [
      {
        path: '/associationtask',
        handler: async (request) => {
          const url = new URL(request.url);
          mountedSaw.push({
            method: request.method,
            url: url.pathname + url.search,
            body: await request.text(),
          });
          return Response.json({ mounted: true }, { status: 201 });
        },
      },
    ],
  });
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
});

describe('startGalleryServer', () => {
  it('serves the home page and its assets from the web root', async () => {
    const home = await get('/');
    expect(home.status).toBe(200);
    expect(home.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await home.text()).toContain('stub home');
    const script = await get('/assets/gallery.js');
    expect([script.status, script.headers.get('content-type')]).toEqual([
      200,
      'text/javascript; charset=utf-8',
    ]);
    expect((await get('/assets/gallery.css')).headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect((await get('/assets/gallery.js', { method: 'HEAD' })).headers.get('content-length')).toBe('10');
    const module = await get('/assets/parts/grid.js');
    expect([module.status, module.headers.get('content-type'), await module.text()]).toEqual([
      200,
      'text/javascript; charset=utf-8',
      'export const grid = 1;',
    ]);
  });

  it.each([
    '/assets/notes.txt',
    '/assets/missing.js',
    '/assets/..%2Fsecret.js',
    '/assets/../secret.js',
    '/assets/.hidden.js',
    '/assets/link.js',
    '/assets/',
    '/assets/parts/',
    '/assets/parts/missing.js',
    '/assets/parts/deeper/more.js',
    '/assets/outside/secret.js',
    '/assets/.hidden/grid.js',
    '/assets/parts/..%2Fgallery.js',
    '/index.html',
  ])('answers %s with 404, naming the path', async (path) => {
    const response = await get(path);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: {
        code: 'NOT_FOUND',
        message: expect.stringContaining(`nothing is served at ${new URL(path, 'http://x').pathname}: `),
      },
    });
  });

  it('serves the files the component loads from its dependencies beside the web root files', async () => {
    // Not in the web root: they come from node_modules through the gallery handler.
    for (const [name, type] of [
      ['photoswipe.esm.min.js', 'text/javascript; charset=utf-8'],
      ['photoswipe.css', 'text/css; charset=utf-8'],
      ['thumbhash.js', 'text/javascript; charset=utf-8'],
    ] as const) {
      const response = await get(`/assets/${name}?v=1`);
      expect([response.status, response.headers.get('content-type')]).toEqual([200, type]);
      expect((await response.text()).length).toBeGreaterThan(1000);
    }
  });

  it('routes an absolute-form request target by its pathname, and never answers an odd target 500', async () => {
    const port = Number(new URL(server.url).port);
    const data = await rawRequest(port, 'GET http://a/caroulsel/data?limit=1');
    expect(replyOf(data).status).toBe(200);
    expect(data).toContain('"items":[');
    expect(replyOf(await rawRequest(port, 'GET http://a/assets/gallery.js')).status).toBe(200);
    expect(replyOf(await rawRequest(port, 'GET http://[/caroulsel/data'))).toEqual({
      status: 400,
      code: 'BAD_REQUEST_TARGET',
    });
    // A path to RFC 9112 and to the bridge, not a host: nothing is served there.
    for (const target of ['//[/caroulsel/data', '//a:99999/caroulsel/data']) {
      expect(replyOf(await rawRequest(port, `GET ${target}`)), target).toEqual({
        status: 404,
        code: 'NOT_FOUND',
      });
    }
  });

  it('answers other methods on the page with 405', async () => {
    const response = await get('/', { method: 'POST' });
    expect([response.status, response.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
  });

  it('serves the bundled sample images through the gallery, caching thumbnails on disk', async () => {
    const items = await listItems(get);
    expect(items.map((item) => item.id)).toContain('grace_hopper.jpg');
    const thumb = await get(items[0]?.previewUrl ?? '');
    expect([thumb.status, thumb.headers.get('content-type')]).toEqual([200, 'image/webp']);
    // One rendition; the other entries are the listing's index (each image's hash and size).
    expect((await readdir(join(dir, 'cache'))).filter((name) => name.includes('-thumb-'))).toHaveLength(1);
  });

  it('says clearly when the home page is missing, without naming the server folders', async () => {
    const bare = await startGalleryServer({
      port: 0,
      webRoot: join(dir, 'nothing'),
      cacheDir: join(dir, 'cache'),
    });
    try {
      const response = await fetch(`${bare.url}/`);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({
        error: { code: 'NOT_FOUND', message: 'the home page (index.html) is missing' },
      });
    } finally {
      await bare.close();
    }
  });

  it('refuses to start on a cache folder owned by another user', async () => {
    const cacheDir = join(dir, 'foreign-cache');
    await mkdir(cacheDir);
    // As root the folder is given away; otherwise / already belongs to someone else.
    const foreign = process.getuid?.() === 0 ? cacheDir : '/';
    if (foreign === cacheDir) await chown(cacheDir, 65534, 65534);
    await expect(startGalleryServer({ port: 0, cacheDir: foreign })).rejects.toMatchObject({
      code: 'GALLERY_CACHE_DIR',
      message: expect.stringContaining('belongs to another user'),
    });
  });

  it('refuses a port that is taken, with a clear error', async () => {
    const port = Number(new URL(server.url).port);
    await expect(startGalleryServer({ port, cacheDir: join(dir, 'cache') })).rejects.toThrow(
      /already in use/,
    );
  });

  describe('mount', () => {
    it('hands a PUT with a JSON body to the mounted handler intact', async () => {
      mountedSaw.length = 0;
      const body = JSON.stringify({ task: 7, metrics: { ação: 'ünïcode', n: [1, 2, 3] } });
      const response = await get('/associationtask', {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body,
      });
      expect([response.status, await response.json()]).toEqual([201, { mounted: true }]);
      expect(mountedSaw).toEqual([{ method: 'PUT', url: '/associationtask', body }]);
    });

    it('matches the exact path, with or without a query string', async () => {
      mountedSaw.length = 0;
      expect((await get('/associationtask?task=7&view=tree')).status).toBe(201);
      expect(mountedSaw).toEqual([{ method: 'GET', url: '/associationtask?task=7&view=tree', body: '' }]);
      for (const path of [
        '/associationtask/',
        '/associationtask/x',
        '/associationtaskx',
        '/ASSOCIATIONTASK',
      ]) {
        expect((await get(path)).status, path).toBe(404);
      }
      expect(mountedSaw).toHaveLength(1);
    });

    it('leaves every other path to the gallery and the web root', async () => {
      mountedSaw.length = 0;
      const data = await get('/caroulsel/data');
      expect([data.status, data.headers.get('content-type')]).toEqual([
        200,
        'application/json; charset=utf-8',
      ]);
      expect(await (await get('/')).text()).toContain('stub home');
      expect(mountedSaw).toEqual([]);
    });
  });

  describe('close', () => {
    /** A server whose `/slow` answers once `release` is called, and says when a request is inside. */
    async function slowServer(closeGraceMs?: number) {
      let entered: () => void = () => {};
      const inside = new Promise<void>((resolve) => {
        entered = resolve;
      });
      let release: () => void = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      const slow = await startGalleryServer({
        port: 0,
        webRoot: join(dir, 'web'),
        cacheDir: join(dir, 'cache'),
        logger: { warn() {} },
        ...(closeGraceMs === undefined ? {} : { closeGraceMs }),
        mount: [
          {
            path: '/slow',
            handler: async () => {
              entered();
              await released;
              return new Response('done');
            },
          },
        ],
      });
      return { slow, inside, release };
    }

    /** A GET on a keep-alive connection: its status, its Connection header and its body, or its error. */
    function keepAliveGet(url: string, agent: Agent) {
      return new Promise<{
        status?: number | undefined;
        connection?: string | undefined;
        body?: string;
        error?: string;
      }>((resolve) => {
        httpGet(url, { agent }, (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            body += chunk;
          });
          response.on('end', () =>
            resolve({ status: response.statusCode, connection: response.headers.connection, body }),
          );
          response.on('error', (error) => resolve({ error: error.message }));
        }).on('error', (error) => resolve({ error: error.message }));
      });
    }

    it('lets a request in flight finish, its connection closed with the answer, then resolves', async () => {
      const { slow, inside, release } = await slowServer();
      const agent = new Agent({ keepAlive: true });
      try {
        // The connection was used before: a keep-alive one, idle between requests.
        expect((await keepAliveGet(`${slow.url}/caroulsel/data`, agent)).connection).toBe('keep-alive');
        const answer = keepAliveGet(`${slow.url}/slow`, agent);
        await inside;
        const closed = slow.close();
        release();
        expect(await answer).toEqual({ status: 200, connection: 'close', body: 'done' });
        await closed;
        expect((await keepAliveGet(`${slow.url}/caroulsel/data`, agent)).error).toMatch(/ECONNREFUSED/);
      } finally {
        agent.destroy();
        release();
      }
    });

    it('cuts a request that outlasts closeGraceMs, so close() is bounded', async () => {
      const { slow, inside, release } = await slowServer(50);
      const agent = new Agent({ keepAlive: true });
      try {
        const answer = keepAliveGet(`${slow.url}/slow`, agent);
        await inside;
        await slow.close();
        expect((await answer).error).toMatch(/socket hang up|ECONNRESET/);
      } finally {
        agent.destroy();
        release();
      }
    });

    it('refuses a closeGraceMs that is not a whole number of milliseconds up to ten minutes', async () => {
      for (const closeGraceMs of [-1, 1.5, Number.NaN, 600_001]) {
        await expect(
          startGalleryServer({ port: 0, cacheDir: join(dir, 'cache'), closeGraceMs }),
          String(closeGraceMs),
        ).rejects.toMatchObject({ code: 'GALLERY_CONFIG', path: 'closeGraceMs' });
      }
    });

    // A plain-JavaScript caller's misspelt option was dropped without a word: `cachedir` left the
    // renditions in the default folder, a port of '8080' listened on a random one.
    it('refuses options it cannot work with before starting, naming the option', async () => {
      const cacheDir = join(dir, 'never-made');
      const refused = async (options: unknown) => {
        try {
          const started = await startGalleryServer(options as Parameters<typeof startGalleryServer>[0]);
          await started.close();
          return undefined;
        } catch (error) {
          return error;
        }
      };
      expect(await refused({ port: 0, cachedir: cacheDir })).toMatchObject({
        code: 'GALLERY_CONFIG',
        path: 'cachedir',
        message: expect.stringMatching(
          /^startGalleryServer option cachedir: is not an option \(its options: port, /,
        ),
      });
      expect(await refused({ port: '8080', cacheDir })).toMatchObject({
        code: 'GALLERY_CONFIG',
        path: 'port',
      });
      expect(await refused({ port: 70_000, cacheDir })).toMatchObject({
        path: 'port',
        message: 'startGalleryServer option port: must be a port from 0 to 65535',
      });
      expect(await refused({ port: 0, imagesDir: '', cacheDir })).toMatchObject({
        path: 'imagesDir',
        message: "startGalleryServer option imagesDir: must be a folder's path, not empty",
      });
      expect(await refused({ port: 0, cacheDir, logger: console.warn })).toMatchObject({ path: 'logger' });
      expect(
        await refused({
          port: 0,
          cacheDir,
          mount: [{ path: 'associationtask', handler: async () => new Response() }],
        }),
      ).toMatchObject({
        path: 'mount.0.path',
        message: 'startGalleryServer option mount.0.path: must be a path starting with /',
      });
      expect(await refused({ port: 0, cacheDir, mount: [{ path: '/a' }] })).toMatchObject({
        path: 'mount.0.handler',
      });
      const handler = async () => new Response();
      expect(
        await refused({ port: 0, cacheDir, mount: [{ path: '/a', handler, hanlder: handler }] }),
      ).toMatchObject({
        path: 'mount.0.hanlder',
        message: 'startGalleryServer option mount.0.hanlder: is not an option (its options: path, handler)',
      });
      expect(await refused(null)).toMatchObject({ code: 'GALLERY_CONFIG', path: '' });
      // The gallery's own options, refused before the cache folder is made.
      expect(await refused({ port: 0, cacheDir, secrets: 'short' })).toMatchObject({
        code: 'GALLERY_SECRET',
        path: 'secrets',
        message: 'gallery option secrets: must be a list of secrets, each a string of 16 characters or more',
      });
      expect(await refused({ port: 0, cacheDir, secrets: ['s'.repeat(16), 'short'] })).toMatchObject({
        path: 'secrets.1',
        message: 'gallery option secrets.1: a gallery secret needs at least 16 characters',
      });
      // Nothing was made of them: the cache folder a refused start named does not exist.
      await expect(stat(cacheDir)).rejects.toMatchObject({ code: 'ENOENT' });
    });

    // As serve's flags: an option that would be dropped without a word is refused.
    it('refuses a cache folder beside a Redis, and a Redis key prefix without a Redis', async () => {
      await expect(
        startGalleryServer({ port: 0, cacheDir: join(dir, 'cache'), redisUrl: 'redis://127.0.0.1:6379' }),
      ).rejects.toMatchObject({
        code: 'GALLERY_CONFIG',
        path: 'cacheDir',
        message:
          'startGalleryServer: cacheDir and redisUrl both name where renditions are kept: give one (redisUrl for several nodes)',
      });
      await expect(
        startGalleryServer({ port: 0, cacheDir: join(dir, 'cache'), redisKeyPrefix: 'p:' }),
      ).rejects.toMatchObject({ code: 'GALLERY_CONFIG', path: 'redisKeyPrefix' });
    });
  });
});
