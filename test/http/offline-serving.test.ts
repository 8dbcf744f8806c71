import { describe, expect, it } from 'vitest';
import { createAssociationHandler } from '../../src/http/association-handler.js';
import { ownerKey } from '../../src/http/owner-key.js';
import { screenRelease, workerManifest } from '../../src/http/screen-assets.js';
import {
  PAGE_CSP,
  PAGE_MARK,
  SCREEN_ASSETS,
  SERVICE_WORKER,
  SERVICE_WORKER_CSP,
} from '../../src/http/screen-page.js';
import type { Database } from '../../src/store/driver.js';

/**
 * What the screen's offline parts need of the handler (#28): its service worker served from within
 * the scope it registers (the handler's path) under a policy of its own, and the key the outbox
 * files entries under (`part=owner`), neither asking the database.
 */

const ORIGIN = 'http://erp.test';
const SCOPE_A = { EMPRESA: 1, FILIAL: 1, LOCAL: 1 };
const SCOPE_B = { EMPRESA: 1, FILIAL: 2, LOCAL: 1 };

const handler = createAssociationHandler({
  db: {
    query: () => Promise.reject(new Error('no query expected')),
    execute: () => Promise.reject(new Error('no query expected')),
    transaction: () => Promise.reject(new Error('no query expected')),
  } as unknown as Database,
  context: async (request) => {
    const [user, site] = (request.headers.get('x-session') ?? '7:a').split(':');
    return { scope: site === 'b' ? SCOPE_B : SCOPE_A, user: Number(user) };
  },
});

const owner = async (session: string) => {
  const answer = await handler(
    new Request(`${ORIGIN}/erp/associationtask?taskSheet=42&part=owner`, {
      headers: { accept: 'application/json', 'x-session': session },
    }),
  );
  expect(answer.status).toBe(200);
  expect(answer.headers.get('cache-control')).toBe('no-store');
  return ((await answer.json()) as { owner: string }).owner;
};

describe('the offline screen on the server', () => {
  it('serves the service worker at ?asset= under its own policy, allowed the handler’s path as scope', async () => {
    const answer = await handler(new Request(`${ORIGIN}/erp/associationtask?asset=${SERVICE_WORKER}`));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(answer.headers.get('content-security-policy')).toBe(SERVICE_WORKER_CSP);
    expect(answer.headers.get('service-worker-allowed')).toBe('/erp/associationtask');
    expect(answer.headers.get('cache-control')).toBe('no-cache');
    const text = await answer.text();
    // Its imports name the handler's URL of each module, as every module's do.
    expect(text).toContain("from './associationtask?asset=association-screen/outbox.js'");
    expect(text).toContain("from './associationtask?asset=association-screen/sync.js'");
    const etag = answer.headers.get('etag') ?? '';
    const again = await handler(
      new Request(`${ORIGIN}/erp/associationtask?asset=${SERVICE_WORKER}`, {
        headers: { 'if-none-match': etag },
      }),
    );
    expect(again.status).toBe(304);
    // The page may start it: worker-src names this origin.
    expect(PAGE_CSP).toContain("worker-src 'self'");
  });

  it('writes the release of the screen’s files, and their names, into the worker it serves', async () => {
    const answer = await handler(new Request(`${ORIGIN}/erp/associationtask?asset=${SERVICE_WORKER}`));
    const text = await answer.text();
    const line = /^const MANIFEST = (.*);$/m.exec(text)?.[1] ?? '';
    const manifest = JSON.parse(line) as { release: string; assets: string[] };
    expect(manifest.release).toBe(await screenRelease());
    expect(manifest.assets).toEqual(SCREEN_ASSETS.filter((name) => name !== SERVICE_WORKER));
    // What the worker keeps is exactly what the handler serves.
    for (const name of manifest.assets) {
      const file = await handler(new Request(`${ORIGIN}/erp/associationtask?asset=${name}`));
      expect(file.status, name).toBe(200);
    }
  });

  it('answers a file asked for as of a release only when that is the release it serves: else 409, never cached', async () => {
    const current = await screenRelease();
    const name = 'association-screen/sync.js';
    const same = await handler(new Request(`${ORIGIN}/erp/associationtask?asset=${name}&release=${current}`));
    expect(same.status).toBe(200);
    const plain = await handler(new Request(`${ORIGIN}/erp/associationtask?asset=${name}`));
    expect(await same.text()).toBe(await plain.text());
    const other = await handler(
      new Request(`${ORIGIN}/erp/associationtask?asset=${name}&release=older0000000000`),
    );
    expect(other.status).toBe(409);
    expect(other.headers.get('cache-control')).toBe('no-store');
    expect(await other.json()).toMatchObject({ error: { code: 'RELEASE_CHANGED', path: 'release' } });
    const twice = await handler(
      new Request(`${ORIGIN}/erp/associationtask?asset=${name}&release=${current}&release=${current}`),
    );
    expect(await twice.json()).toMatchObject({
      error: { code: 'REPEATED_QUERY_PARAMETER', path: 'release' },
    });
    const long = await handler(
      new Request(`${ORIGIN}/erp/associationtask?asset=${name}&release=${'x'.repeat(65)}`),
    );
    expect(long.status).toBe(400);
    expect(await long.json()).toMatchObject({ error: { path: 'release' } });
  });

  it('changes the release when any one of the screen’s files changes, by a byte', async () => {
    const files = new Map<string, Uint8Array>(
      SCREEN_ASSETS.map((name) => [name, new TextEncoder().encode(`contents of ${name}`)]),
    );
    const read = async (name: string) => files.get(name) ?? new Uint8Array();
    const before = await screenRelease(read);
    expect(await screenRelease(read)).toBe(before);
    for (const name of ['association-screen/sync.js', 'association-screen.css']) {
      const kept = files.get(name) as Uint8Array;
      files.set(name, new TextEncoder().encode(`contents of ${name}!`));
      expect(await screenRelease(read), name).not.toBe(before);
      files.set(name, kept);
    }
    expect(() => workerManifest('// no manifest line here', 'x')).toThrow(/no "const MANIFEST/);
  });

  it('marks the screen’s page, and only it, in the page itself, as the worker keeps a page by', async () => {
    const page = await handler(
      new Request(`${ORIGIN}/erp/associationtask?taskSheet=42`, { headers: { accept: 'text/html' } }),
    );
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`<meta name="${PAGE_MARK}" content="screen">`);
    const invalid = await handler(
      new Request(`${ORIGIN}/erp/associationtask?taskSheet=x`, { headers: { accept: 'text/html' } }),
    );
    expect(invalid.status).toBe(400);
    expect(await invalid.text()).not.toContain(PAGE_MARK);
    const worker = await (
      await handler(new Request(`${ORIGIN}/erp/associationtask?asset=${SERVICE_WORKER}`))
    ).text();
    expect(worker).toContain(`const PAGE_MARK = '${PAGE_MARK}';`);
  });

  it('answers part=owner with a key per user and scope: the same on every session, another for anyone else', async () => {
    const alice = await owner('7:a');
    expect(alice).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(await owner('7:a')).toBe(alice);
    expect(await owner('8:a')).not.toBe(alice);
    expect(await owner('7:b')).not.toBe(alice);
    expect(alice).toBe(ownerKey(SCOPE_A, 7));
  });

  it('refuses a parameter part=owner does not read', async () => {
    const answer = await handler(
      new Request(`${ORIGIN}/erp/associationtask?taskSheet=42&part=owner&node=1`, {
        headers: { accept: 'application/json' },
      }),
    );
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ error: { code: 'UNKNOWN_QUERY_PARAMETER', path: 'node' } });
  });
});
