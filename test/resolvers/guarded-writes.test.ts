import { describe, expect, it } from 'vitest';
import { parseIdentifier } from '../../src/identifier.js';
import {
  type GuardedBatch,
  guardedInsertStatement,
  guardedUpdateStatement,
} from '../../src/resolvers/guarded-writes.js';
import { planTree } from '../../src/resolvers/tree-plan.js';
import { tableNames } from '../../src/table-names.js';

// The one-statement writes, decided without a database: which batches they take, and that every
// value travels as a parameter beside its own placeholder. What they write is tested against MariaDB
// in save-metrics.test.ts and save-metrics-locks.test.ts.

const names = tableNames();
const column = (name: string) => parseIdentifier(name, 'column');
const batch = (overrides: Partial<GuardedBatch> = {}): GuardedBatch => ({
  table: parseIdentifier(names.OPER_GRUPO_METRICA, 'table'),
  keyIndex: parseIdentifier('ix_metric_key', 'index'),
  scope: { EMPRESA: 1, FILIAL: 2, LOCAL: 3 },
  user: 7,
  taskSheet: 42,
  entries: [
    { activity: 3, group: 1, values: new Map([[column('METRICA1'), '2.50']]) },
    { activity: 4, group: 1, values: new Map([[column('METRICA1'), null]]) },
  ],
  plan: planTree(names, undefined),
  sheetColumns: new Set(['SEQ_DB', 'EMPRESA', 'FILIAL', 'LOCAL', 'DELETED']),
  ...overrides,
});
const placeholders = (sql: string) => (sql.match(/\?/g) ?? []).length;

describe('guardedUpdateStatement', () => {
  it('updates the keys’ rows only when the guard counts every key, values as parameters', () => {
    const statement = guardedUpdateStatement(batch());
    if (statement === undefined) throw new Error('expected a statement');
    expect(statement.sql).toMatch(
      /^UPDATE \(WITH RECURSIVE rooted .* SELECT IF\(IS_FREE_LOCK\(.*\) = 1, COUNT\(\*\), 0\) AS n FROM JSON_TABLE/,
    );
    expect(statement.sql).toMatch(/SET m\.`METRICA1` = v\.v0, m\.UPD_USUARIO_SEQ_DB = \? WHERE q\.n = \?$/);
    expect(placeholders(statement.sql)).toBe(statement.params.length);
    expect(statement.params.slice(-2)).toEqual([7, 2]);
    expect(statement.params).toContain(
      JSON.stringify([
        [3, 1, '2.50'],
        [4, 1, null],
      ]),
    );
  });

  it('takes no batch whose entries write different columns', () => {
    const entries = [
      { activity: 3, group: 1, values: new Map([[column('METRICA1'), 1]]) },
      { activity: 4, group: 1, values: new Map([[column('METRICA2'), 1]]) },
    ];
    expect(guardedUpdateStatement(batch({ entries }))).toBeUndefined();
    // An insert writes NULL where an entry leaves a column out: one statement still serves.
    expect(guardedInsertStatement(batch({ entries }))).toBeDefined();
  });
});

describe('guardedInsertStatement', () => {
  it('inserts only when the guard counts every key, with IDs after the scope’s last', () => {
    const statement = guardedInsertStatement(batch());
    if (statement === undefined) throw new Error('expected a statement');
    expect(statement.sql).toMatch(/^INSERT INTO `app_oper_grupo_metrica` \(/);
    expect(statement.sql).toContain('NOT EXISTS (SELECT 1 FROM `app_oper_grupo_metrica` x FORCE INDEX');
    expect(statement.sql).toMatch(/ORDER BY ID DESC LIMIT 1\) last ON TRUE WHERE q\.n = \?$/);
    expect(placeholders(statement.sql)).toBe(statement.params.length);
    expect(statement.params.at(-1)).toBe(2);
  });
});

describe('both', () => {
  it('leave to the locking path a metric table without the key index and a tree deeper than two levels', () => {
    for (const build of [guardedUpdateStatement, guardedInsertStatement]) {
      expect(build(batch({ keyIndex: undefined }))).toBeUndefined();
      const [groups, activities] = planTree(names, undefined).levels;
      if (groups === undefined || activities === undefined) throw new Error('default tree changed');
      const deeper = { ...planTree(names, undefined), levels: [groups, groups, activities] };
      expect(build(batch({ plan: deeper }))).toBeUndefined();
      expect(build(batch({ entries: [] }))).toBeUndefined();
    }
  });

  it('check a one-level tree by the activity alone, with a NULL node', () => {
    const [, activities] = planTree(names, undefined).levels;
    if (activities === undefined) throw new Error('default tree changed');
    const plan = { ...planTree(names, undefined), levels: [activities] };
    const statement = guardedUpdateStatement(batch({ plan }));
    expect(statement?.sql).toContain('k.g IS NULL AND k.o IN (SELECT t.SEQ_DB FROM `app_oper` t');
    expect(statement?.sql).not.toContain('rooted');
  });
});
