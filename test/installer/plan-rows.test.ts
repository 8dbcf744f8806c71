import { beforeAll, describe, expect, it } from 'vitest';
import { type HostContext, hostContext } from '../../src/installer/host-context.js';
import { planRowsFrom } from '../../src/installer/plan-rows.js';
import { readInstallerState } from '../../src/installer/state.js';
import { useScratchDatabase } from '../support/database.js';
import { exampleInstallFile } from './support.js';

// The row planner decides over plain data: the host's context is read once from a real host schema,
// then every case is the pure planner over a state written here.
const scratch = useScratchDatabase('installer_plan_rows', { hostSchema: true });
const file = exampleInstallFile();
let host: HostContext;

beforeAll(async () => {
  const state = await readInstallerState(scratch().db, { action: 'apply', file, force: false });
  host = hostContext(file, state);
  expect(host.findings.filter((finding) => finding.level === 'error')).toEqual([]);
});

describe('planRowsFrom', () => {
  it('asks first for the hand-made rows of every row it would insert, and decides nothing before', () => {
    const first = planRowsFrom(
      file,
      host,
      [],
      { existing: new Map(), byHand: new Map(), references: new Map() },
      { force: false },
    );
    expect('lookups' in first && first.lookups.map((row) => row.key)).toEqual([
      'menu:taskSheetWithMetrics',
      'menu:taskSheetReport',
      'menu:activities',
      'link-field',
      'parameter:ASSOCIATION_TASK_OPER',
      'parameter:ASSOCIATION_TASK_OPER_GRUPO',
      'parameter:ASSOCIATION_TASK_OPER_GRUPO_METRICA',
      'parameter:ASSOCIATION_TASK_OPER_OPER_GRUPO',
      'parameter:TREE_VIEW',
    ]);
  });

  it('inserts what nobody made, and leaves alone a row of the same meaning made by hand', () => {
    const first = planRowsFrom(
      file,
      host,
      [],
      { existing: new Map(), byHand: new Map(), references: new Map() },
      { force: false },
    );
    if (!('lookups' in first)) throw new Error('expected lookups');
    const byHand = new Map(first.lookups.map((row) => [row.key, [] as Record<string, unknown>[]]));
    byHand.set('menu:activities', [{ SEQ_DB: 77 }]);
    const plan = planRowsFrom(
      file,
      host,
      [],
      { existing: new Map(), byHand, references: new Map() },
      { force: false },
    );
    if ('lookups' in plan) throw new Error('expected a plan');
    const inserted = plan.changes.filter((change) => change.kind === 'insert').map((change) => change.key);
    expect(inserted).toHaveLength(first.lookups.length - 1);
    expect(inserted).not.toContain('menu:activities');
    expect(plan.findings).toContainEqual(
      expect.objectContaining({ code: 'ROW_NOT_OURS', path: 'sys_core_menu.SEQ_DB=77', level: 'info' }),
    );
    // Each insert carries its ledger entry, written with the SEQ_DB the insert made.
    for (const change of plan.changes.filter((candidate) => candidate.kind === 'insert')) {
      expect(change.statements[1]?.sql).toContain('LAST_INSERT_ID()');
    }
  });
});
