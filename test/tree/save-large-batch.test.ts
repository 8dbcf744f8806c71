import { beforeAll, describe, expect, it } from 'vitest';
import { tableNames } from '../../src/model/table-names.js';
import { planTree } from '../../src/model/tree-plan.js';
import { openDatabase } from '../../src/store/mysql.js';
import { type MetricEntry, saveMetrics } from '../../src/tree.js';
import { useScratchDatabase } from '../support/database.js';
import { insertRows, installTables, SCOPE_A, SCOPE_B } from './fixture.js';

// A batch of 1000 entries whose checks read more than MariaDB's group_concat_max_len (1 MB by
// default) lets one JSON_ARRAYAGG hold: the save must still check and store it, not answer 500.

const scratch = useScratchDatabase('save_large_batch', { hostSchema: true });
const names = tableNames();
const plan = planTree(names);
const BATCH = 1000;
const CHAINS = 500;
const fixture = {
  links: { sheet: 0, entries: [] as MetricEntry[] },
  chains: { sheet: 0, entries: [] as MetricEntry[] },
};

beforeAll(async () => {
  const { db } = scratch();
  await installTables(db, names);
  const [linksSheet, chainsSheet] = await insertRows(
    db,
    'app_folha_tarefa',
    [
      { ...SCOPE_A, DELETED: 0 },
      { ...SCOPE_B, DELETED: 0 },
    ],
    { withId: false },
  );
  fixture.links.sheet = linksSheet ?? 0;
  fixture.chains.sheet = chainsSheet ?? 0;

  // Scope A: 1000 activities, each linked to the same 120 groups (120,000 links, about 2.4 MB of
  // pairs when every link of the batch's activities was aggregated).
  {
    const live = { ...SCOPE_A, ATIVO: 1, DELETED: 0 };
    const groups = await insertRows(
      db,
      names.OPER_GRUPO,
      Array.from({ length: 120 }, (_, index) => ({ ...live, CODIGO: `G${index}` })),
    );
    const activities = await insertRows(
      db,
      names.OPER,
      Array.from({ length: BATCH }, (_, index) => ({ ...live, CODIGO: `O${index}` })),
    );
    await insertRows(
      db,
      names.OPER_OPER_GRUPO,
      activities.flatMap((activity) =>
        groups.map((group) => ({ ...live, OPER_SEQ_DB: activity, OPER_GRUPO_SEQ_DB: group })),
      ),
    );
    fixture.links.entries = activities.map((activity) => ({
      activity,
      group: groups[0] ?? 0,
      values: { METRICA2: 1 },
    }));
  }

  // Scope B: 500 leaf groups, each at the end of a chain of 55 groups of its own, their SEQ_DBs of
  // 16 digits (28,000 groups on the walk's chains, about 1.2 MB as its JSON column), one activity
  // under each leaf.
  {
    const live = { ...SCOPE_B, ATIVO: 1, DELETED: 0 };
    await db.execute(`ALTER TABLE ${names.OPER_GRUPO} AUTO_INCREMENT = 1000000000000000`);
    let level = await insertRows(
      db,
      names.OPER_GRUPO,
      Array.from({ length: CHAINS }, (_, index) => ({
        ...live,
        CODIGO: `R${index}`,
        OPER_GRUPO_SEQ_DB: null,
      })),
    );
    for (let depth = 1; depth < 55; depth++) {
      level = await insertRows(
        db,
        names.OPER_GRUPO,
        level.map((parent, index) => ({ ...live, CODIGO: `C${depth}.${index}`, OPER_GRUPO_SEQ_DB: parent })),
      );
    }
    const activities = await insertRows(
      db,
      names.OPER,
      level.map((_, index) => ({ ...live, CODIGO: `A${index}` })),
    );
    await insertRows(
      db,
      names.OPER_OPER_GRUPO,
      activities.map((activity, index) => ({
        ...live,
        OPER_SEQ_DB: activity,
        OPER_GRUPO_SEQ_DB: level[index],
      })),
    );
    fixture.chains.entries = activities.map((activity, index) => ({
      activity,
      group: level[index] ?? 0,
      values: { METRICA2: 2 },
    }));
  }
}, 180_000);

async function savedRows(sheet: number): Promise<number> {
  const [row] = await scratch().db.query<{ n: number }>(
    `SELECT COUNT(*) AS n FROM ${names.OPER_GRUPO_METRICA} WHERE FOLHA_TAREFA_SEQ_DB = ? AND IFNULL(DELETED, 0) = 0`,
    [sheet],
  );
  return Number(row?.n);
}

describe('a large batch whose checks read more than 1 MB', () => {
  it('saves activities that have 120 links each: only the batch’s own links are gathered', async () => {
    const result = await saveMetrics(scratch().db, {
      scope: SCOPE_A,
      user: 7,
      taskSheet: fixture.links.sheet,
      entries: fixture.links.entries,
      plan,
    });
    expect(result).toMatchObject({ inserted: BATCH, updated: 0 });
    expect(await savedRows(fixture.links.sheet)).toBe(BATCH);
  }, 60_000);

  it('still refuses an entry whose activity is linked, but not to the entry’s node', async () => {
    const [first] = fixture.links.entries;
    if (first === undefined) throw new Error('no entries');
    await expect(
      saveMetrics(scratch().db, {
        scope: SCOPE_A,
        user: 7,
        taskSheet: fixture.links.sheet,
        // The group of scope B: a node the activity is not linked to.
        entries: [{ ...first, group: fixture.chains.entries[0]?.group ?? 0 }],
        plan,
      }),
    ).rejects.toMatchObject({ code: 'NOT_IN_TREE', path: 'entries.0' });
  });

  it('saves entries under 500 nested groups whose parent chains hold 27,500 groups', async () => {
    // The walk over 27,500 groups takes seconds on a busy machine: a bound of its own, not the 5 s.
    const db = await openDatabase(scratch().url, { timeoutMs: 60_000 });
    try {
      const result = await saveMetrics(db, {
        scope: SCOPE_B,
        user: 7,
        taskSheet: fixture.chains.sheet,
        entries: fixture.chains.entries,
        plan,
      });
      expect(result).toMatchObject({ inserted: CHAINS, updated: 0 });
    } finally {
      await db.close();
    }
    expect(await savedRows(fixture.chains.sheet)).toBe(CHAINS);
  }, 120_000);
});
