import { beforeAll, describe, expect, it } from 'vitest';
import { tableNames } from '../../src/model/table-names.js';
import { planTree } from '../../src/model/tree-plan.js';
import { ConfigError } from '../../src/model.js';
import type { SqlExecutor } from '../../src/store/driver.js';
import { loadTaskTree, NotFoundError, type TaskNode, type TaskTree, type TreeNode } from '../../src/tree.js';
import { useScratchDatabase } from '../support/database.js';
import {
  countingExecutor,
  insertRow,
  insertRows,
  installTables,
  SCOPE_A,
  SCOPE_B,
  writeParameters,
} from './fixture.js';

const scratch = useScratchDatabase('resolvers_tree', { hostSchema: true });
const names = tableNames();
const ids: Record<string, number | undefined> = {};
const SCOPE_EMPTY = { EMPRESA: 5, FILIAL: 5, LOCAL: 5 };

/** The tree as indented lines, children sorted, tasks with their group and metrics: easy to read in a diff. */
function outline(tree: TaskTree): string[] {
  const lines: string[] = [];
  const walk = (nodes: readonly TreeNode[], depth: number) => {
    const sorted = [...nodes].sort((a, b) => String(a.row.CODIGO).localeCompare(String(b.row.CODIGO)));
    for (const node of sorted) {
      const pad = '  '.repeat(depth);
      if (node.kind === 'task') {
        const metrics = Object.entries(node.metrics).map(([field, m]) => `${field}=${m.value}(${m.source})`);
        lines.push(`${pad}${node.row.CODIGO} via ${node.group} ${metrics.join(' ')}`);
      } else {
        lines.push(`${pad}${node.row.CODIGO}`);
        walk(node.children, depth + 1);
      }
    }
  };
  walk(tree.roots, 0);
  return lines;
}

async function group(db: SqlExecutor, code: string, extra: Record<string, unknown> = {}) {
  ids[code] = await insertRow(db, names.OPER_GRUPO, {
    ...SCOPE_A,
    CODIGO: code,
    OPER_GRUPO_SEQ_DB: null,
    ATIVO: 1,
    DELETED: 0,
    ...extra,
  });
}
async function activity(db: SqlExecutor, code: string, extra: Record<string, unknown> = {}) {
  ids[code] = await insertRow(db, names.OPER, {
    ...SCOPE_A,
    CODIGO: code,
    INDICE: '1.50',
    ATIVO: 1,
    DELETED: 0,
    ...extra,
  });
}
async function link(
  db: SqlExecutor,
  groupCode: string,
  operCode: string,
  extra: Record<string, unknown> = {},
) {
  await insertRow(db, names.OPER_OPER_GRUPO, {
    ...SCOPE_A,
    OPER_GRUPO_SEQ_DB: ids[groupCode],
    OPER_SEQ_DB: ids[operCode],
    ATIVO: 1,
    DELETED: 0,
    ...extra,
  });
}
async function parent(db: SqlExecutor, child: string, parentCode: string) {
  await db.execute(`UPDATE ${names.OPER_GRUPO} SET OPER_GRUPO_SEQ_DB = ? WHERE SEQ_DB = ?`, [
    ids[parentCode],
    ids[child],
  ]);
}

beforeAll(async () => {
  const { db } = scratch();
  await installTables(db, names);
  [ids.TS, ids.TS_B, ids.TS_DELETED, ids.TS_OFF] = await insertRows(
    db,
    'app_folha_tarefa',
    [
      { ...SCOPE_A, QTD_PESSOAS: 5, DELETED: 0, ATIVO: 1 },
      { ...SCOPE_B, QTD_PESSOAS: 9, DELETED: 0, ATIVO: 1 },
      { ...SCOPE_A, QTD_PESSOAS: 1, DELETED: 1, ATIVO: 1 },
      { ...SCOPE_A, QTD_PESSOAS: 1, DELETED: 0, ATIVO: 0 },
    ],
    { withId: false },
  );
  for (const code of ['G1', 'G2', 'G3', 'G_DEL', 'G_ORPHAN', 'C1', 'C2', 'C3', 'C_CHILD'])
    await group(db, code);
  await group(db, 'G_OFF', { ATIVO: 0 });
  await group(db, 'G_NULL_FLAGS', { ATIVO: null, DELETED: null });
  await db.execute(`UPDATE ${names.OPER_GRUPO} SET DELETED = 1 WHERE SEQ_DB = ?`, [ids.G_DEL]);
  ids.G_B = await insertRow(db, names.OPER_GRUPO, {
    ...SCOPE_B,
    CODIGO: 'G_B',
    OPER_GRUPO_SEQ_DB: null,
    ATIVO: 1,
    DELETED: 0,
  });
  await parent(db, 'G2', 'G1');
  await parent(db, 'G3', 'G2');
  await parent(db, 'G_DEL', 'G1');
  await parent(db, 'G_ORPHAN', 'G_DEL');
  // C1 -> C2 -> C3 -> C1: a cycle, with C_CHILD hanging below it.
  await parent(db, 'C1', 'C3');
  await parent(db, 'C2', 'C1');
  await parent(db, 'C3', 'C2');
  await parent(db, 'C_CHILD', 'C1');
  for (const code of ['O1', 'O2', 'O3', 'O_CYCLE', 'O_NULL_FLAGS']) await activity(db, code);
  await activity(db, 'O_DEL', { DELETED: 1 });
  await activity(db, 'O_OFF', { ATIVO: 0 });
  ids.O_B = await insertRow(db, names.OPER, {
    ...SCOPE_B,
    CODIGO: 'O_B',
    INDICE: '9.99',
    ATIVO: 1,
    DELETED: 0,
  });
  await link(db, 'G1', 'O1');
  await link(db, 'G3', 'O1');
  await link(db, 'G2', 'O2');
  await link(db, 'G3', 'O3');
  await link(db, 'G1', 'O3', { DELETED: 1 });
  await link(db, 'G1', 'O2', { ATIVO: 0 });
  await link(db, 'G1', 'O_DEL');
  await link(db, 'G1', 'O_OFF');
  await link(db, 'C1', 'O_CYCLE');
  await link(db, 'G_ORPHAN', 'O1');
  await link(db, 'G_NULL_FLAGS', 'O_NULL_FLAGS', { ATIVO: null, DELETED: null });
  // Rows of scope 2/1/1 pointing at scope 1/1/1's nodes: never visible to 1/1/1.
  await insertRow(db, names.OPER_OPER_GRUPO, {
    ...SCOPE_B,
    OPER_GRUPO_SEQ_DB: ids.G1,
    OPER_SEQ_DB: ids.O_B,
    ATIVO: 1,
    DELETED: 0,
  });
  await insertRow(db, names.OPER_OPER_GRUPO, {
    ...SCOPE_B,
    OPER_GRUPO_SEQ_DB: ids.G_B,
    OPER_SEQ_DB: ids.O_B,
    ATIVO: 1,
    DELETED: 0,
  });
  // Saved metrics: O1 through G1 on TS; the same key in scope 2/1/1 and a deleted one must not show.
  const metric = (scope: typeof SCOPE_A, extra: Record<string, unknown>) =>
    insertRow(db, names.OPER_GRUPO_METRICA, {
      ...scope,
      FOLHA_TAREFA_SEQ_DB: ids.TS,
      OPER_SEQ_DB: ids.O1,
      OPER_GRUPO_SEQ_DB: ids.G1,
      METRICA1: null,
      METRICA2: null,
      DELETED: 0,
      ...extra,
    });
  await metric(SCOPE_A, { METRICA1: '7.25', METRICA2: 3 });
  await metric(SCOPE_B, { METRICA1: '1.00', METRICA2: 1 });
  await metric(SCOPE_A, { OPER_GRUPO_SEQ_DB: ids.G3, METRICA1: '5.00', DELETED: 1 });
  // Locked rows: O3 under G3 inactive, O2 under G2 read-only. Shown, not editable.
  await metric(SCOPE_A, { OPER_SEQ_DB: ids.O3, OPER_GRUPO_SEQ_DB: ids.G3, METRICA1: '2.00', ATIVO: 0 });
  await metric(SCOPE_A, { OPER_SEQ_DB: ids.O2, OPER_GRUPO_SEQ_DB: ids.G2, METRICA1: '3.00', RO: 1 });
});

describe('loadTaskTree, default tree', () => {
  it('nests groups by parent, hangs activities through the link table, with saved metrics', async () => {
    const tree = await loadTaskTree(scratch().db, { scope: SCOPE_A, taskSheet: ids.TS ?? 0 });
    expect(outline(tree)).toEqual([
      'G_NULL_FLAGS',
      `  O_NULL_FLAGS via ${ids.G_NULL_FLAGS} METRICA1=null(none) METRICA2=null(none)`,
      'G1',
      `  G2`,
      `    G3`,
      `      O1 via ${ids.G3} METRICA1=null(none) METRICA2=null(none)`,
      `      O3 via ${ids.G3} METRICA1=2.00(saved) METRICA2=null(saved)`,
      `    O2 via ${ids.G2} METRICA1=3.00(saved) METRICA2=null(saved)`,
      `  O1 via ${ids.G1} METRICA1=7.25(saved) METRICA2=3(saved)`,
    ]);
    expect(tree.taskSheet).toMatchObject({ SEQ_DB: ids.TS, QTD_PESSOAS: 5 });
    expect(tree.metrics.map((metric) => metric.field)).toEqual(['METRICA1', 'METRICA2']);
  });

  // As the screen shows them, and as saveMetrics treats them (READ_ONLY_ROW, INACTIVE_ROW).
  it('shows the values of an inactive or read-only saved row, marked not editable', async () => {
    const tree = await loadTaskTree(scratch().db, { scope: SCOPE_A, taskSheet: ids.TS ?? 0 });
    const tasks: TaskNode[] = [];
    const walk = (nodes: readonly TreeNode[]) => {
      for (const node of nodes) {
        if (node.kind === 'task') tasks.push(node);
        else walk(node.children);
      }
    };
    walk(tree.roots);
    const editable = (activity: number | undefined, group: number | undefined) =>
      tasks.find((task) => task.seqDb === activity && task.group === group)?.editable;
    expect(editable(ids.O3, ids.G3)).toBe(false);
    expect(editable(ids.O2, ids.G2)).toBe(false);
    expect(editable(ids.O1, ids.G1)).toBe(true);
    expect(editable(ids.O1, ids.G3)).toBe(true);
  });

  it('reports a group that is its own ancestor instead of looping, and leaves it out', async () => {
    const tree = await loadTaskTree(scratch().db, { scope: SCOPE_A, taskSheet: ids.TS ?? 0 });
    expect(tree.cycles).toHaveLength(1);
    expect([...(tree.cycles[0] ?? [])].sort()).toEqual([ids.C1, ids.C2, ids.C3].sort());
    expect(JSON.stringify(outline(tree))).not.toMatch(/C1|C_CHILD|O_CYCLE/);
  });

  it('shows scope 2/1/1 only its own rows', async () => {
    const tree = await loadTaskTree(scratch().db, { scope: SCOPE_B, taskSheet: ids.TS_B ?? 0 });
    expect(outline(tree)).toEqual([`G_B`, `  O_B via ${ids.G_B} METRICA1=null(none) METRICA2=null(none)`]);
  });

  it('takes one round trip per level: parameters, task sheet, groups, links, metrics, their types once a minute', async () => {
    const counting = countingExecutor(scratch().db);
    await loadTaskTree(counting, { scope: SCOPE_A, taskSheet: ids.TS ?? 0 });
    expect(counting.count()).toBe(6);
    counting.reset();
    // Given the plan, no parameter rows; the pool has read the metric columns' types already.
    await loadTaskTree(counting, { scope: SCOPE_A, taskSheet: ids.TS ?? 0, plan: planTree(names) });
    expect(counting.count()).toBe(4);
  });

  it('reads a level with more parents than inListLimit in one scope-wide query, dropping links outside the tree', async () => {
    const counting = countingExecutor(scratch().db);
    const byIds = await loadTaskTree(counting, {
      scope: SCOPE_A,
      taskSheet: ids.TS ?? 0,
      plan: planTree(names),
    });
    counting.reset();
    // G_ORPHAN (hidden below a deleted group) and C1 (in a cycle) have links: they must not show.
    const wide = await loadTaskTree(counting, {
      scope: SCOPE_A,
      taskSheet: ids.TS ?? 0,
      plan: planTree(names),
      inListLimit: 1,
    });
    // The metric columns' types were read by the first load of this pool.
    expect(counting.count()).toBe(4);
    expect(outline(wide)).toEqual(outline(byIds));
  });

  it('sends no level or metric query when there is nothing to hang them from', async () => {
    const counting = countingExecutor(scratch().db);
    const [emptySheet] = await insertRows(
      scratch().db,
      'app_folha_tarefa',
      [{ ...SCOPE_EMPTY, DELETED: 0 }],
      { withId: false },
    );
    const empty = await loadTaskTree(counting, {
      scope: SCOPE_EMPTY,
      taskSheet: emptySheet ?? 0,
      plan: planTree(names),
    });
    expect(empty.roots).toEqual([]);
    // The task sheet, the first level, and (sent with them) the metric columns' types.
    expect(counting.count()).toBe(3);
  });

  it('answers NotFound for an unknown task sheet, one of another scope, a deleted and an inactive one', async () => {
    for (const taskSheet of [999_999, ids.TS_B ?? 0, ids.TS_DELETED ?? 0, ids.TS_OFF ?? 0]) {
      await expect(loadTaskTree(scratch().db, { scope: SCOPE_A, taskSheet })).rejects.toMatchObject({
        name: NotFoundError.name,
        code: 'TASK_SHEET_NOT_FOUND',
      });
    }
  });

  it('refuses an override that is not a table name before building any SQL', async () => {
    const scope = { EMPRESA: 7, FILIAL: 1, LOCAL: 1 };
    await writeParameters(scratch().db, scope, { overrides: { OPER: 'app_oper; DROP TABLE app_cliente' } });
    await expect(loadTaskTree(scratch().db, { scope, taskSheet: 1 })).rejects.toBeInstanceOf(ConfigError);
    const [row] = await scratch().db.query<{ n: number }>('SELECT COUNT(*) AS n FROM app_cliente');
    expect(row?.n).toBe(1);
  });

  it('refuses a scope that is not three non-negative integers before any query', async () => {
    const counting = countingExecutor(scratch().db);
    await expect(
      loadTaskTree(counting, { scope: { EMPRESA: Number.NaN, FILIAL: 1, LOCAL: 1 }, taskSheet: ids.TS ?? 0 }),
    ).rejects.toMatchObject({ code: 'INVALID_SCOPE' });
    expect(counting.count()).toBe(0);
  });

  it.each([
    ['a table name that is not an identifier', [{ ...names, OPER: 'app_oper`; --' }], 'names.OPER'],
    ['names missing a table', [{ OPER: 'app_oper' }], 'names.OPER_GRUPO'],
    ['a TREE_VIEW the model refuses', [names, { layers: { 1: { table: 'app_oper' } } }], 'treeView.layers'],
  ])('planTree refuses %s, naming where', (_, args, path) => {
    // @ts-expect-error: each case breaks the arguments' types on purpose, as a JavaScript caller can.
    expect(() => planTree(...args)).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST' }));
    try {
      // @ts-expect-error: as above.
      planTree(...args);
    } catch (error) {
      expect((error as { path: string }).path.startsWith(path)).toBe(true);
    }
  });

  it.each([
    ['NaN', { taskSheet: Number.NaN }, 'taskSheet'],
    ['SQL text', { taskSheet: '1 OR 1=1' }, 'taskSheet'],
    ['digits as text', { taskSheet: String(1) }, 'taskSheet'],
    ['2^53 + 1', { taskSheet: 2 ** 53 + 2 }, 'taskSheet'],
    ['a fraction', { taskSheet: 1.5 }, 'taskSheet'],
    [
      'a plan not made by planTree (it could name any table)',
      { plan: { ...planTree(names), metricTable: 'app_oper`; --' } },
      'plan',
    ],
    ['names and a TREE_VIEW, which only planTree takes', { names, treeView: null }, ''],
    ['a negative inListLimit', { inListLimit: -1 }, 'inListLimit'],
    ['an unknown option', { taskSheets: 1 }, ''],
  ])('refuses %s with the HTTP layer models, before any query', async (_, bad, path) => {
    const counting = countingExecutor(scratch().db);
    const options = { scope: SCOPE_A, taskSheet: ids.TS ?? 0, ...bad };
    // @ts-expect-error: each case breaks the options' type on purpose, as a JavaScript caller can.
    const loading = loadTaskTree(counting, options);
    await expect(loading).rejects.toMatchObject({ name: 'InvalidRequestError', code: 'INVALID_REQUEST' });
    await expect(loading).rejects.toSatisfy((error: { path: string }) => error.path.startsWith(path));
    expect(counting.count()).toBe(0);
  });
});
