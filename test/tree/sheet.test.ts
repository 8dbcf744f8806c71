import { beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../../src/model/scope.js';
import { tableNames } from '../../src/model/table-names.js';
import { TreeView } from '../../src/model.js';
import {
  createAssociationHandler,
  readPreviousSheet,
  readSheetPage,
  readSheetProgress,
  resolveTreePlan,
} from '../../src/tree.js';
import { useScratchDatabase } from '../support/database.js';
import { createHostTable, insertRow, insertRows, installTables, writeParameters } from './fixture.js';

// The table view's reads (#29): every activity of a sheet with its path, a page at a time; how many
// have values, per node and for the sheet; the values saved on the previous sheet, to copy.
//
// Two sectors over three groups: G2 hangs under both sectors, A1 under G1 and G3. Six keys:
//   North: G1 (A1, A2, A3), G2 (A4)        South: G2 (A4), G3 (A1, A5)

const scratch = useScratchDatabase('sheet_reads', { hostSchema: true });
const names = tableNames();
const live = { ATIVO: 1, DELETED: 0 };
const SCOPE: Scope = { EMPRESA: 8, FILIAL: 1, LOCAL: 1 };
const OTHER: Scope = { EMPRESA: 9, FILIAL: 1, LOCAL: 1 };
const BASE = 'http://host.test/associationtask';
const treeView = TreeView.parse({
  layers: {
    '1': {
      table: 'app_setor',
      associationTable: 'app_setor_n_oper_grupo',
      parentColumn: 'SETOR_SEQ_DB',
      childColumn: 'OPER_GRUPO_SEQ_DB',
      labelColumns: ['NOME'],
    },
    '2': { table: names.OPER_GRUPO, associationTable: names.OPER_OPER_GRUPO },
    '3': { table: names.OPER, isTask: true },
  },
  metrics: [{ field: 'METRICA1' }, { field: 'METRICA2', default: { type: 'value', value: 5 } }],
});
const ids = {
  current: 0,
  previous: 0,
  older: 0,
  later: 0,
  deletedSameDay: 0,
  otherScope: 0,
  north: 0,
  south: 0,
  g1: 0,
  g2: 0,
  g3: 0,
  a: [] as number[],
  orphan: 0,
};

beforeAll(async () => {
  const { db } = scratch();
  await installTables(db, names);
  await createHostTable(db, 'app_setor', ['NOME varchar(50) NULL']);
  await createHostTable(db, 'app_setor_n_oper_grupo', [
    'SETOR_SEQ_DB bigint unsigned NULL',
    'OPER_GRUPO_SEQ_DB bigint unsigned NULL',
  ]);
  await writeParameters(db, SCOPE, { treeView });
  // The sheet being filled first: the previous one is chosen by date, not by SEQ_DB.
  [
    ids.current = 0,
    ids.later = 0,
    ids.previous = 0,
    ids.older = 0,
    ids.deletedSameDay = 0,
    ids.otherScope = 0,
  ] = await insertRows(
    db,
    'app_folha_tarefa',
    [
      { ...SCOPE, DATA: '2026-11-20', ...live },
      { ...SCOPE, DATA: '2026-11-21', ...live },
      { ...SCOPE, DATA: '2026-11-19', ...live },
      { ...SCOPE, DATA: '2026-11-18', ...live },
      { ...SCOPE, DATA: '2026-11-19', ATIVO: 1, DELETED: 1 },
      { ...OTHER, DATA: '2026-11-19', ...live },
    ],
    { withId: false },
  );
  [ids.north = 0, ids.south = 0] = await insertRows(db, 'app_setor', [
    { ...SCOPE, NOME: 'North', ...live },
    { ...SCOPE, NOME: 'South', ...live },
  ]);
  [ids.g1 = 0, ids.g2 = 0, ids.g3 = 0] = await insertRows(db, names.OPER_GRUPO, [
    { ...SCOPE, CODIGO: 'G1', ...live },
    { ...SCOPE, CODIGO: 'G2', ...live },
    { ...SCOPE, CODIGO: 'G3', ...live },
  ]);
  ids.a = await insertRows(
    db,
    names.OPER,
    ['A1', 'A2', 'A3', 'A4', 'A5'].map((code) => ({ ...SCOPE, CODIGO: code, ...live })),
  );
  ids.orphan = await insertRow(db, names.OPER, { ...SCOPE, CODIGO: 'A-ORPHAN', ...live });
  await insertRows(db, 'app_setor_n_oper_grupo', [
    { ...SCOPE, SETOR_SEQ_DB: ids.north, OPER_GRUPO_SEQ_DB: ids.g1, ...live },
    { ...SCOPE, SETOR_SEQ_DB: ids.north, OPER_GRUPO_SEQ_DB: ids.g2, ...live },
    { ...SCOPE, SETOR_SEQ_DB: ids.south, OPER_GRUPO_SEQ_DB: ids.g2, ...live },
    { ...SCOPE, SETOR_SEQ_DB: ids.south, OPER_GRUPO_SEQ_DB: ids.g3, ...live },
  ]);
  const [a1, a2, a3, a4, a5] = ids.a as [number, number, number, number, number];
  await insertRows(db, names.OPER_OPER_GRUPO, [
    { ...SCOPE, OPER_GRUPO_SEQ_DB: ids.g1, OPER_SEQ_DB: a1, ...live },
    { ...SCOPE, OPER_GRUPO_SEQ_DB: ids.g1, OPER_SEQ_DB: a2, ...live },
    { ...SCOPE, OPER_GRUPO_SEQ_DB: ids.g1, OPER_SEQ_DB: a3, ...live },
    { ...SCOPE, OPER_GRUPO_SEQ_DB: ids.g2, OPER_SEQ_DB: a4, ...live },
    { ...SCOPE, OPER_GRUPO_SEQ_DB: ids.g3, OPER_SEQ_DB: a5, ...live },
    { ...SCOPE, OPER_GRUPO_SEQ_DB: ids.g3, OPER_SEQ_DB: a1, ...live },
  ]);
  const saved = (sheet: number, activity: number, group: number, values: Record<string, unknown>) => ({
    ...SCOPE,
    FOLHA_TAREFA_SEQ_DB: sheet,
    OPER_SEQ_DB: activity,
    OPER_GRUPO_SEQ_DB: group,
    ...live,
    // Every row names both columns: a batch insert takes its columns from the first row.
    METRICA1: null,
    METRICA2: null,
    ...values,
  });
  await insertRows(db, names.OPER_GRUPO_METRICA, [
    saved(ids.current, a3, ids.g1, { METRICA1: '4.00' }),
    // Saved empty: a row, but no value: not filled, nothing to copy.
    saved(ids.current, a2, ids.g1, { METRICA1: null, METRICA2: null }),
    saved(ids.previous, a1, ids.g1, { METRICA1: '2.50' }),
    saved(ids.previous, a4, ids.g2, { METRICA2: 3 }),
    saved(ids.previous, a2, ids.g1, { METRICA1: null }),
    // An activity the tree does not show: never copied.
    saved(ids.previous, ids.orphan, ids.g1, { METRICA1: '9.00' }),
    saved(ids.older, a1, ids.g1, { METRICA1: '1.00' }),
    saved(ids.deletedSameDay, a5, ids.g3, { METRICA1: '8.00' }),
  ]);
});

function get(path: string) {
  const handler = createAssociationHandler({
    db: scratch().db,
    context: async (request) => ({
      scope: request.headers.get('x-scope') === 'other' ? OTHER : SCOPE,
      user: 3,
    }),
  });
  return handler(new Request(`${BASE}${path}`));
}

async function getJson(path: string) {
  const response = await get(path);
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json();
}

describe('part=sheet: every activity with its path, a page at a time', () => {
  it('lists each key once, in the tree’s order, with its path, values, sources and whether it is filled', async () => {
    const [a1, a2, a3, a4, a5] = ids.a;
    const page = await getJson(`?taskSheet=${ids.current}&part=sheet`);
    expect(page).toMatchObject({ activities: 6, filled: 1, total: 6, page: 1, size: 500, pages: 1 });
    const north = { level: 1, id: ids.north, label: 'North' };
    const south = { level: 1, id: ids.south, label: 'South' };
    expect(
      page.rows.map((row: { activity: number; group: number; path: { id: number }[] }) => [
        row.activity,
        row.group,
        row.path.map((step) => step.id),
      ]),
    ).toEqual([
      [a1, ids.g1, [north.id, ids.g1]],
      [a2, ids.g1, [north.id, ids.g1]],
      [a3, ids.g1, [north.id, ids.g1]],
      // A4 under G2 is one key, though G2 hangs under both sectors: its first path.
      [a4, ids.g2, [north.id, ids.g2]],
      [a1, ids.g3, [south.id, ids.g3]],
      [a5, ids.g3, [south.id, ids.g3]],
    ]);
    expect(page.rows[2]).toEqual({
      activity: a3,
      level: 3,
      group: ids.g1,
      label: 'A3',
      path: [north, { level: 2, id: ids.g1, label: 'G1' }],
      metrics: {
        METRICA1: { value: '4.00', source: 'saved' },
        METRICA2: { value: null, source: 'saved' },
      },
      editable: true,
      lastChange: { user: 1, at: expect.any(String) },
      filled: true,
    });
    // A default is not a value: A1 shows METRICA2's default and counts as empty.
    expect(page.rows[0]).toMatchObject({
      metrics: { METRICA1: { value: null, source: 'none' }, METRICA2: { value: 5, source: 'default:value' } },
      filled: false,
    });
  });

  it('pages by size and filters the activities still without values', async () => {
    const second = await getJson(`?taskSheet=${ids.current}&part=sheet&page=2&size=4`);
    expect(second).toMatchObject({ total: 6, page: 2, size: 4, pages: 2 });
    expect(second.rows).toHaveLength(2);
    const empty = await getJson(`?taskSheet=${ids.current}&part=sheet&filter=empty&size=2&page=3`);
    expect(empty).toMatchObject({ activities: 6, filled: 1, total: 5, pages: 3 });
    expect(empty.rows.map((row: { activity: number }) => row.activity)).toEqual([ids.a[4]]);
    expect((await getJson(`?taskSheet=${ids.current}&part=sheet&page=9`)).rows).toEqual([]);
  });

  it.each([
    ['size=0', 'size'],
    ['size=1001', 'size'],
    ['size=ten', 'size'],
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=10000', 'page'],
    ['filter=full', 'filter'],
    ['from=3', 'from'],
  ])('refuses %s with 400 at its parameter', async (parameter, path) => {
    const response = await get(`?taskSheet=${ids.current}&part=sheet&${parameter}`);
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatchObject({ path });
  });

  it('checks a library caller’s options as the handler does', async () => {
    const plan = await resolveTreePlan(scratch().db, SCOPE);
    await expect(
      readSheetPage(scratch().db, { scope: SCOPE, taskSheet: ids.current, plan, size: 5000 }),
    ).rejects.toMatchObject({ code: 'INVALID_REQUEST', path: 'size' });
    // The same pages as the query's four digits: 10000 was the library's alone.
    await expect(
      readSheetPage(scratch().db, { scope: SCOPE, taskSheet: ids.current, plan, page: 10_000 }),
    ).rejects.toMatchObject({ code: 'INVALID_REQUEST', path: 'page' });
    await expect(
      readSheetPage(scratch().db, { scope: SCOPE, taskSheet: ids.current, plan, page: 9_999 }),
    ).resolves.toMatchObject({ rows: [] });
    await expect(
      readSheetPage(scratch().db, { scope: OTHER, taskSheet: ids.current, plan }),
    ).rejects.toMatchObject({ code: 'TASK_SHEET_NOT_FOUND' });
  });
});

describe('part=progress: "12 of 30", per node and for the sheet', () => {
  it('counts each key below a node once, a saved empty row and a default as no value', async () => {
    const progress = await getJson(`?taskSheet=${ids.current}&part=progress`);
    expect(progress.activities).toBe(6);
    expect(progress.filled).toBe(1);
    expect(
      new Map(
        progress.nodes.map((node: { id: number; level: number }) => [`${node.level}:${node.id}`, node]),
      ),
    ).toEqual(
      new Map([
        [`1:${ids.north}`, { level: 1, id: ids.north, activities: 4, filled: 1 }],
        [`1:${ids.south}`, { level: 1, id: ids.south, activities: 3, filled: 0 }],
        [`2:${ids.g1}`, { level: 2, id: ids.g1, activities: 3, filled: 1 }],
        [`2:${ids.g2}`, { level: 2, id: ids.g2, activities: 1, filled: 0 }],
        [`2:${ids.g3}`, { level: 2, id: ids.g3, activities: 2, filled: 0 }],
      ]),
    );
    expect(await readSheetProgress(scratch().db, { scope: SCOPE, taskSheet: ids.previous })).toMatchObject({
      activities: 6,
      filled: 2,
    });
  });

  it('reads no other parameter, and is 404 for a sheet of another scope', async () => {
    const extra = await get(`?taskSheet=${ids.current}&part=progress&page=1`);
    expect(extra.status).toBe(400);
    expect((await extra.json()).error).toMatchObject({ code: 'UNKNOWN_QUERY_PARAMETER', path: 'page' });
    expect((await get(`?taskSheet=${ids.otherScope}&part=progress`)).status).toBe(404);
  });
});

describe('part=previous: the values saved on the previous sheet, to copy', () => {
  it('takes the closest earlier live sheet of the scope by its DATA column, and only activities the tree shows', async () => {
    const [a1, , , a4] = ids.a;
    expect(await getJson(`?taskSheet=${ids.current}&part=previous`)).toEqual({
      taskSheet: ids.current,
      from: { id: ids.previous, date: '2026-11-19' },
      dateColumn: 'DATA',
      entries: [
        { activity: a1, group: ids.g1, values: { METRICA1: '2.50' } },
        { activity: a4, group: ids.g2, values: { METRICA2: 3 } },
      ],
    });
    // The day after: the current sheet is its previous one.
    expect((await getJson(`?taskSheet=${ids.later}&part=previous`)).from).toEqual({
      id: ids.current,
      date: '2026-11-20',
    });
  });

  it('copies from the sheet the caller names, and answers from: null before the first sheet', async () => {
    expect(
      await readPreviousSheet(scratch().db, { scope: SCOPE, taskSheet: ids.current, from: ids.older }),
    ).toMatchObject({
      from: { id: ids.older, date: '2026-11-18' },
      entries: [{ activity: ids.a[0], group: ids.g1, values: { METRICA1: '1.00' } }],
    });
    expect(await getJson(`?taskSheet=${ids.older}&part=previous`)).toEqual({
      taskSheet: ids.older,
      from: null,
      dateColumn: 'DATA',
      entries: [],
    });
  });

  it('is 404 at from for a sheet of another scope or deleted, 400 for the sheet itself or not a SEQ_DB', async () => {
    for (const from of [ids.otherScope, ids.deletedSameDay, 999_999]) {
      const response = await get(`?taskSheet=${ids.current}&part=previous&from=${from}`);
      expect(response.status).toBe(404);
      expect((await response.json()).error).toMatchObject({ code: 'TASK_SHEET_NOT_FOUND', path: 'from' });
    }
    for (const from of [String(ids.current), 'x', '0', '1%20OR%201']) {
      const response = await get(`?taskSheet=${ids.current}&part=previous&from=${from}`);
      expect(response.status, from).toBe(400);
      expect((await response.json()).error).toMatchObject({ path: 'from' });
    }
    // The sheet itself of another scope: 404 at taskSheet, before anything is copied.
    const foreign = await get(`?taskSheet=${ids.otherScope}&part=previous`);
    expect(foreign.status).toBe(404);
    expect((await foreign.json()).error).toMatchObject({ path: 'taskSheet' });
  });
});
