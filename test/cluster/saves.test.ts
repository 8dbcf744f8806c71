import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskAssociationError } from '../../src/model/errors.js';
import { tableNames } from '../../src/model/table-names.js';
import { planTree } from '../../src/model/tree-plan.js';
import type { Database } from '../../src/store/driver.js';
import { openDatabase } from '../../src/store/mysql.js';
import { runSqlFile } from '../../src/store/script.js';
import { readTopology } from '../../src/store/topology.js';
import { BusyError, MetricConflictError, saveMetrics } from '../../src/tree.js';
import { HOST_SCHEMA_FILE } from '../support/database.js';
import {
  type ClusterScratchDatabase,
  createClusterScratchDatabase,
  useGaleraCluster,
} from '../support/galera.js';
import { insertRow, insertRows, installTables } from '../tree/fixture.js';

// Saves through every node of a real 3-node Galera cluster at once (#26): every save the library
// acknowledges is committed on the cluster, no key gets two live rows, the per-field conflict rule
// holds across nodes, and what fails says METRICS_BUSY or METRIC_CONFLICT, never a raw driver error.

const cluster = useGaleraCluster();
const names = tableNames();
const plan = planTree(names);
const SCOPE = { EMPRESA: 1, FILIAL: 1, LOCAL: 1 };
const live = { ...SCOPE, ATIVO: 1, DELETED: 0 };
let scratch: ClusterScratchDatabase;
/** A pool of ours on each node. */
let dbs: Database[] = [];
const fixture = { sheet: 0, group: 0, opers: [] as number[] };

beforeAll(async () => {
  scratch = await createClusterScratchDatabase(cluster(), 'cluster_saves');
  const [first] = scratch.urls;
  if (first === undefined) throw new Error('no node');
  await runSqlFile(first, HOST_SCHEMA_FILE);
  dbs = await Promise.all(scratch.urls.map((url) => openDatabase(url, { connectionLimit: 8 })));
  const db = node(0);
  await installTables(db, names);
  // One row per statement: Galera steps auto-increment values by the cluster's size, so a multi-row
  // insert's SEQ_DBs are not consecutive.
  [fixture.sheet = 0] = await insertRows(db, 'app_folha_tarefa', [{ ...SCOPE, DELETED: 0 }], {
    withId: false,
  });
  fixture.group = await insertRow(db, names.OPER_GRUPO, { ...live, CODIGO: 'G' });
  for (let index = 0; index < 205; index++) {
    const oper = await insertRow(db, names.OPER, { ...live, CODIGO: `O${index}` });
    await insertRow(db, names.OPER_OPER_GRUPO, {
      ...live,
      OPER_GRUPO_SEQ_DB: fixture.group,
      OPER_SEQ_DB: oper,
    });
    fixture.opers.push(oper);
  }
}, 180_000);

afterAll(async () => {
  await Promise.all(dbs.map((db) => db.close().catch(() => undefined)));
  await scratch?.drop();
});

/** An activity no test has saved yet. */
function keysLeft(): number {
  const oper = fixture.opers.pop();
  if (oper === undefined) throw new Error('no activity left');
  return oper;
}

function node(index: number): Database {
  const db = dbs[index % dbs.length];
  if (db === undefined) throw new Error(`no node ${index + 1}`);
  return db;
}

type Outcome = { index: number; ok: true; requestId: string } | { index: number; ok: false; code: string };

/** A save through node `index % 3`, with its own request id; failures kept by their code. */
async function saveVia(
  index: number,
  entries: Parameters<typeof saveMetrics>[1]['entries'],
  user = 100 + index,
): Promise<Outcome> {
  const requestId = `race-${index}-${Math.random().toString(36).slice(2)}`;
  try {
    await saveMetrics(node(index), {
      scope: SCOPE,
      user,
      taskSheet: fixture.sheet,
      plan,
      entries,
      requestId,
    });
    return { index, ok: true, requestId };
  } catch (error) {
    if (error instanceof BusyError || error instanceof MetricConflictError) {
      return { index, ok: false, code: error.code };
    }
    throw error;
  }
}

/** Reads through node 1 once every node's commits are applied there. */
async function query<Row extends object>(sql: string, params: unknown[] = []): Promise<Row[]> {
  return node(0).transaction(async (tx) => {
    await tx.query('SET SESSION wsrep_sync_wait = 1');
    return tx.query<Row>(sql, params);
  });
}

describe('saves on a Galera cluster, through every node at once', () => {
  it('knows it runs on Galera', async () => {
    for (const db of dbs) expect(await readTopology(db)).toEqual({ galera: true });
  });

  it('commits every acknowledged save of 90 new keys at once: one live row each, no (scope, ID) twice', async () => {
    const keys = fixture.opers.slice(0, 90);
    const outcomes = await Promise.all(
      keys.map((oper, index) =>
        saveVia(index, [{ activity: oper, group: fixture.group, values: { METRICA2: index } }]),
      ),
    );
    const acknowledged = outcomes.filter((outcome) => outcome.ok);
    console.log(`90 new keys over 3 nodes: ${acknowledged.length} saved, ${90 - acknowledged.length} busy`);
    for (const outcome of outcomes) if (!outcome.ok) expect(outcome.code).toBe('METRICS_BUSY');
    const rows = await query<{ OPER_SEQ_DB: number; METRICA2: number; n: number }>(
      `SELECT OPER_SEQ_DB, MAX(METRICA2) AS METRICA2, COUNT(*) AS n FROM ${names.OPER_GRUPO_METRICA} WHERE IFNULL(DELETED, 0) = 0 GROUP BY OPER_SEQ_DB`,
    );
    const byOper = new Map(rows.map((row) => [Number(row.OPER_SEQ_DB), row]));
    for (const outcome of acknowledged) {
      const row = byOper.get(keys[outcome.index] ?? 0);
      expect(row, `save ${outcome.index}`).toMatchObject({ METRICA2: outcome.index, n: 1 });
    }
    // Only acknowledged saves stored anything.
    expect(rows).toHaveLength(acknowledged.length);
    const [ids] = await query<{ ids: number; distinct: number }>(
      `SELECT COUNT(*) AS ids, COUNT(DISTINCT EMPRESA, FILIAL, LOCAL, ID) AS \`distinct\` FROM ${names.OPER_GRUPO_METRICA}`,
    );
    expect(Number(ids?.ids)).toBe(Number(ids?.distinct));
  });

  it('keeps the per-field conflict rule across nodes: 30 writers on one key, each from the base it read', async () => {
    const oper = fixture.opers[100] ?? 0;
    const first = await saveVia(0, [{ activity: oper, group: fixture.group, values: { METRICA2: 0 } }]);
    expect(first.ok).toBe(true);
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, async (_, index) => {
        // Each writer reads through its own node, as a screen served by it would.
        const [row] = await node(index).transaction(async (tx) => {
          await tx.query('SET SESSION wsrep_sync_wait = 1');
          return tx.query<{ METRICA2: number }>(
            `SELECT METRICA2 FROM ${names.OPER_GRUPO_METRICA} WHERE OPER_SEQ_DB = ? AND IFNULL(DELETED, 0) = 0`,
            [oper],
          );
        });
        const base = Number(row?.METRICA2);
        const outcome = await saveVia(index, [
          { activity: oper, group: fixture.group, values: { METRICA2: index + 1 }, base: { METRICA2: base } },
        ]);
        return { ...outcome, base };
      }),
    );
    const applied = outcomes.filter((outcome) => outcome.ok);
    console.log(
      `30 writers on one key: ${applied.length} applied, ${outcomes.filter((o) => !o.ok && o.code === 'METRIC_CONFLICT').length} conflicts, ${outcomes.filter((o) => !o.ok && o.code === 'METRICS_BUSY').length} busy`,
    );
    expect(applied.length).toBeGreaterThanOrEqual(1);
    const history = await query<{ OLD_VALUE: string; NEW_VALUE: string; USUARIO_SEQ_DB: number }>(
      'SELECT OLD_VALUE, NEW_VALUE, USUARIO_SEQ_DB FROM task_association_history WHERE OPER_SEQ_DB = ? AND ACTION = ? ORDER BY SEQ_DB',
      [oper, 'update'],
    );
    // One change per applied save, each from the value the one before it stored: no update lost.
    expect(history).toHaveLength(applied.length);
    let current = '0';
    for (const change of history) {
      expect(change.OLD_VALUE).toBe(current);
      const writer = Number(change.NEW_VALUE) - 1;
      expect(applied.some((outcome) => outcome.index === writer && outcome.base === Number(current))).toBe(
        true,
      );
      current = change.NEW_VALUE;
    }
    const [stored] = await query<{ METRICA2: number; n: number }>(
      `SELECT MAX(METRICA2) AS METRICA2, COUNT(*) AS n FROM ${names.OPER_GRUPO_METRICA} WHERE OPER_SEQ_DB = ? AND IFNULL(DELETED, 0) = 0`,
      [oper],
    );
    expect(stored).toMatchObject({ METRICA2: Number(current), n: 1 });
  });

  it('judges each base against the save just acknowledged through another node: no false conflict while that node catches up', async () => {
    // A screen behind a load balancer: each save starts from what the one before it stored (its
    // answer) and goes to another node. That node may not have applied the acknowledged save yet:
    // here it is kept busy applying a large write of another program committed just before it.
    await node(0).execute('CREATE TABLE lag_filler (id INT PRIMARY KEY, v INT NOT NULL)');
    await node(0).execute('INSERT INTO lag_filler SELECT seq, 0 FROM seq_1_to_60000');
    const oper = keysLeft();
    const save = (index: number, value: number, base?: number) =>
      saveMetrics(node(index), {
        scope: SCOPE,
        user: 7,
        taskSheet: fixture.sheet,
        plan,
        entries: [
          {
            activity: oper,
            group: fixture.group,
            values: { METRICA2: value },
            ...(base === undefined ? {} : { base: { METRICA2: base } }),
          },
        ],
      });
    let base = Number((await save(0, 0)).entries[0]?.stored?.METRICA2);
    const refused: string[] = [];
    for (let round = 1; round <= 6; round++) {
      await node(0).execute('UPDATE lag_filler SET v = v + 1');
      base = Number((await save(0, round * 10, base)).entries[0]?.stored?.METRICA2);
      try {
        base = Number((await save(1, round * 10 + 1, base)).entries[0]?.stored?.METRICA2);
      } catch (error) {
        if (!(error instanceof MetricConflictError)) throw error;
        const [conflict] = error.conflicts;
        refused.push(`round ${round}: base ${base}, node 2 read ${conflict?.theirs}`);
        const [stored] = await query<{ METRICA2: number }>(
          `SELECT METRICA2 FROM ${names.OPER_GRUPO_METRICA} WHERE OPER_SEQ_DB = ? AND IFNULL(DELETED, 0) = 0`,
          [oper],
        );
        base = Number(stored?.METRICA2);
      }
    }
    // An entry made through node 1 and removed at once through node 2: the remove finds it.
    const made = keysLeft();
    await node(0).execute('UPDATE lag_filler SET v = v + 1');
    await saveMetrics(node(0), {
      scope: SCOPE,
      user: 7,
      taskSheet: fixture.sheet,
      plan,
      entries: [{ activity: made, group: fixture.group, values: { METRICA2: 5 } }],
    });
    const removed = await saveMetrics(node(1), {
      scope: SCOPE,
      user: 7,
      taskSheet: fixture.sheet,
      plan,
      entries: [{ activity: made, group: fixture.group, remove: true }],
    });
    expect(removed.removed).toBe(1);
    await node(0).execute('DROP TABLE lag_filler');
    expect(refused).toEqual([]);
    const [stored] = await query<{ METRICA2: number }>(
      `SELECT METRICA2 FROM ${names.OPER_GRUPO_METRICA} WHERE OPER_SEQ_DB = ? AND IFNULL(DELETED, 0) = 0`,
      [oper],
    );
    expect(stored?.METRICA2).toBe(61);
  });

  it('gives a new key one row when a writer on each node saves it at the same moment (40 keys)', async () => {
    const keys = fixture.opers.slice(140, 180);
    const outcomes = await Promise.all(
      keys.flatMap((oper, key) =>
        [0, 1, 2].map((nodeIndex) =>
          saveVia(key * 3 + nodeIndex, [
            { activity: oper, group: fixture.group, values: { METRICA2: nodeIndex } },
          ]),
        ),
      ),
    );
    console.log(`40 new keys, a writer on each node: ${outcomes.filter((o) => o.ok).length} of 120 saved`);
    for (const outcome of outcomes) if (!outcome.ok) expect(outcome.code).toBe('METRICS_BUSY');
    const rows = await query<{ OPER_SEQ_DB: number; n: number }>(
      `SELECT OPER_SEQ_DB, COUNT(*) AS n FROM ${names.OPER_GRUPO_METRICA} WHERE IFNULL(DELETED, 0) = 0 AND OPER_SEQ_DB IN (${keys.map(() => '?').join(', ')}) GROUP BY OPER_SEQ_DB`,
      keys,
    );
    expect(rows.filter((row) => Number(row.n) !== 1)).toEqual([]);
    expect(rows).toHaveLength(keys.length);
  });

  it('commits every acknowledged save of 60 writers on 20 keys without bases, each recorded once', async () => {
    const keys = fixture.opers.slice(101, 121).filter((oper) => oper !== undefined);
    const outcomes = await Promise.all(
      Array.from({ length: 60 }, (_, index) =>
        saveVia(index, [
          {
            activity: keys[index % keys.length] ?? 0,
            group: fixture.group,
            values: { METRICA2: 1000 + index },
          },
        ]),
      ),
    );
    const acknowledged = outcomes.filter((outcome): outcome is Extract<Outcome, { ok: true }> => outcome.ok);
    console.log(`60 writers on 20 keys: ${acknowledged.length} saved, ${60 - acknowledged.length} busy`);
    for (const outcome of outcomes) if (!outcome.ok) expect(outcome.code).toBe('METRICS_BUSY');
    // Every acknowledged save is on the cluster: its request id recorded once, in its transaction.
    const recorded = await query<{ REQUEST_ID: string; n: number }>(
      "SELECT REQUEST_ID, COUNT(*) AS n FROM task_association_request WHERE REQUEST_ID LIKE 'race-%' GROUP BY REQUEST_ID",
    );
    const ids = new Map(recorded.map((row) => [row.REQUEST_ID, Number(row.n)]));
    for (const outcome of acknowledged) expect(ids.get(outcome.requestId), outcome.requestId).toBe(1);
    const rows = await query<{ n: number }>(
      `SELECT COUNT(*) AS n FROM ${names.OPER_GRUPO_METRICA} WHERE IFNULL(DELETED, 0) = 0 AND OPER_SEQ_DB IN (${keys.map(() => '?').join(', ')}) GROUP BY OPER_SEQ_DB`,
      keys,
    );
    for (const row of rows) expect(Number(row.n)).toBe(1);
  });

  it('goes on without a node killed mid-work: its clients get a clean error, nothing acknowledged is lost, and it rejoins', async () => {
    const third = cluster().nodes[2];
    if (third === undefined) throw new Error('no node 3');
    const keys = fixture.opers.slice(180, 186);
    const acknowledged: string[] = [];
    const errors = new Map<string, number>();
    const stopAt = Date.now() + 12_000;
    // Two writers per node, each saving its own key again and again (a new value, a new request id
    // each time), and sending a failed save again with the same id through the next node, as a
    // client behind a load balancer would.
    const writer = async (index: number) => {
      const oper = keys[index] ?? 0;
      for (let round = 1; Date.now() < stopAt; round++) {
        const requestId = `kill-${index}-${round}`;
        for (let attempt = 0; ; attempt++) {
          try {
            await saveMetrics(node(index + attempt), {
              scope: SCOPE,
              user: 7,
              taskSheet: fixture.sheet,
              plan,
              requestId,
              entries: [{ activity: oper, group: fixture.group, values: { METRICA2: round } }],
            });
            acknowledged.push(requestId);
            break;
          } catch (error) {
            // Never a raw driver error: the package's own, with a code and a sentence.
            expect(error).toBeInstanceOf(TaskAssociationError);
            const code = (error as TaskAssociationError).code;
            errors.set(code, (errors.get(code) ?? 0) + 1);
            if (attempt > 20) throw error;
            await new Promise((resolve) => setTimeout(resolve, 200));
          }
        }
      }
    };
    const writers = keys.map((_, index) => writer(index));
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await third.kill('SIGKILL');
    await Promise.all(writers);
    console.log(
      `node 3 killed: ${acknowledged.length} saves acknowledged; errors on the way: ${[...errors].map(([code, n]) => `${code} x${n}`).join(', ') || 'none'}`,
    );
    expect(acknowledged.length).toBeGreaterThan(keys.length * 3);
    for (const code of errors.keys()) {
      expect([
        'DATABASE_TIMEOUT',
        'DATABASE_CONNECTION_LOST',
        'DATABASE_UNREACHABLE',
        'METRICS_BUSY',
      ]).toContain(code);
    }
    // Every acknowledged save is committed on the cluster, once: its request id was recorded in it.
    const recorded = await query<{ REQUEST_ID: string; n: number }>(
      "SELECT REQUEST_ID, COUNT(*) AS n FROM task_association_request WHERE REQUEST_ID LIKE 'kill-%' GROUP BY REQUEST_ID",
    );
    const ids = new Map(recorded.map((row) => [row.REQUEST_ID, Number(row.n)]));
    for (const requestId of acknowledged) expect(ids.get(requestId), requestId).toBe(1);
    const rows = await query<{ n: number }>(
      `SELECT COUNT(*) AS n FROM ${names.OPER_GRUPO_METRICA} WHERE IFNULL(DELETED, 0) = 0 AND OPER_SEQ_DB IN (${keys.map(() => '?').join(', ')}) GROUP BY OPER_SEQ_DB`,
      keys,
    );
    expect(rows.map((row) => Number(row.n))).toEqual(keys.map(() => 1));
    // Back, the node joins the others and serves saves again.
    await third.restart();
    const fresh = await openDatabase(scratch.urls[2] ?? '', { connectionLimit: 1 });
    try {
      const again = await saveMetrics(fresh, {
        scope: SCOPE,
        user: 7,
        taskSheet: fixture.sheet,
        plan,
        entries: [{ activity: keys[0] ?? 0, group: fixture.group, values: { METRICA1: '1.00' } }],
      });
      expect(again.entries[0]?.stored).toMatchObject({ METRICA1: '1.00' });
    } finally {
      await fresh.close();
    }
  });

  it('leaves nothing of a transaction whose ROLLBACK a node cut off from the majority refused: its connection is closed, not reused', async () => {
    const third = cluster().nodes[2];
    if (third === undefined) throw new Error('no node 3');
    await node(0).execute('CREATE TABLE rollback_probe (id INT PRIMARY KEY) ENGINE=InnoDB');
    // One connection: what the pool gives back is what its next transaction gets.
    const lone = await openDatabase(scratch.urls[2] ?? '', { connectionLimit: 1 });
    const admin = await openDatabase(scratch.urls[2] ?? '', { connectionLimit: 1 });
    try {
      // A transaction writes, then its node leaves the majority: its next statement and its
      // ROLLBACK are refused (1047), and the server keeps it open.
      const refused = lone.transaction(
        async (tx) => {
          await tx.execute('INSERT INTO rollback_probe VALUES (1)');
          await admin.execute("SET GLOBAL wsrep_provider_options = 'gmcast.isolate=1'");
          for (const started = Date.now(); ; ) {
            const status = await third.status();
            if (status.reachable && !status.ready) break;
            if (Date.now() - started > 30_000) throw new Error('node 3 stayed in the primary component');
            await new Promise((resolve) => setTimeout(resolve, 200));
          }
          await tx.execute('INSERT INTO rollback_probe VALUES (2)');
        },
        { causal: true },
      );
      await expect(refused).rejects.toMatchObject({ message: expect.stringContaining('WSREP') });
    } finally {
      await admin.execute("SET GLOBAL wsrep_provider_options = 'gmcast.isolate=0'");
      await admin.close();
    }
    await third.waitSynced();
    try {
      // The pool's next transaction: on the connection given back, its START TRANSACTION would
      // commit the open one.
      await lone.transaction(async (tx) => tx.query('SELECT 1'), { causal: true });
    } finally {
      await lone.close();
    }
    expect(await query('SELECT id FROM rollback_probe')).toEqual([]);
  });

  it('answers a save through a node cut off from the majority with DATABASE_NOT_READY, and saves once it is back', async () => {
    const third = cluster().nodes[2];
    if (third === undefined) throw new Error('no node 3');
    const admin = await openDatabase(scratch.urls[2] ?? '', { connectionLimit: 1 });
    const oper = keysLeft();
    const entries = [{ activity: oper, group: fixture.group, values: { METRICA2: 1 } }];
    try {
      await admin.execute("SET GLOBAL wsrep_provider_options = 'gmcast.isolate=1'");
      for (const started = Date.now(); ; ) {
        const status = await third.status();
        if (status.reachable && !status.ready) break;
        if (Date.now() - started > 30_000) throw new Error('node 3 stayed in the primary component');
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      await expect(
        saveMetrics(node(2), { scope: SCOPE, user: 7, taskSheet: fixture.sheet, plan, entries }),
      ).rejects.toMatchObject({
        code: 'DATABASE_NOT_READY',
        message: expect.stringContaining('not ready for writes'),
      });
    } finally {
      await admin.execute("SET GLOBAL wsrep_provider_options = 'gmcast.isolate=0'");
      await admin.close();
    }
    await third.waitSynced();
    expect(
      await saveMetrics(node(2), { scope: SCOPE, user: 7, taskSheet: fixture.sheet, plan, entries }),
    ).toMatchObject({
      inserted: 1,
    });
  });
});
