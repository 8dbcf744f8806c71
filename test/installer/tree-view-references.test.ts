import { describe, expect, it } from 'vitest';
import type { InstallFile } from '../../src/installer/install-file.js';
import { applyInstallation, planInstallation } from '../../src/installer/installer.js';
import { installationTableNames } from '../../src/installer/state.js';
import { missingReferences, treeViewReferences } from '../../src/installer/verify-tree-view.js';
import { type TableNames, tableNames } from '../../src/model/table-names.js';
import { parseTreeView } from '../../src/model.js';
import { syncSchema } from '../../src/sync/sync.js';
import { freshDatabase } from '../support/database.js';
import { databaseState, exampleInstallFile } from './support.js';

/** The default tree's two levels, written as a TREE_VIEW: groups, then activities through the links. */
const groupsThenActivities = (names: TableNames) => ({
  '1': { table: names.OPER_GRUPO, associationTable: names.OPER_OPER_GRUPO },
  '2': { table: names.OPER, isTask: true },
});

const tree = (value: unknown) => {
  const result = parseTreeView(value);
  if (!result.success) throw new Error(JSON.stringify(result.issues));
  return result.data;
};

// A sector layer the host has not created: app_setor and its association table.
const SECTOR_TREE = tree({
  layers: {
    '1': { table: 'app_setor', associationTable: 'app_setor_n_oper_grupo' },
    '2': {
      table: 'MO_OPER_GRUPO',
      associationTable: 'MO_OPER_MO_OPER_GRUPO',
      parentColumn: 'OPER_GRUPO_SEQ_DB',
      childColumn: 'OPER_SEQ_DB',
    },
    '3': { table: 'MO_OPER', isTask: true },
  },
  metricAssociationTable: 'MO_OPER_GRUPO_METRICA',
  metrics: [
    { field: 'METRICA1', default: { type: 'field', name: 'INDICE' } },
    { field: 'METRICA9' },
    { field: 'METRICA2', default: { type: 'taskSheet', name: 'NO_SUCH_COLUMN' } },
  ],
});

describe('the tables and columns a TREE_VIEW names (decided without a database)', () => {
  it('lists every reference with where it is named, and reports each missing one once', () => {
    const references = treeViewReferences(SECTOR_TREE, tableNames());
    expect(references.map((reference) => `${reference.at} ${reference.table}`)).toEqual([
      'layers.1.table app_setor',
      'layers.1.associationTable app_setor_n_oper_grupo',
      'layers.2.table MO_OPER_GRUPO',
      'layers.2.associationTable MO_OPER_MO_OPER_GRUPO',
      'layers.3.table MO_OPER',
      'metricAssociationTable MO_OPER_GRUPO_METRICA',
      'layers.3.table MO_OPER',
      'task sheet table app_folha_tarefa',
    ]);
    const live = ['SEQ_DB', 'EMPRESA', 'FILIAL', 'LOCAL', 'DELETED', 'ATIVO'];
    const known = new Map<string, ReadonlySet<string> | undefined>([
      ['MO_OPER', new Set([...live, 'INDICE'])],
      ['MO_OPER_GRUPO', new Set(live)],
      ['MO_OPER_MO_OPER_GRUPO', new Set([...live, 'OPER_GRUPO_SEQ_DB', 'OPER_SEQ_DB'])],
      [
        'MO_OPER_GRUPO_METRICA',
        new Set([
          ...live,
          'ID',
          'INS_USUARIO_SEQ_DB',
          'INS_DH',
          'UPD_USUARIO_SEQ_DB',
          'UPD_DH',
          'SOURCE',
          'RO',
          'FOLHA_TAREFA_SEQ_DB',
          'OPER_SEQ_DB',
          'OPER_GRUPO_SEQ_DB',
          'METRICA1',
          'METRICA2',
        ]),
      ],
      ['app_folha_tarefa', new Set(['SEQ_DB'])],
    ]);
    expect(missingReferences(references, known, 'treeView')).toEqual([
      {
        code: 'TREE_VIEW_TABLE_MISSING',
        path: 'layers.1.table',
        message: 'treeView layers.1.table names table app_setor, which does not exist',
      },
      {
        code: 'TREE_VIEW_TABLE_MISSING',
        path: 'layers.1.associationTable',
        message:
          'treeView layers.1.associationTable names table app_setor_n_oper_grupo, which does not exist',
      },
      {
        code: 'TREE_VIEW_COLUMN_MISSING',
        path: 'metrics.1.field',
        message: 'treeView metrics.1.field: table MO_OPER_GRUPO_METRICA has no column METRICA9',
      },
      {
        code: 'TREE_VIEW_COLUMN_MISSING',
        path: 'metrics.2.default.name',
        message: 'treeView metrics.2.default.name: table app_folha_tarefa has no column NO_SUCH_COLUMN',
      },
    ]);
  });
});

describe('label and header columns, which the screen would otherwise drop without a word', () => {
  it('are references of their tables: a typo is a missing column at its path', () => {
    const view = tree({
      layers: { '1': { table: 'app_oper', isTask: true, labelColumns: ['CODIGO', 'DESCRICAO_X'] } },
      taskSheetColumns: ['data', { column: 'TALHAO_X', label: 'Talhão' }],
    });
    const references = treeViewReferences(view, tableNames());
    const live = ['SEQ_DB', 'EMPRESA', 'FILIAL', 'LOCAL', 'DELETED', 'ATIVO'];
    const known = new Map<string, ReadonlySet<string> | undefined>([
      ['app_oper', new Set([...live, 'CODIGO', 'DESCRICAO'])],
      [
        'app_oper_grupo_metrica',
        new Set(references.flatMap((r) => r.columns.map((c) => c.name.toUpperCase()))),
      ],
      ['app_folha_tarefa', new Set(['SEQ_DB', 'DATA', 'TALHAO'])],
    ]);
    expect(missingReferences(references, known, 'treeView').map((problem) => problem.path)).toEqual([
      'layers.1.labelColumns.1',
      'taskSheetColumns.1',
    ]);
  });
});

describe('plan and apply check them against information_schema', () => {
  it('refuse a TREE_VIEW naming missing tables and columns, with their paths, and write nothing', async () => {
    const scratch = await freshDatabase('tree_view_refs', { hostSchema: true });
    try {
      const file = exampleInstallFile({ treeView: SECTOR_TREE });
      const plan = await planInstallation(scratch.db, file, {});
      expect(
        plan.findings
          .filter((finding) => finding.level === 'error')
          .map((finding) => [finding.code, finding.path]),
      ).toEqual([
        ['TREE_VIEW_TABLE_MISSING', 'treeView.layers.1.table'],
        ['TREE_VIEW_TABLE_MISSING', 'treeView.layers.1.associationTable'],
        ['TREE_VIEW_COLUMN_MISSING', 'treeView.metrics.1.field'],
        ['TREE_VIEW_COLUMN_MISSING', 'treeView.metrics.2.default.name'],
      ]);
      const before = await databaseState(scratch.db);
      await expect(applyInstallation(scratch.db, file, {})).rejects.toMatchObject({
        code: 'TREE_VIEW_TABLE_MISSING',
        path: 'treeView.layers.1.table',
      });
      expect(await databaseState(scratch.db)).toEqual(before);
    } finally {
      await scratch.drop();
    }
  });

  it('tell table names apart by case where the server does (lower_case_table_names=0)', async () => {
    const scratch = await freshDatabase('tree_view_refs_case', { hostSchema: true });
    try {
      const [server] = await scratch.db.query<{ folds: number }>('SELECT @@lower_case_table_names AS folds');
      expect(Number(server?.folds)).toBe(0);
      const installed = exampleInstallFile();
      await applyInstallation(scratch.db, installed, {});
      // MO_OPER exists; mo_oper is another table on this server, and every load would fail on it.
      const treeView = JSON.stringify(installed.treeView).replace('"table":"MO_OPER"', '"table":"mo_oper"');
      const file = exampleInstallFile({ treeView: JSON.parse(treeView) as InstallFile['treeView'] });
      const plan = await planInstallation(scratch.db, file, { force: true });
      expect(
        plan.findings.filter((finding) => finding.level === 'error').map((f) => [f.code, f.path]),
      ).toEqual([['TREE_VIEW_TABLE_MISSING', 'treeView.layers.2.table']]);
      // A host table renamed to other case is as missing as a dropped one: a clear refusal.
      await scratch.db.execute('RENAME TABLE sys_core_menu TO SYS_CORE_MENU');
      const before = await databaseState(scratch.db);
      await expect(applyInstallation(scratch.db, installed, {})).rejects.toMatchObject({
        code: 'HOST_TABLE_MISSING',
        path: 'sys_core_menu',
      });
      expect(await databaseState(scratch.db)).toEqual(before);
    } finally {
      await scratch.drop();
    }
  });

  it("accept one naming the installation's own tables before apply has created them", async () => {
    const scratch = await freshDatabase('tree_view_refs_own', { hostSchema: true });
    try {
      const file = exampleInstallFile();
      const plan = await planInstallation(scratch.db, file, {});
      expect(plan.findings.filter((finding) => finding.level === 'error')).toEqual([]);
      expect((await applyInstallation(scratch.db, file, {})).applied).toBe(true);
    } finally {
      await scratch.drop();
    }
  });

  it('refuse metrics the metric table cannot keep: a date column, and value defaults the column cannot hold', async () => {
    const scratch = await freshDatabase('tree_view_unfit', { hostSchema: true });
    try {
      const base = exampleInstallFile();
      const names = installationTableNames(base);
      await syncSchema(scratch.db, names);
      await scratch.db.execute(
        `ALTER TABLE ${names.OPER_GRUPO_METRICA} ADD COLUMN METRICA_DATA DATE NULL, ADD COLUMN METRICA_OK DECIMAL(5,2) NULL, ADD COLUMN TURNO VARCHAR(10) NULL, ADD COLUMN PASSES INT NOT NULL DEFAULT 1`,
      );
      const file = exampleInstallFile({
        treeView: tree({
          layers: { '1': { table: names.OPER, isTask: true } },
          metrics: [
            { field: 'METRICA1', default: { type: 'value', value: 1.234 } },
            { field: 'METRICA2', default: { type: 'value', value: 'muitas' } },
            { field: 'METRICA_DATA' },
            { field: 'METRICA_OK', default: { type: 'value', value: '12.50' } },
            // Both work: the modal presets "1" in a text field, and a null value presets nothing.
            { field: 'TURNO', default: { type: 'value', value: 1 } },
            { field: 'PASSES', default: { type: 'value', value: null } },
          ],
        }),
      });
      const plan = await planInstallation(scratch.db, file, {});
      expect(plan.findings.filter((finding) => finding.level === 'error')).toEqual([
        {
          level: 'error',
          code: 'TREE_VIEW_DEFAULT_UNFIT',
          path: 'treeView.metrics.0.default.value',
          message: `treeView metrics.0.default.value 1.234 has more than 2 decimal places (column is decimal(10,2)), so column ${names.OPER_GRUPO_METRICA}.METRICA1 cannot hold it`,
        },
        {
          level: 'error',
          code: 'TREE_VIEW_DEFAULT_UNFIT',
          path: 'treeView.metrics.1.default.value',
          message: `treeView metrics.1.default.value "muitas" is not a whole number (column is int), so column ${names.OPER_GRUPO_METRICA}.METRICA2 cannot hold it`,
        },
        {
          level: 'error',
          code: 'TREE_VIEW_METRIC_TYPE',
          path: 'treeView.metrics.2.field',
          message: `treeView metrics.2.field: column ${names.OPER_GRUPO_METRICA}.METRICA_DATA is date, which no metric can be: use a number or text column`,
        },
      ]);
      const before = await databaseState(scratch.db);
      await expect(applyInstallation(scratch.db, file, {})).rejects.toMatchObject({
        code: 'TREE_VIEW_DEFAULT_UNFIT',
        path: 'treeView.metrics.0.default.value',
      });
      expect(await databaseState(scratch.db)).toEqual(before);
    } finally {
      await scratch.drop();
    }
  });

  it('refuse a tree whose activities hang from another table than the groups the default metric table refers to', async () => {
    const scratch = await freshDatabase('tree_view_metric_table', { hostSchema: true });
    try {
      const base = exampleInstallFile();
      const names = installationTableNames(base);
      const file = exampleInstallFile({
        treeView: tree({
          layers: {
            '1': { table: names.OPER_GRUPO, associationTable: names.OPER_OPER_GRUPO },
            '2': { table: names.OPER_GRUPO, isTask: true },
          },
        }),
      });
      const plan = await planInstallation(scratch.db, file, {});
      expect(plan.findings.filter((finding) => finding.level === 'error')).toEqual([
        {
          level: 'error',
          code: 'TREE_VIEW_METRIC_TABLE',
          path: 'treeView.metricAssociationTable',
          message: `treeView layers.2.table is ${names.OPER_GRUPO}, but metrics are saved in ${names.OPER_GRUPO_METRICA}, whose OPER_SEQ_DB refers to ${names.OPER}: give the TREE_VIEW a metricAssociationTable of its own`,
        },
      ]);
    } finally {
      await scratch.drop();
    }
  });

  it('refuse a level table without the scope and flags every load reads, and a metric table without its key', async () => {
    const scratch = await freshDatabase('tree_view_needed_columns', { hostSchema: true });
    try {
      const base = exampleInstallFile();
      const names = installationTableNames(base);
      const file = exampleInstallFile({
        treeView: tree({
          layers: {
            // A host table of units: no DELETED, no ATIVO.
            '1': { table: 'app_unidade_medida', associationTable: names.OPER_OPER_GRUPO },
            '2': { table: names.OPER, isTask: true },
          },
          metricAssociationTable: 'app_folha_tarefa',
          metrics: [{ field: 'QTD_PESSOAS' }],
        }),
      });
      const plan = await planInstallation(scratch.db, file, {});
      const errors = plan.findings.filter((finding) => finding.level === 'error');
      expect(errors.map((finding) => finding.message)).toEqual(
        expect.arrayContaining([
          'treeView layers.1.table: table app_unidade_medida has no column DELETED',
          'treeView layers.1.table: table app_unidade_medida has no column ATIVO',
          'treeView metricAssociationTable: table app_folha_tarefa has no column OPER_SEQ_DB',
        ]),
      );
      expect(new Set(errors.map((finding) => finding.path))).toEqual(
        new Set([
          'treeView.layers.1.table',
          'treeView.layers.1.parentColumn',
          'treeView.metricAssociationTable',
        ]),
      );
    } finally {
      await scratch.drop();
    }
  });

  it('check value defaults on a first install too, against the metric table the sync is about to create', async () => {
    const scratch = await freshDatabase('tree_view_unfit_first', { hostSchema: true });
    try {
      const base = exampleInstallFile();
      const names = installationTableNames(base);
      const file = exampleInstallFile({
        treeView: tree({
          layers: groupsThenActivities(names),
          metrics: [{ field: 'METRICA1', default: { type: 'value', value: 1.234 } }],
        }),
      });
      const plan = await planInstallation(scratch.db, file, {});
      expect(plan.findings.filter((finding) => finding.level === 'error')).toMatchObject([
        {
          code: 'TREE_VIEW_DEFAULT_UNFIT',
          path: 'treeView.metrics.0.default.value',
          message: expect.stringContaining('has more than 2 decimal places (column is decimal(10,2))'),
        },
      ]);
      // An older table without the column: the sync adds it before the TREE_VIEW is written.
      await syncSchema(scratch.db, names);
      await scratch.db.execute(`ALTER TABLE ${names.OPER_GRUPO_METRICA} DROP COLUMN METRICA2`);
      const older = exampleInstallFile({
        treeView: tree({
          layers: groupsThenActivities(names),
          metrics: [{ field: 'METRICA2', default: { type: 'value', value: 'muitas' } }],
        }),
      });
      expect(
        (await planInstallation(scratch.db, older, {})).findings.filter(
          (finding) => finding.level === 'error',
        ),
      ).toMatchObject([{ code: 'TREE_VIEW_DEFAULT_UNFIT', path: 'treeView.metrics.0.default.value' }]);
    } finally {
      await scratch.drop();
    }
  });
});
