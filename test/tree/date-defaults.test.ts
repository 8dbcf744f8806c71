import { beforeAll, expect, it } from 'vitest';
import { checkStoredTreeView } from '../../src/installer/verify-tree-view.js';
import type { Scope } from '../../src/model/scope.js';
import { tableNames } from '../../src/model/table-names.js';
import { planTree } from '../../src/model/tree-plan.js';
import { TreeView } from '../../src/model.js';
import { loadTaskSheet, loadTaskTree, readBranch, saveMetrics } from '../../src/tree.js';
import { useScratchDatabase } from '../support/database.js';
import { insertRow, insertRows, installTables } from './fixture.js';

// A default copied from a date column presets what its column keeps (a DATE as its day, a DATETIME
// as its wall time), which a text metric saves unchanged; the install-time check refuses a metric
// column that cannot hold it.

const scratch = useScratchDatabase('date_defaults', { hostSchema: true });
const names = tableNames();
const live = { ATIVO: 1, DELETED: 0 };
const SCOPE: Scope = { EMPRESA: 8, FILIAL: 1, LOCAL: 1 };
const TABLE = 'app_metrica_data';
const LAYERS = {
  '1': { table: names.OPER_GRUPO, associationTable: names.OPER_OPER_GRUPO },
  '2': { table: names.OPER, isTask: true },
};
const treeView = TreeView.parse({
  layers: LAYERS,
  metricAssociationTable: TABLE,
  metrics: [
    { field: 'METRICA3', default: { type: 'taskSheet', name: 'DATA' } },
    { field: 'METRICA4', default: { type: 'field', name: 'VISTO_DH' } },
  ],
});
const plan = planTree(names, treeView);
const fixture = { sheet: 0, group: 0, oper: 0 };

beforeAll(async () => {
  const { db } = scratch();
  await installTables(db, names);
  await db.execute(`ALTER TABLE ${names.OPER} ADD VISTO_DH datetime NULL`);
  [fixture.sheet = 0] = await insertRows(
    db,
    'app_folha_tarefa',
    [{ ...SCOPE, DATA: '2026-11-20', DELETED: 0 }],
    {
      withId: false,
    },
  );
  fixture.group = await insertRow(db, names.OPER_GRUPO, { ...SCOPE, CODIGO: 'G', ...live });
  [fixture.oper = 0] = await insertRows(db, names.OPER, [
    { ...SCOPE, CODIGO: 'O1', VISTO_DH: '2026-11-19 07:30:00', ...live },
  ]);
  await insertRows(db, names.OPER_OPER_GRUPO, [
    { ...SCOPE, OPER_GRUPO_SEQ_DB: fixture.group, OPER_SEQ_DB: fixture.oper, ...live },
  ]);
  await db.execute(`CREATE TABLE ${TABLE} LIKE ${names.OPER_GRUPO_METRICA}`);
  await db.execute(`ALTER TABLE ${TABLE} ADD METRICA3 varchar(10) NULL, ADD METRICA4 varchar(19) NULL`);
});

const EXPECTED = {
  METRICA3: { value: '2026-11-20', source: 'default' },
  METRICA4: { value: '2026-11-19 07:30:00', source: 'default' },
};

it('presets a DATE as its day and a DATETIME as its wall time, in the tree and the screen', async () => {
  const { db } = scratch();
  const tree = await loadTaskTree(db, { scope: SCOPE, taskSheet: fixture.sheet, plan });
  const task = tree.roots
    .flatMap((root) => (root.kind === 'branch' ? root.children : []))
    .find((node) => node.kind === 'task');
  expect(task?.kind === 'task' ? task.metrics : undefined).toEqual(EXPECTED);
  const branch = await readBranch(db, {
    scope: SCOPE,
    plan,
    parent: { level: 1, id: fixture.group },
    taskSheet: await loadTaskSheet(db, SCOPE, fixture.sheet),
  });
  const node = branch.find((candidate) => candidate.id === fixture.oper);
  expect(node?.kind === 'task' ? node.metrics : undefined).toEqual({
    METRICA3: expect.objectContaining({ value: EXPECTED.METRICA3.value }),
    METRICA4: expect.objectContaining({ value: EXPECTED.METRICA4.value }),
  });
});

it('saves the preset unchanged as the text it shows', async () => {
  const saved = await saveMetrics(scratch().db, {
    scope: SCOPE,
    user: 7,
    taskSheet: fixture.sheet,
    plan,
    entries: [
      {
        activity: fixture.oper,
        group: fixture.group,
        values: { METRICA3: EXPECTED.METRICA3.value, METRICA4: EXPECTED.METRICA4.value },
      },
    ],
  });
  expect(saved.entries[0]?.stored).toEqual({ METRICA3: '2026-11-20', METRICA4: '2026-11-19 07:30:00' });
});

it('refuses at install a copied date its metric column cannot hold', async () => {
  const { db } = scratch();
  await db.execute(`CREATE TABLE app_metrica_curta LIKE ${names.OPER_GRUPO_METRICA}`);
  await db.execute(
    `ALTER TABLE app_metrica_curta ADD METRICA3 varchar(8) NULL, ADD METRICA4 decimal(10,2) NULL`,
  );
  const stored = JSON.stringify({ ...treeView, metricAssociationTable: 'app_metrica_curta' });
  const problems = await checkStoredTreeView(db, stored, { seqDb: 1, names });
  expect(problems).toEqual([
    expect.objectContaining({
      code: 'TREE_VIEW_DEFAULT_UNFIT',
      path: 'metrics.0.default.name',
      message: expect.stringMatching(
        /DATA is date, whose values are 10 characters, longer than the column's 8/,
      ),
    }),
    expect.objectContaining({
      code: 'TREE_VIEW_DEFAULT_UNFIT',
      path: 'metrics.1.default.name',
      message: expect.stringMatching(/VISTO_DH is datetime.*which a decimal column cannot keep/),
    }),
  ]);
  expect(await checkStoredTreeView(db, JSON.stringify(treeView), { seqDb: 1, names })).toEqual([]);
});
