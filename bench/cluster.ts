// Saves on a real 3-node MariaDB Galera cluster (issue #26): 180 saves at once (90 new keys, 30
// writers on one key, 60 writers on 20 keys) spread over the three nodes, against the same 180 through
// node 1 alone, side by side in one run: wall time, failures, and acknowledged saves not on the
// cluster (each save carries a request id, recorded in its transaction). Both sides have the same ten
// client connections. Goal: 0 failures, 0 lost,
// three nodes within 1.5x of one. Run with `npm run bench:cluster`; the last line is the figures.

import { performance } from 'node:perf_hooks';
import { tableNames } from '../src/model/table-names.js';
import { planTree } from '../src/model/tree-plan.js';
import type { Database } from '../src/store/driver.js';
import { openDatabase } from '../src/store/mysql.js';
import { runSqlFile } from '../src/store/script.js';
import { saveMetrics } from '../src/tree.js';
import { HOST_SCHEMA_FILE } from '../test/support/database.js';
import { createClusterScratchDatabase, startGaleraCluster } from '../test/support/galera.js';
import { insertRow, insertRows, installTables } from '../test/tree/fixture.js';
import { loadLine, median, spread } from './report.js';

const ROUNDS = 3;
/** The client's connections, on either side (earlier runs gave three nodes 10 each, 30 in all). */
const CONNECTIONS = 10;
const names = tableNames();
const plan = planTree(names);
const SCOPE = { EMPRESA: 1, FILIAL: 1, LOCAL: 1 };
const live = { ...SCOPE, ATIVO: 1, DELETED: 0 };

const cluster = await startGaleraCluster();
try {
  console.log(`start: ${loadLine()}`);
  /** One round on a fresh database: the 180 saves through `spread` nodes (1 or 3). */
  const round = async (nodes: number, label: string) => {
    const scratch = await createClusterScratchDatabase(cluster, `bench_cluster_${label}`);
    // The same ten connections on both sides, as a host's one pool behind a load balancer: through
    // three nodes 4 + 3 + 3, through one node 10 (the pools of unused nodes hold one, unused).
    const dbs: Database[] = await Promise.all(
      scratch.urls.map((url, index) =>
        openDatabase(url, {
          connectionLimit:
            index < nodes ? Math.floor(CONNECTIONS / nodes) + (index < CONNECTIONS % nodes ? 1 : 0) : 1,
        }),
      ),
    );
    try {
      const [first] = scratch.urls;
      if (first === undefined) throw new Error('no node');
      await runSqlFile(first, HOST_SCHEMA_FILE);
      const db = dbs[0] as Database;
      await installTables(db, names);
      const [sheet = 0] = await insertRows(db, 'app_folha_tarefa', [{ ...SCOPE, DELETED: 0 }], {
        withId: false,
      });
      const group = await insertRow(db, names.OPER_GRUPO, { ...live, CODIGO: 'G' });
      const opers: number[] = [];
      for (let index = 0; index < 111; index++) {
        const oper = await insertRow(db, names.OPER, { ...live, CODIGO: `O${index}` });
        await insertRow(db, names.OPER_OPER_GRUPO, { ...live, OPER_GRUPO_SEQ_DB: group, OPER_SEQ_DB: oper });
        opers.push(oper);
      }
      // 90 new keys, 30 writers on one key, 60 writers on 20 keys.
      const keys = [
        ...opers.slice(0, 90),
        ...Array.from({ length: 30 }, () => opers[90] ?? 0),
        ...Array.from({ length: 60 }, (_, index) => opers[91 + (index % 20)] ?? 0),
      ];
      const failures: string[] = [];
      const started = performance.now();
      const outcomes = await Promise.all(
        keys.map(async (oper, index) => {
          const requestId = `bench-${index}`;
          try {
            await saveMetrics(dbs[index % nodes] as Database, {
              scope: SCOPE,
              user: 7,
              taskSheet: sheet,
              plan,
              requestId,
              entries: [{ activity: oper, group, values: { METRICA2: index } }],
            });
            return requestId;
          } catch (error) {
            failures.push(String((error as { code?: unknown }).code ?? error));
            return undefined;
          }
        }),
      );
      const ms = performance.now() - started;
      const acknowledged = outcomes.filter((id): id is string => id !== undefined);
      // A causal read (wsrep_sync_wait) on a session of its own, outside a transaction: node 1 applies
      // every write-set the cluster committed before the read runs.
      const causal = <T extends object>(node: Database, statement: string, params: unknown[] = []) =>
        node.connection(async (session) => {
          await session.query('SET SESSION wsrep_sync_wait = 1');
          return session.query<T>(statement, params);
        });
      const recorded = await causal<{ REQUEST_ID: string }>(
        db,
        'SELECT REQUEST_ID FROM task_association_request',
      );
      const stored = new Set(recorded.map((row) => row.REQUEST_ID));
      const missing = acknowledged.filter((id) => !stored.has(id));
      // What each node holds of a save acknowledged but not found through node 1, for the record.
      for (const id of missing) {
        const seen = await Promise.all(
          dbs.map(async (node) => {
            const [history] = await causal<{ n: number }>(
              node,
              'SELECT COUNT(*) AS n FROM task_association_history WHERE REQUEST_ID = ?',
              [id],
            );
            const [request] = await causal<{ n: number }>(
              node,
              'SELECT COUNT(*) AS n FROM task_association_request WHERE REQUEST_ID = ?',
              [id],
            );
            return `history ${history?.n}, request ${request?.n}`;
          }),
        );
        console.log(`lost ${id}: read again on nodes 1-3: ${seen.join('; ')}`);
      }
      if (failures.length > 0) console.log(`${label}: failures ${failures.join(', ')}`);
      return { ms, failed: keys.length - acknowledged.length, lost: missing.length };
    } finally {
      await Promise.all(dbs.map((db) => db.close()));
      await scratch.drop();
    }
  };
  const three: Awaited<ReturnType<typeof round>>[] = [];
  const one: Awaited<ReturnType<typeof round>>[] = [];
  await round(3, 'warm');
  for (let index = 0; index < ROUNDS; index++) {
    // Alternately first, so neither side always runs on a warmer cluster.
    if (index % 2 === 0) {
      three.push(await round(3, `three${index}`));
      one.push(await round(1, `one${index}`));
    } else {
      one.push(await round(1, `one${index}`));
      three.push(await round(3, `three${index}`));
    }
  }
  const sum = (runs: typeof three, key: 'failed' | 'lost') =>
    runs.reduce((total, run) => total + run[key], 0);
  console.log(
    `three nodes: ${spread(three.map((run) => run.ms))} ms, failed ${sum(three, 'failed')}, lost ${sum(three, 'lost')}; one node: ${spread(one.map((run) => run.ms))} ms, failed ${sum(one, 'failed')}, lost ${sum(one, 'lost')} (180 saves a round, ${ROUNDS} rounds)`,
  );
  console.log(`end: ${loadLine()}`);
  const ratios = three.map((run, index) => run.ms / (one[index]?.ms ?? Number.NaN));
  console.log(
    `three_over_one=${median(ratios).toFixed(2)} (goal <= 1.5) failed=${sum(three, 'failed') + sum(one, 'failed')} (goal 0) lost=${sum(three, 'lost') + sum(one, 'lost')} (goal 0)`,
  );
} finally {
  await cluster.stop();
}
