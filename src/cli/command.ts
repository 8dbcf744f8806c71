import type { OptionHelp } from './args.js';
import type { CliIo, ExitCode } from './io.js';

/** Runs a whole command line (without node and the script) and resolves with its exit code. */
export type RunCli = (argv: readonly string[], io: CliIo) => Promise<ExitCode>;

/** One command of the CLI: its usage line, its help and what it does. */
export interface Command {
  readonly usage: string;
  /** What the command does, in a sentence or two (the first line of `--help`). */
  readonly summary: string;
  /** Every option with one line of help: `['--json', 'print one JSON document on stdout']`. */
  readonly options: readonly OptionHelp[];
  /** A command line that works as shown, for `--help`. */
  readonly example: string;
  /**
   * The command waits for `io.stopSignal` itself and shuts down on it (serve, demo: their servers
   * close, the demo's database is dropped). Any other command is interrupted by runCli instead.
   */
  readonly stopsOnSignal?: true;
  /**
   * Runs the command. `runCli` runs another command line in the same process: the demo installs
   * through the operator's own commands. It is handed in, so a command never imports the CLI's entry.
   */
  run(args: readonly string[], io: CliIo, runCli: RunCli): Promise<ExitCode>;
}
