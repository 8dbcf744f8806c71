import { describe, expect, it } from 'vitest';
import { applyInstallation, planInstallation } from '../../src/installer/installer.js';
import { installationTableNames } from '../../src/installer/state.js';
import { uninstallInstallation } from '../../src/installer/uninstall.js';
import { verifyInstallation } from '../../src/installer/verify.js';
import { parseIdentifier } from '../../src/model/identifier.js';
import { readLedger } from '../../src/store/ledger.js';
import { useScratchDatabase } from '../support/database.js';
import { countRows, databaseState, exampleInstallFile, plainInstallFile } from './support.js';

const scratch = useScratchDatabase('installer_apply', { hostSchema: true });

describe('apply', () => {
  it('installs the example, and a second apply changes nothing', async () => {
    const { db } = scratch();
    const file = exampleInstallFile();
    const planned = await planInstallation(db, file, {});
    expect(planned.findings.filter((f) => f.level === 'error')).toEqual([]);
    expect(planned.changes.map((c) => `${c.kind} ${c.table} ${c.key}`)).toEqual([
      'ddl task_association_ledger ledger',
      'ddl MO_OPER schema',
      'ddl MO_OPER_GRUPO schema',
      'ddl MO_OPER_GRUPO_METRICA schema',
      'ddl MO_OPER_MO_OPER_GRUPO schema',
      'ddl task_association_history schema',
      'ddl task_association_request schema',
      'ddl task_association_lock schema',
      'insert sys_core_menu menu:taskSheetWithMetrics',
      'insert sys_core_menu menu:taskSheetReport',
      'insert sys_core_menu menu:activities',
      'insert sys_core_ds_tabela_campo link-field',
      'insert sys_core_par_parametros parameter:ASSOCIATION_TASK_OPER',
      'insert sys_core_par_parametros parameter:ASSOCIATION_TASK_OPER_GRUPO',
      'insert sys_core_par_parametros parameter:ASSOCIATION_TASK_OPER_GRUPO_METRICA',
      'insert sys_core_par_parametros parameter:ASSOCIATION_TASK_OPER_OPER_GRUPO',
      'insert sys_core_par_parametros parameter:TREE_VIEW',
      'use-table task_association_ledger uses:OPER',
      'use-table task_association_ledger uses:OPER_GRUPO',
      'use-table task_association_ledger uses:OPER_GRUPO_METRICA',
      'use-table task_association_ledger uses:OPER_OPER_GRUPO',
    ]);
    expect(await countRows(db, 'sys_core_menu')).toBe(0);

    const first = await applyInstallation(db, file, {});
    expect(first.changes).toHaveLength(planned.changes.length);
    const second = await applyInstallation(db, file, {});
    expect(second.changes).toEqual([]);
    expect((await planInstallation(db, file, {})).changes).toEqual([]);

    expect(
      await db.query(
        'SELECT DESCRICAO, TYPE, ATIVO, FATHER, MENUORDER, URL, FILTER, ICON FROM sys_core_menu ORDER BY MENUORDER',
      ),
    ).toEqual([
      {
        DESCRICAO: 'Folha de tarefa',
        TYPE: 'CRUD',
        ATIVO: 1,
        FATHER: null,
        MENUORDER: 10,
        URL: null,
        FILTER: '{"allowed":["FOLHA_TAREFA","OPER_GRUPO_METRICA"]}',
        ICON: 'fa fa-list-alt',
      },
      {
        DESCRICAO: 'Parte diária',
        TYPE: 'LINK',
        ATIVO: 1,
        FATHER: null,
        MENUORDER: 20,
        URL: 'reports/parte_diaria/filters',
        FILTER: null,
        ICON: 'fa fa-file-text-o',
      },
      {
        DESCRICAO: 'Atividades',
        TYPE: 'CRUD',
        ATIVO: 1,
        FATHER: null,
        MENUORDER: 30,
        URL: null,
        FILTER: '{"allowed":["OPER","UNIDADE_MEDIDA","OPER_GRUPO","OPER_OPER_GRUPO","ETAPA"]}',
        ICON: 'fa fa-cubes',
      },
    ]);
    const [field] = await db.query<Record<string, unknown>>('SELECT * FROM sys_core_ds_tabela_campo');
    expect(field).toMatchObject({
      TABELA_NOME: 'FOLHA_TAREFA',
      NOME: 'LINK_ATIVIDADE_METRICAS',
      SEQ: 11,
      SYS: 0,
      ENVIA_MOBILE: 1,
      GRID: 0,
      GRID_MOBILE: 1,
      DESCRICAO: 'Atividades e métricas',
      DESCRICAO_RESUMIDA: 'Atividades e métricas',
      TIPO: 'LINK',
      OBRIGATORIO: null,
      TAMANHO: null,
      TAMANHO_DECIMAL: null,
      MASCARA: null,
      INSERT_UPDATE: 'IU',
      DISABLED: '0',
      HINT: null,
      LINK: 'FOLHA_TAREFA',
      VALIDACAO: '',
      OPCOES: 'type:GET_URL;url:associationtask;p1:taskSheet;v1:SEQ_DB;icon:fa fa-link',
      VALOR_DEFAULT: null,
      VALIDACAO_VIEW: null,
      FILTRO_VIEW: null,
      TOOLTIP_MESSAGE: null,
      PROPERTIES: null,
    });
    expect(
      await db.query(
        'SELECT EMPRESA, FILIAL, LOCAL, NOME, TIPO, CONTEUDO FROM sys_core_par_parametros WHERE NOME LIKE ? ORDER BY SEQ_DB',
        ['ASSOCIATION%'],
      ),
    ).toEqual([
      { EMPRESA: 1, FILIAL: 1, LOCAL: 1, NOME: 'ASSOCIATION_TASK_OPER', TIPO: 0, CONTEUDO: 'MO_OPER' },
      {
        EMPRESA: 1,
        FILIAL: 1,
        LOCAL: 1,
        NOME: 'ASSOCIATION_TASK_OPER_GRUPO',
        TIPO: 0,
        CONTEUDO: 'MO_OPER_GRUPO',
      },
      {
        EMPRESA: 1,
        FILIAL: 1,
        LOCAL: 1,
        NOME: 'ASSOCIATION_TASK_OPER_GRUPO_METRICA',
        TIPO: 0,
        CONTEUDO: 'MO_OPER_GRUPO_METRICA',
      },
      {
        EMPRESA: 1,
        FILIAL: 1,
        LOCAL: 1,
        NOME: 'ASSOCIATION_TASK_OPER_OPER_GRUPO',
        TIPO: 0,
        CONTEUDO: 'MO_OPER_MO_OPER_GRUPO',
      },
    ]);
    const [tree] = await db.query<{ TIPO: number; CONTEUDO: string }>(
      "SELECT TIPO, CONTEUDO FROM sys_core_par_parametros WHERE NOME = 'TREE_VIEW'",
    );
    expect(tree?.TIPO).toBe(1);
    const { $schema: _schema, ...treeView } = file.treeView ?? { layers: {} };
    expect(JSON.parse(tree?.CONTEUDO ?? '')).toEqual(treeView);
    const ledger = await readLedger(db);
    expect(ledger.map((e) => e.key).sort()).toEqual([
      'link-field',
      'menu:activities',
      'menu:taskSheetReport',
      'menu:taskSheetWithMetrics',
      'parameter:ASSOCIATION_TASK_OPER',
      'parameter:ASSOCIATION_TASK_OPER_GRUPO',
      'parameter:ASSOCIATION_TASK_OPER_GRUPO_METRICA',
      'parameter:ASSOCIATION_TASK_OPER_OPER_GRUPO',
      'parameter:TREE_VIEW',
      'table:OPER',
      'table:OPER_GRUPO',
      'table:OPER_GRUPO_METRICA',
      'table:OPER_OPER_GRUPO',
      'uses:OPER',
      'uses:OPER_GRUPO',
      'uses:OPER_GRUPO_METRICA',
      'uses:OPER_OPER_GRUPO',
    ]);
    expect(await db.query('SELECT * FROM app_cliente')).toEqual([
      { SEQ_DB: 1, NOME: 'must survive every install, sync and uninstall' },
    ]);
  });

  it("reconciles the rows it owns to the install file and the customer's fixed values, and leaves administrators' edits to parameters alone unless forced", async () => {
    const { db } = scratch();
    const file = exampleInstallFile();
    await db.execute("UPDATE sys_core_menu SET ICON = 'fa fa-x', ATIVO = 0 WHERE MENUORDER = 30");
    await db.execute(
      "UPDATE sys_core_ds_tabela_campo SET OPCOES = CONCAT(OPCOES, ' '), DESCRICAO = 'Renamed by an admin'",
    );
    await db.execute(
      'UPDATE sys_core_par_parametros SET CONTEUDO = \'{"layers":{"1":{"table":"MO_OPER","isTask":true}}}\' WHERE NOME = \'TREE_VIEW\'',
    );

    const result = await applyInstallation(db, file, {});
    expect(result.changes.map((c) => `${c.kind} ${c.key}: ${c.message}`)).toEqual([
      expect.stringMatching(/^update menu:activities: .*ATIVO, ICON$/),
      expect.stringMatching(/^update link-field: .*OPCOES$/),
    ]);
    const [field] = await db.query<{ OPCOES: string; DESCRICAO: string }>(
      'SELECT OPCOES, DESCRICAO FROM sys_core_ds_tabela_campo',
    );
    expect(field).toEqual({
      OPCOES: 'type:GET_URL;url:associationtask;p1:taskSheet;v1:SEQ_DB;icon:fa fa-link',
      DESCRICAO: 'Renamed by an admin',
    });
    expect(
      await countRows(
        db,
        'sys_core_par_parametros',
        "NOME = 'TREE_VIEW' AND CONTEUDO LIKE '%\"isTask\":true}}}'",
      ),
    ).toBe(1);

    const forced = await applyInstallation(db, file, { force: true });
    expect(forced.changes.map((c) => `${c.kind} ${c.key}`)).toEqual([
      'update link-field',
      'update parameter:TREE_VIEW',
    ]);
    expect(await countRows(db, 'sys_core_ds_tabela_campo', "DESCRICAO = 'Atividades e métricas'")).toBe(1);
    expect((await applyInstallation(db, file, {})).changes).toEqual([]);
  });

  it('leaves alone a row of its own whose identity changed, and a ledger entry pointing elsewhere', async () => {
    const { db } = scratch();
    const file = exampleInstallFile();
    // An administrator turned the activities entry into something else: it is no longer ours to fix.
    await db.execute('UPDATE sys_core_menu SET FILTER = \'{"allowed":[]}\' WHERE MENUORDER = 30');
    // An edited ledger entry points a menu key at a host table the installer never writes to.
    await db.execute(
      "UPDATE task_association_ledger SET HOST_TABLE = 'app_cliente', ROW_SEQ_DB = 1 WHERE ENTRY_KEY = 'menu:taskSheetReport'",
    );
    const result = await applyInstallation(db, file, {});
    expect(result.changes).toEqual([]);
    expect(result.findings.map((f) => `${f.code} ${f.path}`)).toEqual([
      'ROW_NOT_OURS sys_core_menu.SEQ_DB=2',
      'ROW_NOT_RECOGNISED sys_core_menu.SEQ_DB=3',
    ]);
    expect(await db.query('SELECT FILTER FROM sys_core_menu WHERE MENUORDER = 30')).toEqual([
      { FILTER: '{"allowed":[]}' },
    ]);
    expect(await db.query('SELECT * FROM app_cliente')).toEqual([
      { SEQ_DB: 1, NOME: 'must survive every install, sync and uninstall' },
    ]);
    // Repaired by hand, the rows are the installer's again.
    await db.execute(
      `UPDATE sys_core_menu SET FILTER = '{"allowed":["OPER","UNIDADE_MEDIDA","OPER_GRUPO","OPER_OPER_GRUPO","ETAPA"]}' WHERE MENUORDER = 30`,
    );
    await db.execute(
      "UPDATE task_association_ledger SET HOST_TABLE = 'sys_core_menu', ROW_SEQ_DB = 2 WHERE ENTRY_KEY = 'menu:taskSheetReport'",
    );
    expect((await applyInstallation(db, file, {})).changes).toEqual([]);
  });

  it('re-creates a row of its own that was deleted, and removes a menu the install file no longer asks for', async () => {
    const { db } = scratch();
    const file = exampleInstallFile();
    await db.execute('DELETE FROM sys_core_menu WHERE MENUORDER = 20');
    const recreated = await applyInstallation(db, file, {});
    expect(recreated.changes.map((c) => `${c.kind} ${c.key}`)).toEqual(['insert menu:taskSheetReport']);

    const withoutMetrics = exampleInstallFile({
      menus: { ...file.menus, taskSheet: { ...file.menus.taskSheet, withMetrics: false } },
    });
    const switched = await applyInstallation(db, withoutMetrics, {});
    expect(switched.changes.map((c) => `${c.kind} ${c.key}`)).toEqual([
      'insert menu:taskSheetWithoutMetrics',
      'delete menu:taskSheetWithMetrics',
    ]);
    expect(await db.query('SELECT FILTER FROM sys_core_menu WHERE MENUORDER = 10')).toEqual([
      { FILTER: '{"allowed":["FOLHA_TAREFA"]}' },
    ]);
    expect(await countRows(db, 'sys_core_menu')).toBe(3);
    await applyInstallation(db, file, {});
  });

  it('shares the link field between installations of one database and never duplicates it', async () => {
    const { db } = scratch();
    const other = plainInstallFile({ EMPRESA: 2, FILIAL: 1, LOCAL: 1 });
    const result = await applyInstallation(db, other, {});
    expect(result.changes.filter((c) => c.key === 'link-field').map((c) => c.kind)).toEqual(['share']);
    expect(await countRows(db, 'sys_core_ds_tabela_campo')).toBe(1);
    expect(await countRows(db, 'sys_core_menu', 'EMPRESA = 2')).toBe(3);
    // Default table names: the four app_ tables are this installation's own.
    expect(await countRows(db, 'task_association_ledger', "EMPRESA = 2 AND ENTRY_KEY LIKE 'table:%'")).toBe(
      4,
    );
    expect((await applyInstallation(db, other, {})).changes).toEqual([]);
  });

  // Found by a review: apply altered scope 1's MO_OPER into a hybrid of an activity and a metric table.
  it("refuses to make another installation's table a table of another kind, writing nothing", async () => {
    const { db } = scratch();
    const mine = exampleInstallFile();
    await applyInstallation(db, mine, {});
    const names = installationTableNames(mine);
    const other = {
      ...plainInstallFile({ EMPRESA: 4, FILIAL: 1, LOCAL: 1 }),
      tableNames: {
        OPER: parseIdentifier('S4_OPER', 'table'),
        OPER_GRUPO: parseIdentifier('S4_GRUPO', 'table'),
        OPER_GRUPO_METRICA: names.OPER,
        OPER_OPER_GRUPO: parseIdentifier('S4_LINK', 'table'),
      },
    };
    const plan = await planInstallation(db, other, {});
    expect(plan.findings.filter((finding) => finding.level === 'error')).toEqual([
      {
        level: 'error',
        code: 'TABLE_OF_ANOTHER_KIND',
        path: 'tableNames.OPER_GRUPO_METRICA',
        message: `table ${names.OPER} is OPER of the installation of scope 1/1/1; this install file makes it OPER_GRUPO_METRICA, which would reshape it: give OPER_GRUPO_METRICA a table of its own`,
      },
    ]);
    const before = await databaseState(db);
    await expect(applyInstallation(db, other, {})).rejects.toMatchObject({ code: 'TABLE_OF_ANOTHER_KIND' });
    expect(await databaseState(db)).toEqual(before);
    // The same table under the same logical name is how scopes share tables: no finding.
    const sharing = { ...plainInstallFile({ EMPRESA: 4, FILIAL: 1, LOCAL: 1 }), tableNames: mine.tableNames };
    expect((await planInstallation(db, sharing, {})).findings.filter((f) => f.level === 'error')).toEqual([]);
  });

  it('refuses to rename a table of its own, or to make one of them another of its four, writing nothing', async () => {
    const { db } = scratch();
    const mine = exampleInstallFile();
    await applyInstallation(db, mine, {});
    const names = installationTableNames(mine);
    const table = (name: string) => parseIdentifier(name, 'table');
    const errors = async (file: typeof mine) =>
      (await planInstallation(db, file, {})).findings.filter((finding) => finding.level === 'error');
    const before = await databaseState(db);
    // New names would overwrite the entries of the tables it made, and its uninstall would lose them.
    const { treeView: _tree, ...withoutTree } = mine;
    const renamed = {
      ...withoutTree,
      tableNames: {
        OPER: table('N_OPER'),
        OPER_GRUPO: table('N_GRUPO'),
        OPER_GRUPO_METRICA: table('N_METRICA'),
        OPER_OPER_GRUPO: table('N_LINK'),
      },
    };
    const found = await errors(renamed);
    expect(found.map((finding) => `${finding.code} ${finding.path}`)).toEqual(
      Object.keys(names).map((logical) => `TABLE_NAME_CHANGED tableNames.${logical}`),
    );
    expect(found[0]?.message).toBe(
      `this installation's OPER is table ${names.OPER} (ledger entry table:OPER), but the install file names N_OPER: an installed table is not renamed; uninstall with the install file it was applied with first (its tables go with it), then apply this one`,
    );
    await expect(applyInstallation(db, renamed, {})).rejects.toMatchObject({
      code: 'TABLE_NAME_CHANGED',
      path: 'tableNames.OPER',
    });
    // Its metric table as its OPER: the sync would add the activities' columns to it.
    const crossed = {
      ...withoutTree,
      tableNames: { ...mine.tableNames, OPER: names.OPER_GRUPO_METRICA, OPER_GRUPO_METRICA: table('MO_M') },
    };
    expect((await errors(crossed)).map((finding) => `${finding.code} ${finding.path}`)).toEqual(
      expect.arrayContaining([
        'TABLE_NAME_CHANGED tableNames.OPER',
        'TABLE_NAME_CHANGED tableNames.OPER_GRUPO_METRICA',
      ]),
    );
    await expect(applyInstallation(db, crossed, {})).rejects.toMatchObject({ code: 'TABLE_NAME_CHANGED' });
    expect(await databaseState(db)).toEqual(before);
  });

  it('leaves menu rows made by hand alone, without a second set, and still verifies them', async () => {
    const { db } = scratch();
    const file = plainInstallFile({ EMPRESA: 3, FILIAL: 1, LOCAL: 1 });
    // The host enabled the feature by hand: the same entries, its own labels and orders.
    await db.execute(
      `INSERT INTO sys_core_menu (EMPRESA, FILIAL, LOCAL, DESCRICAO, TYPE, ATIVO, MENUORDER, URL, FILTER) VALUES
         (3, 1, 1, 'Folha', 'CRUD', 1, 1, NULL, '{"allowed":["FOLHA_TAREFA","OPER_GRUPO_METRICA"]}'),
         (3, 1, 1, 'Parte', 'LINK', 1, 2, 'reports/parte_diaria/filters', NULL),
         (3, 1, 1, 'Ativ.', 'CRUD', 1, 3, NULL, '{"allowed":["OPER","UNIDADE_MEDIDA","OPER_GRUPO","OPER_OPER_GRUPO","ETAPA"]}')`,
    );
    const result = await applyInstallation(db, file, {});
    expect(result.changes.filter((c) => c.table === 'sys_core_menu')).toEqual([]);
    expect(result.findings.filter((f) => f.code === 'ROW_NOT_OURS')).toHaveLength(3);
    expect(await countRows(db, 'sys_core_menu', 'EMPRESA = 3')).toBe(3);
    const problems = (await verifyInstallation(db, file)).problems;
    expect(problems.map((p) => `${p.code} ${p.path}`)).toEqual([
      'ROW_CHANGED menu:taskSheetWithMetrics',
      'ROW_CHANGED menu:taskSheetReport',
      'ROW_CHANGED menu:activities',
    ]);
    expect((await applyInstallation(db, file, {})).changes).toEqual([]);
    await uninstallInstallation(db, file);
    expect(await countRows(db, 'sys_core_menu', 'EMPRESA = 3')).toBe(3);
  });
});
