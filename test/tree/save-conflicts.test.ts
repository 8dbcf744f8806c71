import { beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../../src/model/scope.js';
import { tableNames } from '../../src/model/table-names.js';
import { planTree } from '../../src/model/tree-plan.js';
import { TreeView } from '../../src/model.js';
import { openDatabase } from '../../src/store/mysql.js';
import { requestOf } from '../../src/tree/save-batch.js';
import {
  ConflictError,
  InvalidRequestError,
  loadTaskTree,
  MetricConflictError,
  NotFoundError,
  readMetricHistory,
  type SaveMetricsOptions,
  saveMetrics,
} from '../../src/tree.js';
import { useScratchDatabase } from '../support/database.js';
import {
  DEFAULTS_TREE_VIEW,
  everyWrittenRow,
  expectRefusedWithoutWrites,
  insertGroupSheet,
  insertRow,
  insertRows,
  installTables,
} from './fixture.js';

// What people enter is never lost or changed behind their back: saved-empty, per-field conflicts,
// removal, history and request ids, against the real server.

const scratch = useScratchDatabase('save_conflicts', { hostSchema: true });
const names = tableNames();
const live = { ATIVO: 1, DELETED: 0 };
const SCOPE: Scope = { EMPRESA: 4, FILIAL: 1, LOCAL: 1 };
const OTHER: Scope = { EMPRESA: 5, FILIAL: 1, LOCAL: 1 };
/** METRICA1 defaults to the activity's INDICE, METRICA2 to 3. */
const treeView = DEFAULTS_TREE_VIEW;
const plan = planTree(names, treeView);
const fixture = { sheet: 0, otherSheet: 0, group: 0, opers: [] as number[] };
let next = 0;
/** A fresh activity of the fixture's 40: each test works on keys no other test touched. */
const activity = () => fixture.opers[next++] ?? 0;

function save(overrides: Partial<SaveMetricsOptions>) {
  return saveMetrics(scratch().db, {
    scope: SCOPE,
    user: 7,
    taskSheet: fixture.sheet,
    entries: [],
    plan,
    ...overrides,
  });
}

async function stored(oper: number) {
  return scratch().db.query<{ METRICA1: string | null; METRICA2: number | null; SOURCE: string | null }>(
    `SELECT METRICA1, METRICA2, SOURCE, DELETED FROM ${names.OPER_GRUPO_METRICA} WHERE OPER_SEQ_DB = ? ORDER BY ID`,
    [oper],
  );
}

async function historyOf(oper: number) {
  return scratch().db.query(
    'SELECT FIELD, ACTION, OLD_VALUE, NEW_VALUE, USUARIO_SEQ_DB, SOURCE, REQUEST_ID, ROW_SEQ_DB FROM task_association_history WHERE OPER_SEQ_DB = ? ORDER BY SEQ_DB',
    [oper],
  );
}

/** Every row of the metric, history and request tables: a refused save leaves them as they were. */
const everything = () => everyWrittenRow(scratch().db, names);

/** Asserts that `work` fails as `expected` and leaves the installation's rows as they were. */
const expectNothingWritten = (work: () => Promise<unknown>, expected: object) =>
  expectRefusedWithoutWrites(scratch().db, names, work, expected);

beforeAll(async () => {
  const { db } = scratch();
  await installTables(db, names);
  Object.assign(fixture, await insertGroupSheet(db, names, SCOPE, 40, { INDICE: '5.00' }));
  [fixture.otherSheet = 0] = await insertRows(db, 'app_folha_tarefa', [{ ...OTHER, DELETED: 0 }], {
    withId: false,
  });
});

async function metricsOf(oper: number) {
  const tree = await loadTaskTree(scratch().db, { scope: SCOPE, taskSheet: fixture.sheet, plan });
  const root = tree.roots[0];
  const node = root?.kind === 'branch' ? root.children.find((child) => child.seqDb === oper) : undefined;
  return node?.kind === 'task' ? node : undefined;
}

describe('a default presets only a key without a row', () => {
  it('keeps a cleared value cleared: saved empty, never the default again', async () => {
    const oper = activity();
    expect((await metricsOf(oper))?.metrics).toEqual({
      METRICA1: { value: '5.00', source: 'default' },
      METRICA2: { value: 3, source: 'default' },
    });
    // The person clears METRICA1's preset and saves METRICA2 as shown.
    const result = await save({
      entries: [{ activity: oper, group: fixture.group, values: { METRICA1: null, METRICA2: 3 } }],
    });
    expect(result).toMatchObject({ inserted: 1, updated: 0, removed: 0, unchanged: 0, replayed: false });
    expect(result.entries).toEqual([
      {
        activity: oper,
        group: fixture.group,
        stored: { METRICA1: null, METRICA2: 3 },
        lastChange: { user: 7, at: expect.stringMatching(/Z$/) },
      },
    ]);
    const node = await metricsOf(oper);
    expect(node?.metrics).toEqual({
      METRICA1: { value: null, source: 'saved' },
      METRICA2: { value: 3, source: 'saved' },
    });
    expect(node?.lastChange).toEqual({ user: 7, at: expect.any(String) });
    // A later save of METRICA2 alone leaves METRICA1 empty: fields not sent are never written.
    await save({
      entries: [{ activity: oper, group: fixture.group, values: { METRICA2: 4 }, base: { METRICA2: 3 } }],
    });
    expect(await stored(oper)).toEqual([{ METRICA1: null, METRICA2: 4, SOURCE: 'api', DELETED: 0 }]);
  });
});

describe('per-field changes and conflicts', () => {
  it('merges two saves that change different fields of one key, in either order', async () => {
    const oper = activity();
    await save({
      entries: [{ activity: oper, group: fixture.group, values: { METRICA1: '20.00', METRICA2: 1 } }],
    });
    // Both tabs opened now, with METRICA1 20.00 and METRICA2 1.
    const a = await save({
      entries: [
        { activity: oper, group: fixture.group, values: { METRICA1: '21' }, base: { METRICA1: '20.00' } },
      ],
    });
    expect(a.entries[0]?.stored).toEqual({ METRICA1: '21.00', METRICA2: 1 });
    const b = await save({
      user: 8,
      entries: [{ activity: oper, group: fixture.group, values: { METRICA2: 2 }, base: { METRICA2: 1 } }],
    });
    expect(b.entries[0]?.stored).toEqual({ METRICA1: '21.00', METRICA2: 2 });
    expect(await stored(oper)).toMatchObject([{ METRICA1: '21.00', METRICA2: 2 }]);
  });

  it('refuses a stale change of one field, whole batch, with base, theirs (who, when) and yours', async () => {
    const [oper, other] = [activity(), activity()];
    await save({ entries: [{ activity: oper, group: fixture.group, values: { METRICA1: '30.00' } }] });
    await save({
      user: 9,
      entries: [
        { activity: oper, group: fixture.group, values: { METRICA1: '31.00' }, base: { METRICA1: '30.00' } },
      ],
    });
    let thrown: unknown;
    await expectNothingWritten(
      () =>
        save({
          entries: [
            // A change of another key in the same batch is refused with it: all or nothing.
            { activity: other, group: fixture.group, values: { METRICA2: 5 }, base: { METRICA2: null } },
            {
              activity: oper,
              group: fixture.group,
              values: { METRICA1: '32.00' },
              base: { METRICA1: '30.00' },
            },
          ],
        }).catch((error) => {
          thrown = error;
          throw error;
        }),
      { code: 'METRIC_CONFLICT', path: 'entries.1.values.METRICA1' },
    );
    expect(thrown).toBeInstanceOf(MetricConflictError);
    expect((thrown as MetricConflictError).conflicts).toEqual([
      {
        entry: 1,
        activity: oper,
        group: fixture.group,
        field: 'METRICA1',
        base: '30.00',
        theirs: '31.00',
        row: true,
        yours: '32.00',
        changedBy: 9,
        changedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      },
    ]);
    // Sent again with the stored value as its base ("keep mine"): applied.
    await save({
      entries: [
        { activity: oper, group: fixture.group, values: { METRICA1: '32.00' }, base: { METRICA1: '31.00' } },
      ],
    });
    expect(await stored(oper)).toMatchObject([{ METRICA1: '32.00' }]);
  });

  it('takes the same change made twice as no conflict, and writes nothing for a value already stored', async () => {
    const oper = activity();
    await save({ entries: [{ activity: oper, group: fixture.group, values: { METRICA1: '1.00' } }] });
    await save({
      entries: [
        { activity: oper, group: fixture.group, values: { METRICA1: '2.00' }, base: { METRICA1: '1.00' } },
      ],
    });
    const before = await historyOf(oper);
    // Another tab typed the same 2 from the same base: no conflict, nothing to write, no history.
    const again = await save({
      entries: [
        { activity: oper, group: fixture.group, values: { METRICA1: '2' }, base: { METRICA1: '1.00' } },
      ],
    });
    expect(again).toMatchObject({ inserted: 0, updated: 0, unchanged: 1 });
    expect(await historyOf(oper)).toEqual(before);
  });

  it('compares a base of a key that has no row with null: a row saved meanwhile is a conflict', async () => {
    const oper = activity();
    await save({ entries: [{ activity: oper, group: fixture.group, values: { METRICA2: 8 } }] });
    await expectNothingWritten(
      () =>
        save({
          entries: [
            { activity: oper, group: fixture.group, values: { METRICA2: 9 }, base: { METRICA2: null } },
          ],
        }),
      { code: 'METRIC_CONFLICT', conflicts: [{ base: null, theirs: 8, yours: 9, changedBy: 7 }] },
    );
  });

  it('lets a save without bases write what it sends (last writer wins, as before bases)', async () => {
    const oper = activity();
    await save({ entries: [{ activity: oper, group: fixture.group, values: { METRICA1: '1.00' } }] });
    await save({ entries: [{ activity: oper, group: fixture.group, values: { METRICA1: '3.00' } }] });
    expect(await stored(oper)).toMatchObject([{ METRICA1: '3.00' }]);
  });
});

describe('removing an entry', () => {
  it('soft-deletes the live row, after which the defaults apply again and a save inserts a new row', async () => {
    const oper = activity();
    await save({
      entries: [{ activity: oper, group: fixture.group, values: { METRICA1: '7.00', METRICA2: 1 } }],
    });
    const removed = await save({
      source: 'screen',
      entries: [
        { activity: oper, group: fixture.group, remove: true, base: { METRICA1: '7.00', METRICA2: 1 } },
      ],
    });
    expect(removed).toMatchObject({
      removed: 1,
      entries: [{ activity: oper, stored: null, lastChange: null }],
    });
    expect(await stored(oper)).toEqual([{ METRICA1: '7.00', METRICA2: 1, SOURCE: 'screen', DELETED: 1 }]);
    expect((await metricsOf(oper))?.metrics).toEqual({
      METRICA1: { value: '5.00', source: 'default' },
      METRICA2: { value: 3, source: 'default' },
    });
    await save({
      entries: [{ activity: oper, group: fixture.group, values: { METRICA2: 2 }, base: { METRICA2: null } }],
    });
    expect(await stored(oper)).toMatchObject([{ DELETED: 1 }, { METRICA1: null, METRICA2: 2, DELETED: 0 }]);
  });

  it('refuses to remove a key with no row (404), and a stale remove (409), writing nothing', async () => {
    const oper = activity();
    await expectNothingWritten(
      () => save({ entries: [{ activity: oper, group: fixture.group, remove: true }] }),
      {
        code: 'ENTRY_NOT_FOUND',
        path: 'entries.0',
      },
    );
    await expect(
      save({ entries: [{ activity: oper, group: fixture.group, remove: true }] }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await save({ entries: [{ activity: oper, group: fixture.group, values: { METRICA1: '4.00' } }] });
    await expectNothingWritten(
      () =>
        save({
          entries: [{ activity: oper, group: fixture.group, remove: true, base: { METRICA1: '3.00' } }],
        }),
      {
        code: 'METRIC_CONFLICT',
        path: 'entries.0.base.METRICA1',
        conflicts: [{ theirs: '4.00', yours: null }],
      },
    );
  });

  it('refuses to remove a read-only or inactive row, as a save', async () => {
    const { db } = scratch();
    for (const [flags, code] of [
      [{ RO: 1 }, 'READ_ONLY_ROW'],
      [{ ATIVO: 0 }, 'INACTIVE_ROW'],
    ] as const) {
      const oper = activity();
      await save({ entries: [{ activity: oper, group: fixture.group, values: { METRICA1: '1.00' } }] });
      const [column, value] = Object.entries(flags)[0] ?? [];
      await db.execute(`UPDATE ${names.OPER_GRUPO_METRICA} SET ${column} = ? WHERE OPER_SEQ_DB = ?`, [
        value,
        oper,
      ]);
      await expectNothingWritten(
        () => save({ entries: [{ activity: oper, group: fixture.group, remove: true }] }),
        {
          code,
        },
      );
    }
  });
});

describe('history', () => {
  it('records every change in the same transaction: insert, update, clear, remove, with user, source and request id', async () => {
    const oper = activity();
    await save({
      source: 'screen',
      requestId: 'r-1',
      entries: [{ activity: oper, group: fixture.group, values: { METRICA1: '1.50' } }],
    });
    await save({
      user: 8,
      entries: [{ activity: oper, group: fixture.group, values: { METRICA1: '2.50', METRICA2: 4 } }],
    });
    await save({ entries: [{ activity: oper, group: fixture.group, values: { METRICA1: null } }] });
    await save({ entries: [{ activity: oper, group: fixture.group, remove: true }] });
    const [row] = await scratch().db.query<{ SEQ_DB: number }>(
      `SELECT SEQ_DB FROM ${names.OPER_GRUPO_METRICA} WHERE OPER_SEQ_DB = ?`,
      [oper],
    );
    const ROW_SEQ_DB = row?.SEQ_DB;
    expect(await historyOf(oper)).toEqual([
      {
        FIELD: 'METRICA1',
        ACTION: 'insert',
        OLD_VALUE: null,
        NEW_VALUE: '1.50',
        USUARIO_SEQ_DB: 7,
        SOURCE: 'screen',
        REQUEST_ID: 'r-1',
        ROW_SEQ_DB,
      },
      {
        FIELD: 'METRICA1',
        ACTION: 'update',
        OLD_VALUE: '1.50',
        NEW_VALUE: '2.50',
        USUARIO_SEQ_DB: 8,
        SOURCE: 'api',
        REQUEST_ID: null,
        ROW_SEQ_DB,
      },
      {
        FIELD: 'METRICA2',
        ACTION: 'update',
        OLD_VALUE: null,
        NEW_VALUE: '4',
        USUARIO_SEQ_DB: 8,
        SOURCE: 'api',
        REQUEST_ID: null,
        ROW_SEQ_DB,
      },
      {
        FIELD: 'METRICA1',
        ACTION: 'clear',
        OLD_VALUE: '2.50',
        NEW_VALUE: null,
        USUARIO_SEQ_DB: 7,
        SOURCE: 'api',
        REQUEST_ID: null,
        ROW_SEQ_DB,
      },
      // METRICA1 was cleared before: NULL to no entry is no change, and has no row.
      {
        FIELD: 'METRICA2',
        ACTION: 'remove',
        OLD_VALUE: '4',
        NEW_VALUE: null,
        USUARIO_SEQ_DB: 7,
        SOURCE: 'api',
        REQUEST_ID: null,
        ROW_SEQ_DB,
      },
    ]);
    const changes = await readMetricHistory(scratch().db, {
      scope: SCOPE,
      taskSheet: fixture.sheet,
      activity: oper,
      group: fixture.group,
      plan,
    });
    expect(
      changes.map((change) => [
        change.field,
        change.action,
        change.oldValue,
        change.newValue,
        change.user,
        change.source,
      ]),
    ).toEqual([
      ['METRICA2', 'remove', '4', null, 7, 'api'],
      ['METRICA1', 'clear', '2.50', null, 7, 'api'],
      ['METRICA2', 'update', null, '4', 8, 'api'],
      ['METRICA1', 'update', '1.50', '2.50', 8, 'api'],
      ['METRICA1', 'insert', null, '1.50', 7, 'screen'],
    ]);
    expect(changes[0]).toMatchObject({
      activity: oper,
      group: fixture.group,
      row: ROW_SEQ_DB,
      at: expect.stringMatching(/Z$/),
      deviceAt: null,
    });
  });

  it('reads only the scope asked for, and says an unknown task sheet or bad arguments clearly', async () => {
    const { db } = scratch();
    expect(await readMetricHistory(db, { scope: OTHER, taskSheet: fixture.otherSheet, plan })).toEqual([]);
    await expect(
      readMetricHistory(db, { scope: OTHER, taskSheet: fixture.sheet, plan }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      readMetricHistory(db, { scope: SCOPE, taskSheet: fixture.sheet, limit: 0, plan }),
    ).rejects.toMatchObject({ code: 'INVALID_REQUEST', path: 'limit' });
    await expect(
      // @ts-expect-error: a string where a SEQ_DB goes
      readMetricHistory(db, { scope: SCOPE, taskSheet: fixture.sheet, activity: '1 OR 1=1', plan }),
    ).rejects.toMatchObject({ code: 'INVALID_REQUEST', path: 'activity' });
    // A node without its activity, and an activity without the node it hangs under on this
    // two-level tree, would match every activity's changes or none: refused at group.
    await expect(
      readMetricHistory(db, { scope: SCOPE, taskSheet: fixture.sheet, group: fixture.group, plan }),
    ).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
      path: 'group',
      message: expect.stringContaining('with activity'),
    });
    for (const group of [undefined, null]) {
      await expect(
        readMetricHistory(db, {
          scope: SCOPE,
          taskSheet: fixture.sheet,
          activity: fixture.opers[0] ?? 0,
          group,
          plan,
        }),
      ).rejects.toMatchObject({
        code: 'INVALID_REQUEST',
        path: 'group',
        message: expect.stringContaining('give the node the activity hangs under as group'),
      });
    }
    const oneLevel = planTree(
      names,
      TreeView.parse({ layers: { '1': { table: names.OPER, isTask: true } } }),
    );
    await expect(
      readMetricHistory(db, {
        scope: SCOPE,
        taskSheet: fixture.sheet,
        activity: 1,
        group: 2,
        plan: oneLevel,
      }),
    ).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
      path: 'group',
      message: expect.stringContaining('one level'),
    });
  });
});

describe('a key stored twice (by a writer outside the package)', () => {
  it('changes both rows alike, its bases compared with the row of lowest ID, and records each row’s change', async () => {
    const oper = activity();
    const { db } = scratch();
    await save({ entries: [{ activity: oper, group: fixture.group, values: { METRICA1: '1.00' } }] });
    await db.execute(
      `INSERT INTO ${names.OPER_GRUPO_METRICA} (EMPRESA, FILIAL, LOCAL, ID, INS_USUARIO_SEQ_DB, FOLHA_TAREFA_SEQ_DB, OPER_SEQ_DB, OPER_GRUPO_SEQ_DB, METRICA1) VALUES (?, ?, ?, 900, 3, ?, ?, ?, '9.00')`,
      [SCOPE.EMPRESA, SCOPE.FILIAL, SCOPE.LOCAL, fixture.sheet, oper, fixture.group],
    );
    const [{ SEQ_DB: shown } = { SEQ_DB: 0 }, { SEQ_DB: twin } = { SEQ_DB: 0 }] = await db.query<{
      SEQ_DB: number;
    }>(`SELECT SEQ_DB FROM ${names.OPER_GRUPO_METRICA} WHERE OPER_SEQ_DB = ? ORDER BY ID`, [oper]);
    // What the screen shows is the row of lowest ID: 1.00, the base of the change.
    const result = await save({
      entries: [
        { activity: oper, group: fixture.group, values: { METRICA1: '2.00' }, base: { METRICA1: '1.00' } },
      ],
    });
    expect(result).toMatchObject({ updated: 1, entries: [{ stored: { METRICA1: '2.00' } }] });
    expect(await stored(oper)).toMatchObject([{ METRICA1: '2.00' }, { METRICA1: '2.00' }]);
    await save({
      entries: [{ activity: oper, group: fixture.group, remove: true, base: { METRICA1: '2.00' } }],
    });
    expect(await stored(oper)).toMatchObject([{ DELETED: 1 }, { DELETED: 1 }]);
    const changes = (await historyOf(oper)).map((row) => ({
      row: Number(row.ROW_SEQ_DB),
      action: row.ACTION,
      field: row.FIELD,
      old: row.OLD_VALUE,
      now: row.NEW_VALUE,
    }));
    expect(changes).toEqual([
      { row: Number(shown), action: 'insert', field: 'METRICA1', old: null, now: '1.00' },
      { row: Number(shown), action: 'update', field: 'METRICA1', old: '1.00', now: '2.00' },
      { row: Number(twin), action: 'update', field: 'METRICA1', old: '9.00', now: '2.00' },
      { row: Number(shown), action: 'remove', field: 'METRICA1', old: '2.00', now: null },
      { row: Number(twin), action: 'remove', field: 'METRICA1', old: '2.00', now: null },
    ]);
  });
});

describe('request ids', () => {
  it.each(['utf8mb4_general_ci', 'utf8mb4_bin'])(
    'takes ids that differ only in case as one id, as UUIDs are, whatever the column collation (%s)',
    async (collation) => {
      const { db } = scratch();
      await db.execute(
        `ALTER TABLE task_association_request MODIFY REQUEST_ID varchar(64) CHARACTER SET utf8mb4 COLLATE ${collation} NOT NULL`,
      );
      const oper = activity();
      const id = `Case-${collation}`;
      const entries = [
        { activity: oper, group: fixture.group, values: { METRICA2: 3 }, base: { METRICA2: null } },
      ];
      const first = await save({ requestId: id, entries });
      expect(first).toMatchObject({ inserted: 1, replayed: false, requestId: id });
      // A retry of the same id spelled in upper case is the same request: answered, applied once,
      // the answer naming the id as this request spells it.
      const again = await save({ requestId: id.toUpperCase(), entries });
      expect(again).toEqual({ ...first, requestId: id.toUpperCase(), replayed: true });
      expect(await stored(oper)).toHaveLength(1);
      expect(await historyOf(oper)).toHaveLength(1);
      // Another body under it in lower case: the same id used for another save, refused.
      await expectNothingWritten(
        () =>
          save({
            requestId: id.toLowerCase(),
            entries: [{ ...entries[0], values: { METRICA2: 4 } }] as typeof entries,
          }),
        { code: 'REQUEST_ID_REUSED', path: 'requestId' },
      );
    },
  );

  it('answers a retry that lists the same fields in another order, or is matched by a record of the body as sent', async () => {
    const oper = activity();
    const entries = [
      {
        activity: oper,
        group: fixture.group,
        values: { METRICA1: '1.00', METRICA2: 2 },
        base: { METRICA1: null, METRICA2: null },
      },
    ];
    const first = await save({ requestId: 'order-1', entries });
    expect(first).toMatchObject({ inserted: 1, replayed: false });
    // A client that builds the body anew (from a map, say) may list the fields in another order.
    const reordered = [
      { ...entries[0], values: { METRICA2: 2, METRICA1: '1.00' }, base: { METRICA2: null, METRICA1: null } },
    ] as typeof entries;
    expect(await save({ requestId: 'order-1', entries: reordered })).toEqual({ ...first, replayed: true });
    // A record a server before the fields were ordered wrote holds the hash of the body as sent.
    const { db } = scratch();
    await db.execute("UPDATE task_association_request SET BODY_HASH = ? WHERE REQUEST_ID = 'order-1'", [
      requestOf('order-1', fixture.sheet, reordered).sentHash,
    ]);
    expect(await save({ requestId: 'order-1', entries: reordered })).toEqual({ ...first, replayed: true });
    expect(await stored(oper)).toHaveLength(1);
    expect(await historyOf(oper)).toHaveLength(2);
  });

  it('answers a replayed request id with the first answer and applies it once', async () => {
    const oper = activity();
    const entries = [
      { activity: oper, group: fixture.group, values: { METRICA2: 10 }, base: { METRICA2: null } },
    ];
    const first = await save({ requestId: 'replay-1', entries });
    expect(first).toMatchObject({ inserted: 1, replayed: false, requestId: 'replay-1' });
    const again = await save({ requestId: 'replay-1', entries });
    expect(again).toEqual({ ...first, replayed: true });
    expect(await stored(oper)).toHaveLength(1);
    expect(await historyOf(oper)).toHaveLength(1);
    // Same id, other body: refused, not answered with an answer to another question.
    await expectNothingWritten(
      () =>
        save({
          requestId: 'replay-1',
          entries: [{ ...entries[0], values: { METRICA2: 11 } }] as typeof entries,
        }),
      { code: 'REQUEST_ID_REUSED', path: 'requestId' },
    );
    await expect(
      save({
        requestId: 'replay-1',
        entries: [{ ...entries[0], values: { METRICA2: 11 } }] as typeof entries,
      }),
    ).rejects.toBeInstanceOf(ConflictError);
    // The same id in another scope is another request.
    const otherGroup = await insertRow(scratch().db, names.OPER_GRUPO, { ...OTHER, CODIGO: 'G', ...live });
    const otherOper = await insertRow(scratch().db, names.OPER, { ...OTHER, CODIGO: 'O', ...live });
    await insertRow(scratch().db, names.OPER_OPER_GRUPO, {
      ...OTHER,
      OPER_GRUPO_SEQ_DB: otherGroup,
      OPER_SEQ_DB: otherOper,
      ...live,
    });
    expect(
      await save({
        scope: OTHER,
        taskSheet: fixture.otherSheet,
        requestId: 'replay-1',
        entries: [{ activity: otherOper, group: otherGroup, values: { METRICA2: 1 } }],
      }),
    ).toMatchObject({ inserted: 1, replayed: false });
  });

  it('applies an id again once its record is past the retention, and answers racing twins of one id once', async () => {
    const { db } = scratch();
    const oper = activity();
    const entries = [{ activity: oper, group: fixture.group, values: { METRICA2: 1 } }];
    await save({ requestId: 'old-id', entries });
    await db.execute(
      "UPDATE task_association_request SET INS_DH = NOW() - INTERVAL 8 DAY WHERE REQUEST_ID = 'old-id'",
    );
    const later = [{ activity: oper, group: fixture.group, values: { METRICA2: 2 }, base: { METRICA2: 1 } }];
    expect(await save({ requestId: 'old-id', entries: later })).toMatchObject({
      updated: 1,
      replayed: false,
    });
    expect(
      await db.query("SELECT COUNT(*) AS n FROM task_association_request WHERE REQUEST_ID = 'old-id'"),
    ).toEqual([{ n: 1 }]);
    // Ten sends of one save at once (a client retrying over a flaky network): applied once.
    const pool = await openDatabase(scratch().url, { connectionLimit: 10 });
    try {
      const twin = activity();
      const body = {
        requestId: 'twins',
        entries: [{ activity: twin, group: fixture.group, values: { METRICA2: 5 } }],
      };
      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          saveMetrics(pool, { scope: SCOPE, user: 7, taskSheet: fixture.sheet, plan, ...body }),
        ),
      );
      expect(answers.filter((answer) => !answer.replayed)).toHaveLength(1);
      expect(answers.every((answer) => answer.inserted === 1)).toBe(true);
      expect(await stored(twin)).toHaveLength(1);
      expect(await historyOf(twin)).toHaveLength(1);
    } finally {
      await pool.close();
    }
  });

  it('answers a retry with the first answer before any check: after the TREE_VIEW dropped its metric too', async () => {
    const oper = activity();
    const entries = [{ activity: oper, group: fixture.group, values: { METRICA2: 4 } }];
    const first = await save({ requestId: 'before-checks', entries });
    expect(first).toMatchObject({ inserted: 1, replayed: false });
    // METRICA2 is no metric any more: the retry's entry would be 400 UNKNOWN_METRIC as a new save.
    const without = planTree(
      names,
      TreeView.parse({ layers: treeView.layers, metrics: [{ field: 'METRICA1' }] }),
    );
    const before = await everything();
    expect(await save({ plan: without, requestId: 'before-checks', entries })).toEqual({
      ...first,
      replayed: true,
    });
    // The same id with another body is still refused as reused; a new id is checked as ever.
    await expect(
      save({
        plan: without,
        requestId: 'before-checks',
        entries: [{ ...entries[0], values: { METRICA2: 5 } }] as typeof entries,
      }),
    ).rejects.toMatchObject({ code: 'REQUEST_ID_REUSED', path: 'requestId' });
    await expect(save({ plan: without, requestId: 'after-checks', entries })).rejects.toMatchObject({
      code: 'UNKNOWN_METRIC',
      path: 'entries.0.values.METRICA2',
    });
    expect(await everything()).toEqual(before);
  });

  it('records nothing of a refused save, so its id can be sent again once fixed', async () => {
    const oper = activity();
    await save({ entries: [{ activity: oper, group: fixture.group, values: { METRICA2: 1 } }] });
    const stale = [{ activity: oper, group: fixture.group, values: { METRICA2: 3 }, base: { METRICA2: 0 } }];
    await expectNothingWritten(() => save({ requestId: 'fixed-later', entries: stale }), {
      code: 'METRIC_CONFLICT',
    });
    const fixed = [{ activity: oper, group: fixture.group, values: { METRICA2: 3 }, base: { METRICA2: 1 } }];
    expect(await save({ requestId: 'fixed-later', entries: fixed })).toMatchObject({
      updated: 1,
      replayed: false,
    });
  });
});

describe('bad input: a clear error with its path, nothing written', () => {
  it.each([
    [{ values: { METRICA1: '1.00' }, base: { METRICA1: 'abc' } }, 'INVALID_BASE', 'entries.0.base.METRICA1'],
    [
      { values: { METRICA1: '1.00' }, base: { METRICA9: '1.00' } },
      'INVALID_REQUEST',
      'entries.0.base.METRICA9',
    ],
    [{ remove: true, base: { METRICA9: '1.00' } }, 'UNKNOWN_METRIC', 'entries.0.base.METRICA9'],
    [{ values: { METRICA1: '1.00' }, base: { METRICA2: 1 } }, 'INVALID_REQUEST', 'entries.0.base.METRICA2'],
    [{ values: { METRICA1: '1.00' }, remove: true }, 'INVALID_REQUEST', 'entries.0.values'],
    [{}, 'INVALID_REQUEST', 'entries.0.values'],
    [{ remove: false }, 'INVALID_REQUEST', 'entries.0.remove'],
    [{ values: { METRICA1: '1.00' }, base: { METRICA1: [1] } }, 'INVALID_REQUEST', 'entries.0.base.METRICA1'],
  ] as const)('%j → %s at %s', async (entry, code, path) => {
    const oper = fixture.opers[39] ?? 0;
    await expectNothingWritten(
      // @ts-expect-error: bad input on purpose
      () => save({ entries: [{ activity: oper, group: fixture.group, ...entry }] }),
      { code, path },
    );
  });

  it.each(['', ' ', 'a b', 'x'.repeat(65), '-leading', 'é'])(
    'refuses the request id %j',
    async (requestId) => {
      const oper = fixture.opers[39] ?? 0;
      await expectNothingWritten(
        () =>
          save({
            requestId,
            entries: [{ activity: oper, group: fixture.group, values: { METRICA1: '1.00' } }],
          }),
        { code: 'INVALID_REQUEST', path: 'requestId' },
      );
      await expect(
        save({
          requestId,
          entries: [{ activity: oper, group: fixture.group, values: { METRICA1: '1.00' } }],
        }),
      ).rejects.toBeInstanceOf(InvalidRequestError);
    },
  );
});

describe('under concurrency', () => {
  it('of 50 writers on one key, each with the base it read, applies exactly those whose base matched: no update lost, one history row per change', async () => {
    const oper = activity();
    await save({ entries: [{ activity: oper, group: fixture.group, values: { METRICA2: 0 } }] });
    const pool = await openDatabase(scratch().url, { connectionLimit: 10 });
    try {
      // Each writer reads the stored value, then writes a value of its own (index + 1) from it as its base.
      const writer = async (index: number) => {
        const [row] = await pool.query<{ METRICA2: number }>(
          `SELECT METRICA2 FROM ${names.OPER_GRUPO_METRICA} WHERE OPER_SEQ_DB = ? AND DELETED = 0`,
          [oper],
        );
        const base = Number(row?.METRICA2);
        try {
          const result = await saveMetrics(pool, {
            scope: SCOPE,
            user: 100 + index,
            taskSheet: fixture.sheet,
            plan,
            entries: [
              {
                activity: oper,
                group: fixture.group,
                values: { METRICA2: index + 1 },
                base: { METRICA2: base },
              },
            ],
          });
          expect(result.updated).toBe(1);
          return { index, base, applied: true };
        } catch (error) {
          if (error instanceof MetricConflictError) return { index, base, applied: false };
          throw error;
        }
      };
      const outcomes = await Promise.all(Array.from({ length: 50 }, (_, index) => writer(index)));
      const applied = outcomes.filter((outcome) => outcome.applied);
      expect(applied.length).toBeGreaterThanOrEqual(1);
      const history = await historyOf(oper);
      const updates = history.slice(1);
      // One history row per applied save, none for a refused one; each change starts from the value
      // the one before it stored (no update lost), and was made by the writer whose base that was.
      expect(updates).toHaveLength(applied.length);
      let current = '0';
      for (const change of updates) {
        expect(change).toMatchObject({ ACTION: 'update', OLD_VALUE: current });
        const writerIndex = Number(change.NEW_VALUE) - 1;
        expect(applied.find((outcome) => outcome.index === writerIndex)?.base).toBe(Number(current));
        expect(change.USUARIO_SEQ_DB).toBe(100 + writerIndex);
        current = String(change.NEW_VALUE);
      }
      expect(await stored(oper)).toMatchObject([{ METRICA2: Number(current) }]);
      // A refused writer's base was stale at its turn: it differs from what the chain held then.
      expect(outcomes.filter((outcome) => !outcome.applied).length).toBe(50 - applied.length);
    } finally {
      await pool.close();
    }
  });
});

describe('beside a host writer that takes MAX(ID) + 1 without our lock', () => {
  it('acknowledges each save only once it is stored, and fails none with a raw driver error', async () => {
    const { db } = scratch();
    const pool = await openDatabase(scratch().url, { connectionLimit: 8 });
    const host = await openDatabase(scratch().url, { connectionLimit: 2 });
    const keys = await insertRows(
      db,
      names.OPER,
      Array.from({ length: 120 }, (_, index) => ({ ...SCOPE, CODIGO: `H${index}`, ...live })),
    );
    for (const oper of keys) {
      await insertRow(db, names.OPER_OPER_GRUPO, {
        ...SCOPE,
        OPER_GRUPO_SEQ_DB: fixture.group,
        OPER_SEQ_DB: oper,
        ...live,
      });
    }
    let writing = true;
    const hostErrors = new Set<string>();
    // The host's own screen: rows of another task sheet with the next ID it reads, no lock taken.
    const hostWriter = async () => {
      while (writing) {
        await host
          .execute(
            `INSERT INTO ${names.OPER_GRUPO_METRICA} (EMPRESA, FILIAL, LOCAL, ID, INS_USUARIO_SEQ_DB, FOLHA_TAREFA_SEQ_DB, OPER_SEQ_DB, OPER_GRUPO_SEQ_DB)
             SELECT ?, ?, ?, IFNULL(MAX(ID), 0) + 1, 1, ?, ?, ? FROM ${names.OPER_GRUPO_METRICA} WHERE EMPRESA = ? AND FILIAL = ? AND LOCAL = ?`,
            [
              SCOPE.EMPRESA,
              SCOPE.FILIAL,
              SCOPE.LOCAL,
              fixture.otherSheet,
              keys[0],
              fixture.group,
              SCOPE.EMPRESA,
              SCOPE.FILIAL,
              SCOPE.LOCAL,
            ],
          )
          .catch((error: { code?: string }) => hostErrors.add(String(error.code)));
      }
    };
    const hosts = [hostWriter(), hostWriter()];
    try {
      const outcomes = await Promise.all(
        keys.map((oper) =>
          saveMetrics(pool, {
            scope: SCOPE,
            user: 7,
            taskSheet: fixture.sheet,
            plan,
            entries: [{ activity: oper, group: fixture.group, values: { METRICA2: 1 } }],
          }).then(
            () => 'saved',
            (error: unknown) => {
              // Colliding with the host is retried; past every retry it is the package's METRICS_BUSY.
              expect(error).toMatchObject({ code: 'METRICS_BUSY' });
              return 'busy';
            },
          ),
        ),
      );
      writing = false;
      await Promise.all(hosts);
      const saved = keys.filter((_, index) => outcomes[index] === 'saved');
      console.log(
        `beside a host writer: ${saved.length} of ${keys.length} saved; the host's own inserts failed with ${[...hostErrors].join(', ') || 'nothing'}`,
      );
      const rows = await db.query<{ OPER_SEQ_DB: number; n: number }>(
        `SELECT OPER_SEQ_DB, COUNT(*) AS n FROM ${names.OPER_GRUPO_METRICA} WHERE FOLHA_TAREFA_SEQ_DB = ? AND OPER_SEQ_DB IN (${keys.map(() => '?').join(', ')}) GROUP BY OPER_SEQ_DB`,
        [fixture.sheet, ...keys],
      );
      const stored = new Map(rows.map((row) => [Number(row.OPER_SEQ_DB), Number(row.n)]));
      for (const oper of saved) expect(stored.get(oper), `activity ${oper}`).toBe(1);
      expect(rows).toHaveLength(saved.length);
    } finally {
      writing = false;
      await Promise.all(hosts);
      await pool.close();
      await host.close();
    }
  });
});

describe('a database whose shared tables predate this version', () => {
  it.each(['task_association_history', 'task_association_request'])(
    'says %s is missing and how to create it, writing nothing',
    async (table) => {
      const { db } = scratch();
      const oper = fixture.opers[38] ?? 0;
      await db.execute(`RENAME TABLE ${table} TO ${table}_away`);
      try {
        const before = await db.query(`SELECT * FROM ${names.OPER_GRUPO_METRICA} ORDER BY SEQ_DB`);
        await expect(
          save({
            requestId: 'r',
            entries: [{ activity: oper, group: fixture.group, values: { METRICA1: '1.00' } }],
          }),
        ).rejects.toMatchObject({
          code: 'HISTORY_TABLE_MISSING',
          path: table,
          message: expect.stringContaining('task-association db sync'),
        });
        expect(await db.query(`SELECT * FROM ${names.OPER_GRUPO_METRICA} ORDER BY SEQ_DB`)).toEqual(before);
      } finally {
        await db.execute(`RENAME TABLE ${table}_away TO ${table}`);
      }
    },
  );

  it('says the history table is missing when the history is read, not a driver error', async () => {
    const { db } = scratch();
    await db.execute('RENAME TABLE task_association_history TO task_association_history_away');
    try {
      await expect(
        readMetricHistory(db, {
          scope: SCOPE,
          taskSheet: fixture.sheet,
          activity: fixture.opers[0] ?? 0,
          group: fixture.group,
          plan,
        }),
      ).rejects.toMatchObject({
        code: 'HISTORY_TABLE_MISSING',
        path: 'task_association_history',
        message: expect.stringMatching(/task-association db sync.*there is no history to read until then/),
      });
    } finally {
      await db.execute('RENAME TABLE task_association_history_away TO task_association_history');
    }
  });
});
