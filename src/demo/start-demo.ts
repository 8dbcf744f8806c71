import { fileURLToPath } from 'node:url';
import { createAssociationHandler } from '../http/association-handler.js';
import { type GalleryServer, startGalleryServer } from '../http/server.js';
import { type InstallFile, loadInstallFile } from '../installer/install-file.js';
import { installationTableNames } from '../installer/state.js';
import { LINK_FIELD_OPCOES } from '../model/link-field.js';
import { buildLink } from '../model/opcoes.js';
import type { TableNames } from '../model/table-names.js';
import { createScratchDatabase, type ScratchDatabase } from '../store/scratch.js';
import { runSqlFile } from '../store/script.js';
import { redactUrl } from '../store/url.js';
import { loadTaskTree, type TaskTree } from '../tree/load-task-tree.js';
import { DEMO_HOST_TABLES_SQL, demoInstall, writeInstallFile } from './demo-install.js';
import { insertSampleData, type SampleData } from './sample-data.js';
import { readTaskSheetLinks } from './task-sheet-links.js';

const HOST_SCHEMA = new URL('../../examples/host-schema.sql', import.meta.url);
// The same install file an operator starts from: scope 1/1/1, MO_ table names, a TREE_VIEW.
const INSTALL_FILE = fileURLToPath(new URL('../../examples/install.json', import.meta.url));

/** The path the demo's home page asks for its task sheets and their links. */
export const TASK_SHEETS_PATH = '/demo/task-sheets';

export interface DemoOptions {
  /** The MySQL/MariaDB server the scratch database is created on. */
  readonly serverUrl: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** Progress lines. */
  readonly say: (line: string) => void;
  /**
   * Runs one of the installer's own commands (`apply`, `verify`) in-process; with `capture`, its
   * stdout is returned instead of shown.
   */
  readonly runInstaller: (args: string[], capture?: boolean) => Promise<{ code: number; stdout: string }>;
}

export interface Demo {
  readonly url: string;
  readonly scratch: ScratchDatabase;
  readonly install: InstallFile;
  readonly names: TableNames;
  readonly sample: SampleData;
  readonly tree: TaskTree;
  /** The first task sheet's link, as its link field builds it. */
  readonly link: string;
  /** Stops the server and drops the scratch database. */
  close(): Promise<void>;
}

/**
 * The whole feature on a local server, in a scratch database of its own (dropped by `close`): the
 * sample host schema, the installer run as an operator runs it, sample data, the home page with
 * the gallery and the task sheets' links, and the association screen at `/associationtask`.
 * Undefined when an installer command fails (it has said why).
 */
export async function startDemo(options: DemoOptions): Promise<Demo | undefined> {
  const { say } = options;
  say(`demo: creating a scratch database on ${redactUrl(options.serverUrl)}`);
  const scratch = await createScratchDatabase(options.serverUrl, 'demo');
  const cleanups: Array<() => Promise<unknown>> = [
    () => scratch.drop().then(() => say(`demo: dropped ${scratch.name}`)),
  ];
  const cleanup = async () => {
    for (const step of cleanups.reverse()) await step();
  };
  try {
    say(`demo: database ${scratch.name}: loading the sample host schema (examples/host-schema.sql)`);
    await runSqlFile(scratch.url, HOST_SCHEMA);
    await runSqlFile(scratch.url, DEMO_HOST_TABLES_SQL);
    const install = demoInstall(await loadInstallFile(INSTALL_FILE));
    const file = await writeInstallFile(install);
    cleanups.push(file.remove);
    const names = installationTableNames(install);
    say(
      `demo: installing with examples/install.json plus the demo host's sector level and metric table (tables ${Object.values(names).join(', ')})`,
    );
    const installer = ['--install', file.path, '--database-url', scratch.url];
    if ((await options.runInstaller(['apply', ...installer, '--yes'])).code !== 0) return failed();
    const again = await options.runInstaller(['apply', ...installer, '--yes', '--json'], true);
    if (again.code !== 0) return failed();
    say(`demo: apply again changes nothing: ${again.stdout.replace(/\s+/g, ' ').trim()}`);
    if ((await options.runInstaller(['verify', ...installer])).code !== 0) return failed();

    const sample = await insertSampleData(scratch.db, install.scope, names);
    say(
      `demo: sample data in scope 1/1/1: task sheets ${sample.taskSheets.join(', ')}, sectors, groups, activities, a saved and a read-only metric row`,
    );
    const tree = await loadTaskTree(scratch.db, { scope: install.scope, taskSheet: sample.taskSheet });
    const association = createAssociationHandler({
      db: scratch.db,
      context: async () => ({ scope: install.scope, user: install.actingUser }),
    });
    const server: GalleryServer = await startGalleryServer({
      port: options.port,
      logger: { warn: (message) => say(message) },
      mount: [
        { path: '/associationtask', handler: association },
        {
          path: TASK_SHEETS_PATH,
          handler: async () =>
            Response.json(
              { taskSheets: await readTaskSheetLinks(scratch.db, install.scope) },
              { headers: { 'cache-control': 'no-store' } },
            ),
        },
      ],
    });
    cleanups.push(() => server.close());
    return {
      url: server.url,
      scratch,
      install,
      names,
      sample,
      tree,
      link: buildLink(LINK_FIELD_OPCOES, { SEQ_DB: sample.taskSheet }),
      close: cleanup,
    };
  } catch (error) {
    await cleanup();
    throw error;
  }

  async function failed(): Promise<undefined> {
    await cleanup();
    return undefined;
  }
}
