/** What a command may touch of the outside world; tests pass their own to run commands in-process. */
export interface CliIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly stdin: AsyncIterable<string | Uint8Array>;
  readonly env: Record<string, string | undefined>;
  /**
   * Resolves with the signal when the user asks to stop (Ctrl-C, SIGTERM). serve and demo wait on it
   * and shut down; any other command is interrupted by runCli (see {@link INTERRUPTED_EXIT_CODES}).
   */
  readonly stopSignal?: Promise<StopSignal>;
}

export type StopSignal = 'SIGINT' | 'SIGTERM';

/** A command stopped by a signal exits as a shell reports it: 128 and the signal's number. */
export const INTERRUPTED_EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;

/**
 * A command's result: 0 done, 1 problems found or change refused, 2 usage error, 130 / 143
 * interrupted by SIGINT / SIGTERM.
 */
export type ExitCode = 0 | 1 | 2 | (typeof INTERRUPTED_EXIT_CODES)[StopSignal];

/** Prints exactly one JSON document on stdout (the `--json` contract). */
export function printJson(io: CliIo, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Progress and messages go to stderr, so stdout stays clean for `--json`. */
export function say(io: CliIo, line: string): void {
  io.stderr.write(`${line}\n`);
}

/** Reads all of standard input as bytes (`validate -`), for the caller to decode and check. */
export async function readStdin(io: CliIo): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
  return Buffer.concat(chunks);
}
