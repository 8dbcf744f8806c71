import mysql from 'mysql2/promise';
import { beforeAll, describe, expect, it } from 'vitest';
import { ownerKey } from '../../src/http/owner-key.js';
import type { Scope } from '../../src/model/scope.js';
import { tableNames } from '../../src/model/table-names.js';
import { TreeView } from '../../src/model.js';
import type { Database, SqlExecutor } from '../../src/store/driver.js';
import { createPlanMemo } from '../../src/tree/plan-memo.js';
import { loadTaskSheet } from '../../src/tree/task-sheet.js';
import {
  createAssociationHandler,
  loadTaskTree,
  readBranch,
  readMetricHistory,
  readPreviousSheet,
  readScreenStart,
  readSheetPage,
  readSheetProgress,
  resolveTreePlan,
  saveMetrics,
  searchTree,
} from '../../src/tree.js';
import { useScratchDatabase } from '../support/database.js';
import {
  createHostTable,
  insertRow,
  insertRows,
  installTables,
  SCOPE_A,
  SCOPE_B,
  writeParameters,
} from './fixture.js';

// Scope A: the default tree (groups nested in groups, activities below). Scope B: a three-level
// TREE_VIEW (sectors, groups, activities) with label columns, header columns, a metric table of the
// host's and one default of each kind.
const scratch = useScratchDatabase('resolvers_screen', { hostSchema: true });
const names = tableNames();
const live = { ATIVO: 1, DELETED: 0 };
const BASE = 'http://host.test/associationtask';
const ids = {
  sheetA: 0,
  sheetB: 0,
  root: 0,
  middle: 0,
  leaf: 0,
  emptyGroup: 0,
  retired: 0,
  underRetired: 0,
  deep: 0,
  plain: 0,
  sector: 0,
  groupB: 0,
  seeding: 0,
  locked: 0,
};

const treeViewB = TreeView.parse({
  layers: {
    '1': {
      table: 'app_setor',
      associationTable: 'app_setor_n_oper_grupo',
      parentColumn: 'SETOR_SEQ_DB',
      childColumn: 'OPER_GRUPO_SEQ_DB',
      labelColumns: ['NOME'],
    },
    '2': { table: names.OPER_GRUPO, associationTable: names.OPER_OPER_GRUPO },
    '3': { table: names.OPER, isTask: true, labelColumns: ['DESCRICAO', 'CODIGO'] },
  },
  metricAssociationTable: 'app_metrica',
  metrics: [
    { field: 'QTD', label: 'Quantidade', default: { type: 'field', name: 'INDICE' } },
    { field: 'PESSOAS', label: 'Pessoas', default: { type: 'taskSheet', name: 'QTD_PESSOAS' } },
    { field: 'HORAS', label: 'Horas', default: { type: 'value', value: '8.0' } },
  ],
  // `data` in another case than the table's DATA: the same column, shown under the table's name.
  taskSheetColumns: ['SEQ_DB', { column: 'TALHAO', label: 'Talhão' }, 'data'],
});

/** Runs `work` while an activity's metric row on sheet B is soft-deleted, as removing its entry does. */
async function withoutSavedRow(activity: number, work: () => Promise<void>): Promise<void> {
  const { db } = scratch();
  const flag = (deleted: number) =>
    db.execute('UPDATE app_metrica SET DELETED = ? WHERE OPER_SEQ_DB = ? AND FOLHA_TAREFA_SEQ_DB = ?', [
      deleted,
      activity,
      ids.sheetB,
    ]);
  await flag(1);
  try {
    await work();
  } finally {
    await flag(0);
  }
}

function handler(db: Database = scratch().db) {
  return createAssociationHandler({
    db,
    context: async (request) => ({
      scope: (request.headers.get('x-session') === 'b' ? SCOPE_B : SCOPE_A) as Scope,
      user: 77,
    }),
  });
}

async function get(path: string, session = 'a') {
  return handler()(new Request(`${BASE}${path}`, { headers: { 'x-session': session } }));
}

async function getJson(path: string, session = 'a') {
  const response = await get(path, session);
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json();
}

beforeAll(async () => {
  const { db } = scratch();
  await installTables(db, names);
  // A time of day the sheet started at, as hosts keep one beside the day.
  await db.execute('ALTER TABLE app_folha_tarefa ADD INICIO DATETIME NULL');
  [ids.sheetA, ids.sheetB] = (await insertRows(
    db,
    'app_folha_tarefa',
    [
      {
        ...SCOPE_A,
        DATA: '2026-11-20',
        INICIO: '2026-11-20 07:30:00',
        TALHAO: 'T-07',
        QTD_PESSOAS: 6,
        DELETED: 0,
      },
      { ...SCOPE_B, DATA: '2026-11-21', TALHAO: 'T-09', QTD_PESSOAS: 4, DELETED: 0 },
    ],
    { withId: false },
  )) as [number, number];
  const group = (code: string, description: string, parent: number | null, scope = SCOPE_A) =>
    insertRow(db, names.OPER_GRUPO, {
      ...scope,
      CODIGO: code,
      DESCRICAO: description,
      OPER_GRUPO_SEQ_DB: parent,
      ...live,
    });
  const oper = (code: string, description: string, index: string, scope = SCOPE_A) =>
    insertRow(db, names.OPER, { ...scope, CODIGO: code, DESCRICAO: description, INDICE: index, ...live });
  const link = (groupId: number, operId: number, scope = SCOPE_A) =>
    insertRow(db, names.OPER_OPER_GRUPO, {
      ...scope,
      OPER_GRUPO_SEQ_DB: groupId,
      OPER_SEQ_DB: operId,
      ...live,
    });

  ids.root = await group('G-1', 'Soil', null);
  ids.middle = await group('G-1.1', 'Ploughing', ids.root);
  ids.leaf = await group('G-1.1.1', 'Deep ploughing', ids.middle);
  ids.emptyGroup = await group('G-2', 'Nothing yet', null);
  ids.retired = await insertRow(db, names.OPER_GRUPO, {
    ...SCOPE_A,
    CODIGO: 'G-3',
    DESCRICAO: 'Retired',
    OPER_GRUPO_SEQ_DB: null,
    ATIVO: 1,
    DELETED: 1,
  });
  ids.underRetired = await group('G-3.1', 'Below a deleted group', ids.retired);
  await group('G-3.1.1', 'Further below', ids.underRetired);
  ids.deep = await oper('A-DEEP', 'Subsoiler pass', '1.25');
  ids.plain = await oper('A-DISC', 'Disc harrow', '0.80');
  const deleted = await insertRow(db, names.OPER, { ...SCOPE_A, CODIGO: 'A-GONE', ATIVO: 1, DELETED: 1 });
  await link(ids.leaf, ids.deep);
  await link(ids.root, ids.plain);
  await link(ids.root, deleted);
  await insertRow(db, names.OPER_GRUPO_METRICA, {
    ...SCOPE_A,
    OPER_SEQ_DB: ids.plain,
    OPER_GRUPO_SEQ_DB: ids.root,
    FOLHA_TAREFA_SEQ_DB: ids.sheetA,
    METRICA1: '2.50',
    RO: 1,
    ...live,
  });

  await createHostTable(db, 'app_setor', ['NOME varchar(50) NULL']);
  await createHostTable(db, 'app_setor_n_oper_grupo', [
    'SETOR_SEQ_DB bigint unsigned NULL',
    'OPER_GRUPO_SEQ_DB bigint unsigned NULL',
  ]);
  await createHostTable(db, 'app_metrica', [
    'OPER_SEQ_DB bigint unsigned NULL',
    'OPER_GRUPO_SEQ_DB bigint unsigned NULL',
    'FOLHA_TAREFA_SEQ_DB bigint unsigned NULL',
    'QTD decimal(10,2) NULL',
    'PESSOAS int NULL',
    'HORAS decimal(4,1) NULL',
  ]);
  await writeParameters(db, SCOPE_B, { treeView: treeViewB });
  ids.sector = await insertRow(db, 'app_setor', { ...SCOPE_B, NOME: 'North field', ...live });
  ids.groupB = await group('G-PLANT', 'Planting', null, SCOPE_B);
  ids.seeding = await oper('A-SEED', 'Seeding', '2.00', SCOPE_B);
  ids.locked = await oper('A-FERT', 'Fertilising', '1.10', SCOPE_B);
  await insertRow(db, 'app_setor_n_oper_grupo', {
    ...SCOPE_B,
    SETOR_SEQ_DB: ids.sector,
    OPER_GRUPO_SEQ_DB: ids.groupB,
    ...live,
  });
  await link(ids.groupB, ids.seeding, SCOPE_B);
  await link(ids.groupB, ids.locked, SCOPE_B);
  await insertRow(db, 'app_metrica', {
    ...SCOPE_B,
    OPER_SEQ_DB: ids.seeding,
    OPER_GRUPO_SEQ_DB: ids.groupB,
    FOLHA_TAREFA_SEQ_DB: ids.sheetB,
    QTD: '3.50',
    ...live,
  });
  await insertRow(db, 'app_metrica', {
    ...SCOPE_B,
    OPER_SEQ_DB: ids.locked,
    OPER_GRUPO_SEQ_DB: ids.groupB,
    FOLHA_TAREFA_SEQ_DB: ids.sheetB,
    PESSOAS: 2,
    ATIVO: 0,
    DELETED: 0,
  });
});

describe('part=start: what the screen paints first', () => {
  it('gives a DATE column its calendar day in a process west of UTC (it gave the day before)', async () => {
    const zone = process.env.TZ;
    process.env.TZ = 'America/Sao_Paulo';
    try {
      expect(new Date(Date.UTC(2026, 10, 20)).getDate()).toBe(19);
      const { taskSheet } = await getJson(`?taskSheet=${ids.sheetA}&part=start`);
      expect(taskSheet.columns).toContainEqual({ name: 'DATA', value: '2026-11-20', dataType: 'date' });
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it('gives the header (SEQ_DB and the date column by default), the metric columns typed by the database, and the roots', async () => {
    expect(await getJson(`?taskSheet=${ids.sheetA}&part=start`)).toEqual({
      // The key the screen files its offline entries under: this session's user and scope (#28).
      owner: ownerKey(SCOPE_A, 77),
      // The session's user: the screen names that user's changes "you".
      user: 77,
      taskSheet: {
        id: ids.sheetA,
        columns: [
          { name: 'SEQ_DB', value: String(ids.sheetA), dataType: 'bigint' },
          { name: 'DATA', value: '2026-11-20', dataType: 'date' },
          // Its wall time, as the database keeps it and as defaults copy it: it was sent as an ISO
          // instant in UTC ("2026-11-20T07:30:00.000Z"), shown as such.
          { name: 'INICIO', value: '2026-11-20 07:30:00', dataType: 'datetime' },
        ],
      },
      metrics: [
        {
          field: 'METRICA1',
          label: 'METRICA1',
          dataType: 'decimal',
          unsigned: false,
          nullable: true,
          precision: 10,
          scale: 2,
          maxLength: null,
        },
        {
          field: 'METRICA2',
          label: 'METRICA2',
          dataType: 'int',
          unsigned: false,
          nullable: true,
          precision: 10,
          scale: 0,
          maxLength: null,
        },
      ],
      levels: 2,
      nodes: [
        { id: ids.root, level: 1, label: 'G-1 — Soil', hasChildren: true, kind: 'branch' },
        { id: ids.emptyGroup, level: 1, label: 'G-2 — Nothing yet', hasChildren: false, kind: 'branch' },
      ],
    });
  });

  it('uses the TREE_VIEW header columns and label columns when it names them', async () => {
    const start = await getJson(`?taskSheet=${ids.sheetB}&part=start`, 'b');
    expect(start.taskSheet.columns).toEqual([
      { name: 'SEQ_DB', value: String(ids.sheetB), dataType: 'bigint' },
      { name: 'TALHAO', label: 'Talhão', value: 'T-09', dataType: 'varchar' },
      { name: 'DATA', value: '2026-11-21', dataType: 'date' },
    ]);
    expect(start.metrics.map((m: { label: string; dataType: string }) => [m.label, m.dataType])).toEqual([
      ['Quantidade', 'decimal'],
      ['Pessoas', 'int'],
      ['Horas', 'decimal'],
    ]);
    expect(start.nodes).toEqual([
      { id: ids.sector, level: 1, label: 'North field', hasChildren: true, kind: 'branch' },
    ]);
  });

  it('answers 404 for an unknown task sheet and one of another scope', async () => {
    for (const sheet of [999_999, ids.sheetB]) {
      const response = await get(`?taskSheet=${sheet}&part=start`);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ error: { code: 'TASK_SHEET_NOT_FOUND' } });
    }
  });
});

describe('part=children: one branch at a time', () => {
  it('lists nested groups, then the activities linked to the node, live ones only, with metrics and their sources', async () => {
    const { nodes } = await getJson(`?taskSheet=${ids.sheetA}&part=children&level=1&node=${ids.root}`);
    expect(nodes).toEqual([
      { id: ids.middle, level: 1, label: 'G-1.1 — Ploughing', hasChildren: true, kind: 'branch' },
      {
        id: ids.plain,
        level: 2,
        label: 'A-DISC — Disc harrow',
        hasChildren: false,
        kind: 'task',
        group: ids.root,
        // The key has a row: METRICA2 is saved empty, not "none".
        metrics: { METRICA1: { value: '2.50', source: 'saved' }, METRICA2: { value: null, source: 'saved' } },
        editable: false,
        lastChange: { user: 1, at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
      },
    ]);
  });

  it('shows a saved row as it is (NULL as saved empty), an inactive one read-only, and each default kind only where the key has no row', async () => {
    const level2 = await getJson(`?taskSheet=${ids.sheetB}&part=children&level=1&node=${ids.sector}`, 'b');
    expect(level2.nodes).toEqual([
      { id: ids.groupB, level: 2, label: 'G-PLANT — Planting', hasChildren: true, kind: 'branch' },
    ]);
    const { nodes } = await getJson(`?taskSheet=${ids.sheetB}&part=children&level=2&node=${ids.groupB}`, 'b');
    expect(nodes).toEqual([
      {
        id: ids.locked,
        level: 3,
        label: 'Fertilising — A-FERT',
        hasChildren: false,
        kind: 'task',
        group: ids.groupB,
        metrics: {
          QTD: { value: null, source: 'saved' },
          PESSOAS: { value: 2, source: 'saved' },
          HORAS: { value: null, source: 'saved' },
        },
        editable: false,
        lastChange: { user: 1, at: expect.any(String) },
      },
      {
        id: ids.seeding,
        level: 3,
        label: 'Seeding — A-SEED',
        hasChildren: false,
        kind: 'task',
        group: ids.groupB,
        metrics: {
          QTD: { value: '3.50', source: 'saved' },
          PESSOAS: { value: null, source: 'saved' },
          HORAS: { value: null, source: 'saved' },
        },
        editable: true,
        lastChange: { user: 1, at: expect.any(String) },
      },
    ]);
    // Its row removed (soft-deleted), the key is preset by each kind of default again.
    await withoutSavedRow(ids.seeding, async () => {
      const { nodes: after } = await getJson(
        `?taskSheet=${ids.sheetB}&part=children&level=2&node=${ids.groupB}`,
        'b',
      );
      expect(after.find((node: { id: number }) => node.id === ids.seeding)).toMatchObject({
        metrics: {
          QTD: { value: '2.00', source: 'default:field' },
          PESSOAS: { value: 4, source: 'default:taskSheet' },
          HORAS: { value: '8.0', source: 'default:value' },
        },
        editable: true,
        lastChange: null,
      });
    });
  });

  it('answers 404 for a node of the second level whose link to a shown node is deleted', async () => {
    const { db } = scratch();
    const unlinked = await insertRow(db, names.OPER_GRUPO, {
      ...SCOPE_B,
      CODIGO: 'G-LOOSE',
      OPER_GRUPO_SEQ_DB: null,
      ...live,
    });
    await insertRow(db, 'app_setor_n_oper_grupo', {
      ...SCOPE_B,
      SETOR_SEQ_DB: ids.sector,
      OPER_GRUPO_SEQ_DB: unlinked,
      ATIVO: 1,
      DELETED: 1,
    });
    const response = await get(`?taskSheet=${ids.sheetB}&part=children&level=2&node=${unlinked}`, 'b');
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: 'NODE_NOT_FOUND', path: 'node' } });
  });

  it('gives an empty list for a leaf', async () => {
    expect(await getJson(`?taskSheet=${ids.sheetA}&part=children&level=1&node=${ids.emptyGroup}`)).toEqual({
      nodes: [],
    });
  });

  it.each([
    ['a node of another scope', () => ids.groupB],
    ['a node that does not exist', () => 999_999],
    ['a deleted node', () => ids.retired],
    ['a live node below a deleted one', () => ids.underRetired],
  ])('answers 404 at node for %s, listing none of its children', async (_, node) => {
    const response = await get(`?taskSheet=${ids.sheetA}&part=children&level=1&node=${node()}`);
    expect(response.status).toBe(404);
    const body = await response.json();
    expect(body).toEqual({
      error: {
        code: 'NODE_NOT_FOUND',
        path: 'node',
        message: expect.stringMatching(new RegExp(`^node ${node()} of level 1 is not in the tree of scope `)),
      },
    });
  });

  it.each([
    ['a level without a node', '&part=children&level=1', 'node'],
    ['a node without a level', '&part=children&node=5', 'level'],
    ['a level the tree lacks', '&part=children&level=9&node=5', 'level'],
    ['a node that is not a number', '&part=children&level=1&node=5x', 'node'],
    ['an unknown part', '&part=everything', 'part'],
    ['a search without text', '&part=search&q=%20', 'q'],
  ])('answers 400 at its parameter for %s', async (_, query, path) => {
    const response = await get(`?taskSheet=${ids.sheetA}${query}`);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'INVALID_REQUEST', path } });
  });
});

describe('the reads of one expand', () => {
  it('are two statements, each narrowed by the parent node through its association, never the whole scope or task sheet', async () => {
    const { db } = scratch();
    const statements: { sql: string; params: readonly unknown[] }[] = [];
    const recording: SqlExecutor = {
      query: (sql, params = []) => {
        statements.push({ sql, params });
        return db.query(sql, params);
      },
      execute: (sql, params) => db.execute(sql, params),
    };
    const plan = await resolveTreePlan(db, SCOPE_B);
    const taskSheet = await loadTaskSheet(db, SCOPE_B, ids.sheetB);
    const nodes = await readBranch(recording, {
      scope: SCOPE_B,
      plan,
      parent: { level: 2, id: ids.groupB },
      taskSheet,
    });
    expect(nodes.map((node) => node.id)).toEqual([ids.locked, ids.seeding]);
    // The activities and their saved metrics, both through the parent's association; then whether the
    // tree shows the parent: its own links up (found by the parent), then the sector they lead to;
    // and the metric columns' types (a FLOAT is given as its shortest decimal).
    expect(statements).toHaveLength(5);
    const types = statements.filter((statement) => statement.sql.includes('information_schema'));
    expect(types).toHaveLength(1);
    const own = statements.filter((statement) => !types.includes(statement));
    const [links, sectors] = own.filter((statement) => statement.sql.includes(' IN ('));
    const [children, saved] = own.filter((statement) => !statement.sql.includes(' IN ('));
    for (const statement of [children, saved]) {
      expect(statement?.sql).toContain('a.`OPER_GRUPO_SEQ_DB` = ?');
      expect(statement?.params).toContain(ids.groupB);
    }
    expect(links?.sql).toMatch(/a\.`OPER_GRUPO_SEQ_DB` IN \(\?\)/);
    expect(links?.params.at(-1)).toBe(ids.groupB);
    expect(sectors?.sql).toMatch(/t\.SEQ_DB IN \(\?\)/);
    expect(sectors?.params.at(-1)).toBe(ids.sector);
  });
});

describe('one handler, many requests', () => {
  const expand = (serve: (request: Request) => Promise<Response>) =>
    serve(
      new Request(`${BASE}?taskSheet=${ids.sheetB}&part=children&level=2&node=${ids.groupB}`, {
        headers: { 'x-session': 'b' },
      }),
    );
  const labels = async (response: Response) => {
    expect(response.status, await response.clone().text()).toBe(200);
    return ((await response.json()) as { nodes: { label: string }[] }).nodes.map((node) => node.label);
  };
  const setTreeView = (content: string) =>
    scratch().db.execute(
      "UPDATE sys_core_par_parametros SET CONTEUDO = ? WHERE NOME = 'TREE_VIEW' AND EMPRESA = ? AND FILIAL = ? AND LOCAL = ?",
      [content, SCOPE_B.EMPRESA, SCOPE_B.FILIAL, SCOPE_B.LOCAL],
    );

  it('sees a changed or broken TREE_VIEW on the very next expand, though it keeps the checked one', async () => {
    const serve = handler();
    expect(await labels(await expand(serve))).toEqual(['Fertilising — A-FERT', 'Seeding — A-SEED']);
    const relabelled = {
      ...treeViewB,
      layers: { ...treeViewB.layers, '3': { table: names.OPER, isTask: true, labelColumns: ['CODIGO'] } },
    };
    try {
      await setTreeView(JSON.stringify(relabelled));
      expect(await labels(await expand(serve))).toEqual(['A-FERT', 'A-SEED']);
      await setTreeView('{"layers": {}}');
      for (const _ of [1, 2]) {
        const broken = await expand(serve);
        expect(broken.status).toBe(500);
        expect(await broken.json()).toMatchObject({ error: { code: 'INVALID_TREE_VIEW' } });
      }
    } finally {
      await setTreeView(JSON.stringify(treeViewB));
    }
    expect(await labels(await expand(serve))).toEqual(['Fertilising — A-FERT', 'Seeding — A-SEED']);
  });

  it('takes column names written in another case than the table’s, as the server does', async () => {
    const serve = handler();
    const get = (query: string) =>
      serve(new Request(`${BASE}?taskSheet=${ids.sheetB}${query}`, { headers: { 'x-session': 'b' } }));
    try {
      await setTreeView(
        JSON.stringify({
          ...treeViewB,
          layers: { ...treeViewB.layers, '1': { ...treeViewB.layers['1'], labelColumns: ['nome'] } },
          metrics: [{ field: 'QTD', label: 'Quantidade', default: { type: 'field', name: 'indice' } }],
        }),
      );
      const search = await get('&part=search&q=North');
      expect(search.status).toBe(200);
      expect((await search.json()).matches).toEqual([
        { path: [{ level: 1, id: ids.sector, label: 'North field' }] },
      ]);
      // The whole tree reads rows with *, which carry the table's spelling: it was a 500.
      const tree = await get('');
      expect(tree.status, await tree.clone().text()).toBe(200);
      const branch = await get(`&part=children&level=2&node=${ids.groupB}`);
      const seeding = (await branch.json()).nodes.find((node: { id: number }) => node.id === ids.seeding);
      expect(seeding.metrics.QTD).toEqual({ value: '3.50', source: 'saved' });
      // A default is read from the activity's column by its name in another case (fert without its row).
      await withoutSavedRow(ids.locked, async () => {
        const fert = (await (await get(`&part=children&level=2&node=${ids.groupB}`)).json()).nodes.find(
          (node: { id: number }) => node.id === ids.locked,
        );
        expect(fert.metrics.QTD).toEqual({ value: '1.10', source: 'default:field' });
      });
    } finally {
      await setTreeView(JSON.stringify(treeViewB));
    }
  });

  it('reads a level whose table lacks a named column whole: a shorter label, or the missing default column named', async () => {
    const serve = handler();
    const layer = (extra: object) =>
      JSON.stringify({
        ...treeViewB,
        layers: { ...treeViewB.layers, '3': { table: names.OPER, isTask: true, ...extra } },
      });
    try {
      await setTreeView(layer({ labelColumns: ['NO_SUCH_COLUMN', 'CODIGO'] }));
      // Twice: the second expand reads the level whole at once, with the same answer.
      for (const _ of [1, 2]) expect(await labels(await expand(serve))).toEqual(['A-FERT', 'A-SEED']);
      await setTreeView(
        JSON.stringify({
          ...treeViewB,
          metrics: [{ field: 'QTD', default: { type: 'field', name: 'NO_SUCH_COLUMN' } }],
        }),
      );
      const broken = await expand(serve);
      expect(broken.status).toBe(500);
      expect(await broken.json()).toMatchObject({
        error: { code: 'DEFAULT_COLUMN_MISSING', path: 'metrics.0.default.name' },
      });
    } finally {
      await setTreeView(JSON.stringify(treeViewB));
    }
    expect(await labels(await expand(serve))).toEqual(['Fertilising — A-FERT', 'Seeding — A-SEED']);
  });

  it('sends an expand’s own reads with the parameter read once the scope was seen, and answers the same', async () => {
    const { db } = scratch();
    const events: string[] = [];
    const recording: SqlExecutor = {
      query: async <Row extends object>(sql: string, params: readonly unknown[] = []) => {
        const name = sql.includes('sys_core_par_parametros')
          ? 'parameters'
          : sql.includes('information_schema')
            ? 'types'
            : sql.includes('app_folha_tarefa')
              ? 'sheet'
              : sql.includes(' IN (')
                ? 'walk'
                : 'branch';
        events.push(`${name} sent`);
        const rows = await db.query<Row>(sql, params);
        events.push(`${name} answered`);
        return rows;
      },
      execute: (sql, params) => db.execute(sql, params),
    };
    const serve = handler({
      ...recording,
      transaction: (work) => db.transaction(work),
      connection: (work) => db.connection(work),
      schemaName: db.schemaName,
      close: () => db.close(),
    });
    const first = await labels(await expand(serve));
    // First sight of the scope: the branch waits for the parameter rows.
    expect(events.indexOf('branch sent')).toBeGreaterThan(events.indexOf('parameters answered'));
    events.length = 0;
    expect(await labels(await expand(serve))).toEqual(first);
    expect(events.indexOf('branch sent')).toBeLessThan(events.indexOf('parameters answered'));
    expect(events.filter((event) => event === 'branch sent')).toHaveLength(2);
    // Whether the tree shows the parent: its links up, then the sector, once each.
    expect(events.filter((event) => event === 'walk sent')).toHaveLength(2);
    expect(events.indexOf('walk sent')).toBeLessThan(events.indexOf('parameters answered'));
  });

  it('keeps a bounded number of checked parameter texts, and answers a scope from the text it reads', async () => {
    const { db } = scratch();
    const memo = createPlanMemo(1);
    const a = await memo.read(db, SCOPE_A);
    expect(await memo.read(db, SCOPE_A)).toBe(a);
    expect(memo.last(SCOPE_A)).toBe(a);
    const b = await memo.read(db, SCOPE_B);
    expect(b.plan.levels).toHaveLength(3);
    // Only one text is kept: scope A's is checked again, to the same answer.
    const again = await memo.read(db, SCOPE_A);
    expect(again).not.toBe(a);
    expect(again).toEqual(a);
    expect(memo.last(SCOPE_B)).toBeUndefined();
  });
});

describe('part=search: across every level, with paths', () => {
  it('finds an activity three levels down and gives its path from the root', async () => {
    expect(await getJson(`?taskSheet=${ids.sheetA}&part=search&q=subsoil`)).toEqual({
      matches: [
        {
          path: [
            { level: 1, id: ids.root, label: 'G-1 — Soil' },
            { level: 1, id: ids.middle, label: 'G-1.1 — Ploughing' },
            { level: 1, id: ids.leaf, label: 'G-1.1.1 — Deep ploughing' },
            { level: 2, id: ids.deep, label: 'A-DEEP — Subsoiler pass' },
          ],
        },
      ],
      more: false,
    });
  });

  it('matches codes and descriptions of every level, treats % and _ as text, and stays in scope', async () => {
    const codes = await getJson(`?taskSheet=${ids.sheetA}&part=search&q=G-1.1`);
    expect(codes.matches.map((m: { path: { label: string }[] }) => m.path.at(-1)?.label)).toEqual([
      'G-1.1 — Ploughing',
      'G-1.1.1 — Deep ploughing',
    ]);
    expect(await getJson(`?taskSheet=${ids.sheetA}&part=search&q=%25`)).toEqual({ matches: [], more: false });
    expect(await getJson(`?taskSheet=${ids.sheetA}&part=search&q=Seeding`)).toEqual({
      matches: [],
      more: false,
    });
    const inB = await getJson(`?taskSheet=${ids.sheetB}&part=search&q=seed`, 'b');
    expect(inB.matches).toEqual([
      {
        path: [
          { level: 1, id: ids.sector, label: 'North field' },
          { level: 2, id: ids.groupB, label: 'G-PLANT — Planting' },
          { level: 3, id: ids.seeding, label: 'Seeding — A-SEED' },
        ],
      },
    ]);
  });

  it('searches a latin1 label column with text it cannot hold (no match, not an error) and ignores accents', async () => {
    const { db } = scratch();
    // An older host's table: its labels in latin1.
    await db.execute(`ALTER TABLE ${names.OPER} MODIFY DESCRICAO varchar(250) CHARACTER SET latin1 NULL`);
    try {
      for (const q of ['%F0%9F%98%80', '%E4%B8%AD', 'Subsoiler%20pass%20%F0%9F%98%80']) {
        expect(await getJson(`?taskSheet=${ids.sheetA}&part=search&q=${q}`)).toEqual({
          matches: [],
          more: false,
        });
      }
      const accented = await getJson(`?taskSheet=${ids.sheetA}&part=search&q=s%C3%BAbsoiler`);
      expect(accented.matches.map((m: { path: { label: string }[] }) => m.path.at(-1)?.label)).toEqual([
        'A-DEEP — Subsoiler pass',
      ]);
    } finally {
      await db.execute(`ALTER TABLE ${names.OPER} MODIFY DESCRICAO varchar(250) NULL`);
    }
  });

  it('matches several words in any order, each in the code or the description, accents and case ignored', async () => {
    const { db } = scratch();
    const rocada = await insertRow(db, names.OPER, {
      ...SCOPE_A,
      CODIGO: 'A01',
      DESCRICAO: 'Roçada manual',
      ...live,
    });
    // Another activity holding one of the words only: never a match of both.
    const other = await insertRow(db, names.OPER, {
      ...SCOPE_A,
      CODIGO: 'B02',
      DESCRICAO: 'Capina',
      ...live,
    });
    const links = await insertRows(db, names.OPER_OPER_GRUPO, [
      { ...SCOPE_A, OPER_GRUPO_SEQ_DB: ids.emptyGroup, OPER_SEQ_DB: rocada, ...live },
      { ...SCOPE_A, OPER_GRUPO_SEQ_DB: ids.emptyGroup, OPER_SEQ_DB: other, ...live },
    ]);
    const expected = [
      {
        path: [
          { level: 1, id: ids.emptyGroup, label: 'G-2 — Nothing yet' },
          { level: 2, id: rocada, label: 'A01 — Roçada manual' },
        ],
      },
    ];
    try {
      for (const q of ['A01 Roçada', 'rocada a01', 'ROÇADA   MANUAL a01', 'A01 — Roçada', 'manual rocada']) {
        expect(await getJson(`?taskSheet=${ids.sheetA}&part=search&q=${encodeURIComponent(q)}`), q).toEqual({
          matches: expected,
          more: false,
        });
      }
      // Each word must be found: one missing is no match; `_` is a character, not a wildcard.
      for (const q of ['A01 capina', 'A_1 rocada', 'rocada%20%25']) {
        expect(await getJson(`?taskSheet=${ids.sheetA}&part=search&q=${encodeURIComponent(q)}`), q).toEqual({
          matches: [],
          more: false,
        });
      }
    } finally {
      await db.execute(`DELETE FROM ${names.OPER_OPER_GRUPO} WHERE SEQ_DB IN (?, ?)`, links);
      await db.execute(`DELETE FROM ${names.OPER} WHERE SEQ_DB IN (?, ?)`, [rocada, other]);
    }
  });

  // The label of 8 words pasted back with its " — " was refused as a ninth word: the dash is no word
  // the search looks for, so it is no word its limit counts.
  it('searches a label pasted back: 8 words and its dash', async () => {
    const { db } = scratch();
    const activity = await insertRow(db, names.OPER, {
      ...SCOPE_A,
      CODIGO: 'A1',
      DESCRICAO: 'Roçada manual de área com trator leve',
      ...live,
    });
    const link = await insertRow(db, names.OPER_OPER_GRUPO, {
      ...SCOPE_A,
      OPER_GRUPO_SEQ_DB: ids.emptyGroup,
      OPER_SEQ_DB: activity,
      ...live,
    });
    try {
      const q = 'A1 — Roçada manual de área com trator leve';
      expect(await getJson(`?taskSheet=${ids.sheetA}&part=search&q=${encodeURIComponent(q)}`)).toEqual({
        matches: [
          {
            path: [
              { level: 1, id: ids.emptyGroup, label: 'G-2 — Nothing yet' },
              { level: 2, id: activity, label: q },
            ],
          },
        ],
        more: false,
      });
    } finally {
      await db.execute(`DELETE FROM ${names.OPER_OPER_GRUPO} WHERE SEQ_DB = ?`, [link]);
      await db.execute(`DELETE FROM ${names.OPER} WHERE SEQ_DB = ?`, [activity]);
    }
  });

  it.each([
    ['nine words', 'a b c d e f g h i', 'at most 8 words'],
    ['nine words and a dash', 'A1 — b c d e f g h i', 'at most 8 words'],
    ['101 characters', 'x'.repeat(101), 'at most 100 characters'],
    ['only spaces', '   ', 'give the text to search for'],
  ])('refuses a search of %s with 400 at q', async (_, q, message) => {
    const response = await get(`?taskSheet=${ids.sheetA}&part=search&q=${encodeURIComponent(q)}`);
    expect(response.status).toBe(400);
    const { error } = await response.json();
    expect(error).toMatchObject({ code: 'INVALID_REQUEST', path: 'q' });
    expect(error.message).toContain(message);
  });

  it('does not let matches hidden below a deleted node take the places of shown ones', async () => {
    const { db } = scratch();
    // 40 live groups matching "zz", all below a deleted group: live, but never shown.
    const hidden = await insertRows(
      db,
      names.OPER_GRUPO,
      Array.from({ length: 40 }, (_, index) => ({
        ...SCOPE_A,
        CODIGO: `ZZ-${index}`,
        OPER_GRUPO_SEQ_DB: ids.underRetired,
        ...live,
      })),
    );
    const shownActivity = await insertRow(db, names.OPER, { ...SCOPE_A, CODIGO: 'ZZ-LIVE', ...live });
    const link = await insertRow(db, names.OPER_OPER_GRUPO, {
      ...SCOPE_A,
      OPER_GRUPO_SEQ_DB: ids.emptyGroup,
      OPER_SEQ_DB: shownActivity,
      ...live,
    });
    try {
      expect(await getJson(`?taskSheet=${ids.sheetA}&part=search&q=zz`)).toEqual({
        matches: [
          {
            path: [
              { level: 1, id: ids.emptyGroup, label: 'G-2 — Nothing yet' },
              { level: 2, id: shownActivity, label: 'ZZ-LIVE' },
            ],
          },
        ],
        more: false,
      });
    } finally {
      await db.execute(`DELETE FROM ${names.OPER_OPER_GRUPO} WHERE SEQ_DB = ?`, [link]);
      await db.execute(`DELETE FROM ${names.OPER} WHERE SEQ_DB = ?`, [shownActivity]);
      await db.execute(
        `DELETE FROM ${names.OPER_GRUPO} WHERE SEQ_DB IN (${hidden.map(() => '?').join(', ')})`,
        hidden,
      );
    }
  });
});

describe('an activity linked twice to one group', () => {
  it('is one node: in its branch, in the search and in the whole tree, whichever way the tree is read', async () => {
    const { db } = scratch();
    // Nothing in the tables forbids a second live link of the same group and activity.
    const twice = await insertRow(db, names.OPER_OPER_GRUPO, {
      ...SCOPE_A,
      OPER_GRUPO_SEQ_DB: ids.root,
      OPER_SEQ_DB: ids.plain,
      ...live,
    });
    try {
      const { nodes } = await getJson(`?taskSheet=${ids.sheetA}&part=children&level=1&node=${ids.root}`);
      expect(
        nodes.filter((node: { id: number; kind: string }) => node.kind === 'task' && node.id === ids.plain),
      ).toHaveLength(1);
      const { matches } = await getJson(`?taskSheet=${ids.sheetA}&part=search&q=A-DISC`);
      expect(matches, JSON.stringify(matches)).toHaveLength(1);
      for (const inListLimit of [999, 0]) {
        const tree = await loadTaskTree(db, { scope: SCOPE_A, taskSheet: ids.sheetA, inListLimit });
        const soil = tree.roots.find((node) => node.kind === 'branch' && node.seqDb === ids.root);
        const under = soil?.kind === 'branch' ? soil.children : [];
        expect(under.filter((node) => node.kind === 'task' && node.seqDb === ids.plain)).toHaveLength(1);
      }
    } finally {
      await db.execute(`DELETE FROM ${names.OPER_OPER_GRUPO} WHERE SEQ_DB = ?`, [twice]);
    }
  });
});

describe('the screen reads as library functions', () => {
  it('refuse bad arguments with the option’s path before any SQL: readBranch, searchTree, loadTaskSheet, readScreenStart', async () => {
    const { db } = scratch();
    const plan = await resolveTreePlan(db, SCOPE_A);
    const taskSheet = await loadTaskSheet(db, SCOPE_A, ids.sheetA);
    // A scope without LOCAL is the host's bug, said as such.
    const partial = { EMPRESA: 1, FILIAL: 1 } as unknown as Scope;
    const refusals: [() => Promise<unknown>, string, string][] = [
      [() => loadTaskSheet(db, SCOPE_A, Number.NaN), 'INVALID_REQUEST', 'taskSheet'],
      [() => loadTaskSheet(db, partial, ids.sheetA), 'INVALID_SCOPE', 'scope'],
      [
        () => readBranch(db, { scope: SCOPE_A, plan, parent: { level: 1, id: Number.NaN }, taskSheet }),
        'INVALID_REQUEST',
        'parent.id',
      ],
      [
        () => readBranch(db, { scope: SCOPE_A, plan: {} as typeof plan, parent: null, taskSheet }),
        'INVALID_REQUEST',
        'plan',
      ],
      [
        () => readBranch(db, { scope: undefined as unknown as Scope, plan, parent: null, taskSheet }),
        'INVALID_SCOPE',
        'scope',
      ],
      [
        () => searchTree(db, { scope: SCOPE_A, plan, text: 'soil', limit: Number.NaN }),
        'INVALID_REQUEST',
        'limit',
      ],
      [() => searchTree(db, { scope: SCOPE_A, plan, text: 'soil', limit: -1 }), 'INVALID_REQUEST', 'limit'],
      [() => searchTree(db, { scope: partial, plan, text: 'soil' }), 'INVALID_SCOPE', 'scope'],
      [
        () =>
          readScreenStart(db, { scope: SCOPE_A, taskSheet } as unknown as Parameters<
            typeof readScreenStart
          >[1]),
        'INVALID_REQUEST',
        'plan',
      ],
    ];
    for (const [call, code, path] of refusals) await expect(call()).rejects.toMatchObject({ code, path });
  });

  // A plain-JavaScript caller's null, or a pool of another kind: a TypeError from deep inside before
  // ("Invalid value used as weak map key", "db.query is not a function").
  it('refuse a database that is none, naming it, before anything else', async () => {
    const plan = await resolveTreePlan(scratch().db, SCOPE_A);
    const taskSheet = ids.sheetA;
    const options = { scope: SCOPE_A, taskSheet, plan };
    const calls: [string, (db: never) => Promise<unknown>][] = [
      ['loadTaskTree', (db) => loadTaskTree(db, options)],
      [
        'readBranch',
        (db) => readBranch(db, { scope: SCOPE_A, plan, parent: null, taskSheet: { id: taskSheet } } as never),
      ],
      ['searchTree', (db) => searchTree(db, { scope: SCOPE_A, plan, text: 'soil' })],
      ['readScreenStart', (db) => readScreenStart(db, options as never)],
      ['saveMetrics', (db) => saveMetrics(db, { ...options, user: 7, entries: [] })],
      ['readMetricHistory', (db) => readMetricHistory(db, { ...options, activity: 1, group: 1 } as never)],
      ['readSheetPage', (db) => readSheetPage(db, options as never)],
      ['readSheetProgress', (db) => readSheetProgress(db, options as never)],
      ['readPreviousSheet', (db) => readPreviousSheet(db, options as never)],
      ['loadTaskSheet', (db) => loadTaskSheet(db, SCOPE_A, taskSheet)],
      ['resolveTreePlan', (db) => resolveTreePlan(db, SCOPE_A)],
    ];
    // mysql2's own pool, handed in without wrapPool: its query answers [rows, fields].
    const raw = mysql.createPool(scratch().url);
    try {
      for (const [name, call] of calls) {
        await expect(call(raw as never)).rejects.toMatchObject({
          code: 'INVALID_OPTION',
          path: 'db',
          message: `${name}: its first argument must be a Database, not a mysql2 pool or connection as it is: wrap it (wrapPool(pool))`,
        });
      }
    } finally {
      await raw.end();
    }
    // A transaction's executor reads, but saveMetrics runs a transaction of its own.
    await scratch().db.transaction(async (tx) => {
      await expect(saveMetrics(tx as never, { ...options, user: 7, entries: [] })).rejects.toMatchObject({
        code: 'INVALID_OPTION',
        path: 'db',
        message:
          'saveMetrics: its first argument must be the Database itself (openDatabase or wrapPool), not the executor of a transaction: it runs a transaction of its own',
      });
    });
    for (const [name, call] of calls) {
      for (const [db, said] of [
        [null, 'null'],
        [{}, 'an object without query() and execute()'],
        ['mysql://root@127.0.0.1/x', 'string'],
      ] as const) {
        await expect(call(db as never)).rejects.toMatchObject({
          code: 'INVALID_OPTION',
          path: 'db',
          message: `${name}: its first argument must be a Database (openDatabase or wrapPool), not ${said}`,
        });
      }
    }
  });
});

describe('part=sheet beside the tree', () => {
  it('lists the activities in the order the tree shows them: a branch’s nested groups first, then its activities', async () => {
    // G-1 holds the group G-1.1 (down to A-DEEP) and the activity A-DISC: the tree lists G-1.1 first.
    const { nodes } = await getJson(`?taskSheet=${ids.sheetA}&part=children&level=1&node=${ids.root}`);
    expect(nodes.map((node: { kind: string }) => node.kind)).toEqual(['branch', 'task']);
    const { rows } = await getJson(`?taskSheet=${ids.sheetA}&part=sheet`);
    expect(rows.map((row: { label: string }) => row.label)).toEqual([
      'A-DEEP — Subsoiler pass',
      'A-DISC — Disc harrow',
    ]);
  });
});
