// Saving metrics: ours (saveMetrics, with every check and lock it takes) against the floor, the least a
// hand-written save could send for the same rows: one transaction holding one multi-row
// INSERT ... ON DUPLICATE KEY UPDATE on the metric table's primary key, the IDs already known (the
// floor checks nothing, locks nothing else and never looks a key up). Batches of 1, 100 and 1000
// entries, inserts and updates, on a task sheet of 100,000 saved rows; then a one-entry update on task
// sheets holding 1, 10,000 and 100,000 saved rows (all in one scope). Run with `npm run bench:save`;
// the last three lines are the figures.
//
// The guarded floor is the least a hand-written save could send with the same guarantees as ours
// (issue #25): the scope's named lock, a locking read of the batch's keys with each field's base
// compared, the write, one history row per changed field, the release and the commit, each a plain
// statement on one connection (ours also checks the tree, the task sheet and the flags in its read).
// Ours sends the screen's save: only the changed field, with its base.
//
// The checked floor is the guarded floor with the checks ours makes besides (issue #25's figure is
// against the guarded floor, which leaves them out): the task sheet live in the scope, each activity live
// and linked to its group, each group's chain of parents live up to a root, and RO / ATIVO of the
// keys' rows, as a hand-writer would send them: three plain statements after the lock, the flags in
// the locking read. What ours costs over the guarded floor that the checked floor also costs is the
// price of those checks, not of the way ours makes them.
//
// Beside them, the skeleton: our own transaction with every check taken out (the named lock, the
// locking read of the batch's keys, the update or insert, the release, the commit; the statements
// saveMetrics sends, built by the same functions). What it costs over the floor is what any save that
// looks its keys up and serialises its writers pays before checking anything, so it bounds from
// below what the checks may add.

import { performance } from 'node:perf_hooks';
import { parseIdentifier } from '../src/model/identifier.js';
import { tableNames } from '../src/model/table-names.js';
import { planTree } from '../src/model/tree-plan.js';
import { metricTableShape } from '../src/store/metric-table.js';
import {
  insertStatement,
  lockKeysStatement,
  releaseStatement,
  scopeLockName,
  takeLockStatement,
  updateStatements,
} from '../src/store/metric-writes.js';
import { createScratchDatabase } from '../src/store/scratch.js';
import { runSqlFile } from '../src/store/script.js';
import { type MetricEntry, saveMetrics } from '../src/tree.js';
import { HOST_SCHEMA_FILE, SERVER_URL } from '../test/support/database.js';
import { insertRow, insertRows, installTables, SCOPE_A } from '../test/tree/fixture.js';
import { loadLine, median, spread, timed } from './report.js';

const SHEET_SIZES = [1, 10_000, 100_000] as const;
const BATCHES = [1, 100, 1000] as const;
/** Saves timed per round and case, so a round of small batches lasts long enough to mean something. */
const REPEATS: Record<number, number> = { 1: 40, 100: 8, 1000: 3 };
const ROUNDS = 5;
const GROUPS = 100;
const USER = 7;

const names = tableNames();
const table = names.OPER_GRUPO_METRICA;
const live = { ...SCOPE_A, ATIVO: 1, DELETED: 0 };
const scope = [SCOPE_A.EMPRESA, SCOPE_A.FILIAL, SCOPE_A.LOCAL];

interface Key {
  readonly activity: number;
  readonly group: number;
}

const scratch = await createScratchDatabase(SERVER_URL, 'bench_save');
try {
  const { db } = scratch;
  const started = performance.now();
  await runSqlFile(scratch.url, HOST_SCHEMA_FILE);
  await installTables(db, names);
  const root = await insertRow(db, names.OPER_GRUPO, { ...live, CODIGO: 'ROOT' });
  const groups = await insertRows(
    db,
    names.OPER_GRUPO,
    Array.from({ length: GROUPS }, (_, index) => ({ ...live, CODIGO: `G${index}`, OPER_GRUPO_SEQ_DB: root })),
  );
  const largest = Math.max(...SHEET_SIZES);
  const maxBatch = Math.max(...BATCHES);
  const activities = await insertRows(
    db,
    names.OPER,
    Array.from({ length: largest + maxBatch }, (_, index) => ({ ...live, CODIGO: `O${index}` })),
  );
  const keys: Key[] = activities.map((activity, index) => ({ activity, group: groups[index % GROUPS] ?? 0 }));
  await insertRows(
    db,
    names.OPER_OPER_GRUPO,
    keys.map((key) => ({ ...live, OPER_GRUPO_SEQ_DB: key.group, OPER_SEQ_DB: key.activity })),
  );
  const sheets = await insertRows(
    db,
    'app_folha_tarefa',
    SHEET_SIZES.map(() => ({ ...SCOPE_A, DELETED: 0 })),
    { withId: false },
  );
  for (const [index, size] of SHEET_SIZES.entries()) {
    await insertRows(
      db,
      table,
      keys.slice(0, size).map((key) => ({
        ...live,
        FOLHA_TAREFA_SEQ_DB: sheets[index],
        OPER_SEQ_DB: key.activity,
        OPER_GRUPO_SEQ_DB: key.group,
        METRICA1: '1.00',
      })),
    );
  }
  await db.execute(`ANALYZE TABLE ${table}`);
  const savedRows = SHEET_SIZES.reduce((sum, size) => sum + size, 0);
  console.log(
    `installation: ${groups.length + 1} groups, ${activities.length.toLocaleString('en')} activities and links, task sheets of ${SHEET_SIZES.map((size) => size.toLocaleString('en')).join(', ')} saved rows (${savedRows.toLocaleString('en')} metric rows in the scope), generated in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  console.log(`start: ${loadLine()}`);

  /** The ID of each saved key of a task sheet, for the floor, which never looks one up. */
  const idsOf = async (sheet: number): Promise<Map<number, number>> => {
    const rows = await db.query<{ ID: number; OPER_SEQ_DB: number }>(
      `SELECT ID, OPER_SEQ_DB FROM ${table} WHERE EMPRESA = ? AND FILIAL = ? AND LOCAL = ? AND FOLHA_TAREFA_SEQ_DB = ?`,
      [...scope, sheet],
    );
    return new Map(rows.map((row) => [Number(row.OPER_SEQ_DB), Number(row.ID)]));
  };
  const lastId = async (): Promise<number> => {
    const [row] = await db.query<{ id: number | null }>(
      `SELECT MAX(ID) AS id FROM ${table} WHERE EMPRESA = ? AND FILIAL = ? AND LOCAL = ?`,
      scope,
    );
    return Number(row?.id ?? 0);
  };
  /** Takes back the rows an insert round added (untimed), so every round inserts the same keys. */
  const removeAfter = (id: number) =>
    db.execute(`DELETE FROM ${table} WHERE EMPRESA = ? AND FILIAL = ? AND LOCAL = ? AND ID > ?`, [
      ...scope,
      id,
    ]);

  let counter = 0;
  const nextValue = () => `${((++counter % 99_999) + 1) / 100}`;
  /**
   * What each saved key of each task sheet holds now: the base the next save of it starts from,
   * whichever side wrote last (the cases' keys overlap). Keys of an insert case have no row: null.
   */
  const held = new Map<string, string>();
  const baseOf = (sheet: number, key: Key) => held.get(`${sheet}:${key.activity}`) ?? '1.00';
  const hold = (sheet: number, batch: readonly Key[], value: string) => {
    for (const key of batch) held.set(`${sheet}:${key.activity}`, value);
  };
  const ours = async (sheet: number, batch: readonly Key[], inserting: boolean) => {
    const value = nextValue();
    const entries: MetricEntry[] = batch.map((key) => ({
      ...key,
      values: { METRICA1: value },
      base: { METRICA1: inserting ? null : baseOf(sheet, key) },
    }));
    await saveMetrics(db, {
      scope: SCOPE_A,
      user: USER,
      taskSheet: sheet,
      entries,
      plan: planTree(names),
      source: 'screen',
    });
    if (!inserting) hold(sheet, batch, value);
  };
  const scopeSql = (alias: string) => `${alias}.EMPRESA = ? AND ${alias}.FILIAL = ? AND ${alias}.LOCAL = ?`;
  const liveSql = (alias: string) => `IFNULL(${alias}.DELETED, 0) = 0 AND IFNULL(${alias}.ATIVO, 1) = 1`;
  /** The checked floor's checks (see the top of the file), each a plain statement. */
  const handChecks = async (
    connection: Awaited<ReturnType<typeof db.pool.getConnection>>,
    sheet: number,
    batch: readonly Key[],
  ) => {
    const [sheets] = (await connection.query(
      `SELECT 1 FROM app_folha_tarefa t WHERE t.SEQ_DB = ? AND ${scopeSql('t')} AND ${liveSql('t')}`,
      [sheet, ...scope],
    )) as unknown as [unknown[]];
    if (sheets.length !== 1) throw new Error('no such task sheet');
    const [links] = (await connection.query(
      `SELECT a.OPER_SEQ_DB, a.OPER_GRUPO_SEQ_DB FROM ${names.OPER_OPER_GRUPO} a JOIN ${names.OPER} t ON t.SEQ_DB = a.OPER_SEQ_DB
       WHERE ${scopeSql('a')} AND ${liveSql('a')} AND ${scopeSql('t')} AND ${liveSql('t')} AND a.OPER_SEQ_DB IN (?)`,
      [...scope, ...scope, batch.map((key) => key.activity)],
    )) as unknown as [{ OPER_SEQ_DB: number; OPER_GRUPO_SEQ_DB: number }[]];
    const linked = new Set(links.map((row) => `${row.OPER_SEQ_DB}:${row.OPER_GRUPO_SEQ_DB}`));
    if (batch.some((key) => !linked.has(`${key.activity}:${key.group}`))) throw new Error('not linked');
    const groups = [...new Set(batch.map((key) => key.group))];
    const [shown] = (await connection.query(
      `WITH RECURSIVE up (start, parent, depth) AS (
         SELECT g.SEQ_DB, g.OPER_GRUPO_SEQ_DB, 0 FROM ${names.OPER_GRUPO} g WHERE g.SEQ_DB IN (?) AND ${scopeSql('g')} AND ${liveSql('g')}
         UNION ALL
         SELECT up.start, g.OPER_GRUPO_SEQ_DB, up.depth + 1 FROM up JOIN ${names.OPER_GRUPO} g ON g.SEQ_DB = up.parent
         WHERE up.depth < 100 AND ${scopeSql('g')} AND ${liveSql('g')})
       SELECT start FROM up WHERE parent IS NULL`,
      [groups, ...scope, ...scope],
    )) as unknown as [{ start: number }[]];
    const reached = new Set(shown.map((row) => Number(row.start)));
    if (groups.some((group) => !reached.has(group))) throw new Error('group not shown');
  };
  const lockName = `task_association:${table}:${scope.join('/')}`;
  /** The hand-written save with the same guarantees (see the top of the file). */
  const guarded = async (sheet: number, batch: readonly Key[], inserting: boolean, checked = false) => {
    const value = nextValue();
    const connection = await db.pool.getConnection();
    try {
      await connection.beginTransaction();
      const [[locked]] = (await connection.query('SELECT GET_LOCK(?, 1) AS locked', [
        lockName,
      ])) as unknown as [[{ locked: number }]];
      if (Number(locked?.locked) !== 1) throw new Error('busy');
      if (checked) await handChecks(connection, sheet, batch);
      // The keys' rows through the key index by activity (a range per id; row constructors in an IN
      // list are not always a range on MariaDB), their group checked here.
      const [rows] = (await connection.query(
        `SELECT ID, SEQ_DB, OPER_SEQ_DB, OPER_GRUPO_SEQ_DB, METRICA1${checked ? ', RO, ATIVO' : ''} FROM ${table} WHERE EMPRESA = ? AND FILIAL = ? AND LOCAL = ? AND FOLHA_TAREFA_SEQ_DB = ?
           AND OPER_SEQ_DB IN (?) AND IFNULL(DELETED, 0) = 0 FOR UPDATE`,
        [...scope, sheet, batch.map((key) => key.activity)],
      )) as unknown as [
        {
          ID: number;
          SEQ_DB: number;
          OPER_SEQ_DB: number;
          OPER_GRUPO_SEQ_DB: number;
          METRICA1: string | null;
          RO?: number | null;
          ATIVO?: number | null;
        }[],
      ];
      if (rows.some((row) => Number(row.RO ?? 0) === 1 || Number(row.ATIVO ?? 1) === 0))
        throw new Error('read-only');
      const groupOf = new Map(batch.map((key) => [key.activity, key.group]));
      const found = new Map(
        rows
          .filter((row) => groupOf.get(Number(row.OPER_SEQ_DB)) === Number(row.OPER_GRUPO_SEQ_DB))
          .map((row) => [Number(row.OPER_SEQ_DB), row]),
      );
      for (const key of batch) {
        const row = found.get(key.activity);
        const base = inserting ? null : Number(baseOf(sheet, key));
        if ((row?.METRICA1 == null ? null : Number(row.METRICA1)) !== base) throw new Error('conflict');
      }
      const history: unknown[][] = [];
      const updated = batch.flatMap((key) => {
        const row = found.get(key.activity);
        return row === undefined ? [] : [{ key, row }];
      });
      if (updated.length > 0) {
        await connection.execute(
          `UPDATE ${table} SET METRICA1 = ?, UPD_USUARIO_SEQ_DB = ?, SOURCE = 'screen' WHERE EMPRESA = ? AND FILIAL = ? AND LOCAL = ? AND ID IN (${updated.map(() => '?').join(', ')})`,
          [value, USER, ...scope, ...updated.map(({ row }) => row.ID)],
        );
        for (const { key, row } of updated) history.push([row.SEQ_DB, key, 'update', row.METRICA1]);
      }
      const added = batch.filter((key) => !found.has(key.activity));
      if (added.length > 0) {
        const [[last]] = (await connection.query(
          `SELECT IFNULL(MAX(ID), 0) AS id FROM ${table} WHERE EMPRESA = ? AND FILIAL = ? AND LOCAL = ?`,
          scope,
        )) as unknown as [[{ id: number }]];
        const [result] = (await connection.query(
          `INSERT INTO ${table} (EMPRESA, FILIAL, LOCAL, ID, INS_USUARIO_SEQ_DB, FOLHA_TAREFA_SEQ_DB, OPER_SEQ_DB, OPER_GRUPO_SEQ_DB, SOURCE, METRICA1)
           VALUES ${added.map(() => "(?, ?, ?, ?, ?, ?, ?, ?, 'screen', ?)").join(', ')}`,
          added.flatMap((key, index) => [
            ...scope,
            Number(last?.id) + 1 + index,
            USER,
            sheet,
            key.activity,
            key.group,
            value,
          ]),
        )) as unknown as [{ insertId: number }];
        // One multi-row INSERT takes consecutive SEQ_DBs here (one writer, autoinc lock mode 1).
        added.forEach((key, index) => {
          history.push([result.insertId + index, key, 'insert', null]);
        });
      }
      await connection.query(
        `INSERT INTO task_association_history (EMPRESA, FILIAL, LOCAL, METRIC_TABLE, ROW_SEQ_DB, FOLHA_TAREFA_SEQ_DB, OPER_SEQ_DB, OPER_GRUPO_SEQ_DB, FIELD, ACTION, OLD_VALUE, NEW_VALUE, USUARIO_SEQ_DB, SOURCE)
         VALUES ${history.map(() => "(?, ?, ?, ?, ?, ?, ?, ?, 'METRICA1', ?, ?, ?, ?, 'screen')").join(', ')}`,
        history.flatMap(([seq, key, action, old]) => [
          ...scope,
          table,
          seq,
          sheet,
          (key as Key).activity,
          (key as Key).group,
          action,
          old,
          value,
          USER,
        ]),
      );
      await connection.query('DO RELEASE_LOCK(?)', [lockName]);
      await connection.commit();
      if (!inserting) hold(sheet, batch, value);
    } catch (error) {
      await connection.rollback();
      await connection.query('DO RELEASE_LOCK(?)', [lockName]);
      throw error;
    } finally {
      connection.release();
    }
  };
  const floor = async (sheet: number, batch: readonly Key[], ids: readonly number[], inserting: boolean) => {
    const value = nextValue();
    if (!inserting) hold(sheet, batch, value);
    const connection = await db.pool.getConnection();
    try {
      await connection.beginTransaction();
      await connection.query(
        `INSERT INTO ${table} (EMPRESA, FILIAL, LOCAL, ID, INS_USUARIO_SEQ_DB, FOLHA_TAREFA_SEQ_DB, OPER_SEQ_DB, OPER_GRUPO_SEQ_DB, METRICA1)
         VALUES ${batch.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}
         ON DUPLICATE KEY UPDATE METRICA1 = VALUES(METRICA1), UPD_USUARIO_SEQ_DB = VALUES(INS_USUARIO_SEQ_DB)`,
        batch.flatMap((key, index) => [...scope, ids[index], USER, sheet, key.activity, key.group, value]),
      );
      await connection.commit();
    } catch (error) {
      await connection.rollback();
      throw error;
    } finally {
      connection.release();
    }
  };

  const { keyIndex } = await metricTableShape(db, table);
  const metric = parseIdentifier('METRICA1', 'metric column');
  /** saveMetrics' transaction without its checks: lock, look the keys up, write, release, commit. */
  const skeleton = (sheet: number, batch: readonly Key[], inserting: boolean) => {
    const value = nextValue();
    const values = new Map([[metric, value]]);
    if (!inserting) hold(sheet, batch, value);
    return db.transaction(async (tx) => {
      const lock = { name: scopeLockName(table, SCOPE_A), timeoutSeconds: 1 };
      const take = takeLockStatement(lock);
      const [taken] = await tx.query<{ locked: unknown }>(take.sql, take.params, { prepare: true });
      if (Number(taken?.locked) !== 1) throw new Error('busy');
      const read = lockKeysStatement(table, SCOPE_A, sheet, batch, keyIndex);
      const rows = await tx.query<{ ID: unknown; OPER_SEQ_DB: unknown }>(read.sql, read.params, {
        prepare: true,
      });
      const found = new Map(
        rows.flatMap((row) => (row.ID === null ? [] : [[Number(row.OPER_SEQ_DB), Number(row.ID)] as const])),
      );
      const inserts = batch.filter((key) => !found.has(key.activity)).map((key) => ({ ...key, values }));
      const updates = batch.flatMap((key) => {
        const id = found.get(key.activity);
        return id === undefined ? [] : [{ ids: [id], values }];
      });
      const release = inserts.length === 0 ? lock : undefined;
      for (const statement of updateStatements(table, SCOPE_A, USER, updates, release)) {
        await tx.execute(statement.sql, statement.params, { prepare: true });
      }
      if (inserts.length > 0) {
        const statement = insertStatement(table, SCOPE_A, USER, sheet, inserts);
        await tx.execute(statement.sql, statement.params, { prepare: true });
        const released = releaseStatement(lock);
        await tx.query(released.sql, released.params);
      }
    });
  };

  const bigSheet = sheets[SHEET_SIZES.length - 1] ?? 0;
  const bigIds = await idsOf(bigSheet);
  /** `size` saved keys spread over the sheet, and `size` keys the sheet has no row for. */
  const updateKeys = (size: number) =>
    Array.from(
      { length: size },
      (_, index) => keys[Math.floor((index * largest) / size) + 7] ?? keys[0],
    ) as Key[];
  const insertKeys = (size: number) => keys.slice(largest, largest + size);

  type Side = 'ours' | 'guarded' | 'checked' | 'skeleton' | 'floor';
  type Case = { label: string; run: (side: Side) => Promise<number> };
  const save = (
    side: Side,
    sheet: number,
    batch: readonly Key[],
    ids: readonly number[],
    inserting = false,
  ) =>
    side === 'ours'
      ? ours(sheet, batch, inserting)
      : side === 'guarded' || side === 'checked'
        ? guarded(sheet, batch, inserting, side === 'checked')
        : side === 'skeleton'
          ? skeleton(sheet, batch, inserting)
          : floor(sheet, batch, ids, inserting);
  const cases: Case[] = [];
  for (const size of BATCHES) {
    const repeats = REPEATS[size] ?? 1;
    const inserting = insertKeys(size);
    cases.push({
      label: `insert_${size}`,
      run: async (side) => {
        let total = 0;
        for (let repeat = 0; repeat < repeats; repeat++) {
          const before = await lastId();
          const ids = inserting.map((_, index) => before + 1 + index);
          total += await timed(() => save(side, bigSheet, inserting, ids, true));
          await removeAfter(before);
        }
        return total / repeats;
      },
    });
    const updating = updateKeys(size);
    const ids = updating.map((key) => bigIds.get(key.activity) ?? 0);
    cases.push({
      label: `update_${size}`,
      run: async (side) => {
        let total = 0;
        for (let repeat = 0; repeat < repeats; repeat++) {
          total += await timed(() => save(side, bigSheet, updating, ids));
        }
        return total / repeats;
      },
    });
  }
  for (const [index, size] of SHEET_SIZES.entries()) {
    const sheet = sheets[index] ?? 0;
    const key = keys[Math.floor(size / 2)] ?? keys[0];
    if (key === undefined) throw new Error('no keys generated');
    const ids = [(await idsOf(sheet)).get(key.activity) ?? 0];
    // One array for the case: the base of its next save is kept by it.
    const batch = [key];
    const repeats = REPEATS[1] ?? 1;
    cases.push({
      label: `sheet_${size}`,
      run: async (side) => {
        let total = 0;
        for (let repeat = 0; repeat < repeats; repeat++) {
          total += await timed(() => save(side, sheet, batch, ids));
        }
        return total / repeats;
      },
    });
  }

  // Warm-up (connections, server caches, JIT), then rounds; the sides rotate which goes first.
  const sides = ['ours', 'guarded', 'checked', 'skeleton', 'floor'] as const;
  for (const item of cases) {
    for (const side of sides) await item.run(side);
  }
  const times = new Map(
    cases.map((item) => [
      item.label,
      {
        ours: [] as number[],
        guarded: [] as number[],
        checked: [] as number[],
        skeleton: [] as number[],
        floor: [] as number[],
      },
    ]),
  );
  for (let round = 0; round < ROUNDS; round++) {
    for (const item of cases) {
      const entry = times.get(item.label);
      if (entry === undefined) continue;
      for (let step = 0; step < sides.length; step++) {
        const side = sides[(step + round) % sides.length] ?? 'ours';
        entry[side].push(await item.run(side));
      }
    }
  }

  const ratios = new Map<string, number[]>();
  const guardedRatios = new Map<string, number[]>();
  const checkedRatios = new Map<string, number[]>();
  const skeletonRatios = new Map<string, number[]>();
  for (const item of cases) {
    const entry = times.get(item.label);
    if (entry === undefined) continue;
    const perRound = entry.ours.map((time, round) => time / (entry.floor[round] ?? Number.NaN));
    const guardedPerRound = entry.ours.map((time, round) => time / (entry.guarded[round] ?? Number.NaN));
    const checkedPerRound = entry.ours.map((time, round) => time / (entry.checked[round] ?? Number.NaN));
    checkedRatios.set(item.label, checkedPerRound);
    const skeletonPerRound = entry.skeleton.map((time, round) => time / (entry.floor[round] ?? Number.NaN));
    ratios.set(item.label, perRound);
    guardedRatios.set(item.label, guardedPerRound);
    skeletonRatios.set(item.label, skeletonPerRound);
    console.log(
      `${item.label.padEnd(13)} ours ${spread(entry.ours)} ms, guarded floor ${spread(entry.guarded)} ms, checked floor ${spread(entry.checked)} ms, skeleton ${spread(entry.skeleton)} ms, blind floor ${spread(entry.floor)} ms; ours / guarded ${spread(guardedPerRound)}, ours / checked ${spread(checkedPerRound)}, ours / blind ${spread(perRound)}, skeleton / blind ${spread(skeletonPerRound)}`,
    );
  }
  const oursAt = (size: number) => median(times.get(`sheet_${size}`)?.ours ?? []);
  const growthRounds = (times.get(`sheet_${largest}`)?.ours ?? []).map(
    (time, round) => time / (times.get('sheet_1')?.ours[round] ?? Number.NaN),
  );
  console.log(
    `one-entry update: ${SHEET_SIZES.map((size) => `${oursAt(size).toFixed(2)} ms at ${size.toLocaleString('en')} saved rows`).join(', ')}; at ${largest.toLocaleString('en')} over at 1: ${spread(growthRounds)}`,
  );
  console.log(
    `end: ${loadLine()}; medians of ${ROUNDS} rounds, each the mean of ${REPEATS[1]} / ${REPEATS[100]} / ${REPEATS[1000]} saves for 1 / 100 / 1000 entries`,
  );
  const batchLabels = BATCHES.flatMap((size) => [`insert_${size}`, `update_${size}`]);
  console.log(
    `skeleton (no checks) / blind floor: ${batchLabels.map((label) => `${label}=${median(skeletonRatios.get(label) ?? []).toFixed(2)}`).join(' ')}`,
  );
  console.log(
    `ours / guarded floor (goal <= 1.3): ${batchLabels.map((label) => `${label}=${median(guardedRatios.get(label) ?? []).toFixed(2)}`).join(' ')}`,
  );
  // What the guarantees themselves cost a hand-writer, over the blind floor: the least a save with
  // them can be against the two goals, whatever ours does.
  console.log(
    `hand-written floors / blind floor: ${batchLabels
      .map((label) => {
        const entry = times.get(label);
        const over = (side: 'guarded' | 'checked') =>
          median(entry?.[side].map((time, round) => time / (entry.floor[round] ?? Number.NaN)) ?? []).toFixed(
            2,
          );
        return `${label}=${over('guarded')}/${over('checked')}`;
      })
      .join(' ')} (guarded/checked)`,
  );
  console.log(
    `ours / checked floor (the guarded floor with our checks, no goal set): ${batchLabels.map((label) => `${label}=${median(checkedRatios.get(label) ?? []).toFixed(2)}`).join(' ')}`,
  );
  console.log(
    `ours / blind floor (goal <= 3.0): ${batchLabels
      .map((label) => `${label}=${median(ratios.get(label) ?? []).toFixed(2)}`)
      .join(' ')} update_1_at_${largest}_vs_1=${median(growthRounds).toFixed(2)} (goal <= 1.5)`,
  );
} finally {
  await scratch.drop();
}
