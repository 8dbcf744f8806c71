import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { DatabaseTimeoutError } from '../../src/model/errors.js';
import { parseIdentifier } from '../../src/model/identifier.js';
import { tableNames } from '../../src/model/table-names.js';
import type { Database } from '../../src/store/driver.js';
import { scopeLockRowStatement } from '../../src/store/metric-writes.js';
import { openDatabase } from '../../src/store/mysql.js';
import { execute } from '../../src/store/sql.js';
import { parseDatabaseUrl, resolveDatabaseTimeout } from '../../src/store/url.js';
import { createAssociationHandler } from '../../src/tree.js';
import { captureIo } from '../support/cli.js';
import { useScratchDatabase } from '../support/database.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { insertLinkedActivity, insertRows, installTables, SCOPE_A, SCOPE_B } from '../tree/fixture.js';

/** Writes are accepted only as JSON; reads ask for JSON (a browser's text/html gets the screen's page). */
const JSON_BODY = { 'content-type': 'application/json' };

const scratch = useScratchDatabase('db_timeout', { hostSchema: true });
const names = tableNames();
// Long enough for a healthy answer on a loaded test machine, short enough to keep the tests quick.
const BOUND_MS = 1_000;
let proxy: TcpProxy;
const opened: Database[] = [];
const ids = { sheet: 0, group: 0, oper: 0 };

/** The scratch database's URL, through the proxy. */
function proxiedUrl(): string {
  const url = new URL(scratch().url);
  url.hostname = '127.0.0.1';
  url.port = String(proxy.port);
  return url.toString();
}

async function openProxied(options: { connectionLimit?: number } = {}): Promise<Database> {
  const db = await openDatabase(proxiedUrl(), { timeoutMs: BOUND_MS, ...options });
  opened.push(db);
  return db;
}

beforeAll(async () => {
  const { db, url } = scratch();
  const { host, port } = parseDatabaseUrl(url);
  proxy = await startTcpProxy({ host, port });
  await installTables(db, names);
  [ids.sheet] = (await insertRows(db, 'app_folha_tarefa', [{ ...SCOPE_A, DELETED: 0 }], {
    withId: false,
  })) as [number];
  ({ group: ids.group, oper: ids.oper } = await insertLinkedActivity(db, names, SCOPE_A));
});

afterEach(async () => {
  proxy.heal();
  for (const db of opened.splice(0)) await db.close().catch(() => undefined);
});

afterAll(async () => {
  await proxy.close();
});

/** The association handler on a pool through the proxy, and the task sheet's URL. */
async function proxiedHandler() {
  const db = await openProxied();
  const handle = createAssociationHandler({
    db,
    context: async () => ({ scope: SCOPE_A, user: 7 }),
    onError: () => undefined,
  });
  return { handle, url: `http://host.test/associationtask?taskSheet=${ids.sheet}` };
}

/** How many metric rows hold `value` in METRICA1, read directly (not through the proxy). */
async function rowsHolding(value: string): Promise<number> {
  const [row] = await scratch().db.query<{ n: number }>(
    `SELECT COUNT(*) AS n FROM ${names.OPER_GRUPO_METRICA} WHERE METRICA1 = ?`,
    [value],
  );
  return Number(row?.n);
}

describe('a database that stops answering', () => {
  it('cuts a statement at the bound, destroys its connection and works again once the database answers', async () => {
    const db = await openProxied({ connectionLimit: 1 });
    const [before] = await db.query<{ id: number }>('SELECT CONNECTION_ID() AS id');
    proxy.partition();
    const error = await db.query('SELECT 1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseTimeoutError);
    expect(error).toMatchObject({ code: 'DATABASE_TIMEOUT', message: expect.stringContaining('1 s') });
    proxy.heal();
    // One connection in the pool: a new id proves the silent one was destroyed, not handed back.
    const [after] = await db.query<{ id: number }>('SELECT CONNECTION_ID() AS id');
    expect(after?.id).not.toBe(before?.id);
  });

  it('bounds silence, not a long answer: a read that keeps streaming past the bound completes', async () => {
    const db = await openProxied({ connectionLimit: 1 });
    // Ten rows of 70 kB, a quarter of a second apart: 2.5 s in all, never 1 s without a packet.
    const slow = `WITH RECURSIVE s (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 10)
      SELECT n, SLEEP(0.25) AS z, REPEAT('x', 70000) AS x FROM s`;
    const started = Date.now();
    const rows = await db.query<{ n: number }>(slow);
    expect(rows.map((row) => Number(row.n))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(Date.now() - started).toBeGreaterThan(BOUND_MS);
    let streamed = 0;
    await db.query(slow, [], { onRow: () => void streamed++ });
    expect(streamed).toBe(10);
    // The same read going silent halfway is still cut at the bound.
    const cut = db.query(slow);
    setTimeout(() => proxy.partition(), 600);
    await expect(cut).rejects.toBeInstanceOf(DatabaseTimeoutError);
  });

  it('answers a read and a save whose connection is reset under them with 503 DATABASE_CONNECTION_LOST, never a raw error', async () => {
    const db = await openProxied({ connectionLimit: 2 });
    const reported: unknown[] = [];
    const handle = createAssociationHandler({
      db,
      context: async () => ({ scope: SCOPE_A, user: 7 }),
      onError: (error) => reported.push(error),
    });
    const ask = (init: RequestInit = {}) =>
      handle(
        new Request(`http://host.test/associationtask?taskSheet=${ids.sheet}`, {
          ...init,
          headers: { accept: 'application/json', ...JSON_BODY },
        }),
      );
    // The server "dies" as the tree's level read goes out.
    proxy.resetWhen((sent) => sent.includes('__ta_parent'));
    const read = await ask();
    expect(read.status).toBe(503);
    expect(read.headers.get('retry-after')).toBe('1');
    expect(await read.json()).toMatchObject({ error: { code: 'DATABASE_CONNECTION_LOST' } });
    // And as a save takes the scope's lock: its outcome unknown, the client told to send it again.
    proxy.resetWhen((sent) => sent.includes('GET_LOCK'));
    const save = await ask({
      method: 'PUT',
      body: JSON.stringify({
        entries: [{ activity: ids.oper, group: ids.group, values: { METRICA1: '1.00' } }],
      }),
    });
    expect(save.status).toBe(503);
    expect(await save.json()).toMatchObject({
      error: { code: 'DATABASE_CONNECTION_LOST', message: expect.stringContaining('same request id') },
    });
    expect(reported.length).toBeGreaterThanOrEqual(2);
    // The database is back: the same save goes through, sent again as a client does after a 503
    // (the pool's other connection was reset too, and is found dead by the first that takes it).
    let status = 0;
    for (let attempt = 0; attempt < 3 && status !== 200; attempt++) {
      const again = await ask({
        method: 'PUT',
        body: JSON.stringify({
          entries: [{ activity: ids.oper, group: ids.group, values: { METRICA1: '1.00' } }],
        }),
      });
      status = again.status;
      if (status !== 200)
        expect(await again.json()).toMatchObject({ error: { code: 'DATABASE_CONNECTION_LOST' } });
    }
    expect(status).toBe(200);
  });

  it('cuts a streamed read at the bound too', async () => {
    const db = await openProxied({ connectionLimit: 1 });
    proxy.partition();
    const error = await db.query('SELECT 1', [], { onRow: () => undefined }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseTimeoutError);
    proxy.heal();
    expect(await db.query('SELECT 1 AS one', [], { onRow: () => undefined })).toEqual([]);
  });

  it('bounds the wait for a pool connection', async () => {
    const db = await openProxied({ connectionLimit: 1 });
    let finish: () => void = () => undefined;
    const holding = db.transaction(() => new Promise<void>((resolve) => (finish = resolve)));
    const error = await db.query('SELECT 1').catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: 'DatabaseTimeoutError',
      code: 'DATABASE_TIMEOUT',
      message: expect.stringContaining('no database connection within 1 s'),
    });
    finish();
    await holding;
    expect(await db.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });

  it('bounds opening a new connection while the database is silent', async () => {
    proxy.partition();
    const error = await openProxied().catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'DATABASE_TIMEOUT',
      message: expect.stringMatching(
        /^the database at 127\.0\.0\.1:\d+ did not answer within 1 s \(mysql:\/\//,
      ),
    });
  });

  it('answers GET and PUT with 503, Retry-After and a JSON error, then 200 once the database answers', async () => {
    const db = await openProxied();
    const reported: unknown[] = [];
    const handle = createAssociationHandler({
      db,
      context: async () => ({ scope: SCOPE_A, user: 7 }),
      onError: (error) => void reported.push(error),
    });
    const url = `http://host.test/associationtask?taskSheet=${ids.sheet}`;
    const body = JSON.stringify({
      entries: [{ activity: ids.oper, group: ids.group, values: { METRICA2: 3 } }],
    });
    proxy.partition();
    for (const init of [
      { method: 'GET', headers: { accept: 'application/json' } },
      { method: 'PUT', body, headers: JSON_BODY },
    ]) {
      const response = await handle(new Request(url, init));
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await response.json()).toMatchObject({
        error: { code: 'DATABASE_TIMEOUT', message: expect.stringContaining('within 1 s') },
      });
    }
    // The host hears of it too, once per request.
    expect(reported).toEqual([expect.any(DatabaseTimeoutError), expect.any(DatabaseTimeoutError)]);
    proxy.heal();
    expect((await handle(new Request(url))).status).toBe(200);
    const saved = await handle(new Request(url, { method: 'PUT', body, headers: JSON_BODY }));
    expect(saved.status).toBe(200);
  });

  it('writes nothing of a PUT whose COMMIT gets no answer, and saves it whole when sent again', async () => {
    const { handle, url } = await proxiedHandler();
    const count = () => rowsHolding('7.25');
    const body = JSON.stringify({
      entries: [{ activity: ids.oper, group: ids.group, values: { METRICA1: '7.25' } }],
    });
    // The statements before it reach the server; the COMMIT and everything after are lost.
    proxy.partitionWhen((sent) => sent.includes('COMMIT'));
    const cut = await handle(new Request(url, { method: 'PUT', body, headers: JSON_BODY }));
    expect(cut.status).toBe(503);
    proxy.heal();
    expect(await count()).toBe(0);
    // The server dropped the dead connection's transaction and named lock: the batch goes through.
    const again = await handle(new Request(url, { method: 'PUT', body, headers: JSON_BODY }));
    expect(again.status).toBe(200);
    expect(await count()).toBe(1);
  });

  it('answers a PUT whose COMMIT reached the server but got no answer as "outcome unknown", and its resend with the same request id as the first answer', async () => {
    const { handle, url } = await proxiedHandler();
    const count = () => rowsHolding('8.25');
    const body = JSON.stringify({
      requestId: 'commit-answer-lost',
      entries: [{ activity: ids.oper, group: ids.group, values: { METRICA1: '8.25' } }],
    });
    // The COMMIT reaches the server, which commits; its answer and everything after are lost.
    proxy.partitionAfter((sent) => sent.includes('COMMIT'));
    const cut = await handle(new Request(url, { method: 'PUT', body, headers: JSON_BODY }));
    expect(cut.status).toBe(503);
    expect(await cut.json()).toMatchObject({
      error: { code: 'DATABASE_CONNECTION_LOST', message: expect.stringContaining('same request id') },
    });
    proxy.heal();
    // Stored, though the request timed out: an answer saying "rolled back" would have been false.
    expect(await count()).toBe(1);
    const again = await handle(new Request(url, { method: 'PUT', body, headers: JSON_BODY }));
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ replayed: true, requestId: 'commit-answer-lost' });
    expect(await count()).toBe(1);
  });

  it('gives the CLI the same bound ($DATABASE_TIMEOUT) and one line on stderr', async () => {
    proxy.partition();
    const io = captureIo({ env: { DATABASE_TIMEOUT: '1' } });
    const code = await runCli(['db', 'sync', '--dry-run', '--database-url', proxiedUrl()], io);
    expect(code).toBe(1);
    expect(io.err()).toMatch(
      /^task-association db sync: the database at 127\.0\.0\.1:\d+ did not answer within 1 s \([^\n]*\)\n$/,
    );
  });

  it('reads $DATABASE_TIMEOUT in seconds and refuses anything else', () => {
    expect(resolveDatabaseTimeout({})).toBe(5_000);
    expect(resolveDatabaseTimeout({ DATABASE_TIMEOUT: '30' })).toBe(30_000);
    expect(resolveDatabaseTimeout({ DATABASE_TIMEOUT: '0.25' })).toBe(250);
    for (const text of ['0', '-1', '5s', '1e3', '3601', ' 5']) {
      expect(() => resolveDatabaseTimeout({ DATABASE_TIMEOUT: text })).toThrow(
        expect.objectContaining({ code: 'INVALID_DATABASE_TIMEOUT' }),
      );
    }
  });
});

describe("the server's own lock waits", () => {
  it('waits a second at most for the scope’s lock row (a Galera save) on MariaDB, where the bound is in an executable comment', async () => {
    const { db } = scratch();
    const statement = scopeLockRowStatement(
      parseIdentifier('app_oper_grupo_metrica', 'metric table'),
      SCOPE_A,
    );
    const held = await openDatabase(scratch().url, { connectionLimit: 1 });
    try {
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let taken = () => {};
      const isTaken = new Promise<void>((resolve) => {
        taken = resolve;
      });
      const holding = held.transaction(async (tx) => {
        await execute(tx, statement);
        taken();
        await released;
      });
      await isTaken;
      // The statement bound (5 s) is not what ends the wait: the server's lock wait of 1 s is.
      await expect(execute(db, statement)).rejects.toMatchObject({ errno: 1205 });
      release();
      await holding;
    } finally {
      await held.close();
    }
  });

  it('gives each scope of a metric table a lock row of its own: a save of another scope does not wait', async () => {
    const { db } = scratch();
    const table = parseIdentifier('app_oper_grupo_metrica', 'metric table');
    // Both rows exist, as after each scope's first save. (The first save of a scope inserts its row,
    // which may wait for a save holding the row next to it in the unique index: once per scope.)
    for (const scope of [SCOPE_A, SCOPE_B]) await execute(db, scopeLockRowStatement(table, scope));
    const held = await openDatabase(scratch().url, { connectionLimit: 1 });
    try {
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let taken = () => {};
      const isTaken = new Promise<void>((resolve) => {
        taken = resolve;
      });
      const holding = held.transaction(async (tx) => {
        await execute(tx, scopeLockRowStatement(table, SCOPE_A));
        taken();
        await released;
      });
      await isTaken;
      // One row for every scope, the unique key being LOCK_NAME alone, made this wait and fail (1205).
      await expect(execute(db, scopeLockRowStatement(table, SCOPE_B))).resolves.toMatchObject({
        affectedRows: 2,
      });
      release();
      await holding;
      const rows = await db.query<{ EMPRESA: number; LOCK_NAME: string }>(
        "SELECT EMPRESA, LOCK_NAME FROM task_association_lock WHERE LOCK_NAME LIKE 'save:%' AND EMPRESA = ? ORDER BY EMPRESA",
        [SCOPE_B.EMPRESA],
      );
      expect(rows).toEqual([
        { EMPRESA: SCOPE_B.EMPRESA, LOCK_NAME: expect.stringMatching(/^save:[0-9a-f]{40}$/) },
      ]);
    } finally {
      await held.close();
    }
  });
});
