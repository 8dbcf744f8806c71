import { beforeAll, describe, expect, it } from 'vitest';
import { applyInstallation } from '../../src/installer/installer.js';
import { type InstallerPlan, planInstaller, scriptOf } from '../../src/installer/planner.js';
import { type InstallerState, type Intent, readInstallerState } from '../../src/installer/state.js';
import { useScratchDatabase } from '../support/database.js';
import { exampleInstallFile } from './support.js';

// One planner decides apply and uninstall over plain data. The state is read twice from a real host
// (before and after an install); every case then varies it and asks the planner, with no database.
const scratch = useScratchDatabase('installer_planner', { hostSchema: true });
const file = exampleInstallFile();
const apply: Intent = { action: 'apply', file, force: false };
const uninstall: Intent = { action: 'uninstall', file, force: false };
let fresh: InstallerState;
let installed: InstallerState;

beforeAll(async () => {
  const { db } = scratch();
  fresh = await readInstallerState(db, apply);
  await applyInstallation(db, file, {});
  installed = await readInstallerState(db, uninstall);
});

function plan(intent: Intent, state: InstallerState): InstallerPlan {
  const decided = planInstaller(intent, state);
  if ('lookups' in decided) {
    // Nobody made any of these rows by hand.
    const byHand = new Map(decided.lookups.map((row) => [row.key, []]));
    return plan(intent, { ...state, rows: { ...state.rows, byHand } });
  }
  return decided;
}

describe('planInstaller, apply', () => {
  it('creates the ledger, records the four tables it creates, syncs them and the shared tables, then writes the rows in one transaction', () => {
    const planned = plan(apply, fresh);
    expect(planned.findings).toEqual([]);
    expect(planned.ledger.map((change) => change.message)).toEqual([
      "create the installer's ledger task_association_ledger",
    ]);
    expect(planned.created).toHaveLength(4);
    expect(planned.schema.map((change) => change.sql.split(' (')[0])).toEqual([
      'CREATE TABLE `MO_OPER`',
      'CREATE TABLE `MO_OPER_GRUPO`',
      'CREATE TABLE `MO_OPER_GRUPO_METRICA`',
      'CREATE TABLE `MO_OPER_MO_OPER_GRUPO`',
      'CREATE TABLE `task_association_history`',
      'CREATE TABLE `task_association_request`',
      'CREATE TABLE `task_association_lock`',
    ]);
    expect(planned.tables).toEqual([]);
    expect(planned.dropLedger).toEqual([]);
    const script = scriptOf(planned).map((statement) => statement.sql.split(' (')[0]);
    const start = script.indexOf('START TRANSACTION');
    expect(script.slice(0, 2)).toEqual([
      expect.stringContaining('CREATE TABLE IF NOT EXISTS `task_association_ledger`'),
      'INSERT INTO `task_association_ledger`',
    ]);
    // The four entries saying which tables it creates (none for the shared ones: no installation
    // owns them), then the sync's seven statements.
    expect(script.slice(1, 5)).toEqual(Array(4).fill('INSERT INTO `task_association_ledger`'));
    expect(script.slice(5, start)).toHaveLength(7);
    expect(script.at(-1)).toBe('COMMIT');
  });

  it('asks for the hand-made rows of what it would insert before deciding anything', () => {
    const decided = planInstaller(apply, fresh);
    expect('lookups' in decided && decided.lookups.length).toBe(9);
  });

  it('refuses, as a finding, a table another installation keeps as another of the four', () => {
    const other = { EMPRESA: 2, FILIAL: 1, LOCAL: 1 };
    const ledger = [{ scope: other, key: 'uses:OPER_GRUPO', hostTable: 'MO_OPER', rowSeqDb: null }];
    expect(plan(apply, { ...fresh, ledger }).findings).toContainEqual(
      expect.objectContaining({ level: 'error', code: 'TABLE_OF_ANOTHER_KIND', path: 'tableNames.OPER' }),
    );
  });

  it('refuses, as findings, a new name for a table of its own, and one of its tables named as another of its four', () => {
    const entry = (key: string, hostTable: string) => ({ scope: file.scope, key, hostTable, rowSeqDb: null });
    // Recorded under another name (renamed in the file), or only used so far (no table: entry).
    const renamed = plan(apply, { ...fresh, ledger: [entry('table:OPER', 'OLD_OPER')] });
    expect(renamed.findings).toEqual([
      expect.objectContaining({ level: 'error', code: 'TABLE_NAME_CHANGED', path: 'tableNames.OPER' }),
    ]);
    // The spelling counts: the ledger and uninstall's drops name a table exactly as it was installed.
    const respelled = plan(apply, { ...fresh, ledger: [entry('uses:OPER', 'mo_oper')] });
    expect(respelled.findings).toEqual([expect.objectContaining({ code: 'TABLE_NAME_CHANGED' })]);
    // An entry of this scope for a name not in the file's four (an edited ledger): the table is
    // still that kind, so the file may not give it to OPER.
    const crossed = plan(apply, { ...fresh, ledger: [entry('uses:SOMETHING', 'MO_OPER')] });
    expect(crossed.findings).toEqual([
      expect.objectContaining({
        code: 'TABLE_OF_ANOTHER_KIND',
        path: 'tableNames.OPER',
        message: expect.stringContaining('is SOMETHING of this installation'),
      }),
    ]);
  });

  it('names the table it was not given rather than guessing it is missing', () => {
    const tables = new Map([...fresh.tables].filter(([name]) => name !== 'sys_core_menu'));
    expect(() => plan(apply, { ...fresh, tables })).toThrow(
      "the installer's state holds no read of table sys_core_menu",
    );
  });
});

describe('planInstaller, uninstall', () => {
  it('removes the rows, then drops the empty tables children first, then the shared tables and the ledger nobody else uses', () => {
    const planned = plan(uninstall, installed);
    expect(planned.ledger).toEqual([]);
    expect(planned.schema).toEqual([]);
    expect(planned.rows.map((change) => change.kind)).toEqual([
      ...Array(9).fill('delete'),
      ...Array(4).fill('forget'),
    ]);
    expect(planned.tables.map((change) => change.table)).toEqual([
      'MO_OPER_GRUPO_METRICA',
      'MO_OPER_MO_OPER_GRUPO',
      'MO_OPER',
      'MO_OPER_GRUPO',
      'task_association_history',
      'task_association_request',
      'task_association_lock',
    ]);
    expect(planned.dropLedger.map((change) => change.sql)).toEqual(['DROP TABLE `task_association_ledger`']);
  });

  it('keeps the shared tables, rows and all, while another installation is left or an entry of this one stays', () => {
    const other = {
      scope: { EMPRESA: 2, FILIAL: 1, LOCAL: 1 },
      key: 'uses:OPER',
      hostTable: 'app_oper',
      rowSeqDb: null,
    };
    const shared = (planned: InstallerPlan) =>
      planned.tables.map((change) => change.table).filter((table) => table.startsWith('task_association_'));
    expect(shared(plan(uninstall, { ...installed, ledger: [...installed.ledger, other] }))).toEqual([]);
    // MO_OPER holds rows: its entry stays, so the ledger does, and the shared tables with it.
    const drops = new Map(installed.drops);
    drops.set('MO_OPER', { exists: true, referencedBy: [], hasRows: true });
    const kept = plan(uninstall, { ...installed, drops });
    expect(kept.findings).toEqual([expect.objectContaining({ code: 'TABLE_NOT_EMPTY', path: 'MO_OPER' })]);
    expect(shared(kept)).toEqual([]);
    expect(kept.dropLedger).toEqual([]);
  });

  it('keeps the ledger while another installation is in it, and says when there is nothing to remove', () => {
    const other = {
      scope: { EMPRESA: 2, FILIAL: 1, LOCAL: 1 },
      key: 'link-field',
      hostTable: 'x',
      rowSeqDb: null,
    };
    expect(plan(uninstall, { ...installed, ledger: [...installed.ledger, other] }).dropLedger).toEqual([]);
    const alone = plan(uninstall, { ...installed, ledger: [other] });
    expect(alone.findings).toEqual([expect.objectContaining({ level: 'info', code: 'NOT_INSTALLED' })]);
    expect([...alone.rows, ...alone.tables, ...alone.dropLedger]).toEqual([]);
  });
});
