import { beforeAll, describe, expect, it } from 'vitest';
import { parseIdentifier } from '../../src/model/identifier.js';
import type { Scope } from '../../src/model/scope.js';
import { tableNames } from '../../src/model/table-names.js';
import { planTree } from '../../src/model/tree-plan.js';
import { TreeView } from '../../src/model.js';
import type { Database, QueryOptions } from '../../src/store/driver.js';
import { scopeLockName } from '../../src/store/metric-writes.js';
import { openDatabase } from '../../src/store/mysql.js';
import { readScreenStart } from '../../src/tree/screen/start.js';
import { loadTaskSheet } from '../../src/tree/task-sheet.js';
import {
  InvalidRequestError,
  loadTaskTree,
  NotFoundError,
  ReadOnlyRowError,
  type SaveMetricsOptions,
  saveMetrics,
} from '../../src/tree.js';
import { useScratchDatabase } from '../support/database.js';
import { insertRow, insertRows, installTables, SCOPE_A, SCOPE_B } from './fixture.js';

const scratch = useScratchDatabase('resolvers_save', { hostSchema: true });
const names = tableNames();
/** The default tree's two levels, written as a TREE_VIEW: groups, then activities through the links. */
const GROUP_LAYERS = {
  '1': { table: names.OPER_GRUPO, associationTable: names.OPER_OPER_GRUPO },
  '2': { table: names.OPER, isTask: true },
};
const live = { ATIVO: 1, DELETED: 0 };
const SCOPE_RACE: Scope = { EMPRESA: 3, FILIAL: 1, LOCAL: 1 };
const fixture = {
  sheet: 0,
  sheetB: 0,
  raceSheet: 0,
  group: 0,
  raceGroup: 0,
  opers: [] as number[],
  raceOpers: [] as number[],
  roOper: 0,
};

interface MetricRow {
  ID: number;
  OPER_SEQ_DB: number;
  OPER_GRUPO_SEQ_DB: number;
  METRICA1: string | null;
  METRICA2: number | null;
  INS_USUARIO_SEQ_DB: number;
  UPD_USUARIO_SEQ_DB: number | null;
}

async function metricRows(scope: Scope = SCOPE_A): Promise<MetricRow[]> {
  return scratch().db.query<MetricRow & Record<string, unknown>>(
    `SELECT ID, OPER_SEQ_DB, OPER_GRUPO_SEQ_DB, METRICA1, METRICA2, INS_USUARIO_SEQ_DB, UPD_USUARIO_SEQ_DB FROM ${names.OPER_GRUPO_METRICA}
      WHERE EMPRESA = ? AND FILIAL = ? AND LOCAL = ? ORDER BY ID`,
    [scope.EMPRESA, scope.FILIAL, scope.LOCAL],
  );
}

function save(overrides: Partial<SaveMetricsOptions> = {}) {
  return saveMetrics(scratch().db, {
    scope: SCOPE_A,
    user: 7,
    taskSheet: fixture.sheet,
    entries: [],
    plan: planTree(names),
    ...overrides,
  });
}

/** Runs `work` and checks that it failed with `expected` and that no metric row changed anywhere. */
async function expectNothingWritten(work: () => Promise<unknown>, expected: object) {
  const before = await scratch().db.query(`SELECT * FROM ${names.OPER_GRUPO_METRICA} ORDER BY SEQ_DB`);
  await expect(work()).rejects.toMatchObject(expected);
  expect(await scratch().db.query(`SELECT * FROM ${names.OPER_GRUPO_METRICA} ORDER BY SEQ_DB`)).toEqual(
    before,
  );
}

beforeAll(async () => {
  const { db } = scratch();
  await installTables(db, names);
  [fixture.sheet, fixture.sheetB, fixture.raceSheet] = (await insertRows(
    db,
    'app_folha_tarefa',
    [
      { ...SCOPE_A, DELETED: 0 },
      { ...SCOPE_B, DELETED: 0 },
      { ...SCOPE_RACE, DELETED: 0 },
    ],
    { withId: false },
  )) as [number, number, number];
  fixture.group = await insertRow(db, names.OPER_GRUPO, { ...SCOPE_A, CODIGO: 'G', ...live });
  fixture.raceGroup = await insertRow(db, names.OPER_GRUPO, { ...SCOPE_RACE, CODIGO: 'G', ...live });
  fixture.opers = await insertRows(
    db,
    names.OPER,
    Array.from({ length: 4 }, (_, index) => ({ ...SCOPE_A, CODIGO: `O${index}`, ...live })),
  );
  fixture.raceOpers = await insertRows(
    db,
    names.OPER,
    Array.from({ length: 50 }, (_, index) => ({ ...SCOPE_RACE, CODIGO: `R${index}`, ...live })),
  );
  const links = (scope: Scope, group: number, opers: number[]) =>
    insertRows(
      db,
      names.OPER_OPER_GRUPO,
      opers.map((oper) => ({ ...scope, OPER_GRUPO_SEQ_DB: group, OPER_SEQ_DB: oper, ...live })),
    );
  await links(SCOPE_A, fixture.group, fixture.opers);
  await links(SCOPE_RACE, fixture.raceGroup, fixture.raceOpers);
  // A read-only metric row for the last activity, and a row of scope 2/1/1 with a high ID.
  fixture.roOper = fixture.opers[3] ?? 0;
  await insertRow(db, names.OPER_GRUPO_METRICA, {
    ...SCOPE_A,
    FOLHA_TAREFA_SEQ_DB: fixture.sheet,
    OPER_SEQ_DB: fixture.roOper,
    OPER_GRUPO_SEQ_DB: fixture.group,
    METRICA1: '1.00',
    RO: 1,
    ...live,
  });
  await db.execute(
    `INSERT INTO ${names.OPER_GRUPO_METRICA} (EMPRESA, FILIAL, LOCAL, ID, INS_USUARIO_SEQ_DB, FOLHA_TAREFA_SEQ_DB) VALUES (?, ?, ?, 500, 1, ?)`,
    [SCOPE_B.EMPRESA, SCOPE_B.FILIAL, SCOPE_B.LOCAL, fixture.sheetB],
  );
});

describe('saveMetrics', () => {
  it('inserts with the next free ID of the scope and the acting user, then updates the same key', async () => {
    const [o0, o1] = fixture.opers;
    const entries = [
      { activity: o0 ?? 0, group: fixture.group, values: { METRICA1: '12.50', METRICA2: 3 } },
      { activity: o1 ?? 0, group: fixture.group, values: { METRICA1: 4 } },
    ];
    expect(await save({ entries })).toMatchObject({ inserted: 2, updated: 0 });
    expect(await metricRows()).toMatchObject([
      { ID: 1, OPER_SEQ_DB: fixture.roOper },
      {
        ID: 2,
        OPER_SEQ_DB: o0,
        OPER_GRUPO_SEQ_DB: fixture.group,
        METRICA1: '12.50',
        METRICA2: 3,
        INS_USUARIO_SEQ_DB: 7,
      },
      { ID: 3, OPER_SEQ_DB: o1, METRICA1: '4.00', METRICA2: null, UPD_USUARIO_SEQ_DB: null },
    ]);
    expect(
      await save({
        user: 8,
        entries: [{ activity: o1 ?? 0, group: fixture.group, values: { METRICA2: 9 } }],
      }),
    ).toMatchObject({
      inserted: 0,
      updated: 1,
    });
    expect((await metricRows())[2]).toMatchObject({
      ID: 3,
      METRICA1: '4.00',
      METRICA2: 9,
      INS_USUARIO_SEQ_DB: 7,
      UPD_USUARIO_SEQ_DB: 8,
    });
  });

  it('refuses a batch touching an RO row, and writes none of its other entries', async () => {
    await expectNothingWritten(
      () =>
        save({
          entries: [
            { activity: fixture.opers[2] ?? 0, group: fixture.group, values: { METRICA1: '1.00' } },
            { activity: fixture.roOper, group: fixture.group, values: { METRICA1: '2.00' } },
          ],
        }),
      { name: ReadOnlyRowError.name, code: 'READ_ONLY_ROW', path: 'entries.1' },
    );
  });

  it.each([
    [
      'an int column given 2.5',
      { METRICA2: 2.5 },
      /entry 1: METRICA2 value 2.5 is not a whole number/,
      'entries.1.values.METRICA2',
    ],
    [
      'decimal(10,2) given 123456789.123',
      { METRICA1: 123456789.123 },
      /entry 1: METRICA1 value 123456789.123 has more than 2 decimal places/,
      'entries.1.values.METRICA1',
    ],
    [
      'decimal(10,2) given 123456789.12',
      { METRICA1: '123456789.12' },
      /more than 8 digits before the point/,
      'entries.1.values.METRICA1',
    ],
    [
      'an unknown metric column',
      { SEQ_DB: 1 },
      /entry 1: "SEQ_DB" is not a metric column/,
      'entries.1.values.SEQ_DB',
    ],
    ['no values', {}, /give at least one metric value/, 'entries.1.values'],
  ])('refuses %s, naming the entry and column, and writes nothing', async (_, values, message, path) => {
    await expectNothingWritten(
      () =>
        save({
          entries: [
            { activity: fixture.opers[2] ?? 0, group: fixture.group, values: { METRICA1: '1.00' } },
            { activity: fixture.opers[0] ?? 0, group: fixture.group, values },
          ],
        }),
      { name: InvalidRequestError.name, message, path },
    );
  });

  it('refuses an activity not linked to the group, a malformed entry, a duplicate key and a bad user', async () => {
    const entry = { activity: fixture.opers[2] ?? 0, group: fixture.group, values: { METRICA1: '1.00' } };
    await expectNothingWritten(() => save({ entries: [entry, { ...entry, group: fixture.raceGroup }] }), {
      code: 'NOT_IN_TREE',
      path: 'entries.1',
    });
    await expectNothingWritten(() => save({ entries: [{ ...entry, activity: -1 }] }), {
      code: 'INVALID_REQUEST',
      path: 'entries.0.activity',
    });
    await expectNothingWritten(() => save({ entries: [entry, entry] }), {
      code: 'DUPLICATE_ENTRY',
      path: 'entries.1',
    });
    await expectNothingWritten(() => save({ user: 0, entries: [entry] }), { code: 'INVALID_REQUEST' });
  });

  it.each([
    ['SQL text as the task sheet', { taskSheet: '1 OR 1=1' }, 'taskSheet'],
    ['NaN as the task sheet', { taskSheet: Number.NaN }, 'taskSheet'],
    ['2^53 + 1 as the user', { user: 2 ** 53 + 2 }, 'user'],
    [
      'an activity past 2^53 - 1',
      { entries: [{ activity: 2 ** 53, group: 1, values: { METRICA1: 1 } }] },
      'entries.0.activity',
    ],
    [
      'a plan not made by planTree (it could name any table)',
      { plan: { ...planTree(names), metricTable: 'x` (a) VALUES (1); --' } },
      'plan',
    ],
  ])('refuses %s with the HTTP layer models, writing nothing', async (_, bad, path) => {
    const entry = { activity: fixture.opers[2] ?? 0, group: fixture.group, values: { METRICA1: '1.00' } };
    // @ts-expect-error: each case breaks the options' type on purpose, as a JavaScript caller can.
    const saving = () => save({ entries: [entry], ...bad });
    await expectNothingWritten(saving, { name: InvalidRequestError.name, code: 'INVALID_REQUEST', path });
  });

  it('refuses a metricAssociationTable that does not exist or lacks the identity columns', async () => {
    const entry = { activity: fixture.opers[2] ?? 0, group: fixture.group, values: { METRICA1: '1.00' } };
    await scratch().db.execute('CREATE TABLE app_metrica_incompleta (ID int, METRICA1 decimal(10,2))');
    for (const [table, message] of [
      ['app_metrica_inexistente', /does not exist/],
      ['app_metrica_incompleta', /lacks EMPRESA, FILIAL, LOCAL, INS_USUARIO_SEQ_DB/],
    ] as const) {
      const treeView = TreeView.parse({ layers: GROUP_LAYERS, metricAssociationTable: table });
      await expectNothingWritten(async () => save({ plan: planTree(names, treeView), entries: [entry] }), {
        code: 'METRIC_TABLE_UNUSABLE',
        message,
      });
    }
  });

  it('sees a metric table changed after a save: the server refuses the stale check, the save checks again', async () => {
    // A copy of the metric table, so narrowing and dropping its columns touches no other test.
    const { db } = scratch();
    const table = 'app_metrica_mutavel';
    await db.execute(`CREATE TABLE ${table} LIKE ${names.OPER_GRUPO_METRICA}`);
    const treeView = TreeView.parse({
      layers: GROUP_LAYERS,
      metricAssociationTable: table,
      metrics: [{ field: 'METRICA1' }, { field: 'METRICA2' }],
    });
    const entry = (values: Record<string, string | number>) => ({
      activity: fixture.opers[2] ?? 0,
      group: fixture.group,
      values,
    });
    const rowsOf = () =>
      db.query(
        `SELECT SEQ_DB, ID, METRICA1, INS_USUARIO_SEQ_DB, UPD_USUARIO_SEQ_DB FROM ${table} ORDER BY SEQ_DB`,
      );
    // The first save reads the table's shape (and keeps it), then the column narrows.
    await expect(
      save({ plan: planTree(names, treeView), entries: [entry({ METRICA1: '1.25' })] }),
    ).resolves.toMatchObject({
      inserted: 1,
      updated: 0,
    });
    await db.execute(`ALTER TABLE ${table} MODIFY METRICA1 decimal(4,2) NULL`);
    const before = await rowsOf();
    await expect(
      save({ plan: planTree(names, treeView), entries: [entry({ METRICA1: '123.46' })] }),
    ).rejects.toMatchObject({
      name: InvalidRequestError.name,
      code: 'INVALID_METRIC_VALUE',
      path: 'entries.0.values.METRICA1',
    });
    await db.execute(`ALTER TABLE ${table} DROP COLUMN METRICA2`);
    await expect(
      save({ plan: planTree(names, treeView), entries: [entry({ METRICA2: 5 })] }),
    ).rejects.toMatchObject({
      code: 'METRIC_COLUMN_MISSING',
      path: 'entries.0.values.METRICA2',
    });
    expect(await rowsOf()).toEqual(before);
  });

  it('sees a metric column added after a save: its values are saved at once, and every answer lists it', async () => {
    // Before, the shape kept from the first save (for a minute) lacked the column: each save of it
    // was a 500 METRIC_COLUMN_MISSING, and a save of another field answered what was stored without it.
    const { db } = scratch();
    const table = 'app_metrica_cresce';
    await db.execute(`CREATE TABLE ${table} LIKE ${names.OPER_GRUPO_METRICA}`);
    const planOf = (metrics: string[]) =>
      planTree(
        names,
        TreeView.parse({
          layers: GROUP_LAYERS,
          metricAssociationTable: table,
          metrics: metrics.map((field) => ({ field })),
        }),
      );
    const entry = (values: Record<string, string | number>) => ({
      activity: fixture.opers[2] ?? 0,
      group: fixture.group,
      values,
    });
    await expect(
      save({ plan: planOf(['METRICA1']), entries: [entry({ METRICA1: '1.25' })] }),
    ).resolves.toMatchObject({ inserted: 1 });
    await db.execute(`ALTER TABLE ${table} ADD METRICA9 int NULL`);
    const grown = planOf(['METRICA1', 'METRICA9']);
    await expect(save({ plan: grown, entries: [entry({ METRICA1: '2.50' })] })).resolves.toMatchObject({
      updated: 1,
      entries: [{ stored: { METRICA1: '2.50', METRICA9: null } }],
    });
    await expect(save({ plan: grown, entries: [entry({ METRICA9: 5 })] })).resolves.toMatchObject({
      updated: 1,
      entries: [{ stored: { METRICA1: '2.50', METRICA9: 5 } }],
    });
    expect(await db.query(`SELECT METRICA1, METRICA9 FROM ${table}`)).toEqual([
      { METRICA1: '2.50', METRICA9: 5 },
    ]);
  });

  it('refuses a metric on a column no metric can be (a DATE) as the installation’s mistake, writing nothing', async () => {
    // Before, a 400 INVALID_METRIC_VALUE: the person's value blamed for the configuration.
    const { db } = scratch();
    const table = 'app_metrica_data';
    await db.execute(`CREATE TABLE ${table} LIKE ${names.OPER_GRUPO_METRICA}`);
    await db.execute(`ALTER TABLE ${table} ADD METRICA9 date NULL`);
    const plan = planTree(
      names,
      TreeView.parse({
        layers: GROUP_LAYERS,
        metricAssociationTable: table,
        metrics: [{ field: 'METRICA1' }, { field: 'METRICA9' }],
      }),
    );
    const entry = {
      activity: fixture.opers[2] ?? 0,
      group: fixture.group,
      values: { METRICA9: '2026-11-29' },
    };
    await expect(save({ plan, entries: [entry] })).rejects.toMatchObject({
      name: 'ConfigurationError',
      code: 'TREE_VIEW_METRIC_TYPE',
      path: 'entries.0.values.METRICA9',
      message: `metric METRICA9: column ${table}.METRICA9 is date, which no metric can be: use a number or text column, or remove the metric`,
    });
    expect(await db.query(`SELECT * FROM ${table}`)).toEqual([]);
  });

  it('sees a decimal given fewer places after a save: the server’s rounding note makes the save check again, never a rounded write', async () => {
    const { db } = scratch();
    const table = 'app_metrica_arredonda';
    await db.execute(`CREATE TABLE ${table} LIKE ${names.OPER_GRUPO_METRICA}`);
    const plan = planTree(
      names,
      TreeView.parse({
        layers: GROUP_LAYERS,
        metricAssociationTable: table,
        metrics: [{ field: 'METRICA1' }],
      }),
    );
    const [saved = 0, fresh = 0] = [fixture.opers[2], fixture.opers[3]];
    const state = () =>
      Promise.all([
        db.query(`SELECT OPER_SEQ_DB, METRICA1 FROM ${table} ORDER BY SEQ_DB`),
        db.query('SELECT SEQ_DB FROM task_association_history WHERE METRIC_TABLE = ? ORDER BY SEQ_DB', [
          table,
        ]),
      ]);
    // The first save reads the table's shape (decimal(10,2), kept for a minute), then the column
    // loses a place: MariaDB rounds 1.25 to 1.3 with only a note, which no error code says.
    await save({ plan, entries: [{ activity: saved, group: fixture.group, values: { METRICA1: '1.00' } }] });
    await db.execute(`ALTER TABLE ${table} MODIFY METRICA1 decimal(10,1) NULL`);
    const before = await state();
    for (const [index, entry] of [
      { activity: saved, group: fixture.group, values: { METRICA1: '1.25' }, base: { METRICA1: '1.00' } },
      { activity: fresh, group: fixture.group, values: { METRICA1: '2.25' } },
    ].entries()) {
      await expect(save({ plan, entries: [entry] }), `entry ${index}`).rejects.toMatchObject({
        name: InvalidRequestError.name,
        code: 'INVALID_METRIC_VALUE',
        path: 'entries.0.values.METRICA1',
      });
    }
    expect(await state()).toEqual(before);
    // What the column holds is still saved, as the answer says it is stored.
    await expect(
      save({ plan, entries: [{ activity: fresh, group: fixture.group, values: { METRICA1: '2.5' } }] }),
    ).resolves.toMatchObject({ inserted: 1, entries: [{ stored: { METRICA1: '2.5' } }] });
    // A write that still warns against the fresh shape (MariaDB's own triggers change values without
    // a word; here an executor says the UPDATE left a note) is refused with what the server said,
    // nothing written, once the batch has been checked against the table read again.
    let transactions = 0;
    const noting: Database = {
      ...db,
      query: (sql, params, options) => db.query(sql, params, options),
      execute: (sql, params, options) => db.execute(sql, params, options),
      connection: (work) => db.connection(work),
      close: () => db.close(),
      transaction: (work) =>
        db.transaction((tx) => {
          transactions++;
          return work({
            query: async <Row extends object>(
              sql: string,
              params?: readonly unknown[],
              options?: QueryOptions,
            ) =>
              sql === 'SHOW WARNINGS'
                ? ([
                    { Level: 'Note', Code: 1265, Message: "Data truncated for column 'METRICA1' at row 1" },
                  ] as Row[])
                : tx.query<Row>(sql, params, options),
            execute: async (sql, params, options) => {
              const result = await tx.execute(sql, params, options);
              return sql.startsWith('UPDATE') ? { ...result, warningStatus: 1 } : result;
            },
          });
        }),
    };
    const stored = await state();
    await expect(
      saveMetrics(noting, {
        scope: SCOPE_A,
        user: 7,
        taskSheet: fixture.sheet,
        plan,
        entries: [
          { activity: fresh, group: fixture.group, values: { METRICA1: '3.5' }, base: { METRICA1: '2.5' } },
        ],
      }),
    ).rejects.toMatchObject({
      name: 'ConfigurationError',
      code: 'METRIC_WRITE_CHANGED',
      message: expect.stringContaining("(Note 1265: Data truncated for column 'METRICA1' at row 1)"),
    });
    expect(transactions).toBe(2);
    expect(await state()).toEqual(stored);
  });

  it('saves and reads back a metric the TREE_VIEW names in another case than the column', async () => {
    const { db } = scratch();
    const table = 'app_metrica_minuscula';
    await db.execute(`CREATE TABLE ${table} LIKE ${names.OPER_GRUPO_METRICA}`);
    const treeView = TreeView.parse({
      layers: GROUP_LAYERS,
      metricAssociationTable: table,
      metrics: [{ field: 'metrica1' }],
    });
    const entry = { activity: fixture.opers[2] ?? 0, group: fixture.group, values: { metrica1: '7.25' } };
    await expect(save({ plan: planTree(names, treeView), entries: [entry] })).resolves.toMatchObject({
      inserted: 1,
      updated: 0,
    });
    expect(await db.query(`SELECT METRICA1 FROM ${table}`)).toEqual([{ METRICA1: '7.25' }]);
    const tree = await loadTaskTree(db, {
      scope: SCOPE_A,
      taskSheet: fixture.sheet,
      plan: planTree(names, treeView),
    });
    const task = tree.roots
      .flatMap((root) => (root.kind === 'branch' ? root.children : []))
      .find((node) => node.kind === 'task' && node.seqDb === entry.activity);
    expect(task?.kind === 'task' && task.metrics).toEqual({ metrica1: { value: '7.25', source: 'saved' } });
    // The screen types its input from the same column: a decimal, not text of unknown type.
    const start = await readScreenStart(db, {
      scope: SCOPE_A,
      taskSheet: await loadTaskSheet(db, SCOPE_A, fixture.sheet),
      plan: planTree(names, treeView),
    });
    expect(start.metrics).toMatchObject([{ field: 'metrica1', dataType: 'decimal', scale: 2 }]);
  });

  it('refuses a hand-built TREE_VIEW whose metric names a scope or flag column, writing nothing', async () => {
    const parsed = TreeView.parse({
      layers: GROUP_LAYERS,
    });
    for (const field of ['EMPRESA', 'RO', 'deleted']) {
      // Built past the model, as a library caller could: saveMetrics checks its options with the model.
      const treeView = { ...parsed, metrics: [{ field: 'METRICA1' }, { field }] } as TreeView;
      await expectNothingWritten(
        async () =>
          save({
            plan: planTree(names, treeView),
            entries: [{ activity: fixture.opers[2] ?? 0, group: fixture.group, values: { [field]: 2 } }],
          }),
        { name: InvalidRequestError.name, code: 'INVALID_REQUEST', path: 'treeView.metrics.1.field' },
      );
    }
  });

  it('answers NotFound for a task sheet of another scope, writing nothing', async () => {
    const entry = { activity: fixture.opers[2] ?? 0, group: fixture.group, values: { METRICA1: '1.00' } };
    await expectNothingWritten(() => save({ taskSheet: fixture.sheetB, entries: [entry] }), {
      name: NotFoundError.name,
      code: 'TASK_SHEET_NOT_FOUND',
    });
  });
});

describe('saveMetrics on inactive, deleted and hidden rows', () => {
  /** A new activity of scope 1/1/1 linked to `group`, so each test has keys of its own. */
  async function linkedActivity(group: number, code: string): Promise<number> {
    const { db } = scratch();
    const activity = await insertRow(db, names.OPER, { ...SCOPE_A, CODIGO: code, ...live });
    await insertRow(db, names.OPER_OPER_GRUPO, {
      ...SCOPE_A,
      OPER_GRUPO_SEQ_DB: group,
      OPER_SEQ_DB: activity,
      ...live,
    });
    return activity;
  }

  async function keyRows(activity: number) {
    return scratch().db.query(
      `SELECT ID, METRICA1, ATIVO, DELETED FROM ${names.OPER_GRUPO_METRICA} WHERE OPER_SEQ_DB = ? ORDER BY ID`,
      [activity],
    );
  }

  /** A metric row the host wrote, with the scope's next ID (saveMetrics has taken IDs the fixture does not count). */
  async function savedRow(activity: number, flags: { ATIVO: number; DELETED: number }) {
    const { db } = scratch();
    const [last] = await db.query<{ id: number }>(
      `SELECT MAX(ID) AS id FROM ${names.OPER_GRUPO_METRICA} WHERE EMPRESA = ? AND FILIAL = ? AND LOCAL = ?`,
      [SCOPE_A.EMPRESA, SCOPE_A.FILIAL, SCOPE_A.LOCAL],
    );
    await db.execute(
      `INSERT INTO ${names.OPER_GRUPO_METRICA} (EMPRESA, FILIAL, LOCAL, ID, INS_USUARIO_SEQ_DB, FOLHA_TAREFA_SEQ_DB, OPER_SEQ_DB, OPER_GRUPO_SEQ_DB, METRICA1, ATIVO, DELETED)
        VALUES (?, ?, ?, ?, 1, ?, ?, ?, '1.00', ?, ?)`,
      [
        SCOPE_A.EMPRESA,
        SCOPE_A.FILIAL,
        SCOPE_A.LOCAL,
        Number(last?.id ?? 0) + 1,
        fixture.sheet,
        activity,
        fixture.group,
        flags.ATIVO,
        flags.DELETED,
      ],
    );
  }

  it('refuses a key whose row is inactive (ATIVO=0), never inserting a second row', async () => {
    const activity = await linkedActivity(fixture.group, 'INACTIVE');
    await savedRow(activity, { ATIVO: 0, DELETED: 0 });
    await expectNothingWritten(
      () => save({ entries: [{ activity, group: fixture.group, values: { METRICA1: '2.00' } }] }),
      { name: ReadOnlyRowError.name, code: 'INACTIVE_ROW', path: 'entries.0', message: /ATIVO=0/ },
    );
    expect(await keyRows(activity)).toMatchObject([{ METRICA1: '1.00', ATIVO: 0 }]);
  });

  it('leaves a deleted row as history and gives the key a new live row', async () => {
    const activity = await linkedActivity(fixture.group, 'DELETED');
    await savedRow(activity, { ATIVO: 1, DELETED: 1 });
    const entry = { activity, group: fixture.group, values: { METRICA1: '2.00' } };
    expect(await save({ entries: [entry] })).toMatchObject({ inserted: 1, updated: 0 });
    // A second save updates the live row: the deleted one never counts as the key's row.
    expect(await save({ entries: [{ ...entry, values: { METRICA1: '3.00' } }] })).toMatchObject({
      inserted: 0,
      updated: 1,
    });
    expect(await keyRows(activity)).toMatchObject([
      { METRICA1: '1.00', DELETED: 1 },
      { METRICA1: '3.00', DELETED: 0 },
    ]);
  });

  it('refuses a link under a group the tree does not show: inactive, below an inactive group, or in a cycle', async () => {
    const { db } = scratch();
    const group = (code: string, extra: Record<string, unknown> = {}) =>
      insertRow(db, names.OPER_GRUPO, { ...SCOPE_A, CODIGO: code, ...live, ...extra });
    const off = await group('OFF', { ATIVO: 0 });
    const underOff = await group('UNDER_OFF', { OPER_GRUPO_SEQ_DB: off });
    const cycleA = await group('CYCLE_A');
    const cycleB = await group('CYCLE_B', { OPER_GRUPO_SEQ_DB: cycleA });
    await db.execute(`UPDATE ${names.OPER_GRUPO} SET OPER_GRUPO_SEQ_DB = ? WHERE SEQ_DB = ?`, [
      cycleB,
      cycleA,
    ]);
    const nested = await group('NESTED', { OPER_GRUPO_SEQ_DB: fixture.group });
    for (const hidden of [off, underOff, cycleA, cycleB]) {
      const activity = await linkedActivity(hidden, `UNDER_${hidden}`);
      await expectNothingWritten(
        () =>
          save({
            entries: [
              { activity: fixture.opers[2] ?? 0, group: fixture.group, values: { METRICA1: '1.00' } },
              { activity, group: hidden, values: { METRICA1: '2.00' } },
            ],
          }),
        {
          code: 'NOT_IN_TREE',
          path: 'entries.1',
          message: new RegExp(`node ${hidden} is not in the tree .*deleted or inactive node, or in a cycle`),
        },
      );
    }
    // A group nested under a shown group is shown: its links save.
    const activity = await linkedActivity(nested, 'NESTED');
    expect(
      await save({ entries: [{ activity, group: nested, values: { METRICA1: '2.00' } }] }),
    ).toMatchObject({
      inserted: 1,
      updated: 0,
    });
  });

  it('follows a parent chain longer than one recursive query walks (150 groups), to a root or to a hidden group', async () => {
    const { db } = scratch();
    const chain = async (top: number | null, code: string) => {
      let parent = top;
      for (let depth = 0; depth < 150; depth++) {
        parent = await insertRow(db, names.OPER_GRUPO, {
          ...SCOPE_A,
          CODIGO: `${code}${depth}`,
          OPER_GRUPO_SEQ_DB: parent,
          ...live,
        });
      }
      return parent ?? 0;
    };
    const deep = await chain(null, 'DEEP');
    const activity = await linkedActivity(deep, 'DEEP_OPER');
    expect(await save({ entries: [{ activity, group: deep, values: { METRICA1: '2.00' } }] })).toMatchObject({
      inserted: 1,
      updated: 0,
    });
    const off = await insertRow(db, names.OPER_GRUPO, {
      ...SCOPE_A,
      CODIGO: 'DEEP_OFF',
      ...live,
      DELETED: 1,
    });
    const hidden = await chain(off, 'HIDDEN');
    const hiddenActivity = await linkedActivity(hidden, 'HIDDEN_OPER');
    await expectNothingWritten(
      () => save({ entries: [{ activity: hiddenActivity, group: hidden, values: { METRICA1: '2.00' } }] }),
      { code: 'NOT_IN_TREE', path: 'entries.0' },
    );
  });

  it('refuses more entries than a PUT may carry (1000), writing nothing', async () => {
    const entry = { activity: fixture.opers[2] ?? 0, group: fixture.group, values: { METRICA1: '1.00' } };
    await expectNothingWritten(() => save({ entries: Array.from({ length: 1001 }, () => entry) }), {
      name: InvalidRequestError.name,
      code: 'INVALID_REQUEST',
      path: 'entries',
    });
  });
});

describe('saveMetrics under concurrency', () => {
  const raceSave = (db: Parameters<typeof saveMetrics>[0], activity: number, value: number) =>
    saveMetrics(db, {
      scope: SCOPE_RACE,
      user: 1000 + value,
      taskSheet: fixture.raceSheet,
      entries: [{ activity, group: fixture.raceGroup, values: { METRICA2: value } }],
      plan: planTree(names),
    });

  it('waits for the scope lock another connection holds, and leaves it free after an insert and after an update', async () => {
    const { db } = scratch();
    const name = scopeLockName(parseIdentifier(names.OPER_GRUPO_METRICA, 'table'), SCOPE_RACE);
    const free = async () =>
      Number(
        (await db.query<{ free: unknown }>(`SELECT IS_FREE_LOCK(${name.sql}) AS free`, name.params))[0]?.free,
      );
    const holder = await openDatabase(scratch().url, { connectionLimit: 1 });
    try {
      await holder.transaction(async (tx) => {
        expect(await tx.query(`SELECT GET_LOCK(${name.sql}, 0) AS got`, name.params)).toEqual([{ got: 1 }]);
        let done = false;
        const saving = raceSave(db, fixture.raceOpers[1] ?? 0, 7).then((result) => {
          done = true;
          return result;
        });
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(done).toBe(false);
        await tx.query(`SELECT RELEASE_LOCK(${name.sql})`, name.params);
        expect(await saving).toMatchObject({ inserted: 1, updated: 0 });
      });
      expect(await free()).toBe(1);
      // The same key again: an update, which lets go of the lock in its update statement.
      expect(await raceSave(db, fixture.raceOpers[1] ?? 0, 8)).toMatchObject({ inserted: 0, updated: 1 });
      expect(await free()).toBe(1);
      await db.execute(`DELETE FROM ${names.OPER_GRUPO_METRICA} WHERE EMPRESA = ?`, [SCOPE_RACE.EMPRESA]);
    } finally {
      await holder.close();
    }
  });

  /**
   * Five pools, as five processes: the saves of one pool take their turns in the process, so the
   * database's lock is what keeps the writers of different pools apart.
   */
  const openPools = () =>
    Promise.all(Array.from({ length: 5 }, () => openDatabase(scratch().url, { connectionLimit: 3 })));
  const closePools = (pools: readonly { close(): Promise<void> }[]) =>
    Promise.all(pools.map((pool) => pool.close()));

  it('takes the saves of one scope through one pool in turn, one on a connection at a time, each waiting 10 s at most', async () => {
    const name = scopeLockName(parseIdentifier(names.OPER_GRUPO_METRICA, 'table'), SCOPE_RACE);
    const db = await openDatabase(scratch().url, { connectionLimit: 4 });
    const holder = await openDatabase(scratch().url, { connectionLimit: 1 });
    try {
      const before = await metricRows(SCOPE_RACE);
      await holder.transaction(async (tx) => {
        await tx.query(`SELECT GET_LOCK(${name.sql}, 0) AS got`, name.params);
        const saving = [2, 3, 4].map((index) =>
          raceSave(db, fixture.raceOpers[index] ?? 0, index).then(
            () => 'saved',
            (error: { code?: string }) => error.code,
          ),
        );
        await new Promise((resolve) => setTimeout(resolve, 1500));
        // One save waits for the database's lock; the other two wait for their turn without a connection.
        const waiting = await scratch().db.query<{ n: number }>(
          "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE DB = DATABASE() AND ID <> CONNECTION_ID() AND INFO LIKE '%GET_LOCK(CONCAT(%'",
        );
        expect(Number(waiting[0]?.n)).toBe(1);
        // Held past every bound: the first is refused by the database's lock, the others by their turn.
        expect(await Promise.all(saving)).toEqual(['METRICS_BUSY', 'METRICS_BUSY', 'METRICS_BUSY']);
        await tx.query(`SELECT RELEASE_LOCK(${name.sql})`, name.params);
      });
      expect(await metricRows(SCOPE_RACE)).toEqual(before);
      // The turns are free again.
      expect(await raceSave(db, fixture.raceOpers[2] ?? 0, 2)).toMatchObject({ inserted: 1 });
      await db.execute(`DELETE FROM ${names.OPER_GRUPO_METRICA} WHERE EMPRESA = ?`, [SCOPE_RACE.EMPRESA]);
    } finally {
      await holder.close();
      await db.close();
    }
  }, 30_000);

  it('50 parallel saves of one key through five pools end in exactly one row holding one of the values', async () => {
    const pools = await openPools();
    try {
      const activity = fixture.raceOpers[0] ?? 0;
      const values = Array.from({ length: 50 }, (_, index) => 100 + index);
      const results = await Promise.all(
        values.map((value, index) => raceSave(pools[index % pools.length] ?? scratch().db, activity, value)),
      );
      expect(results.filter((result) => result.inserted === 1)).toHaveLength(1);
      const rows = (await metricRows(SCOPE_RACE)).filter((row) => row.OPER_SEQ_DB === activity);
      expect(rows).toHaveLength(1);
      expect(values).toContain(rows[0]?.METRICA2);
    } finally {
      await closePools(pools);
    }
  });

  it('50 parallel saves of different keys through five pools all land, with distinct IDs', async () => {
    const pools = await openPools();
    try {
      const activities = fixture.raceOpers.slice(1).concat(fixture.raceOpers.slice(0, 1));
      await Promise.all(
        activities.map((activity, index) =>
          raceSave(pools[index % pools.length] ?? scratch().db, activity, index),
        ),
      );
      const rows = await metricRows(SCOPE_RACE);
      expect(rows).toHaveLength(50);
      expect(new Set(rows.map((row) => row.ID)).size).toBe(50);
      expect(new Set(rows.map((row) => row.OPER_SEQ_DB))).toEqual(new Set(fixture.raceOpers));
      activities.forEach((activity, index) => {
        expect(rows.find((row) => row.OPER_SEQ_DB === activity)?.METRICA2).toBe(index);
      });
    } finally {
      await closePools(pools);
    }
  });
});
