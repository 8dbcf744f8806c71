import { beforeAll, expect, it } from 'vitest';
import type { Scope } from '../../src/model/scope.js';
import { tableNames } from '../../src/model/table-names.js';
import { planTree } from '../../src/model/tree-plan.js';
import { TreeView } from '../../src/model.js';
import { loadTaskTree, readBranch, readMetricHistory, saveMetrics } from '../../src/tree.js';
import { useScratchDatabase } from '../support/database.js';
import { insertGroupSheet, installTables } from './fixture.js';

// A FLOAT metric is one single-precision number: a value that is another one is written (its 7th
// digit too), another person's such change is a conflict, and what the tree, the screen and the
// save's answer give is the value the next save sends as its base.

const scratch = useScratchDatabase('float_metrics', { hostSchema: true });
const names = tableNames();
const SCOPE: Scope = { EMPRESA: 8, FILIAL: 1, LOCAL: 1 };
const TABLE = 'app_metrica_float';
const plan = planTree(
  names,
  TreeView.parse({
    layers: {
      '1': { table: names.OPER_GRUPO, associationTable: names.OPER_OPER_GRUPO },
      '2': { table: names.OPER, isTask: true },
    },
    metricAssociationTable: TABLE,
    metrics: [{ field: 'METRICA3' }],
  }),
);
const fixture = { sheet: 0, group: 0, opers: [] as number[] };
let next = 0;
const key = () => ({ activity: fixture.opers[next++] ?? 0, group: fixture.group });

beforeAll(async () => {
  const { db } = scratch();
  await installTables(db, names);
  Object.assign(fixture, await insertGroupSheet(db, names, SCOPE, 8));
  await db.execute(`CREATE TABLE ${TABLE} LIKE ${names.OPER_GRUPO_METRICA}`);
  await db.execute(`ALTER TABLE ${TABLE} ADD METRICA3 float NULL`);
});

type Key = { activity: number; group: number };

const save = (at: Key, value: number, base?: number | null) =>
  saveMetrics(scratch().db, {
    scope: SCOPE,
    user: 7,
    taskSheet: fixture.sheet,
    plan,
    entries: [
      { ...at, values: { METRICA3: value }, ...(base === undefined ? {} : { base: { METRICA3: base } }) },
    ],
  });

/** What the row holds, every bit (`+ 0` reads it as a DOUBLE). */
async function held(at: Key): Promise<number | undefined> {
  const [row] = await scratch().db.query<{ v: number }>(
    `SELECT METRICA3 + 0 AS v FROM ${TABLE} WHERE OPER_SEQ_DB = ? AND DELETED = 0`,
    [at.activity],
  );
  return row?.v;
}

/** The value the tree and the screen's branch give of the key: the base a page sends. */
async function shown(at: Key) {
  const tree = await loadTaskTree(scratch().db, { scope: SCOPE, taskSheet: fixture.sheet, plan });
  const task = tree.roots
    .flatMap((root) => (root.kind === 'branch' ? root.children : []))
    .find((node) => node.kind === 'task' && node.seqDb === at.activity);
  const branch = await readBranch(scratch().db, {
    scope: SCOPE,
    plan,
    parent: { level: 1, id: fixture.group },
    taskSheet: tree.taskSheet,
  });
  const node = branch.find((candidate) => candidate.id === at.activity);
  return {
    tree: task?.kind === 'task' ? task.metrics.METRICA3?.value : undefined,
    screen: node?.kind === 'task' ? node.metrics?.METRICA3?.value : undefined,
  };
}

it('inserts and updates a 7th digit alike, answering what the tree and the screen then read', async () => {
  const inserted = key();
  const first = await save(inserted, 1000001);
  expect(first.entries[0]?.stored).toEqual({ METRICA3: 1000001 });
  expect(await held(inserted)).toBe(1000001);
  expect(await shown(inserted)).toEqual({ tree: 1000001, screen: 1000001 });

  const updated = key();
  const stored = (await save(updated, 1000000)).entries[0]?.stored?.METRICA3 as number;
  expect(stored).toBe(1000000);
  const corrected = await save(updated, 1000001, stored);
  expect(corrected).toMatchObject({ updated: 1, unchanged: 0, entries: [{ stored: { METRICA3: 1000001 } }] });
  expect(await held(updated)).toBe(1000001);
  expect(await shown(updated)).toEqual({ tree: 1000001, screen: 1000001 });

  // 100000 to 100000.4 (a FLOAT holds 100000.3984375): written, and given back as 100000.4.
  const fraction = await save(updated, 100000.4, 1000001);
  expect(fraction).toMatchObject({ updated: 1, entries: [{ stored: { METRICA3: 100000.4 } }] });
  expect(await held(updated)).toBe(Math.fround(100000.4));
  expect(await shown(updated)).toEqual({ tree: 100000.4, screen: 100000.4 });
  const history = await readMetricHistory(scratch().db, {
    scope: SCOPE,
    taskSheet: fixture.sheet,
    ...updated,
    plan,
  });
  expect(
    history.map((change) => `${change.action}: ${change.oldValue} -> ${change.newValue}`).reverse(),
  ).toEqual(['insert: null -> 1000000', 'update: 1000000 -> 1000001', 'update: 1000001 -> 100000.4']);
});

it('re-saves the value it read, unchanged, with that value as the base', async () => {
  const at = key();
  await save(at, 1234.567);
  const { tree } = await shown(at);
  expect(tree).toBe(1234.567);
  await expect(save(at, tree as number, tree as number)).resolves.toMatchObject({ updated: 0, unchanged: 1 });
  // The same single-precision number written otherwise is the same value.
  await expect(save(at, 1234.5670166015625, tree as number)).resolves.toMatchObject({ unchanged: 1 });
});

it('refuses a save whose base is the value before another person’s 7th-digit change (409)', async () => {
  const at = key();
  const mine = (await save(at, 1000000)).entries[0]?.stored?.METRICA3 as number;
  // Another person corrects the 7th digit with the right base.
  await expect(save(at, 1000001, mine)).resolves.toMatchObject({ updated: 1 });
  // This page still holds 1000000 and saves another value over it.
  await expect(save(at, 5, mine)).rejects.toMatchObject({
    code: 'METRIC_CONFLICT',
    status: 409,
    conflicts: [expect.objectContaining({ base: 1000000, theirs: 1000001, yours: 5 })],
  });
  expect(await held(at)).toBe(1000001);
  // Another 7th digit after the point: 100000.4 over 100000.
  const later = key();
  await save(later, 100000);
  await save(later, 100000.4, 100000);
  await expect(save(later, 7, 100000)).rejects.toMatchObject({ code: 'METRIC_CONFLICT', status: 409 });
});
