import { beforeAll, expect, it } from 'vitest';
import type { Scope } from '../../src/model/scope.js';
import { tableNames } from '../../src/model/table-names.js';
import { planTree } from '../../src/model/tree-plan.js';
import { TreeView } from '../../src/model.js';
import { loadTaskTree, readMetricHistory, saveMetrics } from '../../src/tree.js';
import { useScratchDatabase } from '../support/database.js';
import { insertRow, insertRows, installTables } from './fixture.js';

// A remove records the changes it makes: a field the row held goes to no entry; a NULL field was
// nothing and stays nothing. A row saved empty is still a change (saved empty to no entry).

const scratch = useScratchDatabase('remove_history', { hostSchema: true });
const names = tableNames();
const live = { ATIVO: 1, DELETED: 0 };
const SCOPE: Scope = { EMPRESA: 8, FILIAL: 1, LOCAL: 1 };
const plan = planTree(
  names,
  TreeView.parse({
    layers: {
      '1': { table: names.OPER_GRUPO, associationTable: names.OPER_OPER_GRUPO },
      '2': { table: names.OPER, isTask: true },
    },
    metrics: [{ field: 'METRICA1' }, { field: 'METRICA2', default: { type: 'value', value: 3 } }],
  }),
);
const fixture = { sheet: 0, group: 0, opers: [] as number[] };

beforeAll(async () => {
  const { db } = scratch();
  await installTables(db, names);
  [fixture.sheet = 0] = await insertRows(db, 'app_folha_tarefa', [{ ...SCOPE, DELETED: 0 }], {
    withId: false,
  });
  fixture.group = await insertRow(db, names.OPER_GRUPO, { ...SCOPE, CODIGO: 'G1', ...live });
  fixture.opers = await insertRows(db, names.OPER, [
    { ...SCOPE, CODIGO: 'A1', ...live },
    { ...SCOPE, CODIGO: 'A2', ...live },
  ]);
  await insertRows(
    db,
    names.OPER_OPER_GRUPO,
    fixture.opers.map((oper) => ({ ...SCOPE, OPER_GRUPO_SEQ_DB: fixture.group, OPER_SEQ_DB: oper, ...live })),
  );
});

const save = (entries: Parameters<typeof saveMetrics>[1]['entries']) =>
  saveMetrics(scratch().db, { scope: SCOPE, user: 7, taskSheet: fixture.sheet, plan, entries });

async function historyOf(activity: number) {
  const changes = await readMetricHistory(scratch().db, {
    scope: SCOPE,
    taskSheet: fixture.sheet,
    activity,
    group: fixture.group,
    plan,
  });
  return changes
    .map((change) => `${change.action} ${change.field}: ${change.oldValue} -> ${change.newValue}`)
    .reverse();
}

it('records a remove only for the fields the row held (METRICA2 was never set)', async () => {
  const key = { activity: fixture.opers[0] ?? 0, group: fixture.group };
  await save([{ ...key, values: { METRICA1: '2.50' } }]);
  await save([{ ...key, remove: true, base: { METRICA1: '2.50', METRICA2: null } }]);
  expect(await historyOf(key.activity)).toEqual([
    'insert METRICA1: null -> 2.50',
    'remove METRICA1: 2.50 -> null',
  ]);
});

it('records the remove of a row saved empty as one row, the first metric’s, null to null', async () => {
  const key = { activity: fixture.opers[1] ?? 0, group: fixture.group };
  await save([{ ...key, values: { METRICA1: null, METRICA2: null } }]);
  // Saved empty: the default of METRICA2 does not apply while the row lives.
  const shown = async () => {
    const tree = await loadTaskTree(scratch().db, { scope: SCOPE, taskSheet: fixture.sheet, plan });
    const task = tree.roots
      .flatMap((root) => (root.kind === 'branch' ? root.children : []))
      .find((node) => node.kind === 'task' && node.seqDb === key.activity);
    return task?.kind === 'task' ? task.metrics.METRICA2 : undefined;
  };
  expect(await shown()).toEqual({ value: null, source: 'saved' });
  await save([{ ...key, remove: true, base: { METRICA1: null, METRICA2: null } }]);
  expect(await shown()).toEqual({ value: 3, source: 'default' });
  expect(await historyOf(key.activity)).toEqual([
    'insert METRICA1: null -> null',
    'insert METRICA2: null -> null',
    'remove METRICA1: null -> null',
  ]);
});
