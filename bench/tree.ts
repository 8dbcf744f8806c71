// Tree loading on a generated installation (>= 100,000 nodes over 4 levels) in a scratch database:
// ours (loadTaskTree) against (a) the floor, one hand-written SQL statement per level with mysql2,
// and (b) the naive loader, one query per node, timed on a sample and extrapolated.
// Run with `npm run bench:tree`; the last line is the ratios.
import { performance } from 'node:perf_hooks';
import { createScratchDatabase } from '../src/db/scratch.js';
import { loadTaskTree, type TreeNode } from '../src/resolvers/index.js';
import { countingExecutor, SCOPE_A } from '../test/resolvers/fixture.js';
import { SERVER_URL } from '../test/support/database.js';
import { ACTIVITIES_PER_GROUP, buildTreeInstallation, names } from './tree-installation.js';

const GROUPS_PER_SECTOR = 100;
const ROUNDS = 5;
const NAIVE_SAMPLE = 1000;

const scope = [SCOPE_A.EMPRESA, SCOPE_A.FILIAL, SCOPE_A.LOCAL];

const scratch = await createScratchDatabase(SERVER_URL, 'bench_tree');
try {
  const { db } = scratch;
  const { sheet, regions, sectors, groups, activities, nodes, summary } = await buildTreeInstallation(
    scratch,
    {
      groupsPerSector: GROUPS_PER_SECTOR,
    },
  );
  console.log(summary);

  const counting = countingExecutor(db);
  const ours = async () => {
    counting.reset();
    const tree = await loadTaskTree(counting, { scope: SCOPE_A, taskSheet: sheet ?? 0 });
    return countNodes(tree.roots);
  };

  // The floor: the same rows, one statement per level, no IN lists, no tree built, no defaults.
  const live2 = (alias: string) =>
    `${alias}.EMPRESA = ? AND ${alias}.FILIAL = ? AND ${alias}.LOCAL = ? AND IFNULL(${alias}.DELETED, 0) = 0 AND IFNULL(${alias}.ATIVO, 1) = 1`;
  const levelSql = (association: string, parent: string, child: string, table: string) =>
    `SELECT c.*, a.${parent} AS parent FROM ${association} a JOIN ${table} c ON c.SEQ_DB = a.${child} WHERE ${live2('a')} AND ${live2('c')}`;
  const floorStatements: [string, unknown[]][] = [
    [`SELECT * FROM app_folha_tarefa t WHERE t.SEQ_DB = ? AND ${live2('t')}`, [sheet, ...scope]],
    [`SELECT * FROM app_regiao c WHERE ${live2('c')}`, scope],
    [levelSql('app_regiao_n_setor', 'REGIAO_SEQ_DB', 'SETOR_SEQ_DB', 'app_setor'), [...scope, ...scope]],
    [
      levelSql('app_setor_n_oper_grupo', 'SETOR_SEQ_DB', 'OPER_GRUPO_SEQ_DB', names.OPER_GRUPO),
      [...scope, ...scope],
    ],
    [levelSql(names.OPER_OPER_GRUPO, 'OPER_GRUPO_SEQ_DB', 'OPER_SEQ_DB', names.OPER), [...scope, ...scope]],
    [
      `SELECT * FROM ${names.OPER_GRUPO_METRICA} m WHERE ${live2('m')} AND m.FOLHA_TAREFA_SEQ_DB = ?`,
      [...scope, sheet],
    ],
  ];
  const floor = async () => {
    let rows = 0;
    for (const [sql, params] of floorStatements) {
      const [result] = await db.pool.query(sql, params);
      rows += (result as unknown[]).length;
    }
    return rows;
  };

  // Warm up both (connection, server caches, JIT), then alternate rounds; the best of each counts.
  const oursNodes = await ours();
  await floor();
  const oursTimes: number[] = [];
  const floorTimes: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    oursTimes.push(await timed(ours));
    floorTimes.push(await timed(floor));
  }
  const oursRoundTrips = counting.count();

  // The naive loader: one query per node (children of a branch node, the saved metric of a task node).
  const naiveChild = `SELECT c.* FROM ${names.OPER_OPER_GRUPO} a JOIN ${names.OPER} c ON c.SEQ_DB = a.OPER_SEQ_DB WHERE a.OPER_GRUPO_SEQ_DB = ? AND ${live2('a')} AND ${live2('c')}`;
  const naiveMetric = `SELECT * FROM ${names.OPER_GRUPO_METRICA} m WHERE m.FOLHA_TAREFA_SEQ_DB = ? AND m.OPER_SEQ_DB = ? AND m.OPER_GRUPO_SEQ_DB = ? AND ${live2('m')}`;
  const branchSample = await timed(async () => {
    for (let index = 0; index < NAIVE_SAMPLE; index++) {
      await db.pool.query(naiveChild, [groups[(index * 7) % groups.length], ...scope, ...scope]);
    }
  });
  const taskSample = await timed(async () => {
    for (let index = 0; index < NAIVE_SAMPLE; index++) {
      const slot = (index * 97) % activities.length;
      await db.pool.query(naiveMetric, [
        sheet,
        activities[slot],
        groups[Math.floor(slot / ACTIVITIES_PER_GROUP)],
        ...scope,
      ]);
    }
  });
  const branchNodes = regions.length + sectors.length + groups.length;
  const naive = (branchSample / NAIVE_SAMPLE) * branchNodes + (taskSample / NAIVE_SAMPLE) * activities.length;

  const best = (times: number[]) => Math.min(...times);
  console.log(
    `ours:  ${best(oursTimes).toFixed(0)} ms best of ${ROUNDS} (${oursTimes.map((t) => t.toFixed(0)).join(', ')}), ${oursRoundTrips} round trips, ${oursNodes.toLocaleString('en')} nodes with metrics and defaults`,
  );
  console.log(
    `floor: ${best(floorTimes).toFixed(0)} ms best of ${ROUNDS} (${floorTimes.map((t) => t.toFixed(0)).join(', ')}), ${floorStatements.length} round trips, rows only`,
  );
  console.log(
    `naive: ${(naive / 1000).toFixed(1)} s extrapolated from ${NAIVE_SAMPLE} + ${NAIVE_SAMPLE} sampled queries, ${nodes.toLocaleString('en')} round trips`,
  );
  console.log(
    `ratio_vs_floor=${(best(oursTimes) / best(floorTimes)).toFixed(2)} ratio_vs_naive=${(naive / best(oursTimes)).toFixed(1)}`,
  );
} finally {
  await scratch.drop();
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

function countNodes(nodes: readonly TreeNode[]): number {
  let count = 0;
  for (const node of nodes) count += 1 + (node.kind === 'branch' ? countNodes(node.children) : 0);
  return count;
}
