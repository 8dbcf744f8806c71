import { afterEach, describe, expect, it } from 'vitest';
import { applyInstallation } from '../../src/installer/installer.js';
import { uninstallInstallation } from '../../src/installer/uninstall.js';
import { verifyInstallation } from '../../src/installer/verify.js';
import type { ScratchDatabase } from '../../src/store/scratch.js';
import { freshDatabase } from '../support/database.js';
import { countRows, databaseState, exampleInstallFile, plainInstallFile } from './support.js';

let scratch: ScratchDatabase | undefined;
afterEach(async () => {
  await scratch?.drop();
  scratch = undefined;
});

async function host() {
  scratch = await freshDatabase('installer_uninstall', { hostSchema: true });
  return scratch.db;
}

const file = exampleInstallFile();

describe('uninstall', () => {
  it('lists the upgrade of a ledger an earlier build wrote, then runs it before removing anything', async () => {
    const db = await host();
    await applyInstallation(db, file, {});
    await db.execute('ALTER TABLE task_association_ledger DROP COLUMN PACKAGE_VERSION');
    const dry = await uninstallInstallation(db, file, { dryRun: true });
    expect(dry.changes[0]).toMatchObject({
      kind: 'ddl',
      key: 'ledger',
      sql: expect.stringContaining('ADD COLUMN `PACKAGE_VERSION`'),
    });
    const done = await uninstallInstallation(db, file);
    expect(done.changes.map((change) => change.kind)).toContain('ddl');
    expect(await countRows(db, 'sys_core_menu')).toBe(0);
  });

  it('a dry run says it applied nothing, also when nothing would change', async () => {
    const db = await host();
    await applyInstallation(db, file, {});
    await db.execute(
      "INSERT INTO MO_OPER (EMPRESA, FILIAL, LOCAL, ID, CODIGO, INS_USUARIO_SEQ_DB) VALUES (1, 1, 1, 1, 'A1', 1)",
    );
    // Everything removable goes; MO_OPER stays for its row, and MO_OPER_GRUPO and the link table with it.
    await uninstallInstallation(db, file);
    const dry = await uninstallInstallation(db, file, { dryRun: true });
    expect(dry).toMatchObject({ changes: [], applied: false });
    expect(dry.findings).toContainEqual(
      expect.objectContaining({ code: 'TABLE_NOT_EMPTY', path: 'MO_OPER' }),
    );
  });

  it('leaves the database as it was before install: every table, its columns, indexes and rows', async () => {
    const db = await host();
    // Rows of the host's own, including a hand-made menu and parameters of another scope.
    await db.execute(
      "INSERT INTO sys_core_menu (EMPRESA, FILIAL, LOCAL, DESCRICAO, TYPE) VALUES (1, 1, 1, 'Cadastros', 'MENU')",
    );
    await db.execute(
      "INSERT INTO sys_core_par_parametros (EMPRESA, FILIAL, LOCAL, NOME, CONTEUDO) VALUES (1, 1, 1, 'OTHER', 'x'), (2, 1, 1, 'TREE_VIEW', '{}')",
    );
    const before = await databaseState(db);
    await applyInstallation(db, file, {});
    expect(await databaseState(db)).not.toEqual(before);
    const result = await uninstallInstallation(db, file);
    expect(result.changes.map((c) => `${c.kind} ${c.table}`)).toEqual([
      ...Array(3).fill('delete sys_core_menu'),
      'delete sys_core_ds_tabela_campo',
      ...Array(5).fill('delete sys_core_par_parametros'),
      ...Array(4).fill('forget task_association_ledger'),
      'drop-table MO_OPER_GRUPO_METRICA',
      'drop-table MO_OPER_MO_OPER_GRUPO',
      'drop-table MO_OPER',
      'drop-table MO_OPER_GRUPO',
      'drop-table task_association_history',
      'drop-table task_association_request',
      'drop-table task_association_lock',
      'drop-table task_association_ledger',
    ]);
    expect(await databaseState(db)).toEqual(before);
    expect((await uninstallInstallation(db, file)).changes).toEqual([]);
  });

  it('never deletes a row it did not create, and keeps the shared link field while another installation needs it', async () => {
    const db = await host();
    const other = plainInstallFile({ EMPRESA: 2, FILIAL: 1, LOCAL: 1 });
    await applyInstallation(db, file, {});
    await applyInstallation(db, other, {});
    // Made by hand after the install: look like ours, are not in the ledger.
    await db.execute(
      'INSERT INTO sys_core_menu (EMPRESA, FILIAL, LOCAL, DESCRICAO, TYPE, FILTER) SELECT EMPRESA, FILIAL, LOCAL, DESCRICAO, TYPE, FILTER FROM sys_core_menu WHERE EMPRESA = 1',
    );
    await db.execute(
      "INSERT INTO sys_core_par_parametros (EMPRESA, FILIAL, LOCAL, NOME, CONTEUDO) VALUES (1, 1, 1, 'TREE_VIEW', 'hand-made')",
    );

    await uninstallInstallation(db, file);
    expect(await countRows(db, 'sys_core_menu', 'EMPRESA = 1')).toBe(3);
    expect(await db.query('SELECT CONTEUDO FROM sys_core_par_parametros WHERE EMPRESA = 1')).toEqual([
      { CONTEUDO: 'hand-made' },
    ]);
    expect(await countRows(db, 'sys_core_ds_tabela_campo')).toBe(1);
    expect(await countRows(db, 'sys_core_menu', 'EMPRESA = 2')).toBe(3);

    await uninstallInstallation(db, other);
    expect(await countRows(db, 'sys_core_ds_tabela_campo')).toBe(0);
    expect(await countRows(db, 'sys_core_menu')).toBe(3);
    expect(await db.query("SHOW TABLES LIKE 'task_association_ledger'")).toEqual([]);
  });

  it('keeps a table that holds rows unless --force, and drops it with --force', async () => {
    const db = await host();
    await applyInstallation(db, file, {});
    await db.execute(
      "INSERT INTO MO_OPER (EMPRESA, FILIAL, LOCAL, ID, INS_USUARIO_SEQ_DB, CODIGO) VALUES (1, 1, 1, 1, 1, 'A1')",
    );
    const kept = await uninstallInstallation(db, file);
    expect(kept.findings).toContainEqual(
      expect.objectContaining({ code: 'TABLE_NOT_EMPTY', path: 'MO_OPER' }),
    );
    expect(await db.query('SELECT CODIGO FROM MO_OPER')).toEqual([{ CODIGO: 'A1' }]);
    expect(await countRows(db, 'task_association_ledger')).toBe(1);

    const forced = await uninstallInstallation(db, file, { force: true });
    expect(forced.changes.map((c) => `${c.kind} ${c.table}`)).toEqual([
      'drop-table MO_OPER',
      'drop-table task_association_history',
      'drop-table task_association_request',
      'drop-table task_association_lock',
      'drop-table task_association_ledger',
    ]);
    expect(await db.query("SHOW TABLES LIKE 'MO_%'")).toEqual([]);
  });

  it('keeps a table a foreign key of the host references, even with --force, and drops it once the key is gone', async () => {
    const db = await host();
    await applyInstallation(db, file, {});
    await db.execute(
      'CREATE TABLE host_task_note (ID int PRIMARY KEY, OPER_SEQ_DB bigint unsigned, CONSTRAINT fk_note_oper FOREIGN KEY (OPER_SEQ_DB) REFERENCES MO_OPER (SEQ_DB))',
    );
    for (const force of [false, true]) {
      const result = await uninstallInstallation(db, file, { force });
      expect(result.findings).toContainEqual({
        level: 'info',
        code: 'TABLE_REFERENCED',
        path: 'MO_OPER',
        message:
          'table MO_OPER is referenced by foreign key fk_note_oper of table host_task_note: kept (drop that foreign key, then run uninstall again)',
      });
      // The rest goes: the rows, and the tables nothing that stays refers to.
      expect(await db.query("SHOW TABLES LIKE 'MO_%'")).toEqual([
        { [`Tables_in_${db.schemaName} (MO_%)`]: 'MO_OPER' },
      ]);
      expect(await countRows(db, 'sys_core_menu')).toBe(0);
    }
    await db.execute('DROP TABLE host_task_note');
    const rest = await uninstallInstallation(db, file, {});
    expect(rest.changes.map((change) => `${change.kind} ${change.table}`)).toContain('drop-table MO_OPER');
    expect(await db.query("SHOW TABLES LIKE 'MO_%'")).toEqual([]);
  });

  it('deletes nothing when a read fails', async () => {
    const db = await host();
    await applyInstallation(db, file, {});
    await db.execute('RENAME TABLE sys_core_menu TO sys_core_menu_away');
    const before = await databaseState(db);
    await expect(uninstallInstallation(db, file)).rejects.toMatchObject({
      code: 'LEDGER_ROWS_UNREADABLE',
      message: expect.stringMatching(
        /cannot read the rows the ledger records in sys_core_menu .*nothing was changed/,
      ),
    });
    expect(await databaseState(db)).toEqual(before);
    await db.execute('RENAME TABLE sys_core_menu_away TO sys_core_menu');
    await uninstallInstallation(db, file);
    expect(await countRows(db, 'sys_core_menu')).toBe(0);
  });
});

describe('uninstall with two installations on the same tables', () => {
  it('keeps the tables another installation uses, even with --force, and hands their removal over to it', async () => {
    const db = await host();
    const second = exampleInstallFile({ scope: { EMPRESA: 2, FILIAL: 1, LOCAL: 1 } });
    await applyInstallation(db, file, {});
    await applyInstallation(db, second, {});
    expect(await countRows(db, 'task_association_ledger', "EMPRESA = 2 AND ENTRY_KEY LIKE 'uses:%'")).toBe(4);

    const first = await uninstallInstallation(db, file, { force: true });
    expect(first.changes.filter((c) => c.kind === 'drop-table')).toEqual([]);
    expect(await db.query("SHOW TABLES LIKE 'MO_%'")).toHaveLength(4);
    expect((await verifyInstallation(db, second)).problems).toEqual([]);

    await uninstallInstallation(db, second);
    expect(await db.query("SHOW TABLES LIKE 'MO_%'")).toEqual([]);
    expect(await db.query("SHOW TABLES LIKE 'task_association_ledger'")).toEqual([]);
  });

  it('records the use of tables on a re-apply of an installation made before uses were recorded', async () => {
    const db = await host();
    await applyInstallation(db, file, {});
    await db.execute("DELETE FROM task_association_ledger WHERE ENTRY_KEY LIKE 'uses:%'");
    const again = await applyInstallation(db, file, {});
    expect(again.changes.map((c) => `${c.kind} ${c.key}`)).toEqual(
      ['OPER', 'OPER_GRUPO', 'OPER_GRUPO_METRICA', 'OPER_OPER_GRUPO'].map((t) => `use-table uses:${t}`),
    );
    expect((await applyInstallation(db, file, {})).changes).toEqual([]);
  });
});

describe('uninstall trusts the ledger only as far as it must', () => {
  it('deletes and drops nothing through an entry naming another table, or a row whose identity changed', async () => {
    const db = await host();
    await applyInstallation(db, file, {});
    await db.execute(
      "UPDATE task_association_ledger SET HOST_TABLE = 'app_cliente', ROW_SEQ_DB = 1 WHERE ENTRY_KEY = 'menu:activities'",
    );
    await db.execute(
      "UPDATE task_association_ledger SET HOST_TABLE = 'app_cliente' WHERE ENTRY_KEY = 'table:OPER'",
    );
    await db.execute("UPDATE sys_core_par_parametros SET NOME = 'SOMETHING_ELSE' WHERE NOME = 'TREE_VIEW'");
    const result = await uninstallInstallation(db, file, { force: true });
    expect(result.findings.map((f) => `${f.code} ${f.path}`)).toEqual([
      'LEDGER_ENTRY_UNEXPECTED ledger.menu:activities',
      expect.stringMatching(/^ROW_NOT_RECOGNISED sys_core_par_parametros\.SEQ_DB=\d+$/),
      'LEDGER_ENTRY_UNEXPECTED ledger.table:OPER',
    ]);
    expect(result.changes.map((c) => c.table)).not.toContain('app_cliente');
    expect(await db.query('SELECT * FROM app_cliente')).toEqual([
      { SEQ_DB: 1, NOME: 'must survive every install, sync and uninstall' },
    ]);
    expect(await countRows(db, 'sys_core_par_parametros', "NOME = 'SOMETHING_ELSE'")).toBe(1);
    // MO_OPER is kept with its entry (the entry names another table); the other three are dropped.
    expect(await db.query("SHOW TABLES LIKE 'MO_OPER'")).toHaveLength(1);
    expect(await db.query("SHOW TABLES LIKE 'MO_OPER_GRUPO'")).toEqual([]);
    expect(
      (
        await db.query<{ ENTRY_KEY: string }>(
          'SELECT ENTRY_KEY FROM task_association_ledger ORDER BY ENTRY_KEY',
        )
      ).map((row) => row.ENTRY_KEY),
    ).toEqual(['menu:activities', 'parameter:TREE_VIEW', 'table:OPER']);
  });
});

describe('uninstall and the shared tables', () => {
  const history = (empresa: number) =>
    `INSERT INTO task_association_history (EMPRESA, FILIAL, LOCAL, METRIC_TABLE, ROW_SEQ_DB, FOLHA_TAREFA_SEQ_DB, OPER_SEQ_DB, FIELD, ACTION, NEW_VALUE, USUARIO_SEQ_DB, SOURCE) VALUES (${empresa}, 1, 1, 'MO_OPER_GRUPO_METRICA', 1, 1, 1, 'METRICA1', 'insert', '12.50', 7, 'screen')`;
  const sharedTables = async (db: Awaited<ReturnType<typeof host>>) =>
    (
      await db.query<{ name: string }>(
        "SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN ('task_association_history', 'task_association_request') ORDER BY 1",
      )
    ).map((row) => row.name);

  it("leaves them whole while another installation is left, this one's history included, and keeps them for their rows with the last unless forced", async () => {
    const db = await host();
    const second = exampleInstallFile({ scope: { EMPRESA: 2, FILIAL: 1, LOCAL: 1 } });
    await applyInstallation(db, file, {});
    await applyInstallation(db, second, {});
    await db.execute(history(1));
    await db.execute(history(2));

    // Even forced: the history is a record, and the other installation writes both tables.
    const first = await uninstallInstallation(db, file, { force: true });
    expect(first.changes.map((change) => change.table)).not.toContain('task_association_history');
    expect(first.changes.map((change) => change.table)).not.toContain('task_association_request');
    expect(await countRows(db, 'task_association_history')).toBe(2);
    expect(await countRows(db, 'task_association_history', 'EMPRESA = 1')).toBe(1);

    // The last one drops the empty request table and the ledger, and keeps the history for its rows.
    const last = await uninstallInstallation(db, second);
    const dropsOfOurs = (changes: readonly { kind: string; table: string }[]) =>
      changes.filter((c) => c.kind === 'drop-table' && c.table.startsWith('task_association_'));
    expect(dropsOfOurs(last.changes).map((c) => c.table)).toEqual([
      'task_association_request',
      'task_association_lock',
      'task_association_ledger',
    ]);
    expect(last.findings).toContainEqual(
      expect.objectContaining({
        code: 'TABLE_NOT_EMPTY',
        path: 'task_association_history',
        message: expect.stringContaining('run this uninstall with --force to drop it with its rows'),
      }),
    );
    expect(await sharedTables(db)).toEqual(['task_association_history']);
    expect(await countRows(db, 'task_association_history')).toBe(2);
    // No installation is left to uninstall: the table is the operator's to drop, as the finding says.
    expect((await uninstallInstallation(db, second, { force: true })).changes).toEqual([]);
    expect(await sharedTables(db)).toEqual(['task_association_history']);
  });

  it('drops them with their rows when the last installation leaves with --force', async () => {
    const db = await host();
    await applyInstallation(db, file, {});
    await db.execute(history(1));
    await db.execute(
      "INSERT INTO task_association_request (EMPRESA, FILIAL, LOCAL, REQUEST_ID, BODY_HASH, ANSWER, USUARIO_SEQ_DB) VALUES (1, 1, 1, 'r-1', 'h', '{}', 7)",
    );
    const dry = await uninstallInstallation(db, file, { dryRun: true });
    expect(dry.findings.map((finding) => `${finding.code} ${finding.path}`)).toEqual([
      'TABLE_NOT_EMPTY task_association_history',
      'TABLE_NOT_EMPTY task_association_request',
    ]);
    const forced = await uninstallInstallation(db, file, { force: true });
    expect(
      forced.changes
        .filter((c) => c.kind === 'drop-table' && c.table.startsWith('task_association_'))
        .map((c) => c.message),
    ).toEqual([
      'drop the shared table task_association_history with its rows (--force): no installation is left',
      'drop the shared table task_association_request with its rows (--force): no installation is left',
      'drop the shared table task_association_lock (empty): no installation is left',
      "drop the installer's ledger task_association_ledger (no installation left in it)",
    ]);
    expect(await sharedTables(db)).toEqual([]);
  });

  it('keeps one a host table points at, even with --force, and drops the rest', async () => {
    const db = await host();
    await applyInstallation(db, file, {});
    await db.execute(
      'CREATE TABLE host_audit (ID int PRIMARY KEY, HISTORY_SEQ_DB bigint unsigned, CONSTRAINT fk_audit_history FOREIGN KEY (HISTORY_SEQ_DB) REFERENCES task_association_history (SEQ_DB))',
    );
    const result = await uninstallInstallation(db, file, { force: true });
    expect(result.findings).toContainEqual(
      expect.objectContaining({ code: 'TABLE_REFERENCED', path: 'task_association_history' }),
    );
    expect(await sharedTables(db)).toEqual(['task_association_history']);
    expect(await db.query("SHOW TABLES LIKE 'task_association_ledger'")).toEqual([]);
  });
});
