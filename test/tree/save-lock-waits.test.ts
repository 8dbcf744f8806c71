import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseIdentifier } from '../../src/model/identifier.js';
import type { Scope } from '../../src/model/scope.js';
import { tableNames } from '../../src/model/table-names.js';
import { planTree } from '../../src/model/tree-plan.js';
import { TreeView } from '../../src/model.js';
import type { Database } from '../../src/store/driver.js';
import { scopeLockName } from '../../src/store/metric-writes.js';
import { openDatabase } from '../../src/store/mysql.js';
import { type SaveMetricsOptions, saveMetrics } from '../../src/tree.js';
import { useScratchDatabase } from '../support/database.js';
import { insertRow, insertRows, installTables } from './fixture.js';

// What a save reads once it has waited for the scope's lock: what was committed while it waited
// (#25 review). Saves go through several pools, as several processes do: within one pool, saves of a
// scope take turns in the process and never race on the database.

const scratch = useScratchDatabase('save_lock_waits', { hostSchema: true });
const names = tableNames();
const live = { ATIVO: 1, DELETED: 0 };
const SCOPE: Scope = { EMPRESA: 4, FILIAL: 1, LOCAL: 1 };
const plan = planTree(
  names,
  TreeView.parse({
    layers: {
      '1': { table: names.OPER_GRUPO, associationTable: names.OPER_OPER_GRUPO },
      '2': { table: names.OPER, isTask: true },
    },
    metrics: [{ field: 'METRICA1' }, { field: 'METRICA2' }],
  }),
);
const ROUNDS = 10;
const fixture = { sheet: 0, group: 0, opers: [] as number[] };
let next = 0;
/** An activity no other test touched. */
const activity = () => {
  const oper = fixture.opers[next++];
  if (oper === undefined) throw new Error('the fixture has too few activities');
  return oper;
};
let pools: Database[] = [];

beforeAll(async () => {
  const { db, url } = scratch();
  await installTables(db, names);
  [fixture.sheet = 0] = await insertRows(db, 'app_folha_tarefa', [{ ...SCOPE, DELETED: 0 }], {
    withId: false,
  });
  fixture.group = await insertRow(db, names.OPER_GRUPO, { ...SCOPE, CODIGO: 'G', ...live });
  fixture.opers = await insertRows(
    db,
    names.OPER,
    Array.from({ length: 5 * ROUNDS + 10 }, (_, index) => ({ ...SCOPE, CODIGO: `O${index}`, ...live })),
  );
  await insertRows(
    db,
    names.OPER_OPER_GRUPO,
    fixture.opers.map((oper) => ({ ...SCOPE, OPER_GRUPO_SEQ_DB: fixture.group, OPER_SEQ_DB: oper, ...live })),
  );
  pools = await Promise.all(Array.from({ length: 4 }, () => openDatabase(url, { connectionLimit: 2 })));
});

afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.close()));
});

function saveThrough(
  db: Database,
  options: Partial<SaveMetricsOptions> & Pick<SaveMetricsOptions, 'entries'>,
) {
  return saveMetrics(db, { scope: SCOPE, user: 7, taskSheet: fixture.sheet, plan, ...options });
}

/** How a send ended: `applied`, `replayed`, or its error's code. */
const outcome = (sent: Promise<{ replayed: boolean }>) =>
  sent.then(
    (answer) => (answer.replayed ? 'replayed' : 'applied'),
    (error: { code?: string }) => String(error.code),
  );

function pool(index: number): Database {
  const found = pools[index % pools.length];
  if (found === undefined) throw new Error('no pool');
  return found;
}

async function historyRows(oper: number) {
  const [row] = await scratch().db.query<{ n: number }>(
    'SELECT COUNT(*) AS n FROM task_association_history WHERE OPER_SEQ_DB = ?',
    [oper],
  );
  return Number(row?.n);
}

describe('a retry that runs at the same time as the first send (the same request id)', () => {
  it('of a remove, through four pools: applied once, every other send gets the first answer', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const oper = activity();
      const key = { activity: oper, group: fixture.group };
      await saveThrough(scratch().db, { entries: [{ ...key, values: { METRICA2: round } }] });
      const entries = [{ ...key, remove: true as const, base: { METRICA2: round } }];
      const sends = await Promise.all(
        [0, 1, 2, 3].map((index) => outcome(saveThrough(pool(index), { requestId: `rm-${round}`, entries }))),
      );
      // A send that read the request record before the first committed it found no row to remove.
      expect(sends.sort(), `round ${round}`).toEqual(['applied', 'replayed', 'replayed', 'replayed']);
      // The insert's one field and the remove's one (the one field the row held).
      expect(await historyRows(oper)).toBe(2);
    }
  });

  it('of an update, while a third save changes the field: both sends answered with the first answer, never 409', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const oper = activity();
      const key = { activity: oper, group: fixture.group };
      await saveThrough(scratch().db, { entries: [{ ...key, values: { METRICA2: 1 } }] });
      const first = [{ ...key, values: { METRICA2: 5 }, base: { METRICA2: 1 } }];
      const third = [{ ...key, values: { METRICA2: 6 }, base: { METRICA2: 5 } }];
      const [send, other, retry] = await Promise.all([
        outcome(saveThrough(pool(0), { requestId: `up-${round}`, entries: first })),
        outcome(saveThrough(pool(1), { user: 8, entries: third })),
        outcome(saveThrough(pool(2), { requestId: `up-${round}`, entries: first })),
      ]);
      expect([send, retry].sort(), `round ${round}`).toEqual(['applied', 'replayed']);
      expect(['applied', 'METRIC_CONFLICT'], `round ${round}`).toContain(other);
      // The insert, the first's update, and the third's when it applied: one row per change.
      expect(await historyRows(oper)).toBe(other === 'applied' ? 3 : 2);
    }
  });

  it('of an id past the retention, sent twice at once: applied once, and its fresh record kept', async () => {
    const { db } = scratch();
    for (let round = 0; round < ROUNDS; round++) {
      const oper = activity();
      const key = { activity: oper, group: fixture.group };
      const requestId = `old-${round}`;
      await saveThrough(db, { requestId, entries: [{ ...key, values: { METRICA2: 1 } }] });
      await db.execute(
        'UPDATE task_association_request SET INS_DH = NOW() - INTERVAL 8 DAY WHERE REQUEST_ID = ?',
        [requestId],
      );
      const entries = [{ ...key, values: { METRICA2: 2 } }];
      const sends = await Promise.all(
        [0, 1].map((index) => outcome(saveThrough(pool(index), { requestId, entries }))),
      );
      // The second send took the first's fresh record for the expired one, deleted it, applied again.
      expect(sends.sort(), `round ${round}`).toEqual(['applied', 'replayed']);
      const records = await db.query<{ young: number }>(
        'SELECT INS_DH > NOW() - INTERVAL 1 DAY AS young FROM task_association_request WHERE REQUEST_ID = ?',
        [requestId],
      );
      expect(records.map((record) => Number(record.young))).toEqual([1]);
      await expect(outcome(saveThrough(pool(2), { requestId, entries }))).resolves.toBe('replayed');
      expect(await historyRows(oper)).toBe(2);
    }
  });
});

describe('a save that waited for the scope’s lock', () => {
  it('refused as stale, names the save that changed the field before it, and when', async () => {
    for (let round = 0; round < 2 * ROUNDS; round++) {
      const oper = activity();
      const key = { activity: oper, group: fixture.group };
      await saveThrough(scratch().db, { entries: [{ ...key, values: { METRICA2: 1 } }] });
      // Users 9 and 8 save from the same base at once, through two pools: one applies, one is refused.
      const sends = await Promise.all(
        [9, 8].map((user, index) =>
          saveThrough(pool(index), {
            user,
            entries: [{ ...key, values: { METRICA2: user }, base: { METRICA2: 1 } }],
          }).then(
            () => undefined,
            (error: {
              code?: string;
              conflicts?: { theirs: unknown; changedBy: unknown; changedAt: unknown }[];
            }) => error,
          ),
        ),
      );
      const refused = sends.find((send) => send !== undefined);
      expect(refused?.code, `round ${round}`).toBe('METRIC_CONFLICT');
      const [conflict] = refused?.conflicts ?? [];
      const [latest] = await scratch().db.query<{ USUARIO_SEQ_DB: number; CHANGED_DH: Date }>(
        'SELECT USUARIO_SEQ_DB, CHANGED_DH FROM task_association_history WHERE OPER_SEQ_DB = ? ORDER BY SEQ_DB DESC LIMIT 1',
        [oper],
      );
      // Not user 7, whose insert the conflict named when it read the history as it stood before.
      expect(conflict, `round ${round}`).toMatchObject({
        theirs: latest?.USUARIO_SEQ_DB,
        changedBy: latest?.USUARIO_SEQ_DB,
        changedAt: latest?.CHANGED_DH.toISOString(),
      });
    }
  });

  it('sees a link the host removed meanwhile: NOT_IN_TREE, nothing written', async () => {
    const { db, url } = scratch();
    const oper = activity();
    const name = scopeLockName(parseIdentifier(names.OPER_GRUPO_METRICA, 'table'), SCOPE);
    const holder = await openDatabase(url, { connectionLimit: 1 });
    try {
      await holder.connection(async (connection) => {
        await connection.query(`SELECT GET_LOCK(${name.sql}, 0) AS got`, name.params);
        const saving = outcome(
          saveThrough(pool(0), {
            entries: [{ activity: oper, group: fixture.group, values: { METRICA2: 1 } }],
          }),
        );
        // Until the save is waiting for the lock.
        for (let look = 0; ; look++) {
          const [row] = await db.query<{ n: number }>(
            "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE DB = DATABASE() AND ID <> CONNECTION_ID() AND INFO LIKE '%GET_LOCK(CONCAT(%'",
          );
          if (Number(row?.n) > 0) break;
          if (look > 500) throw new Error('the save never waited for the lock');
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        // The host unlinks the activity, committed while the save waits.
        await db.execute(`UPDATE ${names.OPER_OPER_GRUPO} SET DELETED = 1 WHERE OPER_SEQ_DB = ?`, [oper]);
        await connection.query(`SELECT RELEASE_LOCK(${name.sql})`, name.params);
        await expect(saving).resolves.toBe('NOT_IN_TREE');
      });
    } finally {
      await holder.close();
    }
    expect(
      await db.query(`SELECT ID FROM ${names.OPER_GRUPO_METRICA} WHERE OPER_SEQ_DB = ?`, [oper]),
    ).toEqual([]);
  });
});
