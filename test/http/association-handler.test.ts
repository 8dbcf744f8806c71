import mysql from 'mysql2/promise';
import { beforeAll, describe, expect, it } from 'vitest';
import { ownerKey } from '../../src/http/owner-key.js';
import type { Scope } from '../../src/model/scope.js';
import { HISTORY_TABLE_NAME, tableNames } from '../../src/model/table-names.js';
import { BusyError, createAssociationHandler } from '../../src/tree.js';
import { spiedGallery } from '../gallery/support/gallery.js';
import { useScratchDatabase } from '../support/database.js';
import { countMetricRows, insertRow, insertRows, installTables, SCOPE_A, SCOPE_B } from '../tree/fixture.js';

const SCOPE_BROKEN: Scope = { EMPRESA: 9, FILIAL: 9, LOCAL: 9 };

const scratch = useScratchDatabase('resolvers_handler', { hostSchema: true });
const names = tableNames();
const live = { ATIVO: 1, DELETED: 0 };
const ids = { sheet: 0, sheetB: 0, group: 0, oper: 0 };
const BASE = 'http://host.test/associationtask';

/** The handler as a host mounts it: the scope and user come from the "session", here a header. */
function handler() {
  return createAssociationHandler({
    db: scratch().db,
    context: async (request) => {
      if (request.headers.get('x-session') === null) throw new Response('log in first', { status: 401 });
      const session = request.headers.get('x-session');
      const scope: Scope = session === 'b' ? SCOPE_B : session === 'broken' ? SCOPE_BROKEN : SCOPE_A;
      return { scope, user: 77 };
    },
    // The 500s some tests provoke on purpose are reported here; the tests that look at them build
    // a handler of their own.
    onError: () => undefined,
  });
}

function request(path: string, init: RequestInit & { session?: string } = {}) {
  const headers = new Headers(init.headers);
  headers.set('x-session', init.session ?? 'a');
  // Writes are accepted only as JSON (see the same-site tests); reads ignore it.
  if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  return handler()(new Request(`${BASE}${path}`, { ...init, headers }));
}

function metricRowCount(): Promise<number> {
  return countMetricRows(scratch().db, names);
}

beforeAll(async () => {
  const { db } = scratch();
  await installTables(db, names);
  [ids.sheet, ids.sheetB] = (await insertRows(
    db,
    'app_folha_tarefa',
    [
      { ...SCOPE_A, DELETED: 0 },
      { ...SCOPE_B, DELETED: 0 },
    ],
    { withId: false },
  )) as [number, number];
  ids.group = await insertRow(db, names.OPER_GRUPO, { ...SCOPE_A, CODIGO: 'G', ...live });
  ids.oper = await insertRow(db, names.OPER, { ...SCOPE_A, CODIGO: 'O', INDICE: '2.00', ...live });
  await insertRow(db, names.OPER_OPER_GRUPO, {
    ...SCOPE_A,
    OPER_GRUPO_SEQ_DB: ids.group,
    OPER_SEQ_DB: ids.oper,
    ...live,
  });
});

describe('the associationtask handler', () => {
  // context is where each request's scope and user come from: a misspelt one used to be accepted,
  // then every request answered 500 with "options.context is not a function".
  it('refuses options it cannot work with when it is made, naming the option', async () => {
    const context = async () => ({ scope: SCOPE_A, user: 1 });
    const attempt = (options: unknown) => {
      try {
        createAssociationHandler(options as Parameters<typeof createAssociationHandler>[0]);
        return undefined;
      } catch (error) {
        return error;
      }
    };
    expect(attempt({ db: scratch().db, ctx: context })).toMatchObject({
      code: 'INVALID_OPTION',
      path: 'ctx',
      message:
        'createAssociationHandler option ctx: is not an option (its options: db, context, onError, lang)',
    });
    expect(attempt({ db: scratch().db })).toMatchObject({
      code: 'INVALID_OPTION',
      path: 'context',
      message: 'createAssociationHandler option context: is required',
    });
    expect(attempt({ database: scratch().db, context })).toMatchObject({ path: 'database' });
    expect(attempt({ db: {}, context })).toMatchObject({
      path: 'db',
      message: expect.stringContaining('must be a Database (openDatabase or wrapPool)'),
    });
    // Said as the library's functions say it: mysql2's own pool as it is (its query answers
    // [rows, fields], so every request answered 500), a transaction's executor (no transaction).
    const raw = mysql.createPool(scratch().url);
    try {
      expect(attempt({ db: raw, context })).toMatchObject({
        path: 'db',
        message:
          'createAssociationHandler option db: must be a Database, not a mysql2 pool or connection as it is: wrap it (wrapPool(pool))',
      });
    } finally {
      await raw.end();
    }
    await scratch().db.transaction(async (tx) => {
      expect(attempt({ db: tx, context })).toMatchObject({
        path: 'db',
        message: expect.stringContaining(
          'not the executor of a transaction: it runs a transaction of its own',
        ),
      });
    });
    expect(attempt({ db: scratch().db, context, onError: 'log' })).toMatchObject({ path: 'onError' });
    expect(attempt({ db: scratch().db, context, lang: 'pt-BR' })).toBeUndefined();
  });

  it('GET ?taskSheet= answers 200 with the tree as JSON', async () => {
    const response = await request(`?taskSheet=${ids.sheet}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await response.json();
    expect(body).toMatchObject({
      taskSheet: { SEQ_DB: ids.sheet },
      metrics: [{ field: 'METRICA1' }, { field: 'METRICA2' }],
      cycles: [],
      roots: [
        {
          kind: 'branch',
          seqDb: ids.group,
          children: [
            { kind: 'task', seqDb: ids.oper, group: ids.group, metrics: { METRICA1: { source: 'none' } } },
          ],
        },
      ],
    });
  });

  it('PUT saves in the scope and as the user the host gives, never from the body', async () => {
    const body = { entries: [{ activity: ids.oper, group: ids.group, values: { METRICA1: '3.50' } }] };
    const response = await request(`?taskSheet=${ids.sheet}`, { method: 'PUT', body: JSON.stringify(body) });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ inserted: 1, updated: 0 });
    const rows = await scratch().db.query(
      `SELECT EMPRESA, FILIAL, LOCAL, INS_USUARIO_SEQ_DB, METRICA1 FROM ${names.OPER_GRUPO_METRICA}`,
    );
    expect(rows).toEqual([{ ...SCOPE_A, INS_USUARIO_SEQ_DB: 77, METRICA1: '3.50' }]);
    const smuggled = await request(`?taskSheet=${ids.sheet}`, {
      method: 'PUT',
      body: JSON.stringify({ ...body, scope: SCOPE_B, user: 1 }),
    });
    expect(smuggled.status).toBe(400);
    expect(await smuggled.json()).toMatchObject({ error: { code: 'INVALID_REQUEST' } });
    expect(await metricRowCount()).toBe(1);
  });

  it.each([
    ['no taskSheet', '', { method: 'GET' }, 'taskSheet'],
    ['a taskSheet that is not a number', '?taskSheet=42%20OR%201', { method: 'GET' }, 'taskSheet'],
    ['a body that is not JSON', `?taskSheet=SHEET`, { method: 'PUT', body: '{entries' }, undefined],
    ['an empty batch', `?taskSheet=SHEET`, { method: 'PUT', body: '{"entries":[]}' }, 'entries'],
    [
      'a value the column cannot hold',
      `?taskSheet=SHEET`,
      {
        method: 'PUT',
        body: JSON.stringify({ entries: [{ activity: 'OPER', group: 'GROUP', values: { METRICA2: 2.5 } }] }),
      },
      'entries.0.values.METRICA2',
    ],
  ])('answers 400 with a JSON error for %s, writing nothing', async (_, query, init, path) => {
    const fill = (text: string) =>
      text
        .replace('SHEET', String(ids.sheet))
        .replace('"OPER"', String(ids.oper))
        .replace('"GROUP"', String(ids.group));
    const before = await metricRowCount();
    const response = await request(fill(query), {
      ...init,
      ...('body' in init ? { body: fill(init.body) } : {}),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: string; message: string; path?: string } };
    expect(body.error.message.length).toBeGreaterThan(10);
    if (path !== undefined) expect(body.error.path).toBe(path);
    expect(await metricRowCount()).toBe(before);
  });

  it.each([
    ['2^53 + 1 (read as 2^53 by Number)', '?taskSheet=9007199254740993', 'INVALID_REQUEST', 'taskSheet'],
    ['2^53', '?taskSheet=9007199254740992', 'INVALID_REQUEST', 'taskSheet'],
    ['taskSheet twice', '?taskSheet=SHEET&taskSheet=SHEET_B', 'REPEATED_QUERY_PARAMETER', 'taskSheet'],
    ['taskSheet twice, once empty', '?taskSheet=SHEET&taskSheet=', 'REPEATED_QUERY_PARAMETER', 'taskSheet'],
    ['an unknown parameter', '?taskSheet=SHEET&scope=2', 'UNKNOWN_QUERY_PARAMETER', 'scope'],
    ['a parameter in another case', '?tasksheet=SHEET', 'UNKNOWN_QUERY_PARAMETER', 'tasksheet'],
    ['a prototype key', '?taskSheet=SHEET&__proto__=1', 'UNKNOWN_QUERY_PARAMETER', '__proto__'],
  ])(
    'answers 400 naming the parameter for %s, on GET and PUT, writing nothing',
    async (_, query, code, path) => {
      const url = query.replace('SHEET_B', String(ids.sheetB)).replace('SHEET', String(ids.sheet));
      const body = JSON.stringify({
        entries: [{ activity: ids.oper, group: ids.group, values: { METRICA1: '9.00' } }],
      });
      const before = await metricRowCount();
      for (const init of [{ method: 'GET' }, { method: 'PUT', body }]) {
        const response = await request(url, init);
        expect(response.status).toBe(400);
        const answer = (await response.json()) as { error: { code: string; message: string; path: string } };
        expect(answer.error).toMatchObject({ code, path });
        expect(answer.error.message).toContain(path);
      }
      expect(await metricRowCount()).toBe(before);
    },
  );

  it('refuses a "__proto__" key anywhere in the body instead of dropping it, writing nothing', async () => {
    const entry = `{"activity":${ids.oper},"group":${ids.group},"values":{"METRICA1":"4.00"}}`;
    const before = await metricRowCount();
    for (const [body, path] of [
      [
        `{"entries":[${entry.replace('"values":{', '"values":{"__proto__":"1.00",')}]}`,
        'entries.0.values.__proto__',
      ],
      [`{"entries":[${entry.replace('{"activity"', '{"__proto__":{},"activity"')}]}`, 'entries.0.__proto__'],
      [`{"__proto__":{"entries":[]},"entries":[${entry}]}`, '__proto__'],
    ] as const) {
      const response = await request(`?taskSheet=${ids.sheet}`, { method: 'PUT', body });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: 'INVALID_REQUEST', path } });
    }
    expect(await metricRowCount()).toBe(before);
  });

  it('refuses a body SEQ_DB past 2^53 - 1 instead of saving under a rounded one', async () => {
    const before = await metricRowCount();
    const response = await request(`?taskSheet=${ids.sheet}`, {
      method: 'PUT',
      body: `{"entries":[{"activity":9007199254740993,"group":${ids.group},"values":{"METRICA1":"1.00"}}]}`,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: {
        code: 'INVALID_REQUEST',
        path: 'entries.0.activity',
        message: 'request body at entries.0.activity: a SEQ_DB may be at most 9007199254740991 (2^53 - 1)',
      },
    });
    expect(await metricRowCount()).toBe(before);
  });

  it('says what a metric value may be when given another kind', async () => {
    const entry = { activity: ids.oper, group: ids.group, values: { METRICA1: true } };
    const response = await request(`?taskSheet=${ids.sheet}`, {
      method: 'PUT',
      body: JSON.stringify({ entries: [entry] }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: {
        path: 'entries.0.values.METRICA1',
        message:
          'request body at entries.0.values.METRICA1: a metric value is a number, a string (decimals best as exact text, "12.50") or null',
      },
    });
  });

  it('says what an entry’s row flag may be when given another kind', async () => {
    const entry = { activity: ids.oper, group: ids.group, values: { METRICA1: '1.00' }, row: 'yes' };
    const response = await request(`?taskSheet=${ids.sheet}`, {
      method: 'PUT',
      body: JSON.stringify({ entries: [entry] }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: {
        code: 'INVALID_REQUEST',
        path: 'entries.0.row',
        message:
          'request body at entries.0.row: row is true (a live row of this key was read), false (none was), or left out',
      },
    });
  });

  it('answers 404 for an unknown task sheet and for one of another scope', async () => {
    for (const taskSheet of [999_999, ids.sheetB]) {
      const response = await request(`?taskSheet=${taskSheet}`);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({
        error: { code: 'TASK_SHEET_NOT_FOUND', path: 'taskSheet' },
      });
    }
    const put = await request(`?taskSheet=${ids.sheet}`, {
      method: 'PUT',
      session: 'b',
      body: JSON.stringify({
        entries: [{ activity: ids.oper, group: ids.group, values: { METRICA1: '1.00' } }],
      }),
    });
    expect(put.status).toBe(404);
  });

  // Found by a review: 042 was refused as not "written in digits only", which it is.
  it('refuses a task sheet written with a leading zero, saying so', async () => {
    const answer = await request('?taskSheet=042');
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({
      error: {
        code: 'INVALID_REQUEST',
        message:
          'query parameter taskSheet: a SEQ_DB is a positive whole number written in digits only, without a leading zero',
        path: 'taskSheet',
      },
    });
  });

  it('gives every error answer one shape and the same headers, with the path where there is one', async () => {
    const answers = await Promise.all([
      request('?taskSheet=x'),
      request(`?taskSheet=${ids.sheet}`, { method: 'PATCH' }),
      request(`?taskSheet=${ids.sheet}`, { method: 'PUT', body: '{' }),
    ]);
    const seen = await Promise.all(
      answers.map(async (answer) => ({
        status: answer.status,
        type: answer.headers.get('content-type'),
        cache: answer.headers.get('cache-control'),
        sniff: answer.headers.get('x-content-type-options'),
        body: await answer.json(),
      })),
    );
    const headers = { type: 'application/json; charset=utf-8', cache: 'no-store', sniff: 'nosniff' };
    expect(seen).toEqual([
      {
        status: 400,
        ...headers,
        body: {
          error: {
            code: 'INVALID_REQUEST',
            message:
              'query parameter taskSheet: a SEQ_DB is a positive whole number written in digits only, without a leading zero',
            path: 'taskSheet',
          },
        },
      },
      {
        status: 405,
        ...headers,
        body: {
          error: { code: 'METHOD_NOT_ALLOWED', message: 'PATCH is not supported: use GET, HEAD, PUT' },
        },
      },
      {
        status: 400,
        ...headers,
        body: {
          error: {
            code: 'INVALID_JSON',
            message:
              'the request body is not JSON (not valid JSON at line 1, column 2 (offset 1): expected a double-quoted property name, found the end of the text): send {"entries": [...]}',
          },
        },
      },
    ]);
  });

  it('answers an error as the gallery does: one body, one set of headers, one 405', async () => {
    const gallery = spiedGallery(() => []);
    const answers = [
      await handler()(
        new Request(`${BASE}?taskSheet=1`, { method: 'DELETE', headers: { 'x-session': 'a' } }),
      ),
      await gallery.get('/caroulsel/data', { method: 'DELETE' }),
    ];
    const seen = await Promise.all(
      answers.map(async (answer) => ({
        status: answer.status,
        allowed: answer.headers.get('allow'),
        headers: ['content-type', 'cache-control', 'x-content-type-options', 'content-security-policy'].map(
          (name) => answer.headers.get(name),
        ),
        body: await answer.json(),
      })),
    );
    const [screen, home] = seen;
    expect(screen?.headers).toEqual(home?.headers);
    expect(screen?.headers).toEqual([
      'application/json; charset=utf-8',
      'no-store',
      'nosniff',
      "default-src 'none'",
    ]);
    expect(seen.map(({ status, allowed, body }) => ({ status, allowed, body }))).toEqual([
      {
        status: 405,
        allowed: 'GET, HEAD, PUT',
        body: {
          error: { code: 'METHOD_NOT_ALLOWED', message: 'DELETE is not supported: use GET, HEAD, PUT' },
        },
      },
      {
        status: 405,
        allowed: 'GET, HEAD',
        body: { error: { code: 'METHOD_NOT_ALLOWED', message: 'DELETE is not supported: use GET, HEAD' } },
      },
    ]);
  });

  it('names an unknown key of the body or of an entry in the path', async () => {
    const entry = { activity: ids.oper, group: ids.group, values: { METRICA1: '1.00' } };
    for (const [body, path] of [
      [{ entries: [entry], x: 1 }, 'x'],
      [{ entries: [{ ...entry, note: 'hi' }] }, 'entries.0.note'],
    ] as const) {
      const answer = await request(`?taskSheet=${ids.sheet}`, { method: 'PUT', body: JSON.stringify(body) });
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({ error: { code: 'INVALID_REQUEST', path } });
    }
  });

  it('names the first of many unknown keys, and says how many more, without echoing them', async () => {
    const keys = Array.from({ length: 5000 }, (_, index) => `"k${index}":0`).join(',');
    const entry = JSON.stringify({ activity: ids.oper, group: ids.group, values: { METRICA1: '1.00' } });
    const answer = await request(`?taskSheet=${ids.sheet}`, {
      method: 'PUT',
      body: `{"entries":[${entry}],${keys}}`,
    });
    expect(answer.status).toBe(400);
    const { error } = (await answer.json()) as { error: { code: string; message: string; path: string } };
    expect(error).toEqual({
      code: 'INVALID_REQUEST',
      path: 'k0',
      message: 'request body at k0: unknown key "k0" (and 4999 more)',
    });
  });

  it('refuses a query parameter the asked part does not read, naming it', async () => {
    for (const [query, name, part] of [
      ['&part=start&level=1&node=1', 'level', 'by part=start'],
      ['&part=start&q=zzz', 'q', 'by part=start'],
      ['&q=zzz&level=1&node=5', 'q', 'without part'],
      ['&part=search&q=G&node=1', 'node', 'by part=search'],
      ['&part=children&q=x', 'q', 'by part=children'],
    ] as const) {
      const answer = await request(`?taskSheet=${ids.sheet}${query}`);
      expect(answer.status).toBe(400);
      const { error } = (await answer.json()) as { error: { code: string; message: string; path: string } };
      expect(error).toMatchObject({ code: 'UNKNOWN_QUERY_PARAMETER', path: name });
      expect(error.message).toContain(`query parameter ${name} is not read ${part}`);
    }
  });

  // Found by a review: q=%FF was read as U+FFFD and answered 200 with no matches; a raw 0xFF in a
  // body was INVALID_JSON without reason or place; a body nested too deep spoke of a configuration document.
  it('says which bytes of a query or body are not UTF-8, and what nests too deep in a body', async () => {
    const query = await request(`?taskSheet=${ids.sheet}&part=search&q=%FF`);
    expect(query.status).toBe(400);
    expect(await query.json()).toEqual({
      error: {
        code: 'INVALID_REQUEST',
        path: 'q',
        message:
          'query parameter q: "%FF" has %-escapes that are not UTF-8: escape the text\'s UTF-8 bytes (encodeURIComponent)',
      },
    });
    const before = await metricRowCount();
    const prefix = new TextEncoder().encode(
      `{"entries": [{"activity": ${ids.oper}, "group": ${ids.group}, "values": {"METRICA1": "a`,
    );
    const bytes = new Uint8Array([...prefix, 0xff, ...new TextEncoder().encode('"}}]}')]);
    const body = await request(`?taskSheet=${ids.sheet}`, { method: 'PUT', body: bytes });
    expect(body.status).toBe(400);
    expect(await body.json()).toEqual({
      error: {
        code: 'INVALID_JSON',
        message: `the request body is not JSON (byte 0xFF at offset ${prefix.length} (line 1) is not UTF-8: send the body encoded as UTF-8)`,
      },
    });
    const deep = await request(`?taskSheet=${ids.sheet}`, {
      method: 'PUT',
      body: `{"entries": ${'['.repeat(600)}${']'.repeat(600)}}`,
    });
    expect(deep.status).toBe(400);
    expect(await deep.json()).toMatchObject({
      error: {
        code: 'INVALID_JSON',
        message: expect.stringContaining(
          'expected at most 512 levels of nesting (no request body nests deeper)',
        ),
      },
    });
    expect(await metricRowCount()).toBe(before);
  });

  it('echoes no more than a short piece of a made-up name or value in its errors', async () => {
    const long = 'x'.repeat(10_000);
    const query = await request(`?taskSheet=${ids.sheet}&${long}=1`);
    expect(query.status).toBe(400);
    expect((await query.text()).length).toBeLessThan(600);
    const entry = { activity: ids.oper, group: ids.group, values: { METRICA2: '9'.repeat(200_000) } };
    const body = await request(`?taskSheet=${ids.sheet}`, {
      method: 'PUT',
      body: JSON.stringify({ entries: [entry] }),
    });
    expect(body.status).toBe(400);
    const text = await body.text();
    expect(text.length).toBeLessThan(600);
    expect(text).toContain('(200002 characters)');
  });

  it('refuses a body that gives a key twice in one object, naming where, and writes nothing', async () => {
    const before = await metricRowCount();
    // JSON.parse would keep the second activity without a word.
    const body = `{"entries": [{"activity": ${ids.oper}, "group": ${ids.group}, "activity": ${ids.oper + 1}, "values": {"METRICA1": "1.00"}}]}`;
    const answer = await request(`?taskSheet=${ids.sheet}`, { method: 'PUT', body });
    expect(answer.status).toBe(400);
    const { error } = (await answer.json()) as { error: { code: string; message: string; path: string } };
    expect(error.code).toBe('DUPLICATE_KEY');
    expect(error.path).toBe('entries.0.activity');
    expect(error.message).toMatch(/^request body at entries\.0\.activity: the key "activity" is given twice/);
    expect(await metricRowCount()).toBe(before);
  });

  it('answers part=start with the session’s owner key and user id (the screen names that user "you")', async () => {
    const answer = await request(`?taskSheet=${ids.sheet}&part=start`);
    expect(answer.status).toBe(200);
    const { owner, user } = (await answer.json()) as { owner: string; user: number };
    expect({ owner, user }).toEqual({ owner: ownerKey(SCOPE_A, 77), user: 77 });
  });

  it('answers HEAD as the GET of the same URL, without a body', async () => {
    for (const query of [
      `?taskSheet=${ids.sheet}`,
      `?taskSheet=${ids.sheet}&part=start`,
      '?taskSheet=x',
      '?asset=association-screen.js',
    ]) {
      const get = await request(query);
      const head = await request(query, { method: 'HEAD' });
      expect(head.status).toBe(get.status);
      expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
      expect(head.headers.get('cache-control')).toBe(get.headers.get('cache-control'));
      expect(await head.text()).toBe('');
      expect((await get.text()).length).toBeGreaterThan(0);
    }
  });

  it('answers 405 for other methods and passes on a Response the context throws', async () => {
    const deleted = await request(`?taskSheet=${ids.sheet}`, { method: 'DELETE' });
    expect(deleted.status).toBe(405);
    expect(deleted.headers.get('allow')).toBe('GET, HEAD, PUT');
    expect(await deleted.json()).toEqual({
      error: { code: 'METHOD_NOT_ALLOWED', message: 'DELETE is not supported: use GET, HEAD, PUT' },
    });
    const anonymous = await handler()(new Request(`${BASE}?taskSheet=${ids.sheet}`));
    expect(anonymous.status).toBe(401);
  });

  it('answers 500 with the configuration problem when the scope TREE_VIEW is invalid', async () => {
    await insertRows(
      scratch().db,
      'sys_core_par_parametros',
      [{ ...SCOPE_BROKEN, NOME: 'TREE_VIEW', TIPO: 1, CONTEUDO: '{"layers": {}}' }],
      { withId: false },
    );
    const response = await request(`?taskSheet=${ids.sheet}`, { session: 'broken' });
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ error: { code: 'INVALID_TREE_VIEW' } });
    // The host's operators hear of it too: the installation cannot serve until they fix it.
    const reported: unknown[] = [];
    const logging = createAssociationHandler({
      db: scratch().db,
      context: async () => ({ scope: SCOPE_BROKEN, user: 77 }),
      onError: (error) => reported.push(error),
    });
    expect((await logging(new Request(`${BASE}?taskSheet=${ids.sheet}`))).status).toBe(500);
    expect(reported).toEqual([expect.objectContaining({ code: 'INVALID_TREE_VIEW' })]);
  });

  it('answers a bad scope or user from the host context with a logged 500, never the client’s 400', async () => {
    for (const [session, code, path] of [
      [{ scope: { EMPRESA: 1, FILIAL: 1, LOCAL: 1.5 }, user: 7 }, 'INVALID_SCOPE', 'scope'],
      [{ scope: SCOPE_A, user: 0 }, 'INVALID_USER', 'user'],
      [{ scope: SCOPE_A, user: Number.NaN }, 'INVALID_USER', 'user'],
    ] as const) {
      const reported: unknown[] = [];
      const handle = createAssociationHandler({
        db: scratch().db,
        context: async () => session as { scope: Scope; user: number },
        onError: (error) => reported.push(error),
      });
      for (const method of ['GET', 'PUT']) {
        const response = await handle(
          new Request(`${BASE}?taskSheet=${ids.sheet}`, {
            method,
            headers: { 'content-type': 'application/json' },
            ...(method === 'PUT' ? { body: '{"entries": []}' } : {}),
          }),
        );
        expect(response.status).toBe(500);
        expect(await response.json()).toMatchObject({ error: { code, path } });
      }
      expect(reported).toHaveLength(2);
    }
  });

  // Found by a review: a context returning undefined gave onError "Cannot read properties of undefined (reading 'scope')".
  it('answers a context that returns no { scope, user } with a logged 500 naming what it returned', async () => {
    for (const [returned, message] of [
      [undefined, "the host's context returned undefined, not { scope, user }: check the host's context"],
      [null, "the host's context returned null, not { scope, user }: check the host's context"],
      [42, "the host's context returned 42, not { scope, user }: check the host's context"],
      [
        new Response(null, { status: 401 }),
        "the host's context returned a Response (401), not { scope, user }: throw it to answer the request with it",
      ],
    ] as const) {
      const reported: unknown[] = [];
      const handle = createAssociationHandler({
        db: scratch().db,
        context: async () => returned as never,
        onError: (error) => reported.push(error),
      });
      const response = await handle(new Request(`${BASE}?taskSheet=${ids.sheet}`));
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ error: { code: 'INVALID_CONTEXT', message } });
      expect(reported).toEqual([expect.objectContaining({ code: 'INVALID_CONTEXT', message })]);
    }
  });

  it('answers writers that kept the scope busy with 503 and a short Retry-After, not logged', async () => {
    const reported: unknown[] = [];
    const busy = createAssociationHandler({
      db: scratch().db,
      context: async () => {
        throw new BusyError('METRICS_BUSY', 'metrics of scope 1/1/1 are being saved by another request');
      },
      onError: (error) => reported.push(error),
    });
    const response = await busy(new Request(`${BASE}?taskSheet=${ids.sheet}`));
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(await response.json()).toMatchObject({ error: { code: 'METRICS_BUSY' } });
    expect(reported).toEqual([]);
  });

  it('answers 500 without details for an unexpected error, and reports it to onError', async () => {
    const reported: unknown[] = [];
    const lost = new Error('connection lost: secret detail');
    const broken = createAssociationHandler({
      db: { ...scratch().db, query: async () => Promise.reject(lost) },
      context: async () => ({ scope: SCOPE_A, user: 1 }),
      onError: (error) => reported.push(error),
    });
    const response = await broken(new Request(`${BASE}?taskSheet=${ids.sheet}`));
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      error: { code: 'INTERNAL_ERROR', message: 'the request failed on the server' },
    });
    expect(reported).toEqual([lost]);
  });

  it('refuses a body over 1 MB by its Content-Length before reading it', async () => {
    const before = await metricRowCount();
    const response = await request(`?taskSheet=${ids.sheet}`, {
      method: 'PUT',
      body: JSON.stringify({ entries: [], padding: 'x'.repeat(1_100_000) }),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { code: 'BODY_TOO_LARGE' } });
    expect(await metricRowCount()).toBe(before);
  });

  it('stops reading a chunked body without Content-Length once it passes 1 MB', async () => {
    const before = await metricRowCount();
    // An endless body: if the handler buffered it whole, this test would never end.
    const chunk = new TextEncoder().encode(`{"entries": [${'0,'.repeat(32_000)}`);
    let pulled = 0;
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
      cancel() {
        cancelled = true;
      },
    });
    const response = await request(`?taskSheet=${ids.sheet}`, {
      method: 'PUT',
      body,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      error: {
        code: 'BODY_TOO_LARGE',
        message: 'the request body is larger than 1000000 bytes: send fewer entries',
      },
    });
    expect(cancelled).toBe(true);
    // The stream may read ahead by its queue, never far past the limit.
    expect(pulled).toBeLessThan(1_000_000 + 4 * chunk.byteLength);
    expect(await metricRowCount()).toBe(before);
  });

  it('accepts a chunked body under the limit, and refuses one that is not UTF-8 JSON', async () => {
    const stream = (...parts: Uint8Array[]) =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          controller.close();
        },
      });
    const text = new TextEncoder().encode(
      JSON.stringify({ entries: [{ activity: ids.oper, group: ids.group, values: { METRICA2: 3 } }] }),
    );
    const saved = await request(`?taskSheet=${ids.sheet}`, {
      method: 'PUT',
      body: stream(text.subarray(0, 10), text.subarray(10)),
      duplex: 'half',
    } as RequestInit);
    expect(saved.status).toBe(200);
    const before = await metricRowCount();
    const invalid = await request(`?taskSheet=${ids.sheet}`, {
      method: 'PUT',
      body: stream(new Uint8Array([0x7b, 0xff, 0x7d])),
      duplex: 'half',
    } as RequestInit);
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ error: { code: 'INVALID_JSON' } });
    expect(await metricRowCount()).toBe(before);
  });
});

describe('what people enter is never lost: bases, removes, history and request ids over HTTP', () => {
  async function newActivity(): Promise<number> {
    const { db } = scratch();
    const oper = await insertRow(db, names.OPER, { ...SCOPE_A, CODIGO: 'N', INDICE: '1.00', ...live });
    await insertRow(db, names.OPER_OPER_GRUPO, {
      ...SCOPE_A,
      OPER_GRUPO_SEQ_DB: ids.group,
      OPER_SEQ_DB: oper,
      ...live,
    });
    return oper;
  }
  const put = (body: unknown) =>
    request(`?taskSheet=${ids.sheet}`, { method: 'PUT', body: JSON.stringify(body) });

  it('answers a stale field with 409 METRIC_CONFLICT listing base, theirs with who and when, and yours', async () => {
    const oper = await newActivity();
    expect(
      (await put({ entries: [{ activity: oper, group: ids.group, values: { METRICA1: '31.00' } }] })).status,
    ).toBe(200);
    const before = await metricRowCount();
    const response = await put({
      requestId: 'tab-b-1',
      source: 'screen',
      entries: [
        { activity: oper, group: ids.group, values: { METRICA1: '32.00' }, base: { METRICA1: null } },
      ],
    });
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({
      error: {
        code: 'METRIC_CONFLICT',
        message: expect.stringContaining('nothing was saved'),
        path: 'entries.0.values.METRICA1',
        conflicts: [
          {
            entry: 0,
            activity: oper,
            group: ids.group,
            field: 'METRICA1',
            base: null,
            theirs: '31.00',
            row: true,
            yours: '32.00',
            changedBy: 77,
            changedAt: expect.stringMatching(/Z$/),
          },
        ],
      },
    });
    expect(await metricRowCount()).toBe(before);
  });

  it('saves with a request id once, answering its replay with the first answer, and removes with remove: true', async () => {
    const oper = await newActivity();
    const body = {
      requestId: '6f1c2e0a-1b2c-4d5e-8f90-123456789abc',
      source: 'screen',
      entries: [{ activity: oper, group: ids.group, values: { METRICA2: 4 }, base: { METRICA2: null } }],
    };
    const first = await put(body);
    expect(first.status).toBe(200);
    const answer = await first.json();
    expect(answer).toEqual({
      inserted: 1,
      updated: 0,
      removed: 0,
      unchanged: 0,
      entries: [
        {
          activity: oper,
          group: ids.group,
          stored: { METRICA1: null, METRICA2: 4 },
          lastChange: { user: 77, at: expect.any(String) },
        },
      ],
      requestId: body.requestId,
      replayed: false,
    });
    const replay = await put(body);
    expect(await replay.json()).toEqual({ ...answer, replayed: true });
    const removed = await put({
      entries: [{ activity: oper, group: ids.group, remove: true, base: { METRICA2: 4 } }],
    });
    expect(await removed.json()).toMatchObject({ removed: 1, entries: [{ stored: null, lastChange: null }] });
    const again = await put({ entries: [{ activity: oper, group: ids.group, remove: true }] });
    expect(again.status).toBe(404);
    expect(await again.json()).toMatchObject({ error: { code: 'ENTRY_NOT_FOUND', path: 'entries.0' } });
    const reused = await put({ ...body, entries: [{ ...body.entries[0], values: { METRICA2: 5 } }] });
    expect(reused.status).toBe(409);
    expect(await reused.json()).toMatchObject({ error: { code: 'REQUEST_ID_REUSED', path: 'requestId' } });
  });

  it('answers part=history with the activity’s changes, newest first, and refuses bad history queries', async () => {
    const oper = await newActivity();
    await put({
      source: 'screen',
      entries: [{ activity: oper, group: ids.group, values: { METRICA1: '1.25' } }],
    });
    await put({
      entries: [{ activity: oper, group: ids.group, values: { METRICA1: null }, base: { METRICA1: '1.25' } }],
    });
    const response = await request(
      `?taskSheet=${ids.sheet}&part=history&activity=${oper}&group=${ids.group}`,
    );
    expect(response.status).toBe(200);
    const { changes } = await response.json();
    expect(
      changes.map((change: { action: string; source: string; user: number }) => [
        change.action,
        change.source,
        change.user,
      ]),
    ).toEqual([
      ['clear', 'api', 77],
      ['insert', 'screen', 77],
    ]);
    expect(changes[1]).toMatchObject({
      field: 'METRICA1',
      oldValue: null,
      newValue: '1.25',
      requestId: null,
    });
    // Another scope's session sees none of it (its own task sheet has no history).
    const other = await request(`?taskSheet=${ids.sheetB}&part=history&activity=${oper}&group=${ids.group}`, {
      session: 'b',
    });
    expect(await other.json()).toEqual({ changes: [] });
    for (const [query, path] of [
      ['&part=history', 'activity'],
      ['&part=history&activity=x', 'activity'],
      ['&part=history&activity=1&group=0', 'group'],
      // Activities hang under nodes on this tree: without its node no row would match (an empty
      // history that is not).
      ['&part=history&activity=1', 'group'],
      ['&part=history&activity=1&q=a', 'q'],
      ['&part=search&q=a&activity=1', 'activity'],
    ] as const) {
      const bad = await request(`?taskSheet=${ids.sheet}${query}`);
      expect(bad.status, query).toBe(400);
      expect(await bad.json(), query).toMatchObject({ error: { path } });
    }
  });

  it('refuses a save made as another owner than the session’s with 409 OWNER_CHANGED, before its request id, writing nothing', async () => {
    const oper = await newActivity();
    const { db } = scratch();
    const historyRows = async () =>
      Number((await db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM ${HISTORY_TABLE_NAME}`))[0]?.n ?? 0);
    const body = {
      requestId: 'owner-1',
      source: 'offline',
      owner: ownerKey(SCOPE_A, 77),
      entries: [{ activity: oper, group: ids.group, values: { METRICA2: 6 }, base: { METRICA2: null } }],
    };
    // The session's own key: saved as before.
    const first = await put(body);
    expect(first.status).toBe(200);
    const rows = await metricRowCount();
    const changes = await historyRows();
    // Entries made as user 78 (or in another scope) sent with user 77's session: refused whole,
    // also under a request id the server knows (it is not answered as that save's replay).
    for (const owner of [ownerKey(SCOPE_A, 78), ownerKey(SCOPE_B, 77)]) {
      for (const sent of [
        body,
        {
          ...body,
          requestId: 'owner-2',
          entries: [{ ...body.entries[0], base: { METRICA2: 6 }, values: { METRICA2: 7 } }],
        },
      ]) {
        const response = await put({ ...sent, owner });
        expect(response.status).toBe(409);
        expect(await response.json()).toEqual({
          error: {
            code: 'OWNER_CHANGED',
            message:
              'the entries were made as another user or scope than the one signed in now: nothing was saved; ask part=owner who is signed in, and send them only as their owner',
            path: 'owner',
          },
        });
      }
    }
    expect(await metricRowCount()).toBe(rows);
    expect(await historyRows()).toBe(changes);
    // Refused, the request id was not recorded: sent again as its owner, it is saved.
    const again = await put({
      requestId: 'owner-2',
      owner: ownerKey(SCOPE_A, 77),
      entries: [{ activity: oper, group: ids.group, values: { METRICA2: 7 }, base: { METRICA2: 6 } }],
    });
    expect(await again.json()).toMatchObject({ updated: 1, replayed: false });
  });

  it.each([
    ['a number', 42, 'owner is the key part=owner answers (22 letters, digits, - or _), or left out'],
    ['null', null, 'owner is the key part=owner answers (22 letters, digits, - or _), or left out'],
    ['too short', 'abc', 'owner is the key part=owner answers (22 letters, digits, - or _), or left out'],
    [
      'a character a key never holds',
      'abcdefghij/klmnopqrstu',
      'owner is the key part=owner answers (22 letters, digits, - or _), or left out',
    ],
  ])('refuses an owner that is %s with 400 at owner, writing nothing', async (_, owner, message) => {
    const oper = await newActivity();
    const before = await metricRowCount();
    const response = await put({
      owner,
      entries: [{ activity: oper, group: ids.group, values: { METRICA2: 1 } }],
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { code: 'INVALID_REQUEST', message: `request body at owner: ${message}`, path: 'owner' },
    });
    expect(await metricRowCount()).toBe(before);
  });

  it('refuses a malformed request id, a base of the wrong type and an unknown source, naming where, writing nothing', async () => {
    const oper = await newActivity();
    const before = await metricRowCount();
    for (const [body, path] of [
      [
        { requestId: 'has space', entries: [{ activity: oper, group: ids.group, values: { METRICA2: 1 } }] },
        'requestId',
      ],
      [
        { source: 'robot', entries: [{ activity: oper, group: ids.group, values: { METRICA2: 1 } }] },
        'source',
      ],
      [
        {
          entries: [{ activity: oper, group: ids.group, values: { METRICA2: 1 }, base: { METRICA2: 'two' } }],
        },
        'entries.0.base.METRICA2',
      ],
      [
        { entries: [{ activity: oper, group: ids.group, values: { METRICA2: 1 }, base: { METRICA9: 1 } }] },
        'entries.0.base.METRICA9',
      ],
      [
        { entries: [{ activity: oper, group: ids.group, remove: true, values: { METRICA2: 1 } }] },
        'entries.0.values',
      ],
    ] as const) {
      const response = await put(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await response.json()).toMatchObject({ error: { path } });
    }
    expect(await metricRowCount()).toBe(before);
  });
});
