import { getTableName } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { tableNames } from '../../src/model/table-names.js';
import { planTree } from '../../src/model/tree-plan.js';
import { TreeView } from '../../src/model.js';
import { loadTaskTree, resolveTableNames, saveMetrics, type TreeNode } from '../../src/tree.js';
import { useScratchDatabase } from '../support/database.js';
import {
  countingExecutor,
  createHostTable,
  insertRow,
  insertRows,
  installTables,
  SCOPE_A,
  SCOPE_B,
  writeParameters,
} from './fixture.js';

const scratch = useScratchDatabase('resolvers_custom_tree', { hostSchema: true });
const overrides = {
  OPER: 'MO_OPER',
  OPER_GRUPO: 'MO_OPER_GRUPO',
  OPER_GRUPO_METRICA: 'MO_OPER_GRUPO_METRICA',
  OPER_OPER_GRUPO: 'MO_OPER_MO_OPER_GRUPO',
};
const names = tableNames(overrides);
// Four levels: regions and sectors the host added, then groups and activities under MO_ names. The
// region-to-sector table names its columns explicitly; the others follow the <STEM>_SEQ_DB convention.
const treeView = TreeView.parse({
  layers: {
    '1': {
      table: 'app_regiao',
      associationTable: 'app_regiao_setor',
      parentColumn: 'PAI',
      childColumn: 'FILHO',
    },
    '2': { table: 'app_setor', associationTable: 'app_setor_n_oper_grupo' },
    '3': { table: 'MO_OPER_GRUPO', associationTable: 'MO_OPER_MO_OPER_GRUPO' },
    '4': { table: 'MO_OPER', isTask: true },
  },
  metrics: [
    { field: 'METRICA1', label: 'Quantity', default: { type: 'field', name: 'INDICE' } },
    { field: 'METRICA2', label: 'Workers', default: { type: 'taskSheet', name: 'QTD_PESSOAS' } },
  ],
});
const ids: Record<string, number | undefined> = {};
const live = { ATIVO: 1, DELETED: 0 };

function outline(nodes: readonly TreeNode[], depth = 0): string[] {
  return [...nodes]
    .sort((a, b) => String(a.row.CODIGO).localeCompare(String(b.row.CODIGO)))
    .flatMap((node) =>
      node.kind === 'task'
        ? [
            `${'  '.repeat(depth)}${node.row.CODIGO} L${node.level} M1=${node.metrics.METRICA1?.value}(${node.metrics.METRICA1?.source}) M2=${node.metrics.METRICA2?.value}`,
          ]
        : [`${'  '.repeat(depth)}${node.row.CODIGO} L${node.level}`, ...outline(node.children, depth + 1)],
    );
}

beforeAll(async () => {
  const { db } = scratch();
  await installTables(db, names);
  await writeParameters(db, SCOPE_A, { overrides, treeView });
  await writeParameters(db, SCOPE_B, { overrides, treeView });
  await createHostTable(db, 'app_regiao', ['CODIGO varchar(50) NULL']);
  await createHostTable(db, 'app_setor', ['CODIGO varchar(50) NULL']);
  await createHostTable(db, 'app_regiao_setor', ['PAI bigint unsigned NULL', 'FILHO bigint unsigned NULL']);
  await createHostTable(db, 'app_setor_n_oper_grupo', [
    'SETOR_SEQ_DB bigint unsigned NULL',
    'OPER_GRUPO_SEQ_DB bigint unsigned NULL',
  ]);
  [ids.TS, ids.TS_B] = await insertRows(
    db,
    'app_folha_tarefa',
    [
      { ...SCOPE_A, QTD_PESSOAS: 4, DELETED: 0 },
      { ...SCOPE_B, QTD_PESSOAS: 8, DELETED: 0 },
    ],
    { withId: false },
  );
  const row = (table: string, code: string, extra: Record<string, unknown> = {}) =>
    insertRow(db, table, { ...SCOPE_A, CODIGO: code, ...live, ...extra }).then((id) => {
      ids[code] = id;
    });
  const link = (
    table: string,
    columns: [string, string],
    from: string,
    to: string,
    extra: Record<string, unknown> = {},
  ) =>
    insertRow(db, table, { ...SCOPE_A, [columns[0]]: ids[from], [columns[1]]: ids[to], ...live, ...extra });
  await row('app_regiao', 'R1');
  await row('app_regiao', 'R_OFF', { ATIVO: 0 });
  await row('app_setor', 'S1');
  await row('app_setor', 'S2');
  await row('app_setor', 'S_DEL', { DELETED: 1 });
  await row(names.OPER_GRUPO, 'G1');
  await row(names.OPER_GRUPO, 'G2');
  await row(names.OPER, 'O1', { INDICE: '2.75' });
  await row(names.OPER, 'O2', { INDICE: null });
  await row(names.OPER, 'O_OFF', { INDICE: '1.00', ATIVO: 0 });
  await row('app_setor', 'S_UNDER_OFF');
  const regionSector: [string, string] = ['PAI', 'FILHO'];
  const sectorGroup: [string, string] = ['SETOR_SEQ_DB', 'OPER_GRUPO_SEQ_DB'];
  const groupOper: [string, string] = ['OPER_GRUPO_SEQ_DB', 'OPER_SEQ_DB'];
  await link('app_regiao_setor', regionSector, 'R1', 'S1');
  await link('app_regiao_setor', regionSector, 'R1', 'S2');
  await link('app_regiao_setor', regionSector, 'R1', 'S_DEL');
  await link('app_regiao_setor', regionSector, 'R_OFF', 'S_UNDER_OFF');
  await link('app_setor_n_oper_grupo', sectorGroup, 'S1', 'G1');
  await link('app_setor_n_oper_grupo', sectorGroup, 'S2', 'G1');
  await link('app_setor_n_oper_grupo', sectorGroup, 'S2', 'G2', { DELETED: 1 });
  await link('app_setor_n_oper_grupo', sectorGroup, 'S_DEL', 'G2');
  await link(names.OPER_OPER_GRUPO, groupOper, 'G1', 'O1');
  await link(names.OPER_OPER_GRUPO, groupOper, 'G1', 'O2');
  await link(names.OPER_OPER_GRUPO, groupOper, 'G1', 'O_OFF');
  await link(names.OPER_OPER_GRUPO, groupOper, 'G2', 'O1');
  // Scope 2/1/1 links its own sector under scope 1/1/1's region: invisible to both.
  ids.S_B = await insertRow(db, 'app_setor', { ...SCOPE_B, CODIGO: 'S_B', ...live });
  await insertRow(db, 'app_regiao_setor', { ...SCOPE_B, PAI: ids.R1, FILHO: ids.S_B, ...live });
  await insertRow(db, names.OPER_GRUPO_METRICA, {
    ...SCOPE_A,
    FOLHA_TAREFA_SEQ_DB: ids.TS,
    OPER_SEQ_DB: ids.O1,
    OPER_GRUPO_SEQ_DB: ids.G1,
    METRICA1: '10.00',
    METRICA2: null,
    ...live,
  });
});

describe('loadTaskTree, custom TREE_VIEW with MO_ names', () => {
  it('resolves the MO_ names from the scope parameter rows', async () => {
    const { names: resolved, tables } = await resolveTableNames(scratch().db, SCOPE_A);
    expect(resolved).toEqual(names);
    // The Drizzle tables carry the overridden names, not only the name map.
    expect(getTableName(tables.OPER)).toBe('MO_OPER');
    expect(getTableName(tables.OPER_GRUPO)).toBe('MO_OPER_GRUPO');
    expect((await resolveTableNames(scratch().db, { EMPRESA: 3, FILIAL: 3, LOCAL: 3 })).names).toEqual(
      tableNames(),
    );
  });

  it('walks four levels through host-added tables, filtering every level and association row', async () => {
    const tree = await loadTaskTree(scratch().db, { scope: SCOPE_A, taskSheet: ids.TS ?? 0 });
    // S1 and S2 both link G1: G1 appears under each, with the metric saved under G1 on both (group = G1).
    expect(outline(tree.roots)).toEqual([
      'R1 L1',
      '  S1 L2',
      '    G1 L3',
      '      O1 L4 M1=10.00(saved) M2=null',
      '      O2 L4 M1=null(none) M2=4',
      '  S2 L2',
      '    G1 L3',
      '      O1 L4 M1=10.00(saved) M2=null',
      '      O2 L4 M1=null(none) M2=4',
    ]);
  });

  it('takes one query per level: parameters, task sheet, four levels, metrics (and their types once a minute)', async () => {
    const counting = countingExecutor(scratch().db);
    await loadTaskTree(counting, { scope: SCOPE_A, taskSheet: ids.TS ?? 0 });
    // A pool's first load also reads the metric columns' types (how a FLOAT is written out).
    expect(counting.count()).toBe(8);
    counting.reset();
    await loadTaskTree(counting, { scope: SCOPE_A, taskSheet: ids.TS ?? 0 });
    expect(counting.count()).toBe(7);
  });

  it('sends the levels below the second, and the saved metrics, before the first level answers', async () => {
    const { db } = scratch();
    const events: string[] = [];
    const recording = {
      query: async <Row extends object>(sql: string, params?: readonly unknown[]) => {
        const table = /FROM (\S+)/.exec(sql)?.[1] ?? sql;
        events.push(`sent ${table}`);
        const rows = await db.query<Row>(sql, params);
        events.push(`answered ${table}`);
        return rows;
      },
      execute: (sql: string, params?: readonly unknown[]) => db.execute(sql, params),
    };
    const tree = await loadTaskTree(recording, {
      scope: SCOPE_A,
      taskSheet: ids.TS ?? 0,
      plan: planTree(names, treeView),
    });
    const firstAnswer = events.indexOf('answered `app_regiao`');
    const sentBefore = events.slice(0, firstAnswer).filter((event) => event.startsWith('sent'));
    // Deepest first: groups by sector and activities by group, then the saved metrics, then the
    // task sheet and the regions; the sectors wait for the regions' ids.
    expect(sentBefore).toEqual([
      'sent `MO_OPER_MO_OPER_GRUPO`',
      'sent `MO_OPER_GRUPO_METRICA`',
      'sent `app_setor_n_oper_grupo`',
      'sent `app_folha_tarefa`',
      'sent `app_regiao`',
      // The metric columns' types, on this pool's first load only.
      'sent information_schema.COLUMNS',
    ]);
    expect(events.indexOf('sent `app_regiao_setor`')).toBeGreaterThan(firstAnswer);
    expect(outline(tree.roots)).toContain('      O1 L4 M1=10.00(saved) M2=null');
  });

  it('gives the same tree whether a level is read by an IN list or by one scope-wide join', async () => {
    const counting = countingExecutor(scratch().db);
    const byIds = await loadTaskTree(counting, { scope: SCOPE_A, taskSheet: ids.TS ?? 0 });
    counting.reset();
    // inListLimit 1: sectors (one region above) by IN list; groups and activities, sent before the
    // level above answered, by the join, which also returns links of hidden parents, dropped in memory.
    const mixed = await loadTaskTree(counting, { scope: SCOPE_A, taskSheet: ids.TS ?? 0, inListLimit: 1 });
    expect(counting.count()).toBe(7);
    expect(outline(mixed.roots)).toEqual(outline(byIds.roots));
    // Every level by the join (inListLimit 0), still one query per level.
    counting.reset();
    const joined = await loadTaskTree(counting, { scope: SCOPE_A, taskSheet: ids.TS ?? 0, inListLimit: 0 });
    expect(counting.count()).toBe(7);
    expect(outline(joined.roots)).toEqual(outline(byIds.roots));
  });

  it('reads the parameter rows on every call, without waiting for them once the executor has read them', async () => {
    const { db } = scratch();
    const scope = { EMPRESA: 4, FILIAL: 1, LOCAL: 1 };
    await writeParameters(db, scope, { overrides, treeView });
    const [sheet] = await insertRows(db, 'app_folha_tarefa', [{ ...scope, DELETED: 0 }], { withId: false });
    await insertRow(db, 'app_regiao', { ...scope, CODIGO: 'R_4', ...live });
    await insertRow(db, 'app_setor', { ...scope, CODIGO: 'S_4', ...live });
    // Every statement as it is sent, and the parameter read's answer as it comes.
    const events: string[] = [];
    const recording = {
      query: async <Row extends object>(sql: string, params?: readonly unknown[]) => {
        const what = sql.includes('sys_core_par_parametros')
          ? 'parameters'
          : (/FROM (\S+)/.exec(sql)?.[1] ?? sql);
        events.push(`sent ${what}`);
        const rows = await db.query<Row>(sql, params);
        if (what === 'parameters') events.push('parameters answered');
        return rows;
      },
      execute: (sql: string, params?: readonly unknown[]) => db.execute(sql, params),
    };
    const options = { scope, taskSheet: sheet ?? 0 };
    const first = await loadTaskTree(recording, options);
    expect(outline(first.roots)).toEqual(['R_4 L1']);
    // First call on this executor: nothing of the tree is asked for before the plan is known.
    expect(events.slice(0, 2)).toEqual(['sent parameters', 'parameters answered']);
    events.length = 0;
    const again = await loadTaskTree(recording, options);
    expect(outline(again.roots)).toEqual(['R_4 L1']);
    // Next call: the first level goes out with the parameter read, on the plan it gave last time.
    expect(events.indexOf('sent `app_regiao`')).toBeLessThan(events.indexOf('parameters answered'));
    expect(events.filter((event) => event === 'sent `app_regiao`')).toHaveLength(1);
    // A changed TREE_VIEW counts on the very next call: the tree read on the old plan is dropped.
    const sectorsFirst = TreeView.parse({
      layers: {
        '1': { table: 'app_setor', associationTable: 'app_setor_n_oper_grupo' },
        '2': { table: 'MO_OPER_GRUPO', associationTable: 'MO_OPER_MO_OPER_GRUPO' },
        '3': { table: 'MO_OPER', isTask: true },
      },
    });
    await db.execute(
      'UPDATE sys_core_par_parametros SET CONTEUDO = ? WHERE EMPRESA = ? AND FILIAL = ? AND LOCAL = ? AND NOME = ?',
      [JSON.stringify(sectorsFirst), scope.EMPRESA, scope.FILIAL, scope.LOCAL, 'TREE_VIEW'],
    );
    const changed = await loadTaskTree(recording, options);
    expect(outline(changed.roots)).toEqual(['S_4 L1']);
  });

  it('refuses a tree whose activities hang from sectors while metrics go to the group-keyed default table, writing nothing', async () => {
    const { db } = scratch();
    const treeView = TreeView.parse({
      layers: {
        '1': { table: 'app_setor', associationTable: 'app_setor_n_oper_grupo' },
        '2': { table: 'MO_OPER', isTask: true },
      },
    });
    const refusal = {
      code: 'METRIC_TABLE_MISMATCH',
      path: 'metricAssociationTable',
      message: `TREE_VIEW the activities hang from layers.1.table app_setor, but metrics are saved in ${names.OPER_GRUPO_METRICA}, whose OPER_GRUPO_SEQ_DB refers to ${names.OPER_GRUPO}: saves would write over the rows of other nodes; give the TREE_VIEW a metricAssociationTable of its own`,
    };
    // A caller's plan is refused where it is made; a scope whose parameter rows say so, on every call.
    expect(() => planTree(names, treeView)).toThrow(expect.objectContaining(refusal));
    const scope = { EMPRESA: 9, FILIAL: 1, LOCAL: 1 };
    await writeParameters(db, scope, { overrides: names, treeView });
    const options = { scope, taskSheet: ids.TS ?? 0 };
    await expect(loadTaskTree(db, options)).rejects.toMatchObject(refusal);
    const count = async () =>
      (await db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM ${names.OPER_GRUPO_METRICA}`))[0]?.n;
    const before = await count();
    // Sector S2 has the SEQ_DB of some group: without the refusal this wrote that group's row.
    await expect(
      saveMetrics(db, {
        ...options,
        user: 3,
        entries: [{ activity: ids.O1 ?? 0, group: ids.S2 ?? 0, values: { METRICA1: '1.00' } }],
      }),
    ).rejects.toMatchObject(refusal);
    expect(await count()).toBe(before);
  });

  it('never shows scope 1/1/1 rows to scope 2/1/1', async () => {
    const tree = await loadTaskTree(scratch().db, { scope: SCOPE_B, taskSheet: ids.TS_B ?? 0 });
    expect(tree.roots).toEqual([]);
  });

  it('saves into the MO_ metric table through the last level, and refuses a group the activity is not linked to', async () => {
    const { db } = scratch();
    const entry = { activity: ids.O2 ?? 0, group: ids.G1 ?? 0, values: { METRICA1: '6.25', METRICA2: 2 } };
    expect(
      await saveMetrics(db, { scope: SCOPE_A, user: 9, taskSheet: ids.TS ?? 0, entries: [entry] }),
    ).toMatchObject({
      inserted: 1,
      updated: 0,
    });
    const tree = await loadTaskTree(db, { scope: SCOPE_A, taskSheet: ids.TS ?? 0 });
    expect(outline(tree.roots)).toContain('      O2 L4 M1=6.25(saved) M2=2');
    await expect(
      saveMetrics(db, {
        scope: SCOPE_A,
        user: 9,
        taskSheet: ids.TS ?? 0,
        entries: [{ ...entry, group: ids.G2 ?? 0 }],
      }),
    ).rejects.toMatchObject({ code: 'NOT_IN_TREE', path: 'entries.0' });
    // O1 is linked to G2, but G2 hangs only below a deleted sector and by a deleted link: not shown.
    await expect(
      saveMetrics(db, {
        scope: SCOPE_A,
        user: 9,
        taskSheet: ids.TS ?? 0,
        entries: [{ ...entry, activity: ids.O1 ?? 0, group: ids.G2 ?? 0 }],
      }),
    ).rejects.toMatchObject({ code: 'NOT_IN_TREE', message: /node \d+ is not in the tree/ });
  });

  it('reads and saves metrics in the metricAssociationTable when the TREE_VIEW names one', async () => {
    const { db } = scratch();
    await createHostTable(db, 'app_setor_metrica', [
      'OPER_SEQ_DB bigint unsigned NULL',
      'OPER_GRUPO_SEQ_DB bigint unsigned NULL',
      'FOLHA_TAREFA_SEQ_DB bigint unsigned NULL',
      'HORAS decimal(6,1) NULL',
    ]);
    // Two levels: sectors, then activities hung straight from them, metrics in a table of the host's.
    await createHostTable(db, 'app_setor_n_oper', [
      'SETOR_SEQ_DB bigint unsigned NULL',
      'OPER_SEQ_DB bigint unsigned NULL',
    ]);
    await insertRow(db, 'app_setor_n_oper', {
      ...SCOPE_A,
      SETOR_SEQ_DB: ids.S2,
      OPER_SEQ_DB: ids.O1,
      ...live,
    });
    const sectors = TreeView.parse({
      layers: {
        '1': { table: 'app_setor', associationTable: 'app_setor_n_oper' },
        '2': { table: 'MO_OPER', isTask: true },
      },
      metricAssociationTable: 'app_setor_metrica',
      metrics: [{ field: 'HORAS', label: 'Hours', default: { type: 'value', value: '8.0' } }],
    });
    const options = { scope: SCOPE_A, taskSheet: ids.TS ?? 0, plan: planTree(names, sectors) };
    const before = await loadTaskTree(db, options);
    const s2 = before.roots.find((node) => node.row.CODIGO === 'S2');
    expect(s2?.kind === 'branch' && s2.children.map((task) => task.kind === 'task' && task.metrics)).toEqual([
      { HORAS: { value: '8.0', source: 'default' } },
    ]);
    const hours = { activity: ids.O1 ?? 0, group: ids.S2 ?? 0, values: { HORAS: '7.5' } };
    await saveMetrics(db, { ...options, user: 3, entries: [hours] });
    await expect(
      saveMetrics(db, {
        ...options,
        user: 3,
        entries: [{ ...hours, values: { HORAS: '7.25' } }],
      }),
    ).rejects.toMatchObject({
      code: 'INVALID_METRIC_VALUE',
    });
    const after = await loadTaskTree(db, options);
    const task = after.roots.find((node) => node.row.CODIGO === 'S2');
    expect(task?.kind === 'branch' && task.children[0]?.kind === 'task' && task.children[0].metrics).toEqual({
      HORAS: { value: '7.5', source: 'saved' },
    });
  });
});
