import { once } from 'node:events';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toNodeListener } from '../../src/http/node-adapter.js';
import { listItems, spiedGallery } from '../gallery/support/gallery.js';
import { SAMPLE_DIR } from '../gallery/support/images.js';
import { rawRequest, replyOf } from '../support/raw-http.js';

const gallery = spiedGallery(() => [{ id: 'photo', title: 'Photo', image: `${SAMPLE_DIR}grace_hopper.jpg` }]);
const server = createServer(toNodeListener(gallery.handler));
let base = '';

beforeAll(async () => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.close();
  await once(server, 'close');
});

describe('toNodeListener in a real Node http server', () => {
  it('serves the list and a thumbnail, with 304 on a second visit', async () => {
    const items = await listItems((path) => fetch(base + path));
    const thumb = await fetch(base + (items[0]?.previewUrl ?? ''));
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/webp');
    const bytes = await thumb.arrayBuffer();
    expect(Number(thumb.headers.get('content-length'))).toBe(bytes.byteLength);
    const again = await fetch(base + (items[0]?.previewUrl ?? ''), {
      headers: { 'If-None-Match': thumb.headers.get('etag') ?? '' },
    });
    expect(again.status).toBe(304);
  });

  it('answers HEAD, 404 and 405 over the wire', async () => {
    const head = await fetch(`${base}/caroulsel/data`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
    expect((await fetch(`${base}/nothing`)).status).toBe(404);
    const post = await fetch(`${base}/caroulsel/data`, { method: 'POST', body: 'x' });
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
  });

  it('answers a Host header that is not a host name with 400 BAD_REQUEST_TARGET, and keeps serving', async () => {
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(`${base}/caroulsel/data`, { headers: { Host: 'bad host name' } }, (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(400);
    expect(body).toContain('BAD_REQUEST_TARGET');
    expect((await fetch(`${base}/caroulsel/data`)).status).toBe(200);
  });

  it('answers a request target that is not a URL with 400, and keeps serving', async () => {
    const { port } = server.address() as AddressInfo;
    expect(await rawRequest(port, 'GET http://[/caroulsel/data')).toMatch(/^HTTP\/1\.1 400 /);
    expect((await fetch(`${base}/caroulsel/data`)).status).toBe(200);
  });

  it('reads a target starting with // as a path on the direct path, as the bridge does: a 404, never a 500', async () => {
    const { port } = server.address() as AddressInfo;
    // The same handler without its answerer: every request goes through hono's bridge.
    const bridged = createServer(toNodeListener((request: Request) => gallery.handler(request)));
    bridged.listen(0, '127.0.0.1');
    await once(bridged, 'listening');
    try {
      for (const target of ['//[/caroulsel/data', '//a:99999/caroulsel/data', '//a/caroulsel/data']) {
        const direct = replyOf(await rawRequest(port, `GET ${target}`));
        expect(direct, target).toEqual({ status: 404, code: 'NOT_FOUND' });
        const viaBridge = replyOf(await rawRequest((bridged.address() as AddressInfo).port, `GET ${target}`));
        expect(viaBridge, target).toEqual(direct);
      }
      expect((await fetch(`${base}/caroulsel/data`)).status).toBe(200);
    } finally {
      bridged.close();
    }
  });

  it('answers 400 to a request target that is not a URL for any other web handler too', async () => {
    let calls = 0;
    const other = createServer(
      toNodeListener(async () => {
        calls += 1;
        return new Response('reached');
      }),
    );
    other.listen(0, '127.0.0.1');
    await once(other, 'listening');
    const reply = await rawRequest((other.address() as AddressInfo).port, 'PUT http://[/associationtask');
    expect(reply).toMatch(/^HTTP\/1\.1 400 /);
    expect(reply).toContain('BAD_REQUEST_TARGET');
    expect(calls).toBe(0);
    other.close();
  });

  it('mounts any other web handler through Request and Response', async () => {
    const other = createServer(
      toNodeListener(async (request) => {
        const { pathname, search } = new URL(request.url);
        const body = request.method === 'PUT' ? ` ${await request.text()}` : '';
        return new Response(
          `${request.method} ${pathname}${search} ${request.headers.get('x-test')}${body}`,
          {
            status: 201,
            headers: { 'X-Seen': 'yes' },
          },
        );
      }),
    );
    other.listen(0, '127.0.0.1');
    await once(other, 'listening');
    const response = await fetch(`http://127.0.0.1:${(other.address() as AddressInfo).port}/a/b?c=1`, {
      headers: { 'X-Test': 'header' },
    });
    expect([response.status, response.headers.get('x-seen'), await response.text()]).toEqual([
      201,
      'yes',
      'GET /a/b?c=1 header',
    ]);
    const put = await fetch(`http://127.0.0.1:${(other.address() as AddressInfo).port}/a`, {
      method: 'PUT',
      body: '{"x":1}',
    });
    expect(await put.text()).toBe('PUT /a null {"x":1}');
    other.close();
  });

  it('answers 500 instead of hanging when a handler throws (a bug)', async () => {
    const broken = createServer(
      toNodeListener(async () => {
        throw new Error('bug');
      }),
    );
    broken.listen(0, '127.0.0.1');
    await once(broken, 'listening');
    const response = await fetch(`http://127.0.0.1:${(broken.address() as AddressInfo).port}/`);
    expect(response.status).toBe(500);
    broken.close();
  });

  it('answers the same on the direct path of its own handlers as through Request and Response', async () => {
    // The same handler without its answerer attached: hono's bridge, web Request and Response.
    const bridged = createServer(toNodeListener((request: Request) => gallery.handler(request)));
    bridged.listen(0, '127.0.0.1');
    await once(bridged, 'listening');
    const other = `http://127.0.0.1:${(bridged.address() as AddressInfo).port}`;
    try {
      const items = await listItems((path) => fetch(base + path));
      const thumb = items[0]?.previewUrl ?? '';
      const etag = (await fetch(base + thumb)).headers.get('etag') ?? '';
      const asked: [string, RequestInit][] = [
        ['/caroulsel/data', {}],
        [thumb, {}],
        [thumb, { headers: { 'if-none-match': etag } }],
        [thumb, { method: 'HEAD' }],
        ['/caroulsel/media/forged/thumb', {}],
        ['/assets/caroulsel-gallery/mount.js', { headers: { 'accept-encoding': 'br' } }],
        ['/assets/caroulsel-gallery/mount.js?x=1', { headers: { 'accept-encoding': 'gzip' } }],
      ];
      const seen = async (origin: string, path: string, init: RequestInit) => {
        const response = await fetch(origin + path, init);
        const headers = Object.fromEntries([...response.headers].filter(([name]) => name !== 'date'));
        return {
          status: response.status,
          headers,
          body: Buffer.from(await response.arrayBuffer()).toString('base64'),
        };
      };
      for (const [path, init] of asked) {
        expect(await seen(base, path, init), path).toEqual(await seen(other, path, init));
      }
    } finally {
      bridged.close();
      await once(bridged, 'close');
    }
  });
});
