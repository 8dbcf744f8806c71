import { beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../../src/model/scope.js';
import { tableNames } from '../../src/model/table-names.js';
import { planTree } from '../../src/model/tree-plan.js';
import { TreeView } from '../../src/model.js';
import {
  InvalidRequestError,
  loadTaskTree,
  readMetricHistory,
  type SaveMetricsOptions,
  saveMetrics,
} from '../../src/tree.js';
import { useScratchDatabase } from '../support/database.js';
import { insertGroupSheet, installTables } from './fixture.js';

// Saves into a host's metric columns of their own kinds (#25): defaults, character sets, CHAR. The
// answer says what the row holds, which the page takes as the bases of its next save; a value a
// column cannot hold is a 400 at its path, nothing written.

const scratch = useScratchDatabase('metric_columns', { hostSchema: true });
const names = tableNames();
const SCOPE: Scope = { EMPRESA: 8, FILIAL: 1, LOCAL: 1 };
const LAYERS = {
  '1': { table: names.OPER_GRUPO, associationTable: names.OPER_OPER_GRUPO },
  '2': { table: names.OPER, isTask: true },
};
/** METRICA2 NOT NULL DEFAULT 9, METRICA3 nullable DEFAULT 5, METRICA1 nullable without a default. */
const WITH_DEFAULTS = 'app_metrica_padrao';
/** METRICA3 NOT NULL without a default. */
const REQUIRED = 'app_metrica_exigida';
/** METRICA3 utf8mb3 text, METRICA4 latin1 text, METRICA5 char(5), METRICA6 utf8mb4 TINYTEXT, METRICA7 latin1 TINYTEXT, METRICA8 MEDIUMTEXT. */
const TEXTS = 'app_metrica_texto';
/** METRICA3 FLOAT, METRICA4 FLOAT(7,2), METRICA5 DOUBLE(10,2). */
const FLOATS = 'app_metrica_float';
const fixture = { sheet: 0, group: 0, opers: [] as number[] };

function planOf(table: string, fields: readonly string[]) {
  return planTree(
    names,
    TreeView.parse({
      layers: LAYERS,
      metricAssociationTable: table,
      metrics: fields.map((field) => ({ field })),
    }),
  );
}

function save(table: string, fields: readonly string[], entries: SaveMetricsOptions['entries']) {
  return saveMetrics(scratch().db, {
    scope: SCOPE,
    user: 7,
    taskSheet: fixture.sheet,
    entries,
    plan: planOf(table, fields),
  });
}

function rowsOf(table: string) {
  return scratch().db.query(
    `SELECT OPER_SEQ_DB, METRICA1, METRICA2, METRICA3 FROM ${table} WHERE IFNULL(DELETED, 0) = 0 ORDER BY ID`,
  );
}

beforeAll(async () => {
  const { db } = scratch();
  await installTables(db, names);
  Object.assign(fixture, await insertGroupSheet(db, names, SCOPE, 6));
  await db.execute(`CREATE TABLE ${WITH_DEFAULTS} LIKE ${names.OPER_GRUPO_METRICA}`);
  await db.execute(
    `ALTER TABLE ${WITH_DEFAULTS} MODIFY METRICA2 int NOT NULL DEFAULT 9, ADD METRICA3 int NULL DEFAULT 5`,
  );
  await db.execute(`CREATE TABLE ${REQUIRED} LIKE ${names.OPER_GRUPO_METRICA}`);
  await db.execute(`ALTER TABLE ${REQUIRED} ADD METRICA3 int NOT NULL`);
  await db.execute(`CREATE TABLE ${FLOATS} LIKE ${names.OPER_GRUPO_METRICA}`);
  await db.execute(
    `ALTER TABLE ${FLOATS} ADD METRICA3 float NULL, ADD METRICA4 float(7,2) NULL, ADD METRICA5 double(10,2) NULL`,
  );
  await db.execute(`CREATE TABLE ${TEXTS} LIKE ${names.OPER_GRUPO_METRICA}`);
  await db.execute(
    `ALTER TABLE ${TEXTS} ADD METRICA3 varchar(20) CHARACTER SET utf8mb3 NULL, ADD METRICA4 varchar(20) CHARACTER SET latin1 NULL, ADD METRICA5 char(5) NULL, ADD METRICA6 tinytext CHARACTER SET utf8mb4 NULL, ADD METRICA7 tinytext CHARACTER SET latin1 NULL, ADD METRICA8 mediumtext NULL`,
  );
});

const ALL = ['METRICA1', 'METRICA2', 'METRICA3'];

describe('a new row’s fields its entry leaves out', () => {
  it('take the column’s default, which the answer gives as stored and the next save takes as its base', async () => {
    const [activity = 0] = fixture.opers;
    const key = { activity, group: fixture.group };
    const first = await save(WITH_DEFAULTS, ALL, [{ ...key, values: { METRICA1: '1.00' } }]);
    expect(first.entries).toEqual([
      expect.objectContaining({ stored: { METRICA1: '1.00', METRICA2: 9, METRICA3: 5 } }),
    ]);
    expect(await rowsOf(WITH_DEFAULTS)).toEqual([
      { OPER_SEQ_DB: activity, METRICA1: '1.00', METRICA2: 9, METRICA3: 5 },
    ]);
    // Only the field the entry sent is in the history: the defaults are the table's, not the entry's.
    const history = await readMetricHistory(scratch().db, {
      scope: SCOPE,
      taskSheet: fixture.sheet,
      ...key,
      plan: planOf(WITH_DEFAULTS, ALL),
    });
    expect(history.map((change) => [change.field, change.action, change.newValue])).toEqual([
      ['METRICA1', 'insert', '1.00'],
    ]);
    // The page's next save starts from the answer's values: no conflict with itself.
    const stored = first.entries[0]?.stored ?? {};
    await expect(
      save(WITH_DEFAULTS, ALL, [
        {
          ...key,
          values: { METRICA2: 10, METRICA3: 6 },
          base: { METRICA2: stored.METRICA2 ?? null, METRICA3: stored.METRICA3 ?? null },
        },
      ]),
    ).resolves.toMatchObject({
      updated: 1,
      entries: [{ stored: { METRICA1: '1.00', METRICA2: 10, METRICA3: 6 } }],
    });
  });

  it('in a batch whose entries send different fields, each row takes the defaults of the fields its own entry leaves out', async () => {
    const [, a = 0, b = 0] = fixture.opers;
    const result = await save(WITH_DEFAULTS, ALL, [
      { activity: a, group: fixture.group, values: { METRICA1: '2.00' } },
      { activity: b, group: fixture.group, values: { METRICA2: 4, METRICA3: null } },
    ]);
    expect(result).toMatchObject({ inserted: 2 });
    expect(result.entries.map((entry) => entry.stored)).toEqual([
      { METRICA1: '2.00', METRICA2: 9, METRICA3: 5 },
      { METRICA1: null, METRICA2: 4, METRICA3: null },
    ]);
    const rows = await rowsOf(WITH_DEFAULTS);
    expect(rows.filter((row) => row.OPER_SEQ_DB === a || row.OPER_SEQ_DB === b)).toEqual([
      { OPER_SEQ_DB: a, METRICA1: '2.00', METRICA2: 9, METRICA3: 5 },
      { OPER_SEQ_DB: b, METRICA1: null, METRICA2: 4, METRICA3: null },
    ]);
    const ids = await scratch().db.query(`SELECT ID FROM ${WITH_DEFAULTS} ORDER BY ID`);
    expect(new Set(ids.map((row) => row.ID)).size).toBe(ids.length);
  });

  it('of a NOT NULL column without a default are refused at their path before anything is written', async () => {
    const [, , , activity = 0, other = 0] = fixture.opers;
    const fields = ['METRICA1', 'METRICA3'];
    const before = await rowsOf(REQUIRED);
    const refused = save(REQUIRED, fields, [
      { activity: other, group: fixture.group, values: { METRICA1: '1.00', METRICA3: 1 } },
      { activity, group: fixture.group, values: { METRICA1: '1.00' } },
    ]);
    await expect(refused).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(refused).rejects.toMatchObject({
      code: 'METRIC_VALUE_REQUIRED',
      path: 'entries.1.values.METRICA3',
      status: 400,
    });
    expect(await rowsOf(REQUIRED)).toEqual(before);
    // Sent, it is written; a row that exists may leave it out.
    await save(REQUIRED, fields, [
      { activity, group: fixture.group, values: { METRICA1: '1.00', METRICA3: 2 } },
    ]);
    await expect(
      save(REQUIRED, fields, [{ activity, group: fixture.group, values: { METRICA1: '3.00' } }]),
    ).resolves.toMatchObject({ updated: 1, entries: [{ stored: { METRICA1: '3.00', METRICA3: 2 } }] });
  });
});

describe('text metrics', () => {
  const fields = ['METRICA3', 'METRICA4', 'METRICA5'];
  const textRows = () =>
    scratch().db.query(`SELECT OPER_SEQ_DB, METRICA3, METRICA4, METRICA5 FROM ${TEXTS} ORDER BY ID`);

  it.each([
    ['an emoji for a utf8mb3 column', { METRICA3: 'ok 😀' }, 'METRICA3'],
    ['Polish for a latin1 column', { METRICA4: 'łódź' }, 'METRICA4'],
    // JSON's "\ud800": MariaDB refused the save's whole JSON table for it, a 500.
    ['half of a surrogate pair (a high one)', { METRICA5: 'ab\ud800' }, 'METRICA5'],
    ['half of a surrogate pair (a low one)', { METRICA3: '\udc00x' }, 'METRICA3'],
  ])('refuse %s with 400 at its path, writing nothing', async (_, values, field) => {
    const [activity = 0, other = 0] = fixture.opers;
    const before = await textRows();
    const refused = save(TEXTS, fields, [
      { activity: other, group: fixture.group, values: { METRICA3: 'fine' } },
      { activity, group: fixture.group, values },
    ]);
    await expect(refused).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(refused).rejects.toMatchObject({
      code: 'INVALID_METRIC_VALUE',
      path: `entries.1.values.${field}`,
      status: 400,
    });
    expect(await textRows()).toEqual(before);
  });

  it('say where the half of a surrogate pair is', async () => {
    const [activity = 0] = fixture.opers;
    await expect(
      save(TEXTS, fields, [{ activity, group: fixture.group, values: { METRICA5: 'ab\ud800' } }]),
    ).rejects.toThrow('has half of a UTF-16 surrogate pair (U+D800) at character 3, which is no character');
  });

  it('keep what their character set holds: accents in utf8mb3, cp1252’s € and quotes in latin1', async () => {
    const [activity = 0] = fixture.opers;
    const result = await save(TEXTS, fields, [
      { activity, group: fixture.group, values: { METRICA3: 'ação ₢', METRICA4: 'ação “€”' } },
    ]);
    expect(result.entries[0]?.stored).toMatchObject({ METRICA3: 'ação ₢', METRICA4: 'ação “€”' });
    expect(await textRows()).toEqual([
      { OPER_SEQ_DB: activity, METRICA3: 'ação ₢', METRICA4: 'ação “€”', METRICA5: null },
    ]);
  });

  it('answer a CHAR as a read gives it, without trailing spaces, so the next save’s base matches', async () => {
    const [, , , , activity = 0] = fixture.opers;
    const key = { activity, group: fixture.group };
    const first = await save(TEXTS, fields, [{ ...key, values: { METRICA5: 'ab  ' } }]);
    expect(first.entries[0]?.stored).toMatchObject({ METRICA5: 'ab' });
    const [row] = await scratch().db.query(`SELECT METRICA5 FROM ${TEXTS} WHERE OPER_SEQ_DB = ?`, [activity]);
    expect(row?.METRICA5).toBe('ab');
    await expect(
      save(TEXTS, fields, [
        {
          ...key,
          values: { METRICA5: 'cd' },
          base: { METRICA5: first.entries[0]?.stored?.METRICA5 ?? null },
        },
      ]),
    ).resolves.toMatchObject({ updated: 1, entries: [{ stored: { METRICA5: 'cd' } }] });
    // A base sent with the spaces it was typed with is the same stored value.
    await expect(
      save(TEXTS, fields, [{ ...key, values: { METRICA5: 'ef' }, base: { METRICA5: 'cd   ' } }]),
    ).resolves.toMatchObject({ updated: 1 });
  });
});

describe('TEXT metrics', () => {
  const fields = ['METRICA6', 'METRICA7'];
  const lengths = () =>
    scratch().db.query(
      `SELECT OPER_SEQ_DB, CHAR_LENGTH(METRICA6) AS m6, CHAR_LENGTH(METRICA7) AS m7 FROM ${TEXTS} ORDER BY ID`,
    );

  it('refuse a value longer than the column’s bytes in its character set, where it was cut behind a 200', async () => {
    const [, activity = 0, other = 0] = fixture.opers;
    const before = await lengths();
    // 200 characters, 400 bytes: MariaDB says a TINYTEXT holds 255 "characters", which are bytes.
    const refused = save(TEXTS, fields, [
      { activity: other, group: fixture.group, values: { METRICA6: 'fine' } },
      { activity, group: fixture.group, values: { METRICA6: 'é'.repeat(200) } },
    ]);
    await expect(refused).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(refused).rejects.toMatchObject({
      code: 'INVALID_METRIC_VALUE',
      path: 'entries.1.values.METRICA6',
      status: 400,
      message: expect.stringContaining("400 bytes in utf8mb4, longer than the column's 255 (tinytext)"),
    });
    expect(await lengths()).toEqual(before);
  });

  it('keep a value that fits its bytes whole, as answered: 127 é in utf8mb4, 255 in latin1', async () => {
    const [, , , activity = 0] = fixture.opers;
    const values = { METRICA6: 'é'.repeat(127), METRICA7: 'é'.repeat(255) };
    const result = await save(TEXTS, fields, [{ activity, group: fixture.group, values }]);
    expect(result.entries[0]?.stored).toEqual(values);
    const [row] = await scratch().db.query(`SELECT METRICA6, METRICA7 FROM ${TEXTS} WHERE OPER_SEQ_DB = ?`, [
      activity,
    ]);
    expect(row).toEqual(values);
  });
});

describe('a MEDIUMTEXT metric longer than the history records', () => {
  it('is refused at its path, nothing written, rather than recorded cut; one that fits is recorded whole', async () => {
    const [, , , , , activity = 0] = fixture.opers;
    const key = { activity, group: fixture.group };
    const long = `${'x'.repeat(65_534)}é`;
    await expect(save(TEXTS, ['METRICA8'], [{ ...key, values: { METRICA8: long } }])).rejects.toMatchObject({
      code: 'INVALID_METRIC_VALUE',
      path: 'entries.0.values.METRICA8',
      message: expect.stringContaining('longer than the 65535 the history records'),
    });
    const fits = 'x'.repeat(65_535);
    const first = await save(TEXTS, ['METRICA8'], [{ ...key, values: { METRICA8: fits } }]);
    expect(first.entries[0]?.stored).toEqual({ METRICA8: fits });
    const history = await readMetricHistory(scratch().db, {
      scope: SCOPE,
      taskSheet: fixture.sheet,
      ...key,
      plan: planOf(TEXTS, ['METRICA8']),
    });
    expect(history.filter((change) => change.field === 'METRICA8').map((change) => change.newValue)).toEqual([
      fits,
    ]);
  });
});

describe('FLOAT metrics', () => {
  it('are answered as the tree reads them, so editing the shown value is no conflict, and a changed one still is', async () => {
    const [activity = 0] = fixture.opers;
    const key = { activity, group: fixture.group };
    const first = await save(FLOATS, ['METRICA3'], [{ ...key, values: { METRICA3: 1234.567 } }]);
    const tree = await loadTaskTree(scratch().db, {
      scope: SCOPE,
      taskSheet: fixture.sheet,
      plan: planOf(FLOATS, ['METRICA3']),
    });
    const shown = tree.roots
      .flatMap((root) => (root.kind === 'branch' ? root.children : []))
      .find((node) => node.kind === 'task' && node.seqDb === activity);
    const value = shown?.kind === 'task' ? shown.metrics.METRICA3?.value : undefined;
    expect(first.entries[0]?.stored).toEqual({ METRICA3: value });
    // The page edits the value it shows, with it as the base.
    await expect(
      save(
        FLOATS,
        ['METRICA3'],
        [{ ...key, values: { METRICA3: 1300.5 }, base: { METRICA3: value ?? null } }],
      ),
    ).resolves.toMatchObject({ updated: 1, entries: [{ stored: { METRICA3: 1300.5 } }] });
    await expect(
      save(FLOATS, ['METRICA3'], [{ ...key, values: { METRICA3: 1 }, base: { METRICA3: value ?? null } }]),
    ).rejects.toMatchObject({ code: 'METRIC_CONFLICT' });
  });

  const fields = ['METRICA3', 'METRICA4', 'METRICA5'];
  const floatRows = () =>
    scratch().db.query(`SELECT OPER_SEQ_DB, METRICA3, METRICA4, METRICA5 FROM ${FLOATS} ORDER BY ID`);

  it.each([
    ['1e300 for a FLOAT', { METRICA3: 1e300 }, 'METRICA3', /outside the range of a float/],
    ['-3.5e38 for a FLOAT', { METRICA3: '-350000000000000000000000000000000000000' }, 'METRICA3', /range/],
    [
      '123456789 for a FLOAT(7,2)',
      { METRICA4: 123456789 },
      'METRICA4',
      /more than 5 digits before the point/,
    ],
    ['1.234 for a FLOAT(7,2)', { METRICA4: 1.234 }, 'METRICA4', /more than 2 decimal places/],
    ['123456789.5 for a DOUBLE(10,2)', { METRICA5: '123456789.5' }, 'METRICA5', /8 digits before the point/],
  ])('refuse %s with 400 at its path, writing nothing', async (_, values, field, problem) => {
    const [, , activity = 0, other = 0] = fixture.opers;
    const before = await floatRows();
    const refused = save(FLOATS, fields, [
      { activity: other, group: fixture.group, values: { METRICA3: 1 } },
      { activity, group: fixture.group, values },
    ]);
    await expect(refused).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(refused).rejects.toMatchObject({
      code: 'INVALID_METRIC_VALUE',
      path: `entries.1.values.${field}`,
      status: 400,
      message: expect.stringMatching(problem),
    });
    expect(await floatRows()).toEqual(before);
  });

  it('keep values at the edges of their ranges, answered as the tree reads them', async () => {
    const [, , , , , activity = 0] = fixture.opers;
    const key = { activity, group: fixture.group };
    const values = { METRICA3: -3.4028234663852886e38, METRICA4: 12345.67, METRICA5: '-99999999.99' };
    const first = await save(FLOATS, fields, [{ ...key, values }]);
    const tree = await loadTaskTree(scratch().db, {
      scope: SCOPE,
      taskSheet: fixture.sheet,
      plan: planOf(FLOATS, fields),
    });
    const shown = tree.roots
      .flatMap((root) => (root.kind === 'branch' ? root.children : []))
      .find((node) => node.kind === 'task' && node.seqDb === activity);
    const metrics = shown?.kind === 'task' ? shown.metrics : {};
    const read = Object.fromEntries(fields.map((field) => [field, metrics[field]?.value ?? null]));
    // 12345.67 as a FLOAT(7,2) is 12345.669921875, read at its 2 places: 6 digits would say 12345.7.
    expect(read).toEqual({ METRICA3: -3.4028234e38, METRICA4: 12345.67, METRICA5: -99999999.99 });
    expect(first.entries[0]?.stored).toEqual(read);
    await expect(
      save(FLOATS, fields, [{ ...key, values: { ...read, METRICA4: 99999.99 }, base: read }]),
    ).resolves.toMatchObject({ updated: 1, entries: [{ stored: { ...read, METRICA4: 99999.99 } }] });
  });
});
