import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toNodeListener } from '../../src/http/node-adapter.js';
import { tableNames } from '../../src/model/table-names.js';
import { createAssociationHandler } from '../../src/tree.js';
import { useScratchDatabase } from '../support/database.js';
import { insertRow, insertRows, installTables, SCOPE_A } from '../tree/fixture.js';

// The README's Node http example, run for real on a random port.
const scratch = useScratchDatabase('resolvers_http', { hostSchema: true });
const names = tableNames();
let base = '';
let sheet = 0;
let close: () => Promise<void> = async () => undefined;

/** The README's mount: toNodeListener at /associationtask, 404 elsewhere. */
function mount(handle: (request: Request) => Promise<Response>) {
  const listener = toNodeListener(handle);
  return (req: IncomingMessage, res: ServerResponse) => {
    if ((req.url ?? '').split('?')[0] !== '/associationtask') {
      res.writeHead(404).end();
      return;
    }
    listener(req, res);
  };
}

/**
 * One request on `agent` (a keep-alive agent with one socket, so a second request goes on the same
 * connection when the server keeps it), its status and body; a request left without an answer for
 * 5 s (a stalled connection) fails.
 */
function send(
  agent: Agent,
  path: string,
  init: { method?: string; body?: Buffer; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${base}${path}`,
      { agent, method: init.method ?? 'GET', headers: init.headers ?? {}, timeout: 5_000 },
      (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('timeout', () =>
      req.destroy(new Error(`no answer to ${init.method ?? 'GET'} ${path} within 5 s`)),
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

beforeAll(async () => {
  const { db } = scratch();
  await installTables(db, names);
  [sheet = 0] = await insertRows(db, 'app_folha_tarefa', [{ ...SCOPE_A, DELETED: 0 }], { withId: false });
  const group = await insertRow(db, names.OPER_GRUPO, { ...SCOPE_A, CODIGO: 'G', ATIVO: 1, DELETED: 0 });
  const oper = await insertRow(db, names.OPER, { ...SCOPE_A, CODIGO: 'O', ATIVO: 1, DELETED: 0 });
  await insertRow(db, names.OPER_OPER_GRUPO, {
    ...SCOPE_A,
    OPER_GRUPO_SEQ_DB: group,
    OPER_SEQ_DB: oper,
    ATIVO: 1,
    DELETED: 0,
  });
  const handle = createAssociationHandler({ db, context: async () => ({ scope: SCOPE_A, user: 5 }) });
  const server = createServer(mount(handle));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((resolve) => server.close(() => resolve()));
});

afterAll(async () => {
  await close();
});

describe('mounting the handler on node:http', () => {
  it('serves GET and PUT at /associationtask', async () => {
    const tree = await fetch(`${base}/associationtask?taskSheet=${sheet}`);
    expect(tree.status).toBe(200);
    const body = (await tree.json()) as {
      roots: { seqDb: number; children: { seqDb: number; group: number }[] }[];
    };
    const task = body.roots[0]?.children[0];
    expect(task).toBeDefined();
    const put = await fetch(`${base}/associationtask?taskSheet=${sheet}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        entries: [{ activity: task?.seqDb, group: task?.group, values: { METRICA2: 3 } }],
      }),
    });
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({ inserted: 1, updated: 0 });
    expect((await fetch(`${base}/elsewhere`)).status).toBe(404);
  });

  it('answers HEAD through the Node bridge as its GET, without a body', async () => {
    for (const query of [`?taskSheet=${sheet}&part=start`, '?asset=association-screen.js', '?taskSheet=x']) {
      const get = await fetch(`${base}/associationtask${query}`);
      const head = await fetch(`${base}/associationtask${query}`, { method: 'HEAD' });
      expect([head.status, head.headers.get('content-type')]).toEqual([
        get.status,
        get.headers.get('content-type'),
      ]);
      expect(await head.text()).toBe('');
    }
  });

  it.each([
    ['413 on Content-Length, the body never read', '?taskSheet=SHEET', 2_000_000, 413],
    ['400 on the query', '?taskSheet=x', 300_000, 400],
    ['400 on a repeated parameter', '?taskSheet=SHEET&taskSheet=SHEET', 300_000, 400],
    ['400 on a body that is not JSON', '?taskSheet=SHEET', 300_000, 400],
  ])(
    'answers the next request on a keep-alive connection after an early %s',
    async (_, query, size, status) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const body = Buffer.alloc(size, 'x');
        const early = await send(agent, `/associationtask${query.replaceAll('SHEET', String(sheet))}`, {
          method: 'PUT',
          body,
          headers: { 'content-type': 'application/json', 'content-length': String(size) },
        });
        expect(early.status).toBe(status);
        expect(JSON.parse(early.body)).toMatchObject({ error: { code: expect.any(String) } });
        const next = await send(agent, `/associationtask?taskSheet=${sheet}`);
        expect(next.status).toBe(200);
      } finally {
        agent.destroy();
      }
    },
  );
});
