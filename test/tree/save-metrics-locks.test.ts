import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { tableNames } from '../../src/model/table-names.js';
import { planTree } from '../../src/model/tree-plan.js';
import type { Database, QueryOptions, SqlExecutor } from '../../src/store/driver.js';
import { openDatabase } from '../../src/store/mysql.js';
import { type MetricEntry, saveMetrics } from '../../src/tree.js';
import { useScratchDatabase } from '../support/database.js';
import { insertRow, insertRows, installTables, SCOPE_A } from './fixture.js';

// A save must cost what it saves: on a task sheet holding 10,000 saved rows, in a scope of 10,000
// activities under 111 nested groups, it locks the rows of its own keys and reads the nodes of its
// own keys, nothing in proportion to the sheet or the scope.

const scratch = useScratchDatabase('resolvers_save_locks', { hostSchema: true });
const names = tableNames();
const live = { ...SCOPE_A, ATIVO: 1, DELETED: 0 };
const SAVED_ROWS = 10_000;
const fixture = { sheet: 0, links: [] as { activity: number; group: number }[], fresh: [] as number[] };

beforeAll(async () => {
  const { db } = scratch();
  await installTables(db, names);

  const [sheet, otherSheet] = await insertRows(
    db,
    'app_folha_tarefa',
    [
      { ...SCOPE_A, DELETED: 0 },
      { ...SCOPE_A, DELETED: 0 },
    ],
    { withId: false },
  );
  fixture.sheet = sheet ?? 0;
  // Three levels of groups: a root, 10 below it, 100 below those; the activities hang from the last.
  const root = await insertRow(db, names.OPER_GRUPO, { ...live, CODIGO: 'ROOT' });
  const middle = await insertRows(
    db,
    names.OPER_GRUPO,
    Array.from({ length: 10 }, (_, index) => ({ ...live, CODIGO: `M${index}`, OPER_GRUPO_SEQ_DB: root })),
  );
  const leaves = await insertRows(
    db,
    names.OPER_GRUPO,
    Array.from({ length: 100 }, (_, index) => ({
      ...live,
      CODIGO: `L${index}`,
      OPER_GRUPO_SEQ_DB: middle[index % middle.length],
    })),
  );
  const activities = await insertRows(
    db,
    names.OPER,
    Array.from({ length: SAVED_ROWS + 100 }, (_, index) => ({ ...live, CODIGO: `O${index}` })),
  );
  const links = activities.map((activity, index) => ({
    activity,
    group: leaves[index % leaves.length] ?? 0,
  }));
  await insertRows(
    db,
    names.OPER_OPER_GRUPO,
    links.map((link) => ({ ...live, OPER_GRUPO_SEQ_DB: link.group, OPER_SEQ_DB: link.activity })),
  );
  fixture.links = links.slice(0, SAVED_ROWS);
  fixture.fresh = activities.slice(SAVED_ROWS);
  // Every saved key on the task sheet, and the same keys again on another task sheet of the scope.
  for (const taskSheet of [fixture.sheet, otherSheet]) {
    await insertRows(
      db,
      names.OPER_GRUPO_METRICA,
      fixture.links.map((link) => ({
        ...live,
        FOLHA_TAREFA_SEQ_DB: taskSheet,
        OPER_SEQ_DB: link.activity,
        OPER_GRUPO_SEQ_DB: link.group,
        METRICA1: '1.00',
      })),
    );
  }
  // Statistics as InnoDB keeps them once its background recount has caught up with the bulk load:
  // half-counted tables can make the optimizer prefer a scope-wide range of the primary key to a
  // link's own index (seen once under load: 10,100 rows read for a one-entry save).
  for (const table of Object.values(names)) await db.execute(`ANALYZE TABLE ${table}`);
}, 120_000);

interface Measured {
  /** InnoDB's count of rows the save's transaction holds locks on, read just before it commits. */
  rowsLocked: number;
  /**
   * Rows read for the save: those returned to queries outside its transaction (the tables' columns
   * and indexes), plus the rows the server read inside it (its handler reads: index lookups, index
   * and table scans, temporary tables), where the checks of the task sheet and the tree run.
   */
  rowsRead: number;
}

const HANDLER_READS = [
  'HANDLER_READ_FIRST',
  'HANDLER_READ_KEY',
  'HANDLER_READ_LAST',
  'HANDLER_READ_NEXT',
  'HANDLER_READ_PREV',
  'HANDLER_READ_RND',
  'HANDLER_READ_RND_NEXT',
];

/** The session's handler reads so far (MariaDB's SESSION_STATUS, MySQL's performance_schema alike). */
async function handlerReads(tx: SqlExecutor): Promise<number> {
  const rows = await tx.query<{ value: string | number }>(
    `SELECT VARIABLE_VALUE AS value FROM information_schema.SESSION_STATUS WHERE VARIABLE_NAME IN (${HANDLER_READS.map(() => '?').join(', ')})`,
    HANDLER_READS,
  );
  return rows.reduce((sum, row) => sum + Number(row.value), 0);
}

/**
 * Runs a save through a Database that, once the save's work is done and before it commits, reads
 * the transaction's row-lock count from another connection (information_schema.INNODB_TRX, on
 * MariaDB and MySQL alike), and counts the rows every query outside the transaction returns.
 */
async function measureSave(entries: MetricEntry[]): Promise<Measured> {
  const { db, url } = scratch();
  const observer = await openDatabase(url, { connectionLimit: 1 });
  let rowsLocked = Number.NaN;
  let rowsRead = 0;
  const counting = (executor: SqlExecutor): SqlExecutor => ({
    async query<Row extends object>(sql: string, params?: readonly unknown[], options?: QueryOptions) {
      const rows = await executor.query<Row>(sql, params, options);
      rowsRead += rows.length;
      return rows;
    },
    execute: (sql, params, options) => executor.execute(sql, params, options),
  });
  const measuring: Database = {
    ...counting(db),
    schemaName: db.schemaName,
    close: () => db.close(),
    connection: (work) => db.connection(work),
    transaction: (work) =>
      db.transaction(async (tx) => {
        // Reading the counters reads rows too: what one read adds is measured and taken off.
        const first = await handlerReads(tx);
        const before = await handlerReads(tx);
        const result = await work(tx);
        const after = await handlerReads(tx);
        rowsRead += after - before - (before - first);
        const [connection] = await tx.query<{ id: number }>('SELECT CONNECTION_ID() AS id');
        rowsLocked = await rowsLockedBy(observer, Number(connection?.id));
        return result;
      }),
  };
  try {
    await saveMetrics(measuring, {
      scope: SCOPE_A,
      user: 7,
      taskSheet: fixture.sheet,
      entries,
      plan: planTree(names),
    });
  } finally {
    await observer.close();
  }
  return { rowsLocked, rowsRead };
}

/**
 * trx_rows_locked of the transaction on connection `thread`. InnoDB refreshes INNODB_TRX at most every
 * 100 ms, so each look waits longer than that: the locks were all taken before the first wait began.
 */
async function rowsLockedBy(observer: Database, thread: number): Promise<number> {
  for (let look = 0; look < 20; look++) {
    await sleep(250);
    const [row] = await observer.query<{ locked: number | string }>(
      'SELECT trx_rows_locked AS locked FROM information_schema.INNODB_TRX WHERE trx_mysql_thread_id = ?',
      [thread],
    );
    if (row !== undefined) return Number(row.locked);
  }
  throw new Error(`transaction of connection ${thread} never appeared in INNODB_TRX`);
}

const entry = (link: { activity: number; group: number }, value: string): MetricEntry => ({
  activity: link.activity,
  group: link.group,
  values: { METRICA1: value },
});

describe('saveMetrics on a task sheet of 10,000 saved rows', () => {
  it('has the rows it is about', async () => {
    const [row] = await scratch().db.query<{ rows: number }>(
      `SELECT COUNT(*) AS \`rows\` FROM ${names.OPER_GRUPO_METRICA} WHERE FOLHA_TAREFA_SEQ_DB = ?`,
      [fixture.sheet],
    );
    expect(Number(row?.rows)).toBe(SAVED_ROWS);
  });

  it('updating one entry locks a few rows, not the sheet, and its checks read a few rows, not the scope', async () => {
    const link = fixture.links[4321];
    if (link === undefined) throw new Error('fixture too small');
    const measured = await measureSave([entry(link, '2.00')]);
    // The key's index entry and row, and the gap after it.
    expect(measured.rowsLocked).toBeGreaterThan(0);
    expect(measured.rowsLocked).toBeLessThanOrEqual(4);
    // The metric table's columns and indexes, the task sheet, the key, the link, three groups up to
    // the root and the temporary tables of the walk: a few dozen, where the scope holds 10,100
    // activities and links and 20,000 metric rows.
    expect(measured.rowsRead).toBeLessThan(200);
  });

  it('inserting one entry locks its gap, its foreign keys’ rows and the scope’s last row, not the sheet', async () => {
    const [activity] = fixture.fresh;
    const group = (
      await scratch().db.query<{ g: number }>(
        `SELECT OPER_GRUPO_SEQ_DB AS g FROM ${names.OPER_OPER_GRUPO} WHERE OPER_SEQ_DB = ?`,
        [activity],
      )
    )[0]?.g;
    const measured = await measureSave([
      { activity: activity ?? 0, group: group ?? 0, values: { METRICA2: 5 } },
    ]);
    expect(measured.rowsLocked).toBeGreaterThan(0);
    // The key's gap, the scope's last row and what follows it, and the activity, group and task sheet
    // rows the new row's foreign keys point at (InnoDB share-locks them while it checks them).
    expect(measured.rowsLocked).toBeLessThanOrEqual(10);
    expect(measured.rowsRead).toBeLessThan(200);
  });

  it('a batch of 100 updates locks about 3 rows per key, not the sheet', async () => {
    const batch = fixture.links.slice(5000, 5100).map((link) => entry(link, '3.00'));
    const measured = await measureSave(batch);
    expect(measured.rowsLocked).toBeGreaterThanOrEqual(100);
    expect(measured.rowsLocked).toBeLessThanOrEqual(3 * 100 + 4);
    // 100 keys and links, their leaf groups' chains (at most 111 groups) and the temporary tables
    // that walk them, columns and indexes: about 25 per key, not the 30,000 rows of the scope.
    expect(measured.rowsRead).toBeLessThan(3_000);
  });

  it('a batch of 1000 updates reads its own keys and nodes, not the scope', async () => {
    const batch = fixture.links.slice(6000, 7000).map((link) => entry(link, '5.00'));
    const measured = await measureSave(batch);
    expect(measured.rowsLocked).toBeGreaterThanOrEqual(1000);
    // About 3 per key, as for 100 (3,015 measured).
    expect(measured.rowsLocked).toBeLessThanOrEqual(3 * 1000 + 20);
    // About 19 per key (19,263 measured), where reading the scope's links alone would add 10,100.
    expect(measured.rowsRead).toBeLessThan(22_000);
  });

  it('wrote what it was asked to, and only that', async () => {
    const rows = await scratch().db.query<{ value: string; count: number }>(
      `SELECT METRICA1 AS value, COUNT(*) AS count FROM ${names.OPER_GRUPO_METRICA} WHERE FOLHA_TAREFA_SEQ_DB = ? GROUP BY METRICA1 ORDER BY METRICA1`,
      [fixture.sheet],
    );
    expect(rows.map((row) => [row.value, Number(row.count)])).toEqual([
      [null, 1],
      ['1.00', SAVED_ROWS - 1101],
      ['2.00', 1],
      ['3.00', 100],
      ['5.00', 1000],
    ]);
  });
});
