import { formatTaskTree } from '../../demo/print-tree.js';
import { startDemo } from '../../demo/start-demo.js';
import { resolveDatabaseUrl } from '../../store/url.js';
import { parseCommandLine, parsePort } from '../args.js';
import type { Command } from '../command.js';
import { type CliIo, say } from '../io.js';

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
  stopsOnSignal: true,
  async run(args, io, runCli) {
    const { values } = parseCommandLine(args, { port: { type: 'string', default: '3000' } });
    const port = parsePort(values.port ?? '3000');
    const demo = await startDemo({
      serverUrl: resolveDatabaseUrl(undefined, io.env),
      port,
      say: (line) => say(io, line),
      // Through the operator's own commands, so the demo shows exactly what an installation does.
      // Without the stop signal: the demo itself stops on it, once its installation is done, and
      // drops its database (an installer interrupted half way would hold that database's tables).
      runInstaller: async (commandArgs, capture = false) => {
        const { stopSignal: _stop, ...uninterrupted } = io;
        const target = capture ? captureStdout(uninterrupted) : undefined;
        const code = await runCli(commandArgs, target ?? uninterrupted);
        return { code, stdout: target?.text() ?? '' };
      },
    });
    if (demo === undefined) return 1;
    try {
      const { sample, tree, url, link } = demo;
      say(io, `demo: the tree of task sheet ${sample.taskSheet}, as the demo's TREE_VIEW describes it:`);
      // The tree is what the demo produces: stdout, so `npm start > tree.txt` keeps it; progress stays on stderr.
      io.stdout.write(`${formatTaskTree(tree)}\n`);
      say(io, `demo: the link field opens ${url}/${link} (the association screen; JSON for non-browsers)`);
      say(
        io,
        `demo: the home page lists the task sheets, with the gallery, on ${url} (Ctrl-C stops the demo)`,
      );
      await (io.stopSignal ?? new Promise<never>(() => {}));
      return 0;
    } finally {
      await demo.close();
    }
  },
};

/** The same io with stdout captured, to show a command's JSON on one line. */
function captureStdout(io: CliIo): CliIo & { text(): string } {
  let text = '';
  return { ...io, stdout: { write: (chunk: string) => (text += chunk) }, text: () => text };
}
