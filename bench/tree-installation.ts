// The generated installation the tree benchmarks run on: 10 regions, 10 sectors each, then
// `groupsPerSector` activity groups per sector and 10 activities per group, over a four-level
// TREE_VIEW, with every tenth activity's metrics saved on one task sheet. 100 groups per sector is
// the 110,110-node tree.
import { performance } from 'node:perf_hooks';
import { tableNames } from '../src/model/table-names.js';
import { TreeView } from '../src/model.js';
import type { ScratchDatabase } from '../src/store/scratch.js';
import { runSqlFile } from '../src/store/script.js';
import { HOST_SCHEMA_FILE } from '../test/support/database.js';
import {
  createHostTable,
  insertRows,
  installTables,
  SCOPE_A,
  writeParameters,
} from '../test/tree/fixture.js';

export const REGIONS = 10;
export const SECTORS_PER_REGION = 10;
export const ACTIVITIES_PER_GROUP = 10;
export const SAVED_EVERY = 10;

export const names = tableNames();
export const treeView = TreeView.parse({
  layers: {
    '1': { table: 'app_regiao', associationTable: 'app_regiao_n_setor' },
    '2': { table: 'app_setor', associationTable: 'app_setor_n_oper_grupo' },
    '3': { table: names.OPER_GRUPO, associationTable: names.OPER_OPER_GRUPO },
    '4': { table: names.OPER, isTask: true },
  },
  metrics: [
    { field: 'METRICA1', default: { type: 'field', name: 'INDICE' } },
    { field: 'METRICA2', default: { type: 'taskSheet', name: 'QTD_PESSOAS' } },
  ],
});
export const live = { ...SCOPE_A, ATIVO: 1, DELETED: 0 };

export interface TreeInstallation {
  readonly sheet: number;
  readonly regions: number[];
  readonly sectors: number[];
  readonly groups: number[];
  readonly activities: number[];
  readonly nodes: number;
  /** One line describing what was generated, for the benchmark's output. */
  readonly summary: string;
}

/** Fills `scratch` (an empty scratch database) with the installation, in scope A. */
export async function buildTreeInstallation(
  scratch: ScratchDatabase,
  options: { groupsPerSector: number },
): Promise<TreeInstallation> {
  const { db } = scratch;
  const started = performance.now();
  await runSqlFile(scratch.url, HOST_SCHEMA_FILE);
  await installTables(db, names);
  await createHostTable(db, 'app_regiao', ['CODIGO varchar(50) NULL']);
  await createHostTable(db, 'app_setor', ['CODIGO varchar(50) NULL']);
  // A host adding association tables indexes their link columns, as ours are (foreign keys).
  for (const [table, parent, child] of [
    ['app_regiao_n_setor', 'REGIAO_SEQ_DB', 'SETOR_SEQ_DB'],
    ['app_setor_n_oper_grupo', 'SETOR_SEQ_DB', 'OPER_GRUPO_SEQ_DB'],
  ] as const) {
    await createHostTable(db, table, [
      `${parent} bigint unsigned NULL`,
      `${child} bigint unsigned NULL`,
      `KEY (${parent})`,
      `KEY (${child})`,
    ]);
  }
  await writeParameters(db, SCOPE_A, { treeView });
  const [sheet] = await insertRows(db, 'app_folha_tarefa', [{ ...SCOPE_A, QTD_PESSOAS: 12, DELETED: 0 }], {
    withId: false,
  });
  const regions = await insertRows(
    db,
    'app_regiao',
    Array.from({ length: REGIONS }, (_, index) => ({ ...live, CODIGO: `R${index}` })),
  );
  const sectors = await insertRows(
    db,
    'app_setor',
    Array.from({ length: REGIONS * SECTORS_PER_REGION }, (_, index) => ({ ...live, CODIGO: `S${index}` })),
  );
  const groups = await insertRows(
    db,
    names.OPER_GRUPO,
    Array.from({ length: sectors.length * options.groupsPerSector }, (_, index) => ({
      ...live,
      CODIGO: `G${index}`,
    })),
  );
  const activities = await insertRows(
    db,
    names.OPER,
    Array.from({ length: groups.length * ACTIVITIES_PER_GROUP }, (_, index) => ({
      ...live,
      CODIGO: `O${index}`,
      DESCRICAO: `activity ${index}`,
      INDICE: `${index % 1000}.25`,
    })),
  );
  const link = (table: string, parent: string, child: string, parents: number[], children: number[]) =>
    insertRows(
      db,
      table,
      children.map((id, index) => ({
        ...live,
        [parent]: parents[Math.floor(index / (children.length / parents.length))],
        [child]: id,
      })),
    );
  await link('app_regiao_n_setor', 'REGIAO_SEQ_DB', 'SETOR_SEQ_DB', regions, sectors);
  await link('app_setor_n_oper_grupo', 'SETOR_SEQ_DB', 'OPER_GRUPO_SEQ_DB', sectors, groups);
  await link(names.OPER_OPER_GRUPO, 'OPER_GRUPO_SEQ_DB', 'OPER_SEQ_DB', groups, activities);
  const activityIndex = new Map(activities.map((activity, index) => [activity, index]));
  await insertRows(
    db,
    names.OPER_GRUPO_METRICA,
    activities
      .filter((_, index) => index % SAVED_EVERY === 0)
      .map((activity) => ({
        ...live,
        FOLHA_TAREFA_SEQ_DB: sheet,
        OPER_SEQ_DB: activity,
        OPER_GRUPO_SEQ_DB: groups[Math.floor((activityIndex.get(activity) ?? 0) / ACTIVITIES_PER_GROUP)],
        METRICA1: '3.50',
        METRICA2: 4,
      })),
  );
  const nodes = regions.length + sectors.length + groups.length + activities.length;
  return {
    sheet: sheet ?? 0,
    regions,
    sectors,
    groups,
    activities,
    nodes,
    summary: `installation: ${regions.length} regions, ${sectors.length} sectors, ${groups.length} groups, ${activities.length} activities = ${nodes.toLocaleString('en')} nodes over 4 levels, ${(activities.length / SAVED_EVERY).toLocaleString('en')} saved metric rows (generated in ${((performance.now() - started) / 1000).toFixed(1)} s)`,
  };
}
