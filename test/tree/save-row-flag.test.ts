import { beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../../src/model/scope.js';
import { tableNames } from '../../src/model/table-names.js';
import { planTree } from '../../src/model/tree-plan.js';
import { type SaveMetricsOptions, saveMetrics } from '../../src/tree.js';
import { useScratchDatabase } from '../support/database.js';
import {
  DEFAULTS_TREE_VIEW,
  expectRefusedWithoutWrites,
  insertGroupSheet,
  installTables,
} from './fixture.js';

// An entry's `row` flag, against the real server: a base of null cannot tell "no row was read" (the
// defaults were shown) from "a row holding NULL was read" (saved empty); the flag can.

const scratch = useScratchDatabase('save_row_flag', { hostSchema: true });
const names = tableNames();
const SCOPE: Scope = { EMPRESA: 4, FILIAL: 1, LOCAL: 1 };
/** METRICA1 defaults to the activity's INDICE (5.00), METRICA2 to 3. */
const plan = planTree(names, DEFAULTS_TREE_VIEW);
const fixture = { sheet: 0, group: 0, opers: [] as number[] };
let next = 0;
/** A fresh activity: each test works on keys no other test touched. */
const activity = () => fixture.opers[next++] ?? 0;
const ALICE = 8;
const BRUNO = 9;
const CARLA = 10;

function save(overrides: Partial<SaveMetricsOptions>) {
  return saveMetrics(scratch().db, {
    scope: SCOPE,
    user: BRUNO,
    taskSheet: fixture.sheet,
    entries: [],
    plan,
    ...overrides,
  });
}

async function stored(oper: number) {
  return scratch().db.query<{ METRICA1: string | null; METRICA2: number | null; DELETED: number }>(
    `SELECT METRICA1, METRICA2, DELETED FROM ${names.OPER_GRUPO_METRICA} WHERE OPER_SEQ_DB = ? ORDER BY ID`,
    [oper],
  );
}

/** Asserts that `work` fails as `expected` and leaves the installation's rows as they were. */
const expectNothingWritten = (work: () => Promise<unknown>, expected: object) =>
  expectRefusedWithoutWrites(scratch().db, names, work, expected);

beforeAll(async () => {
  const { db } = scratch();
  await installTables(db, names);
  Object.assign(fixture, await insertGroupSheet(db, names, SCOPE, 12, { INDICE: '5.00' }));
});

/** Alice, from the defaults, keeps METRICA1's and clears METRICA2: saved empty. */
async function aliceSavesEmpty(oper: number) {
  await save({
    user: ALICE,
    entries: [
      {
        activity: oper,
        group: fixture.group,
        values: { METRICA1: '5.00', METRICA2: null },
        base: { METRICA1: null, METRICA2: null },
        row: false,
      },
    ],
  });
}

/** Bruno, who read the defaults before Alice saved, saves every value his form shows. */
const brunoFromDefaults = (oper: number, row?: boolean) => ({
  activity: oper,
  group: fixture.group,
  values: { METRICA1: '5.00', METRICA2: 3 },
  base: { METRICA1: null, METRICA2: null },
  ...(row === undefined ? {} : { row }),
});

describe('an entry read without a row (row: false), whose key has a row now', () => {
  it('conflicts where the row holds something else, a saved NULL too, and keeps the field saved empty', async () => {
    const oper = activity();
    await aliceSavesEmpty(oper);
    await expectNothingWritten(() => save({ entries: [brunoFromDefaults(oper, false)] }), {
      code: 'METRIC_CONFLICT',
      path: 'entries.0.values.METRICA2',
      // METRICA1 holds what Bruno sends: no conflict there. METRICA2 holds NULL, saved by Alice.
      conflicts: [
        {
          entry: 0,
          field: 'METRICA2',
          base: null,
          theirs: null,
          row: true,
          yours: 3,
          changedBy: ALICE,
          changedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
        },
      ],
    });
    expect(await stored(oper)).toEqual([{ METRICA1: '5.00', METRICA2: null, DELETED: 0 }]);
    // Keep mine, from the conflict's answer: the row exists, METRICA2 holds NULL.
    await save({
      entries: [
        {
          activity: oper,
          group: fixture.group,
          values: { METRICA2: 3 },
          base: { METRICA2: null },
          row: true,
        },
      ],
    });
    expect(await stored(oper)).toEqual([{ METRICA1: '5.00', METRICA2: 3, DELETED: 0 }]);
  });

  it('names who made the row for a field it holds empty, not who changed that field in an entry removed before', async () => {
    const oper = activity();
    const entry = (values: Record<string, string | number | null>) => ({
      activity: oper,
      group: fixture.group,
      values,
    });
    await save({ user: CARLA, entries: [entry({ METRICA2: 5 })] });
    await save({ user: CARLA, entries: [{ activity: oper, group: fixture.group, remove: true }] });
    // Alice makes a new entry without Pessoas; Bruno read the defaults before.
    await save({ user: ALICE, entries: [entry({ METRICA1: '5.00' })] });
    await expectNothingWritten(() => save({ entries: [brunoFromDefaults(oper, false)] }), {
      code: 'METRIC_CONFLICT',
      conflicts: [expect.objectContaining({ field: 'METRICA2', theirs: null, row: true, changedBy: ALICE })],
    });
  });

  it('is no conflict where the row holds every value sent (the same entry made twice)', async () => {
    const oper = activity();
    await save({ user: ALICE, entries: [brunoFromDefaults(oper, false)] });
    const again = await save({ entries: [brunoFromDefaults(oper, false)] });
    expect(again).toMatchObject({ inserted: 0, updated: 0, unchanged: 1 });
  });

  it('without the flag, the bases alone decide, as before: the saved NULL is overwritten', async () => {
    const oper = activity();
    await aliceSavesEmpty(oper);
    await save({ entries: [brunoFromDefaults(oper)] });
    expect(await stored(oper)).toEqual([{ METRICA1: '5.00', METRICA2: 3, DELETED: 0 }]);
  });
});

describe('an entry read with a row (row: true), whose key has no live row now', () => {
  /** A row of 20.00 and NULL, saved by Alice, then removed by Carla. */
  async function savedThenRemoved(oper: number) {
    await save({
      user: ALICE,
      entries: [{ activity: oper, group: fixture.group, values: { METRICA1: '20.00', METRICA2: null } }],
    });
    await save({ user: CARLA, entries: [{ activity: oper, group: fixture.group, remove: true }] });
  }

  it('conflicts at every field sent, theirs none, said as removed by whoever removed it', async () => {
    const oper = activity();
    await savedThenRemoved(oper);
    await expectNothingWritten(
      () =>
        save({
          entries: [
            {
              activity: oper,
              group: fixture.group,
              values: { METRICA2: 4 },
              base: { METRICA2: null },
              row: true,
            },
          ],
        }),
      {
        code: 'METRIC_CONFLICT',
        path: 'entries.0.values.METRICA2',
        conflicts: [{ field: 'METRICA2', base: null, theirs: null, row: false, yours: 4, changedBy: CARLA }],
      },
    );
    expect(await stored(oper)).toEqual([{ METRICA1: '20.00', METRICA2: null, DELETED: 1 }]);
    // Sent again as the conflict's answer says (no row): a new row.
    await save({
      entries: [
        {
          activity: oper,
          group: fixture.group,
          values: { METRICA2: 4 },
          base: { METRICA2: null },
          row: false,
        },
      ],
    });
    expect(await stored(oper)).toEqual([
      { METRICA1: '20.00', METRICA2: null, DELETED: 1 },
      { METRICA1: null, METRICA2: 4, DELETED: 0 },
    ]);
  });

  it('conflicts too where the value sent is NULL: saved empty is not the defaults', async () => {
    const oper = activity();
    await savedThenRemoved(oper);
    await expectNothingWritten(
      () =>
        save({
          entries: [
            {
              activity: oper,
              group: fixture.group,
              values: { METRICA1: null },
              base: { METRICA1: '20.00' },
              row: true,
            },
          ],
        }),
      {
        code: 'METRIC_CONFLICT',
        conflicts: [{ field: 'METRICA1', base: '20.00', theirs: null, row: false }],
      },
    );
  });

  it('keeps ENTRY_NOT_FOUND for a remove of a row removed meanwhile', async () => {
    const oper = activity();
    await savedThenRemoved(oper);
    await expectNothingWritten(
      () => save({ entries: [{ activity: oper, group: fixture.group, remove: true, row: true }] }),
      { code: 'ENTRY_NOT_FOUND', path: 'entries.0' },
    );
  });

  it('without the flag, the bases alone decide, as before: a new row is made', async () => {
    const oper = activity();
    await savedThenRemoved(oper);
    await save({
      entries: [{ activity: oper, group: fixture.group, values: { METRICA2: 4 }, base: { METRICA2: null } }],
    });
    expect(await stored(oper)).toMatchObject([{ DELETED: 1 }, { METRICA1: null, METRICA2: 4, DELETED: 0 }]);
  });
});

describe('bad input: a clear error with its path, nothing written', () => {
  it.each([
    [{ values: { METRICA1: '1.00' }, row: 'yes' }, 'entries.0.row', /row is true .*false .*or left out/],
    [{ values: { METRICA1: '1.00' }, row: 1 }, 'entries.0.row', /row is true/],
    [{ values: { METRICA1: '1.00' }, row: null }, 'entries.0.row', /row is true/],
    [{ remove: true, row: false }, 'entries.0.row', /a remove removes the row the client read/],
  ] as const)('%j → INVALID_REQUEST at %s', async (entry, path, message) => {
    const oper = fixture.opers[11] ?? 0;
    await expectNothingWritten(
      // @ts-expect-error: bad input on purpose
      () => save({ entries: [{ activity: oper, group: fixture.group, ...entry }] }),
      { code: 'INVALID_REQUEST', path, message: expect.stringMatching(message) },
    );
  });
});
