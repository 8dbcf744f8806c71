import { fileURLToPath } from 'node:url';
import { buildLink, LINK_FIELD_OPCOES } from '../../config/index.js';
import { createScratchDatabase } from '../../db/scratch.js';
import { runSqlFile } from '../../db/script.js';
import { redactUrl, resolveDatabaseUrl } from '../../db/url.js';
import { formatTaskTree } from '../../demo/print-tree.js';
import { insertSampleData } from '../../demo/sample-data.js';
import { startGalleryServer } from '../../gallery/server.js';
import { loadInstallFile } from '../../installer/install-file.js';
import { installationTableNames } from '../../installer/installer.js';
import { createAssociationHandler, loadTaskTree } from '../../resolvers/index.js';
import { parseCommandLine, parsePort } from '../args.js';
import { type CliIo, say } from '../io.js';
import { type Command, runCli } from '../main.js';

const HOST_SCHEMA = new URL('../../../examples/host-schema.sql', import.meta.url);
// The same install file an operator starts from: scope 1/1/1, MO_ table names, a TREE_VIEW.
const INSTALL_FILE = fileURLToPath(new URL('../../../examples/install.json', import.meta.url));

/**
 * `demo`: the whole feature on the local server, in a scratch database that is dropped when the demo
 * stops, so it never touches an existing database.
 */
export const command: Command = {
  usage: 'demo [--port 3000]',
  summary:
    'Installs the feature in a scratch database of the local server, prints a task sheet tree and serves the home gallery until Ctrl-C, then drops the database.',
  options: [['--port PORT', 'the port to serve on (default 3000; 0 picks a free one)']],
  example: 'task-association demo --port 8080',
  async run(args, io) {
    const { values } = parseCommandLine(args, { port: { type: 'string', default: '3000' } });
    const port = parsePort(values.port ?? '3000');
    const serverUrl = resolveDatabaseUrl(undefined, io.env);
    say(io, `demo: creating a scratch database on ${redactUrl(serverUrl)}`);
    const scratch = await createScratchDatabase(serverUrl, 'demo');
    try {
      say(io, `demo: database ${scratch.name}: loading the sample host schema (examples/host-schema.sql)`);
      await runSqlFile(scratch.url, HOST_SCHEMA);

      const install = await loadInstallFile(INSTALL_FILE);
      const names = installationTableNames(install);
      say(io, `demo: installing with examples/install.json (tables ${Object.values(names).join(', ')})`);
      // Through the operator's own commands, so the demo shows exactly what an installation does.
      const installer = ['--install', INSTALL_FILE, '--database-url', scratch.url];
      if ((await runCli(['apply', ...installer, '--yes'], io)) !== 0) return 1;
      const again = captureStdout(io);
      if ((await runCli(['apply', ...installer, '--yes', '--json'], again)) !== 0) return 1;
      say(io, `demo: apply again changes nothing: ${again.text().replace(/\s+/g, ' ').trim()}`);
      if ((await runCli(['verify', ...installer], io)) !== 0) return 1;

      const sample = await insertSampleData(scratch.db, install.scope, names);
      say(
        io,
        `demo: sample data in scope 1/1/1: task sheet SEQ_DB ${sample.taskSheet}, groups, activities, one saved metric`,
      );

      const tree = await loadTaskTree(scratch.db, { scope: install.scope, taskSheet: sample.taskSheet });
      say(
        io,
        `demo: the tree of task sheet ${sample.taskSheet}, as the TREE_VIEW of examples/install.json describes it:`,
      );
      // The tree is what the demo produces: stdout, so `npm start > tree.txt` keeps it; progress stays on stderr.
      io.stdout.write(`${formatTaskTree(tree)}\n`);
      const link = buildLink(LINK_FIELD_OPCOES, { SEQ_DB: sample.taskSheet });

      // The association screen's endpoint for the demo's scope and user, as a host would mount it.
      const association = createAssociationHandler({
        db: scratch.db,
        context: async () => ({ scope: install.scope, user: install.actingUser }),
      });
      const gallery = await startGalleryServer({
        port,
        logger: { warn: (message) => say(io, message) },
        mount: [{ path: '/associationtask', handler: association }],
      });
      say(io, `demo: the link field opens ${gallery.url}/${link} (the tree above as JSON)`);
      say(io, `demo: the home gallery (bundled sample images) is on ${gallery.url} (Ctrl-C stops the demo)`);
      await (io.stopSignal ?? new Promise<void>(() => {}));
      await gallery.close();
      return 0;
    } finally {
      await scratch.drop();
      say(io, `demo: dropped ${scratch.name}`);
    }
  },
};

/** The same io with stdout captured, to show a command's JSON on one line. */
function captureStdout(io: CliIo): CliIo & { text(): string } {
  let text = '';
  return { ...io, stdout: { write: (chunk: string) => (text += chunk) }, text: () => text };
}
