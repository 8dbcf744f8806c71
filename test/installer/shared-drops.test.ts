import { describe, expect, it } from 'vitest';
import { planSharedDrops } from '../../src/installer/shared-drops.js';
import type { TableState } from '../../src/installer/state.js';
import type { Finding } from '../../src/model/findings.js';

// Which shared tables the last installation's uninstall drops, decided over what was read of them:
// no database here.
const HISTORY = 'task_association_history';
const REQUEST = 'task_association_request';
const state = (changes: Partial<TableState> = {}): TableState => ({
  exists: true,
  referencedBy: [],
  hasRows: false,
  ...changes,
});
const dropped = (changes: ReturnType<typeof planSharedDrops>) =>
  changes.map((change) => `${change.kind} ${change.table} ${change.sql}`);

describe('planSharedDrops', () => {
  it('drops both when empty, history first, each with its own key and nothing else to run', () => {
    const findings: Finding[] = [];
    const changes = planSharedDrops(
      new Map([
        [HISTORY, state()],
        [REQUEST, state()],
      ]),
      false,
      findings,
    );
    expect(changes).toEqual([
      {
        kind: 'drop-table',
        table: HISTORY,
        key: HISTORY,
        sql: 'DROP TABLE `task_association_history`',
        params: [],
        message: 'drop the shared table task_association_history (empty): no installation is left',
        statements: [{ sql: 'DROP TABLE `task_association_history`', params: [] }],
      },
      expect.objectContaining({ table: REQUEST, key: REQUEST, sql: 'DROP TABLE `task_association_request`' }),
    ]);
    expect(findings).toEqual([]);
  });

  it('keeps one holding rows unless forced, saying how to drop it once no installation is left', () => {
    const states = new Map([
      [HISTORY, state({ hasRows: true })],
      [REQUEST, state()],
    ]);
    const findings: Finding[] = [];
    expect(dropped(planSharedDrops(states, false, findings))).toEqual([
      'drop-table task_association_request DROP TABLE `task_association_request`',
    ]);
    expect(findings).toEqual([
      {
        level: 'info',
        code: 'TABLE_NOT_EMPTY',
        path: HISTORY,
        message:
          'shared table task_association_history holds rows: kept (run this uninstall with --force to drop it with its rows; once it has run, no installation is left to uninstall it later, so drop it yourself once you no longer need it: DROP TABLE `task_association_history`)',
      },
    ]);
    const forced = planSharedDrops(states, true, []);
    expect(forced.map((change) => change.message)).toEqual([
      'drop the shared table task_association_history with its rows (--force): no installation is left',
      'drop the shared table task_association_request (empty): no installation is left',
    ]);
  });

  it("keeps one another table's foreign key points at, even forced; its own keys and case as the server folds it do not count", () => {
    const key = (table: string, foldsNames = false) => ({ table, constraint: 'fk_x', foldsNames });
    const findings: Finding[] = [];
    const changes = planSharedDrops(
      new Map([
        [HISTORY, state({ referencedBy: [key('host_audit')] })],
        // Its own key, reported in another case by a server that folds names.
        [REQUEST, state({ referencedBy: [key('TASK_ASSOCIATION_REQUEST', true)] })],
      ]),
      true,
      findings,
    );
    expect(dropped(changes)).toEqual([
      'drop-table task_association_request DROP TABLE `task_association_request`',
    ]);
    expect(findings).toEqual([
      expect.objectContaining({
        code: 'TABLE_REFERENCED',
        path: HISTORY,
        message: expect.stringMatching(
          /^shared table task_association_history is referenced by foreign key fk_x of table host_audit: kept \(.*DROP TABLE `task_association_history`, after dropping that foreign key\)$/,
        ),
      }),
    ]);
  });

  it('passes over a shared table that is gone or was never read: no entry records them', () => {
    const findings: Finding[] = [];
    expect(planSharedDrops(new Map([[HISTORY, state({ exists: false })]]), true, findings)).toEqual([]);
    expect(findings).toEqual([]);
  });
});
