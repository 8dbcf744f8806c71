import { TaskAssociationError } from '../model/errors.js';
import { PACKAGE_VERSION } from '../model/version.js';
import { databaseFailure } from '../store/failure.js';
import { HELP_OPTION, nearestName, UsageError } from './args.js';
import type { Command } from './command.js';
import { type CliIo, type ExitCode, INTERRUPTED_EXIT_CODES, printJson, type StopSignal } from './io.js';

// Loaded on demand, so `validate` does not pay for sharp and `serve` not for drizzle-kit.
const commands: Record<string, () => Promise<{ command: Command }>> = {
  'db sync': () => import('./commands/db-sync.js'),
  validate: () => import('./commands/validate.js'),
  plan: () => import('./commands/plan.js'),
  apply: () => import('./commands/apply.js'),
  verify: () => import('./commands/verify.js'),
  uninstall: () => import('./commands/uninstall.js'),
  status: () => import('./commands/status.js'),
  serve: () => import('./commands/serve.js'),
  demo: () => import('./commands/demo.js'),
};

const USAGE = `usage: task-association <command> [options]

commands:
  db sync    [--database-url URL] [--table-name LOGICAL=NAME]... [--dry-run] [--json]
  validate   <file|->... [--json] [--database-url URL --scope EMPRESA/FILIAL/LOCAL]
  plan       --install <file> [--database-url URL] [--json | --sql] [--force]
  apply      --install <file> [--database-url URL] [--json] [--yes] [--force]
  verify     --install <file> [--database-url URL] [--json]
  uninstall  --install <file> [--database-url URL] [--json] [--yes] [--force] [--dry-run]
  status     [--database-url URL] [--json]
  serve      [--port 3000] [--images DIR] [--cache DIR | --redis URL [--redis-prefix P]]
  demo       [--port 3000]

task-association <command> --help shows a command's options and an example.
--database-url defaults to $DATABASE_URL, then mysql://root@127.0.0.1:3306/test.
$DATABASE_TIMEOUT (seconds, default 5) bounds every wait on the database.
Exit codes: 0 done, 1 problems found or change refused, 2 usage error,
130 / 143 interrupted by Ctrl-C (SIGINT) / SIGTERM.
--version prints the version.`;

/**
 * Runs the CLI with `argv` (without node and the script) and returns the exit code.
 * Every error we raise on purpose is printed as one line on stderr; only a bug prints a stack.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const [first, second, ...rest] = argv;
  // `help plan` is `plan --help`, as git and npm read it.
  if (first === 'help' && second !== undefined) return runCli([second, ...rest, '--help'], io);
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    (first === undefined ? io.stderr : io.stdout).write(`${USAGE}\n`);
    return first === undefined ? 2 : 0;
  }
  if (first === '--version' || first === '-v') {
    io.stdout.write(`${PACKAGE_VERSION}\n`);
    return 0;
  }
  const twoWord = second === undefined ? undefined : `${first} ${second}`;
  const name = twoWord !== undefined && twoWord in commands ? twoWord : first;
  const load = commands[name];
  const subcommands = Object.keys(commands).filter((command) => command.startsWith(`${first} `));
  if (load === undefined && subcommands.length > 0 && isHelp(second)) {
    for (const subcommand of subcommands) {
      const { command } = await (commands[subcommand] as () => Promise<{ command: Command }>)();
      io.stdout.write(`${helpText(command)}\n`);
    }
    return 0;
  }
  if (load === undefined) {
    const names = subcommands.map((command) => command.slice(first.length + 1));
    // `db synch`: a subcommand mistyped is named as such, not taken for a missing one.
    const near = second === undefined ? undefined : nearestName(second, names);
    const unknownSubcommand =
      second === undefined || second.startsWith('-')
        ? undefined
        : `unknown subcommand ${second}${near === undefined ? `; "${first}" has ${names.join(', ')}` : ` (did you mean ${near}?)`}`;
    io.stderr.write(
      subcommands.length > 0
        ? `task-association: ${unknownSubcommand ?? `"${first}" needs a subcommand: ${names.join(', ')}`}\n\n${USAGE}\n`
        : `task-association: unknown command "${first}"\n\n${USAGE}\n`,
    );
    return 2;
  }
  const args = name === twoWord ? rest : argv.slice(1);
  const { command } = await load();
  // Asked for help, a command explains itself and does nothing else, whatever else is on the line.
  if (args.some(isHelp)) {
    io.stdout.write(`${helpText(command)}\n`);
    return 0;
  }
  try {
    if (command.stopsOnSignal === true || io.stopSignal === undefined)
      return await command.run(args, io, runCli);
    // Interrupted, the command is left behind, silenced: its process ends at once (runCliProcess)
    // and the server sees its connections closed. An in-process caller must end its process too.
    let silenced = false;
    const quiet = (stream: CliIo['stdout']) => ({
      write: (text: string) => silenced || stream.write(text),
    });
    const run = command.run(args, { ...io, stdout: quiet(io.stdout), stderr: quiet(io.stderr) }, runCli);
    run.catch(() => undefined);
    const ended = await Promise.race([run, io.stopSignal]);
    if (typeof ended === 'number') return ended;
    silenced = true;
    throw new InterruptedError(ended);
  } catch (thrown) {
    // A database failure any command meets (a lost connection, a refused statement) is one line too.
    const error =
      databaseFailure(thrown, 'the command stopped there; run it again once the cause is fixed') ?? thrown;
    if (!(error instanceof TaskAssociationError)) throw error;
    const usage = error instanceof UsageError;
    io.stderr.write(`task-association ${name}: ${error.message}\n`);
    if (usage) io.stderr.write(`usage: task-association ${command.usage}\n`);
    // `--json` promises exactly one document on stdout, failures included.
    if (args.includes('--json')) printJson(io, { error: describeError(error) });
    if (error instanceof InterruptedError) return INTERRUPTED_EXIT_CODES[error.signal];
    return usage ? 2 : 1;
  }
}

/** A command stopped by Ctrl-C or SIGTERM, before it finished. */
class InterruptedError extends TaskAssociationError {
  constructor(readonly signal: StopSignal) {
    super(
      'INTERRUPTED',
      `interrupted (${signal}): stopped before it finished; its connections are closed, so a transaction it had open is rolled back, nothing of it written; what was committed before stays (\`status\` shows where an installation stands): run the command again`,
    );
  }
}

/**
 * Runs the CLI as this process (bin/task-association.js): Ctrl-C and SIGTERM become `io.stopSignal`,
 * and the process ends with the command's exit code, closing whatever it left open.
 */
export async function runCliProcess(): Promise<never> {
  const stopSignal = new Promise<StopSignal>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  const code = await runCli(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    stopSignal,
  });
  // Nothing else should keep the process alive once the command is done (or interrupted).
  process.exit(code);
}

function isHelp(arg: string | undefined): boolean {
  return arg === '--help' || arg === '-h';
}

/** A command's `--help`: usage, what it does, one line per option, an example. */
export function helpText(command: Command): string {
  const options = [...command.options, HELP_OPTION];
  const width = Math.max(...options.map(([flag]) => flag.length)) + 2;
  return [
    `usage: task-association ${command.usage}`,
    '',
    command.summary,
    '',
    'options:',
    ...options.map(([flag, help]) => `  ${flag.padEnd(width)}${help}`),
    '',
    'example:',
    `  ${command.example}`,
  ].join('\n');
}

/** The `--json` form of a failure: its stable code, where it happened, and the message. */
function describeError(error: TaskAssociationError): {
  code: string;
  path?: string;
  message: string;
  issues?: unknown;
} {
  // A configuration input's error (an install file, a TREE_VIEW) lists every problem as validate does.
  const issues = 'issues' in error && Array.isArray(error.issues) ? { issues: error.issues } : {};
  return error.path === undefined
    ? { code: error.code, message: error.message, ...issues }
    : { code: error.code, path: error.path, message: error.message, ...issues };
}
