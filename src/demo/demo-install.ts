import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InstallFile } from '../installer/install-file.js';
import { TreeView } from '../model/tree-view.js';

/** The tables the demo's host adds for its tree (examples/demo-host-tables.sql). */
export const DEMO_TABLES = {
  sector: 'app_setor',
  sectorGroups: 'app_setor_oper_grupo',
  metrics: 'app_folha_tarefa_metrica',
} as const;

export const DEMO_HOST_TABLES_SQL = new URL('../../examples/demo-host-tables.sql', import.meta.url);

/**
 * The demo's installation: examples/install.json, with a tree the way a host grows one: a sector
 * level of its own above the activity groups, metrics kept in its own table with a third column, so
 * the screen shows all three kinds of default (`field`, `taskSheet`, `value`), and the task sheet
 * columns its header shows.
 */
export function demoInstall(install: InstallFile): InstallFile {
  const base = install.treeView;
  if (base === undefined) throw new Error('examples/install.json has no treeView: the demo builds on it');
  const groups = base.layers['1'];
  const activities = base.layers['2'];
  if (groups === undefined || activities === undefined) {
    throw new Error(
      'the treeView of examples/install.json must have layers "1" (groups) and "2" (activities)',
    );
  }
  // Parsed, not cast: the model checks the demo's tree as it checks any TREE_VIEW.
  const treeView = TreeView.parse({
    layers: {
      '1': {
        table: DEMO_TABLES.sector,
        associationTable: DEMO_TABLES.sectorGroups,
        parentColumn: 'SETOR_SEQ_DB',
        childColumn: 'OPER_GRUPO_SEQ_DB',
      },
      '2': groups,
      '3': activities,
    },
    metricAssociationTable: DEMO_TABLES.metrics,
    metrics: [
      ...(base.metrics ?? []),
      { field: 'HORAS', label: 'Horas', default: { type: 'value', value: '8.0' } },
    ],
    // Labelled in the installation's language, as its metrics are.
    taskSheetColumns: [
      'SEQ_DB',
      { column: 'DATA', label: 'Data' },
      { column: 'TALHAO', label: 'Talhão' },
      { column: 'QTD_PESSOAS', label: 'Pessoas' },
      { column: 'AREA_HA', label: 'Área (ha)' },
    ],
  });
  return { ...install, treeView };
}

/** Writes `install` to a file of its own in a new temporary folder, for the installer's `--install`. */
export async function writeInstallFile(
  install: InstallFile,
): Promise<{ path: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'ta-demo-'));
  const path = join(dir, 'install.json');
  await writeFile(path, `${JSON.stringify(install, null, 2)}\n`);
  return { path, remove: () => rm(dir, { recursive: true, force: true }) };
}
