import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { rewriteImports } from '../../src/http/module-imports.js';
import { SCREEN_ASSETS } from '../../src/http/screen-page.js';
import { tableNames } from '../../src/model/table-names.js';
import { createAssociationHandler } from '../../src/tree.js';
import { useScratchDatabase } from '../support/database.js';
import { countMetricRows, insertRow, insertRows, installTables, SCOPE_A } from '../tree/fixture.js';

const scratch = useScratchDatabase('resolvers_same_site', { hostSchema: true });
const names = tableNames();
const live = { ATIVO: 1, DELETED: 0 };
const ORIGIN = 'http://erp.test';
const ids = { sheet: 0, group: 0, oper: 0 };
let contextCalls = 0;

function handler() {
  return createAssociationHandler({
    db: scratch().db,
    context: async () => {
      contextCalls++;
      return { scope: SCOPE_A, user: 5 };
    },
  });
}

const body = () =>
  JSON.stringify({ entries: [{ activity: ids.oper, group: ids.group, values: { METRICA1: '1.00' } }] });

function put(headers: Record<string, string>, payload: string = body()) {
  return handler()(
    new Request(`${ORIGIN}/associationtask?taskSheet=${ids.sheet}`, {
      method: 'PUT',
      headers,
      body: payload,
    }),
  );
}

function metricRows(): Promise<number> {
  return countMetricRows(scratch().db, names);
}

beforeAll(async () => {
  const { db } = scratch();
  await installTables(db, names);
  [ids.sheet] = (await insertRows(db, 'app_folha_tarefa', [{ ...SCOPE_A, DELETED: 0 }], {
    withId: false,
  })) as [number];
  ids.group = await insertRow(db, names.OPER_GRUPO, { ...SCOPE_A, CODIGO: 'G', ...live });
  ids.oper = await insertRow(db, names.OPER, { ...SCOPE_A, CODIGO: 'O', ...live });
  await insertRow(db, names.OPER_OPER_GRUPO, {
    ...SCOPE_A,
    OPER_GRUPO_SEQ_DB: ids.group,
    OPER_SEQ_DB: ids.oper,
    ...live,
  });
});

describe('PUT only as JSON and only from this site', () => {
  it.each([
    [
      'another Origin',
      { 'content-type': 'application/json', origin: 'https://evil.example' },
      403,
      'CROSS_SITE_REQUEST',
    ],
    [
      'Sec-Fetch-Site cross-site',
      { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site', origin: ORIGIN },
      403,
      'CROSS_SITE_REQUEST',
    ],
    [
      'Origin null (a sandboxed page)',
      { 'content-type': 'application/json', origin: 'null' },
      403,
      'CROSS_SITE_REQUEST',
    ],
    [
      'text/plain',
      { 'content-type': 'text/plain;charset=UTF-8', 'sec-fetch-site': 'same-origin' },
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ],
    [
      'a form-encoded body',
      { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ],
    [
      'a multipart form',
      { 'content-type': 'multipart/form-data; boundary=x', origin: ORIGIN },
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ],
    ['no Content-Type', { origin: ORIGIN }, 415, 'UNSUPPORTED_MEDIA_TYPE'],
    [
      'JSON declared in another charset (read as UTF-8, it would be misread)',
      { 'content-type': 'application/json; charset=iso-8859-1', origin: ORIGIN },
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ],
    [
      'a gzip body (read as it comes, it would be "not JSON")',
      { 'content-type': 'application/json', 'content-encoding': 'gzip', origin: ORIGIN },
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ],
    [
      'a plain body labelled br (saved as if nothing were wrong)',
      { 'content-type': 'application/json', 'content-encoding': 'br', 'sec-fetch-site': 'same-origin' },
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ],
  ])('refuses %s before asking the session, and writes nothing', async (_, headers, status, code) => {
    const before = { rows: await metricRows(), calls: contextCalls };
    const response = await put(headers);
    expect(response.status).toBe(status);
    // The header the refusal is about is the error's path.
    const where =
      'content-encoding' in headers
        ? 'content-encoding'
        : status === 415
          ? 'content-type'
          : 'sec-fetch-site' in headers
            ? 'sec-fetch-site'
            : 'origin';
    expect(await response.json()).toMatchObject({ error: { code, path: where } });
    expect(await metricRows()).toBe(before.rows);
    expect(contextCalls).toBe(before.calls);
  });

  it('accepts JSON from the same origin or site (Sec-Fetch-Site, else Origin), and from a client that is no browser', async () => {
    for (const headers of [
      { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin', origin: ORIGIN },
      {
        'content-type': 'application/json; charset=utf-8',
        'sec-fetch-site': 'same-site',
        origin: 'http://app.erp.test',
      },
      { 'content-type': 'Application/JSON', origin: ORIGIN },
      { 'content-type': 'application/json' },
      { 'content-type': 'application/json', 'content-encoding': 'identity', origin: ORIGIN },
    ]) {
      const response = await put(headers);
      expect(response.status, JSON.stringify(headers)).toBe(200);
    }
    expect(await metricRows()).toBe(1);
  });
});

describe('one URL, two audiences', () => {
  const get = (headers: Record<string, string>, query = `?taskSheet=${ids.sheet}`) =>
    handler()(new Request(`${ORIGIN}/erp/associationtask${query}`, { headers }));

  it('answers a browser navigation with the screen page, and JSON to everyone else, varying on Accept', async () => {
    const page = await get({
      accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      'accept-language': 'pt-BR,pt;q=0.9,en;q=0.8',
    });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('vary')).toBe('Accept');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).toContain('<html lang="pt-BR">');
    expect(html).toContain(
      `<association-screen endpoint="/erp/associationtask" task-sheet="${ids.sheet}" service-worker="/erp/associationtask?asset=association-screen-sw.js">`,
    );
    expect(html).toContain('src="/erp/associationtask?asset=association-screen.js"');
    expect(html).toContain('href="/erp/associationtask?asset=association-screen.css"');
    expect(html).not.toMatch(/<script>|style=/);

    for (const accept of ['application/json', '*/*', 'application/json, text/html']) {
      const data = await get({ accept });
      expect(data.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(data.headers.get('vary')).toBe('Accept');
      expect(await data.json()).toMatchObject({ taskSheet: { SEQ_DB: ids.sheet } });
    }
    expect(await (await get({ accept: 'text/html' })).text()).toContain('<html lang="en">');
  });

  it('serves the screen module and stylesheet itself, with ETag revalidation, and no other file', async () => {
    for (const [name, type] of [
      ['association-screen.js', 'text/javascript; charset=utf-8'],
      ['association-screen.css', 'text/css; charset=utf-8'],
    ] as const) {
      const answer = await get({}, `?asset=${name}`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe(type);
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      const etag = answer.headers.get('etag') ?? '';
      // The file, its imports written as this handler's URL of the files they name (module-imports.ts).
      const file = await readFile(new URL(`../../web/${name}`, import.meta.url), 'utf8');
      expect(await answer.text()).toBe(rewriteImports(file, name, new Set(SCREEN_ASSETS), 'associationtask'));
      expect((await get({ 'if-none-match': etag }, `?asset=${name}`)).status).toBe(304);
    }
    for (const name of ['index.html', '../package.json', 'caroulsel-gallery.js']) {
      expect((await get({}, `?asset=${encodeURIComponent(name)}`)).status).toBe(404);
    }
    const mixed = await get({}, `?asset=association-screen.js&taskSheet=${ids.sheet}`);
    expect(mixed.status).toBe(400);
    expect(await mixed.json()).toMatchObject({
      error: { code: 'UNKNOWN_QUERY_PARAMETER', path: 'taskSheet' },
    });
  });
});
