import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAssociationHandler } from '../../src/resolvers/index.js';
import { tableNames } from '../../src/table-names.js';
import { useScratchDatabase } from '../support/database.js';
import { insertRow, insertRows, installTables, SCOPE_A } from './fixture.js';

// The README's Node http example, run for real on a random port.
const scratch = useScratchDatabase('resolvers_http', { hostSchema: true });
const names = tableNames();
let base = '';
let sheet = 0;
let close: () => Promise<void> = async () => undefined;

function mount(handle: (request: Request) => Promise<Response>) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    if (url.pathname !== '/associationtask') {
      res.writeHead(404).end();
      return;
    }
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const request = new Request(url, {
      method: req.method ?? 'GET',
      headers: Object.entries(req.headers).flatMap(([key, value]) =>
        value === undefined
          ? []
          : [[key, Array.isArray(value) ? value.join(', ') : value] as [string, string]],
      ),
      ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' } : {}),
    });
    const response = await handle(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  };
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
    expect(await put.json()).toEqual({ inserted: 1, updated: 0 });
    expect((await fetch(`${base}/elsewhere`)).status).toBe(404);
  });
});
