import mysql from 'mysql2/promise';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Scope } from '../../src/model/scope.js';
import { tableNames } from '../../src/model/table-names.js';
import { planTree } from '../../src/model/tree-plan.js';
import { TreeView } from '../../src/model.js';
import { CONNECTION_OPTIONS, wrapPool } from '../../src/store/mysql.js';
import { createAssociationHandler, readMetricHistory, saveMetrics } from '../../src/tree.js';
import { useScratchDatabase } from '../support/database.js';
import { insertGroupSheet, installTables } from './fixture.js';

// The device's time of entry (#28) and the sources a save may name (#29 copy, #28 offline): the
// history keeps the device's time beside the server's, and both readers give it back.

const scratch = useScratchDatabase('device_time', { hostSchema: true });
const names = tableNames();
const SCOPE: Scope = { EMPRESA: 6, FILIAL: 1, LOCAL: 1 };
const treeView = TreeView.parse({
  layers: {
    '1': { table: names.OPER_GRUPO, associationTable: names.OPER_OPER_GRUPO },
    '2': { table: names.OPER, isTask: true },
  },
  metrics: [{ field: 'METRICA1' }, { field: 'METRICA2' }],
});
const plan = planTree(names, treeView);
const fixture = { sheet: 0, group: 0, opers: [] as number[] };
const BASE = 'http://host.test/associationtask';

beforeAll(async () => {
  const { db } = scratch();
  await installTables(db, names);
  Object.assign(fixture, await insertGroupSheet(db, names, SCOPE, 6));
});

function handler() {
  return createAssociationHandler({ db: scratch().db, context: async () => ({ scope: SCOPE, user: 9 }) });
}

function put(body: unknown) {
  return handler()(
    new Request(`${BASE}?taskSheet=${fixture.sheet}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify(body),
    }),
  );
}

describe('the device’s time of entry', () => {
  it('is kept per entry as DEVICE_DH beside CHANGED_DH, and given back by readMetricHistory and part=history', async () => {
    const [first = 0, second = 0] = fixture.opers;
    // Two hours ago in São Paulo's offset: the same instant in UTC, to the second.
    const entered = new Date(Date.now() - 2 * 3600_000);
    entered.setMilliseconds(0);
    const offset = new Date(entered.getTime() - 3 * 3600_000).toISOString().slice(0, 19);
    const response = await put({
      source: 'offline',
      requestId: 'device-1',
      entries: [
        {
          activity: first,
          group: fixture.group,
          values: { METRICA1: '1.50' },
          enteredAt: `${offset}-03:00`,
        },
        { activity: second, group: fixture.group, values: { METRICA2: 4 } },
      ],
    });
    expect(response.status, await response.clone().text()).toBe(200);
    const changes = await readMetricHistory(scratch().db, { scope: SCOPE, taskSheet: fixture.sheet, plan });
    const byActivity = new Map(changes.map((change) => [change.activity, change]));
    expect(byActivity.get(first)).toMatchObject({
      source: 'offline',
      requestId: 'device-1',
      deviceAt: entered.toISOString(),
    });
    expect(byActivity.get(second)).toMatchObject({ source: 'offline', deviceAt: null });
    // The server's time is its own, later than the device's.
    expect(Date.parse(byActivity.get(first)?.at ?? '')).toBeGreaterThan(entered.getTime());
    const history = await handler()(
      new Request(`${BASE}?taskSheet=${fixture.sheet}&part=history&activity=${first}&group=${fixture.group}`),
    );
    expect((await history.json()).changes).toEqual([
      expect.objectContaining({ field: 'METRICA1', deviceAt: entered.toISOString(), source: 'offline' }),
    ]);
    // A replay of the same request is answered, not applied again: still one history row.
    const replay = await put({
      source: 'offline',
      requestId: 'device-1',
      entries: [
        {
          activity: first,
          group: fixture.group,
          values: { METRICA1: '1.50' },
          enteredAt: `${offset}-03:00`,
        },
        { activity: second, group: fixture.group, values: { METRICA2: 4 } },
      ],
    });
    expect((await replay.json()).replayed).toBe(true);
    expect(
      await readMetricHistory(scratch().db, {
        scope: SCOPE,
        taskSheet: fixture.sheet,
        activity: first,
        group: fixture.group,
        plan,
      }),
    ).toHaveLength(1);
  });

  it('records a copy as its source', async () => {
    const oper = fixture.opers[2] ?? 0;
    await saveMetrics(scratch().db, {
      scope: SCOPE,
      user: 9,
      taskSheet: fixture.sheet,
      source: 'copy',
      entries: [{ activity: oper, group: fixture.group, values: { METRICA1: '7.00' } }],
      plan,
    });
    const [change] = await readMetricHistory(scratch().db, {
      scope: SCOPE,
      taskSheet: fixture.sheet,
      activity: oper,
      group: fixture.group,
      plan,
    });
    expect(change).toMatchObject({ source: 'copy', newValue: '7.00', deviceAt: null });
  });

  it.each([
    ['not a time', 'yesterday', 'an ISO 8601 time'],
    ['a time without its offset', '2026-11-20T14:05:00', 'an ISO 8601 time'],
    ['far ahead of the server', new Date(Date.now() + 3600_000).toISOString(), 'ahead of the server'],
    ['older than the request ids are kept', new Date(Date.now() - 8 * 86400_000).toISOString(), 'days old'],
  ])('refuses %s with 400 at its path, writing nothing', async (_, enteredAt, message) => {
    const oper = fixture.opers[3] ?? 0;
    const response = await put({
      entries: [{ activity: oper, group: fixture.group, values: { METRICA1: '1.00' }, enteredAt }],
    });
    expect(response.status).toBe(400);
    const { error } = await response.json();
    expect(error).toMatchObject({ code: 'INVALID_REQUEST', path: 'entries.0.enteredAt' });
    expect(error.message).toContain(message);
    const rows = await scratch().db.query(`SELECT 1 FROM ${names.OPER_GRUPO_METRICA} WHERE OPER_SEQ_DB = ?`, [
      oper,
    ]);
    expect(rows).toEqual([]);
  });

  it('answers a retry of a save stored while its entry was younger than the request ids are kept, however old the entry is now', async () => {
    const oper = fixture.opers[5] ?? 0;
    // Entered offline almost 7 days ago and stored now; the answer is lost.
    const body = {
      source: 'offline',
      requestId: 'aged-retry',
      entries: [
        {
          activity: oper,
          group: fixture.group,
          values: { METRICA1: '3.00' },
          enteredAt: new Date(Date.now() - 6.9 * 86400_000).toISOString(),
        },
      ],
    };
    const first = await put(body);
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ inserted: 1, replayed: false });
    // Sent again three hours later: the entry is now more than 7 days old, its request id is not.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 3 * 3600_000 });
    try {
      const again = await put(body);
      expect(again.status).toBe(200);
      expect(await again.json()).toMatchObject({ inserted: 1, replayed: true });
      // The same entry under a new id is refused: nothing tells that it was not stored already.
      const fresh = await put({ ...body, requestId: 'aged-fresh' });
      expect(fresh.status).toBe(400);
      expect((await fresh.json()).error).toMatchObject({ path: 'entries.0.enteredAt' });
    } finally {
      vi.useRealTimers();
    }
    const rows = await scratch().db.query(
      `SELECT METRICA1 FROM ${names.OPER_GRUPO_METRICA} WHERE OPER_SEQ_DB = ? AND DELETED = 0`,
      [oper],
    );
    expect(rows).toEqual([{ METRICA1: '3.00' }]);
  });

  it('refuses a source it does not know', async () => {
    const response = await put({
      source: 'sync',
      entries: [{ activity: fixture.opers[3], group: fixture.group, values: { METRICA1: '1.00' } }],
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatchObject({
      path: 'source',
      message: expect.stringContaining('"offline" or "copy"'),
    });
  });
});

describe('the device’s time of entry on a session whose time zone is not UTC', () => {
  it('is written in the frame of the server’s time (the session’s NOW()), so the two read back one minute apart as entered', async () => {
    // Our pools leave the session's time zone to the server; a host's may set its own.
    const pool = mysql.createPool({ ...CONNECTION_OPTIONS, uri: scratch().url, connectionLimit: 1 });
    pool.on('connection', (connection) => {
      connection.query("SET time_zone = '-03:00'");
    });
    const db = wrapPool(pool, scratch().name);
    try {
      const oper = fixture.opers[4] ?? 0;
      const entered = new Date(Date.now() - 60_000);
      entered.setMilliseconds(0);
      await saveMetrics(db, {
        scope: SCOPE,
        user: 9,
        taskSheet: fixture.sheet,
        source: 'offline',
        entries: [
          {
            activity: oper,
            group: fixture.group,
            values: { METRICA1: '3.00' },
            enteredAt: entered.toISOString(),
          },
        ],
        plan,
      });
      const [change] = await readMetricHistory(db, {
        scope: SCOPE,
        taskSheet: fixture.sheet,
        activity: oper,
        group: fixture.group,
        plan,
      });
      // Both in the session's frame: its wall clock, three hours behind UTC, read as the package reads it.
      expect(change?.deviceAt).toBe(new Date(entered.getTime() - 3 * 3600_000).toISOString());
      const apart = Date.parse(change?.at ?? '') - Date.parse(change?.deviceAt ?? '');
      expect(apart).toBeGreaterThanOrEqual(60_000);
      expect(apart).toBeLessThan(3600_000);
      // The instant stored is the one entered.
      const [row] = await db.query<{ device: number }>(
        'SELECT UNIX_TIMESTAMP(DEVICE_DH) AS device FROM task_association_history WHERE OPER_SEQ_DB = ?',
        [oper],
      );
      expect(Number(row?.device)).toBe(entered.getTime() / 1000);
    } finally {
      await db.close();
    }
  });
});
