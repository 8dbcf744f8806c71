import { afterEach, describe, expect, it } from 'vitest';
import { applyInstallation } from '../../src/installer/installer.js';
import { uninstallInstallation } from '../../src/installer/uninstall.js';
import type { ScratchDatabase } from '../../src/store/scratch.js';
import { freshDatabase } from '../support/database.js';
import { countRows, databaseState, exampleInstallFile } from './support.js';

// The rows run only as the operator saw them planned: when a host user changes a row the plan
// decided over while the operator is asked, the rows are decided again inside their transaction,
// come out different, and none is written.
let scratch: ScratchDatabase | undefined;
afterEach(async () => {
  await scratch?.drop();
  scratch = undefined;
});

const file = exampleInstallFile();

describe('a plan whose rows changed before they were written', () => {
  it('apply writes no row when a hand-made row of the same meaning appears meanwhile, and the next apply leaves it alone', async () => {
    scratch = await freshDatabase('installer_plan_changed', { hostSchema: true });
    const { db } = scratch;
    const shown: string[] = [];
    await expect(
      applyInstallation(db, file, {
        confirm: async (plan) => {
          shown.push(...plan.changes.map((change) => change.key));
          await db.execute(
            "INSERT INTO sys_core_par_parametros (EMPRESA, FILIAL, LOCAL, NOME, CONTEUDO) VALUES (1, 1, 1, 'ASSOCIATION_TASK_OPER', 'MO_OPER')",
          );
          return true;
        },
      }),
    ).rejects.toMatchObject({
      code: 'PLAN_CHANGED',
      path: 'parameter:ASSOCIATION_TASK_OPER',
      message: expect.stringContaining('no row was written, though the tables were brought up to date'),
    });
    expect(shown).toContain('parameter:ASSOCIATION_TASK_OPER');
    expect(await countRows(db, 'sys_core_menu')).toBe(0);
    expect(await countRows(db, 'sys_core_par_parametros')).toBe(1);
    expect(await countRows(db, 'task_association_ledger', "ENTRY_KEY LIKE 'table:%'")).toBe(4);
    expect(await countRows(db, 'task_association_ledger', "ENTRY_KEY NOT LIKE 'table:%'")).toBe(0);

    const again = await applyInstallation(db, file, {});
    expect(again.changes.map((change) => change.key)).not.toContain('parameter:ASSOCIATION_TASK_OPER');
    expect(again.findings).toContainEqual(expect.objectContaining({ code: 'ROW_NOT_OURS' }));
    expect(await countRows(db, 'sys_core_par_parametros')).toBe(5);
  });

  it('uninstall removes nothing when one of its rows stops being what it wrote meanwhile', async () => {
    scratch = await freshDatabase('installer_plan_changed', { hostSchema: true });
    const { db } = scratch;
    await applyInstallation(db, file, {});
    let edited: Record<string, unknown> | undefined;
    await expect(
      uninstallInstallation(db, file, {
        confirm: async () => {
          // Someone renames a parameter row of ours: it is no longer what we wrote, so not ours to delete.
          await db.execute(
            "UPDATE sys_core_par_parametros SET NOME = 'RENAMED' WHERE NOME = 'ASSOCIATION_TASK_OPER'",
          );
          edited = await databaseState(db);
          return true;
        },
      }),
    ).rejects.toMatchObject({
      code: 'PLAN_CHANGED',
      message: expect.stringContaining('no row was written;'),
    });
    expect(await databaseState(db)).toEqual(edited);

    const again = await uninstallInstallation(db, file, {});
    expect(again.findings).toContainEqual(expect.objectContaining({ code: 'ROW_NOT_RECOGNISED' }));
    expect(await countRows(db, 'sys_core_par_parametros')).toBe(1);
    expect(await countRows(db, 'sys_core_par_parametros', "NOME = 'RENAMED'")).toBe(1);
  });

  it('uninstall drops no table that got rows after the plan called it empty', async () => {
    scratch = await freshDatabase('installer_plan_changed', { hostSchema: true });
    const { db } = scratch;
    await applyInstallation(db, file, {});
    const shown: string[] = [];
    let before: Record<string, unknown> | undefined;
    await expect(
      uninstallInstallation(db, file, {
        confirm: async (plan) => {
          shown.push(...plan.changes.map((change) => change.message));
          await db.execute(
            "INSERT INTO MO_OPER (EMPRESA, FILIAL, LOCAL, ID, CODIGO, INS_USUARIO_SEQ_DB) VALUES (1, 1, 1, 1, 'A1', 1)",
          );
          before = await databaseState(db);
          return true;
        },
      }),
    ).rejects.toMatchObject({
      code: 'PLAN_CHANGED',
      path: 'table:OPER',
      message: expect.stringContaining('nothing was removed'),
    });
    expect(shown).toContain('drop table MO_OPER (empty)');
    expect(await databaseState(db)).toEqual(before);
    expect(await countRows(db, 'MO_OPER')).toBe(1);
  });

  it('uninstall drops no shared table that got rows after the plan called it empty (a save meanwhile)', async () => {
    scratch = await freshDatabase('installer_plan_changed', { hostSchema: true });
    const { db } = scratch;
    await applyInstallation(db, file, {});
    const shown: string[] = [];
    let before: Record<string, unknown> | undefined;
    await expect(
      uninstallInstallation(db, file, {
        confirm: async (plan) => {
          shown.push(...plan.changes.map((change) => change.message));
          await db.execute(
            "INSERT INTO task_association_history (EMPRESA, FILIAL, LOCAL, METRIC_TABLE, ROW_SEQ_DB, FOLHA_TAREFA_SEQ_DB, OPER_SEQ_DB, FIELD, ACTION, NEW_VALUE, USUARIO_SEQ_DB, SOURCE) VALUES (1, 1, 1, 'MO_OPER_GRUPO_METRICA', 1, 1, 1, 'METRICA1', 'insert', '1', 7, 'screen')",
          );
          before = await databaseState(db);
          return true;
        },
      }),
    ).rejects.toMatchObject({
      code: 'PLAN_CHANGED',
      path: 'task_association_history',
      message: expect.stringContaining('nothing was removed'),
    });
    expect(shown).toContain(
      'drop the shared table task_association_history (empty): no installation is left',
    );
    expect(await databaseState(db)).toEqual(before);
    expect(await countRows(db, 'task_association_history')).toBe(1);
  });

  it('uninstall stops cleanly when a table it would drop is gone after the confirmation', async () => {
    scratch = await freshDatabase('installer_plan_changed', { hostSchema: true });
    const { db } = scratch;
    await applyInstallation(db, file, {});
    let before: Record<string, unknown> | undefined;
    await expect(
      uninstallInstallation(db, file, {
        confirm: async () => {
          await db.execute('DROP TABLE MO_OPER_GRUPO_METRICA');
          before = await databaseState(db);
          return true;
        },
      }),
    ).rejects.toMatchObject({ code: 'PLAN_CHANGED', path: 'table:OPER_GRUPO_METRICA' });
    expect(await databaseState(db)).toEqual(before);
    // Run again, it forgets the table that is gone and removes the rest.
    const again = await uninstallInstallation(db, file, {});
    expect(again.changes).toContainEqual(
      expect.objectContaining({ kind: 'forget', key: 'table:OPER_GRUPO_METRICA' }),
    );
    expect(await countRows(db, 'sys_core_menu')).toBe(0);
  });
});
