import { afterEach, describe, expect, it } from 'vitest';
import { InstallFile } from '../../src/installer/install-file.js';
import { applyInstallation, planInstallation } from '../../src/installer/installer.js';
import { uninstallInstallation } from '../../src/installer/uninstall.js';
import { verifyInstallation } from '../../src/installer/verify.js';
import { InstallerError } from '../../src/model/installer-errors.js';
import type { ScratchDatabase } from '../../src/store/scratch.js';
import { freshDatabase } from '../support/database.js';
import { COMMON_COLUMNS_SQL } from '../sync/common-columns-sql.js';
import { databaseState, exampleInstallFile } from './support.js';

let scratch: ScratchDatabase | undefined;
afterEach(async () => {
  await scratch?.drop();
  scratch = undefined;
});

/** A fresh host database, changed by `alter` (statements of the test's own) to one installation's shape. */
async function host(...alter: string[]) {
  scratch = await freshDatabase('installer_host', { hostSchema: true });
  for (const statement of alter) await scratch.db.execute(statement);
  return scratch.db;
}

const file = exampleInstallFile();
// As the install file's model reads them (column names checked as identifiers).
const hostColumns = (value: unknown) => InstallFile.shape.hostColumns.parse(value);
const { mobileFlagColumn: _named, ...unnamedLinkField } = file.linkField;
const findMobileFlag = exampleInstallFile({ linkField: unnamedLinkField });

async function refused(db: Awaited<ReturnType<typeof host>>, install = file) {
  const before = await databaseState(db);
  const error = await applyInstallation(db, install, {}).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(InstallerError);
  expect(await databaseState(db)).toEqual(before);
  return error as InstallerError;
}

describe('apply adapts to the host', () => {
  it('leaves an extra NOT NULL column with a default to its default', async () => {
    const db = await host('ALTER TABLE sys_core_menu ADD COLUMN APP_ID int NOT NULL DEFAULT 7');
    await applyInstallation(db, file, {});
    expect(await db.query('SELECT APP_ID FROM sys_core_menu')).toEqual([
      { APP_ID: 7 },
      { APP_ID: 7 },
      { APP_ID: 7 },
    ]);
    expect((await verifyInstallation(db, file)).problems).toEqual([]);
  });

  it('finds a send-to-mobile flag column of another name', async () => {
    const db = await host(
      'ALTER TABLE sys_core_ds_tabela_campo CHANGE ENVIA_MOBILE ENVIAR_PARA_MOBILE tinyint(1) NOT NULL DEFAULT 0',
    );
    await applyInstallation(db, findMobileFlag, {});
    expect(await db.query('SELECT ENVIAR_PARA_MOBILE, GRID_MOBILE FROM sys_core_ds_tabela_campo')).toEqual([
      { ENVIAR_PARA_MOBILE: 1, GRID_MOBILE: 1 },
    ]);
    expect((await applyInstallation(db, findMobileFlag, {})).changes).toEqual([]);
  });

  it('installs menus without ICON on a host whose sys_core_menu has none, and says so', async () => {
    const db = await host('ALTER TABLE sys_core_menu DROP COLUMN ICON');
    const result = await applyInstallation(db, file, {});
    expect(result.findings).toContainEqual({
      level: 'info',
      code: 'HOST_COLUMN_MISSING',
      path: 'sys_core_menu.ICON',
      message: expect.stringContaining('sys_core_menu has no column ICON'),
    });
    expect(await db.query('SELECT COUNT(*) AS n FROM sys_core_menu')).toEqual([{ n: 3 }]);
    expect((await applyInstallation(db, file, {})).changes).toEqual([]);
    expect((await verifyInstallation(db, file)).ok).toBe(true);
  });

  it.each([
    ['LOCAL', ['LOCAL']],
    ['the scope columns', ['EMPRESA', 'FILIAL', 'LOCAL']],
  ])(
    'installs, reconciles and uninstalls menus on a host whose sys_core_menu lacks %s',
    async (_what, columns) => {
      const db = await host(
        `ALTER TABLE sys_core_menu ${columns.map((column) => `DROP COLUMN ${column}`).join(', ')}`,
      );
      const pristine = await databaseState(db);
      const result = await applyInstallation(db, file, {});
      expect(result.findings).toContainEqual(
        expect.objectContaining({ level: 'info', code: 'HOST_COLUMN_MISSING', path: 'sys_core_menu.LOCAL' }),
      );
      expect(await db.query('SELECT COUNT(*) AS n FROM sys_core_menu')).toEqual([{ n: 3 }]);
      // The rows are its own still: told apart by TYPE and FILTER (or URL), nothing to do again.
      expect((await applyInstallation(db, file, {})).changes).toEqual([]);
      expect((await verifyInstallation(db, file)).problems).toEqual([]);
      await uninstallInstallation(db, file);
      expect(await databaseState(db)).toEqual(pristine);
    },
  );

  it.each([
    ['FILTER', 'the task sheet and activities menus differ only by it'],
    ['URL', "the report link's identity"],
  ])(
    'refuses a host whose sys_core_menu lacks %s (%s), naming the column, before any write',
    async (column) => {
      const db = await host(`ALTER TABLE sys_core_menu DROP COLUMN ${column}`);
      const planned = await planInstallation(db, file, {});
      expect(planned.findings).toContainEqual(
        expect.objectContaining({
          level: 'error',
          code: 'HOST_COLUMN_MISSING',
          path: `sys_core_menu.${column}`,
        }),
      );
      const error = await refused(db);
      expect(error).toMatchObject({ code: 'HOST_COLUMN_MISSING', path: `sys_core_menu.${column}` });
      expect(error.message).toContain(`sys_core_menu has no column ${column}`);
      expect((await verifyInstallation(db, file)).problems).toContainEqual(
        expect.objectContaining({ code: 'HOST_COLUMN_MISSING', path: `sys_core_menu.${column}` }),
      );
    },
  );

  it('refuses, listing the candidates, when the send-to-mobile flag column is ambiguous', async () => {
    const db = await host(
      'ALTER TABLE sys_core_ds_tabela_campo ADD COLUMN MOBILE_SYNC tinyint(1) NOT NULL DEFAULT 0',
    );
    const error = await refused(db, findMobileFlag);
    expect(error.code).toBe('MOBILE_FLAG_COLUMN_AMBIGUOUS');
    expect(error.message).toContain('(ENVIA_MOBILE, MOBILE_SYNC)');
    expect(error.message).toContain('linkField.mobileFlagColumn');
  });

  it('refuses when the named send-to-mobile flag column does not exist, or none can be found', async () => {
    const db = await host();
    const named = await refused(
      db,
      exampleInstallFile({ linkField: { label: 'x', mobileFlagColumn: 'NO_SUCH' as never } }),
    );
    expect(named.code).toBe('MOBILE_FLAG_COLUMN_MISSING');
    await db.execute('ALTER TABLE sys_core_ds_tabela_campo DROP COLUMN ENVIA_MOBILE');
    expect((await refused(db, findMobileFlag)).code).toBe('MOBILE_FLAG_COLUMN_NOT_FOUND');
  });

  it('reports a required host column it cannot fill before writing anything, tables included', async () => {
    const db = await host('ALTER TABLE sys_core_menu ADD COLUMN CRIADO_POR int NOT NULL');
    const error = await refused(db);
    expect(error).toMatchObject({ code: 'HOST_COLUMN_REQUIRED', path: 'sys_core_menu.CRIADO_POR' });
    expect(error.message).toContain('nothing was written');
    expect(error.message).toContain('CRIADO_POR (int(11)) is NOT NULL without a default');
  });

  it('fills a NOT NULL host column without a default from the install file (hostColumns), on insert', async () => {
    const db = await host('ALTER TABLE sys_core_menu ADD COLUMN CRIADO_POR int NOT NULL');
    const pristine = await databaseState(db);
    const install = exampleInstallFile({ hostColumns: hostColumns({ sys_core_menu: { CRIADO_POR: 5 } }) });
    await applyInstallation(db, install, {});
    expect(await db.query('SELECT DISTINCT CRIADO_POR FROM sys_core_menu')).toEqual([{ CRIADO_POR: 5 }]);
    expect((await applyInstallation(db, install, {})).changes).toEqual([]);
    expect((await verifyInstallation(db, install)).ok).toBe(true);
    await uninstallInstallation(db, install, {});
    expect(await databaseState(db)).toEqual(pristine);
  });

  it('refuses hostColumns naming a column the host lacks or one the installer writes', async () => {
    const db = await host();
    const error = await refused(
      db,
      exampleInstallFile({ hostColumns: hostColumns({ sys_core_menu: { NO_SUCH: 1, DESCRICAO: 'x' } }) }),
    );
    expect(error).toMatchObject({ code: 'HOST_COLUMN_UNKNOWN', path: 'hostColumns.sys_core_menu.NO_SUCH' });
    expect(error.message).toContain(
      'hostColumns.sys_core_menu.DESCRICAO: sys_core_menu.DESCRICAO is written by the installer itself',
    );
  });

  it('refuses SEQ_DB in hostColumns: the ledger records a row by the SEQ_DB the server gives it', async () => {
    const db = await host();
    const error = await refused(
      db,
      exampleInstallFile({ hostColumns: hostColumns({ sys_core_ds_tabela_campo: { SEQ_DB: 1000 } }) }),
    );
    expect(error).toMatchObject({
      code: 'HOST_COLUMN_SEQ_DB',
      path: 'hostColumns.sys_core_ds_tabela_campo.SEQ_DB',
    });
    expect(error.message).toContain('leave it out of hostColumns');
  });

  it('refuses a host table whose SEQ_DB is not AUTO_INCREMENT, and does not ask for it in hostColumns', async () => {
    const db = await host('ALTER TABLE sys_core_ds_tabela_campo MODIFY SEQ_DB bigint unsigned NOT NULL');
    const error = await refused(db);
    expect(error).toMatchObject({
      code: 'HOST_SEQ_DB_NOT_AUTO_INCREMENT',
      path: 'sys_core_ds_tabela_campo.SEQ_DB',
    });
    expect(error.message).toContain("host table sys_core_ds_tabela_campo's SEQ_DB is not AUTO_INCREMENT");
    expect(error.message).not.toContain('hostColumns');
    expect((await verifyInstallation(db, file)).problems).toContainEqual(
      expect.objectContaining({ code: 'HOST_SEQ_DB_NOT_AUTO_INCREMENT' }),
    );
  });

  it('refuses a menu parent of another scope', async () => {
    const db = await host();
    const other = await db.execute(
      "INSERT INTO sys_core_menu (EMPRESA, FILIAL, LOCAL, DESCRICAO, TYPE) VALUES (2, 1, 1, 'Outra empresa', 'MENU')",
    );
    const install = exampleInstallFile({
      menus: { ...file.menus, activities: { ...file.menus.activities, father: other.insertId } },
    });
    const error = await refused(db, install);
    expect(error).toMatchObject({ code: 'MENU_PARENT_OTHER_SCOPE', path: 'menus.activities.father' });
    expect(error.message).toContain("a menu of scope 2/1/1, not of the installation's scope 1/1/1");
  });

  it('checks menu parents before any write, and puts menus under an existing one', async () => {
    const db = await host();
    const under = (father: number) =>
      exampleInstallFile({ menus: { ...file.menus, activities: { ...file.menus.activities, father } } });
    const error = await refused(db, under(999));
    expect(error).toMatchObject({ code: 'MENU_PARENT_MISSING', path: 'menus.activities.father' });
    const parent = await db.execute(
      "INSERT INTO sys_core_menu (EMPRESA, FILIAL, LOCAL, DESCRICAO, TYPE) VALUES (1, 1, 1, 'Cadastros', 'MENU')",
    );
    await applyInstallation(db, under(parent.insertId), {});
    expect(await db.query("SELECT FATHER FROM sys_core_menu WHERE DESCRICAO = 'Atividades'")).toEqual([
      { FATHER: parent.insertId },
    ]);
  });

  it('refuses a database without the host tables', async () => {
    scratch = await freshDatabase('installer_host', { hostSchema: false });
    const error = await refused(scratch.db);
    expect(error.code).toBe('HOST_TABLE_MISSING');
    expect(error.message).toContain('sys_core_menu does not exist');
  });
});

describe('rows the installer did not make', () => {
  it('leaves a hand-made link field alone, checks it, and never deletes it', async () => {
    const db = await host();
    await db.execute(
      `INSERT INTO sys_core_ds_tabela_campo (TABELA_NOME, NOME, SEQ, SYS, ENVIA_MOBILE, GRID, GRID_MOBILE, DESCRICAO, DESCRICAO_RESUMIDA, TIPO, INSERT_UPDATE, DISABLED, LINK, VALIDACAO, OPCOES)
       VALUES ('FOLHA_TAREFA', 'LINK_ATIVIDADE_METRICAS', 11, 0, 1, 0, 1, 'Made by hand', 'Made by hand', 'LINK', 'IU', '0', 'FOLHA_TAREFA', '', 'type:GET_URL;url:associationtask;p1:taskSheet;v1:SEQ_DB;icon:fa fa-link')`,
    );
    const result = await applyInstallation(db, file, {});
    expect(result.findings).toContainEqual(
      expect.objectContaining({ code: 'ROW_NOT_OURS', path: 'sys_core_ds_tabela_campo.SEQ_DB=1' }),
    );
    expect(result.changes.some((change) => change.key === 'link-field')).toBe(false);
    expect((await verifyInstallation(db, file)).ok).toBe(true);
    await db.execute("UPDATE sys_core_ds_tabela_campo SET OPCOES = 'type:GET_URL'");
    expect((await verifyInstallation(db, file)).problems.map((p) => p.code)).toEqual(['ROW_CHANGED']);
    await uninstallInstallation(db, file);
    expect(await db.query('SELECT DESCRICAO FROM sys_core_ds_tabela_campo')).toEqual([
      { DESCRICAO: 'Made by hand' },
    ]);
  });

  it('fills the acting user into a host column INS_USUARIO_SEQ_DB, even when it is required', async () => {
    const db = await host('ALTER TABLE sys_core_menu ADD COLUMN INS_USUARIO_SEQ_DB bigint unsigned NOT NULL');
    await applyInstallation(db, exampleInstallFile({ actingUser: 42 }), {});
    expect(await db.query('SELECT DISTINCT INS_USUARIO_SEQ_DB FROM sys_core_menu')).toEqual([
      { INS_USUARIO_SEQ_DB: 42 },
    ]);
  });
});

describe('tables in the way', () => {
  it('refuses before writing anything when the schema sync would refuse (a table of that name with another column type)', async () => {
    const db = await host(`CREATE TABLE MO_OPER (${COMMON_COLUMNS_SQL}, CODIGO int)`);
    const error = await refused(db);
    expect(error.code).toMatch(/^SCHEMA_/);
    expect(error.message).toContain('MO_OPER');
    expect(await db.query("SHOW TABLES LIKE 'task_association_ledger'")).toEqual([]);
  });
});
