import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { InstallFile } from '../../src/installer/install-file.js';
import { applyInstallation, planInstallation } from '../../src/installer/installer.js';
import type { ScratchDatabase } from '../../src/store/scratch.js';
import { captureIo } from '../support/cli.js';
import { freshDatabase } from '../support/database.js';
import { databaseState, exampleInstallFile } from './support.js';

/*
 * A value of the install file (or of the package) that its host column cannot hold is refused by
 * `plan` and `apply` at the install file's key, before anything is written: the server refused the
 * row in the middle of apply, after the tables were made, with no path.
 */

let scratch: ScratchDatabase | undefined;
afterEach(async () => {
  await scratch?.drop();
  scratch = undefined;
});

async function host(...alter: string[]) {
  scratch = await freshDatabase('scr_inst_unfit', { hostSchema: true });
  for (const statement of alter) await scratch.db.execute(statement);
  return scratch;
}

const hostColumns = (value: unknown) => InstallFile.shape.hostColumns.parse(value);
const tooLong = exampleInstallFile({
  hostColumns: hostColumns({ sys_core_menu: { MODULO: 'TAREFAS_E_ATIVIDADES' } }),
});

async function withInstallFile<T>(content: unknown, work: (path: string) => Promise<T>): Promise<T> {
  const directory = await mkdtemp(join(tmpdir(), 'unfit-'));
  try {
    const path = join(directory, 'install.json');
    await writeFile(path, JSON.stringify(content));
    return await work(path);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

describe('a value its host column cannot hold', () => {
  it('hostColumns too long: plan --json says refused at its key, apply --yes --json refuses and writes nothing', async () => {
    const { db, url } = await host('ALTER TABLE sys_core_menu ADD COLUMN MODULO varchar(8) NOT NULL');
    const before = await databaseState(db);
    await withInstallFile(tooLong, async (file) => {
      const planned = captureIo();
      expect(await runCli(['plan', '--install', file, '--database-url', url, '--json'], planned)).toBe(1);
      const message =
        'sys_core_menu.MODULO (varchar(8)) cannot hold "TAREFAS_E_ATIVIDADES", given at hostColumns.sys_core_menu.MODULO: the value is longer than the column\'s 8 characters; give a value that fits (or widen the column), then run again';
      expect(JSON.parse(planned.out()).refused).toEqual({
        code: 'HOST_VALUE_UNFIT',
        path: 'hostColumns.sys_core_menu.MODULO',
        message: `nothing was written: hostColumns.sys_core_menu.MODULO: ${message}`,
      });

      const applied = captureIo();
      expect(
        await runCli(['apply', '--install', file, '--database-url', url, '--yes', '--json'], applied),
      ).toBe(1);
      expect(JSON.parse(applied.out()).error).toMatchObject({
        code: 'HOST_VALUE_UNFIT',
        path: 'hostColumns.sys_core_menu.MODULO',
      });
    });
    expect(await databaseState(db)).toEqual(before);
  });

  // Found by a review: the host kept U+FFFD for it, and verify and every apply disagreed forever.
  it('a lone UTF-16 surrogate in a label: plan and apply refuse it at its path, writing nothing', async () => {
    const { db, url } = await host();
    const example = exampleInstallFile();
    const lone = {
      ...example,
      menus: { ...example.menus, taskSheet: { ...example.menus.taskSheet, label: 'A\ud800B' } },
    };
    const before = await databaseState(db);
    await withInstallFile(lone, async (file) => {
      for (const command of [['plan'], ['apply', '--yes']]) {
        const io = captureIo();
        expect(await runCli([...command, '--install', file, '--database-url', url, '--json'], io)).toBe(1);
        expect(JSON.parse(io.out()).error).toMatchObject({
          code: 'INSTALL_FILE_INVALID',
          path: 'menus.taskSheet.label',
          issues: [expect.objectContaining({ code: 'INVALID_TEXT', path: 'menus.taskSheet.label' })],
        });
      }
    });
    await expect(applyInstallation(db, lone, {})).rejects.toMatchObject({
      code: 'INSTALL_FILE_INVALID',
      path: 'menus.taskSheet.label',
    });
    expect(await databaseState(db)).toEqual(before);
  });

  it('a menu label or icon longer than the host column: refused at menus.<key>.label / .icon', async () => {
    const { db } = await host(
      'ALTER TABLE sys_core_menu MODIFY DESCRICAO varchar(12) NOT NULL, MODIFY ICON varchar(10) NULL',
    );
    const before = await databaseState(db);
    const { findings } = await planInstallation(db, exampleInstallFile(), {});
    // "Folha de tarefa" (15), "Parte diária" (12: fits), "Atividades" (10); icons "fa fa-list-alt" (14) ...
    expect(
      findings.filter((finding) => finding.code === 'HOST_VALUE_UNFIT').map((finding) => finding.path),
    ).toEqual([
      'menus.taskSheet.label',
      'menus.taskSheet.icon',
      'menus.taskSheetReport.icon',
      'menus.activities.icon',
    ]);
    await expect(applyInstallation(db, exampleInstallFile(), {})).rejects.toMatchObject({
      code: 'HOST_VALUE_UNFIT',
      path: 'menus.taskSheet.label',
    });
    expect(await databaseState(db)).toEqual(before);
  });

  it('a value of the package its column cannot hold is refused at the column', async () => {
    const { db } = await host('ALTER TABLE sys_core_menu MODIFY FILTER varchar(20) NULL');
    const { findings } = await planInstallation(db, exampleInstallFile(), {});
    expect(findings).toContainEqual({
      level: 'error',
      code: 'HOST_VALUE_UNFIT',
      path: 'sys_core_menu.FILTER',
      message: expect.stringMatching(
        /^sys_core_menu\.FILTER \(varchar\(20\)\) cannot hold "\{.*, which the installer writes there: the value is longer than the column's 20 characters; widen the column/,
      ),
    });
  });

  // Found by a review: both keys were taken, and one value was dropped without a word.
  it('hostColumns naming one column twice in two cases: plan and apply refuse it, nothing written', async () => {
    const { db, url } = await host('ALTER TABLE sys_core_menu ADD COLUMN MODULO varchar(20) NOT NULL');
    const twice = {
      ...exampleInstallFile(),
      hostColumns: { sys_core_menu: { MODULO: 'TAREFAS', modulo: 'OUTRO' } },
    };
    const before = await databaseState(db);
    await withInstallFile(twice, async (file) => {
      for (const command of [['plan'], ['apply', '--yes']]) {
        const io = captureIo();
        expect(await runCli([...command, '--install', file, '--database-url', url, '--json'], io)).toBe(1);
        expect(JSON.parse(io.out()).error).toMatchObject({
          code: 'INSTALL_FILE_INVALID',
          path: 'hostColumns.sys_core_menu.modulo',
          message: expect.stringContaining('"MODULO" and "modulo" name the same column'),
        });
      }
    });
    expect(await databaseState(db)).toEqual(before);
  });

  it('a hostColumns text for a number column, and a value that fits, on an existing installation too', async () => {
    const { db } = await host('ALTER TABLE sys_core_menu ADD COLUMN PESO smallint NOT NULL');
    const text = exampleInstallFile({ hostColumns: hostColumns({ sys_core_menu: { PESO: 'pesado' } }) });
    expect((await planInstallation(db, text, {})).findings).toContainEqual(
      expect.objectContaining({ code: 'HOST_VALUE_UNFIT', path: 'hostColumns.sys_core_menu.PESO' }),
    );
    const fits = exampleInstallFile({ hostColumns: hostColumns({ sys_core_menu: { PESO: 3 } }) });
    await applyInstallation(db, fits, {});
    // An update is checked too: a label grown past the column after the install.
    await db.execute('ALTER TABLE sys_core_menu MODIFY DESCRICAO varchar(15) NOT NULL');
    const longer = exampleInstallFile({
      hostColumns: hostColumns({ sys_core_menu: { PESO: 3 } }),
      menus: { ...fits.menus, activities: { ...fits.menus.activities, label: 'Atividades e etapas' } },
    });
    const before = await databaseState(db);
    await expect(applyInstallation(db, longer, {})).rejects.toMatchObject({
      code: 'HOST_VALUE_UNFIT',
      path: 'menus.activities.label',
    });
    expect(await databaseState(db)).toEqual(before);
  });

  // Found by a review: a column of a type no value check knows was skipped before its NULL check, so
  // plan passed and apply failed in the middle ("Column 'INICIO' cannot be null").
  it('hostColumns NULL for a NOT NULL date, enum or JSON column: refused at its key by plan and apply, nothing written', async () => {
    const { db } = await host(
      "ALTER TABLE sys_core_menu ADD COLUMN INICIO date NOT NULL, ADD COLUMN NIVEL enum('a', 'b') NOT NULL, ADD COLUMN DADOS json NOT NULL",
    );
    const nulls = exampleInstallFile({
      hostColumns: hostColumns({ sys_core_menu: { INICIO: null, NIVEL: null, DADOS: null } }),
    });
    const before = await databaseState(db);
    const { findings } = await planInstallation(db, nulls, {});
    expect(findings.filter((finding) => finding.code === 'HOST_VALUE_UNFIT')).toEqual(
      // MariaDB's JSON is a longtext, MySQL's its own type: the message names the type as the server does.
      ['INICIO', 'NIVEL', 'DADOS'].map((column) => ({
        level: 'error',
        code: 'HOST_VALUE_UNFIT',
        path: `hostColumns.sys_core_menu.${column}`,
        message: expect.stringMatching(
          new RegExp(
            `^sys_core_menu\\.${column} \\(.+\\) cannot hold null, given at hostColumns\\.sys_core_menu\\.${column}: the value is null, and the column is NOT NULL;`,
          ),
        ),
      })),
    );
    await expect(applyInstallation(db, nulls, {})).rejects.toMatchObject({
      code: 'HOST_VALUE_UNFIT',
      path: 'hostColumns.sys_core_menu.INICIO',
    });
    expect(await databaseState(db)).toEqual(before);
  });
});
