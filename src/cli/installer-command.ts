import type { Change, ChangeResult } from '../installer/change.js';
import { type InstallFile, loadInstallFile } from '../installer/install-file.js';
import type { Finding } from '../model/findings.js';
import { InstallerError } from '../model/installer-errors.js';
import type { Database } from '../store/driver.js';
import { databaseFailure } from '../store/failure.js';
import { openDatabase } from '../store/mysql.js';
import { resolveDatabaseTimeout } from '../store/url.js';
import {
  DATABASE_URL_HELP,
  databaseUrlFrom,
  databaseUrlOption,
  JSON_HELP,
  jsonOption,
  type OptionHelp,
  parseCommandLine,
  UsageError,
} from './args.js';
import { type CliIo, type ExitCode, printJson, say } from './io.js';

const READ_OPTIONS = { install: { type: 'string' }, ...databaseUrlOption, ...jsonOption } as const;
const WRITE_OPTIONS = {
  ...READ_OPTIONS,
  yes: { type: 'boolean', default: false },
  force: { type: 'boolean', default: false },
} as const;

/** The help lines of the options every installer command reads. */
export const INSTALLER_READ_HELP: readonly OptionHelp[] = [
  [
    '--install FILE',
    'the install file (required): scope, acting user, table names, menus, link field, TREE_VIEW',
  ],
  DATABASE_URL_HELP,
  JSON_HELP,
];
/** ... and those of `apply` and `uninstall` (each adds its own `--force` line). */
export const INSTALLER_WRITE_HELP: readonly OptionHelp[] = [
  ...INSTALLER_READ_HELP,
  ['--yes', 'do not ask; needed when standard input is not a terminal (CI, scripts)'],
];

/**
 * What the installer commands share: the install file, the database, `--json`, maybe `--yes`/`--force`,
 * and a command's own boolean flags (`plan --sql`, `uninstall --dry-run`), of which `notWithJson`
 * cannot go with `--json` (both print on stdout). A dry run writes nothing, so it needs no `--yes`.
 * The command line is checked whole before the file is read or the database opened.
 */
export async function withInstallation<T>(
  args: readonly string[],
  io: CliIo,
  writes: boolean,
  work: (context: {
    db: Database;
    file: InstallFile;
    json: boolean;
    yes: boolean;
    force: boolean;
    flags: ReadonlySet<string>;
    progress: (line: string) => void;
  }) => Promise<T>,
  ownFlags: readonly string[] = [],
  notWithJson: readonly string[] = [],
): Promise<T> {
  const own = Object.fromEntries(
    ownFlags.map((flag) => [flag, { type: 'boolean', default: false } as const]),
  );
  const parsed = writes
    ? parseCommandLine(args, { ...WRITE_OPTIONS, ...own }).values
    : { yes: false, force: false, ...parseCommandLine(args, { ...READ_OPTIONS, ...own }).values };
  const values = parsed as typeof parsed & Record<string, unknown>;
  const flags = new Set(ownFlags.filter((flag) => values[flag] === true));
  if (values.install === undefined) throw new UsageError('--install <file> is required');
  for (const flag of notWithJson.filter((own) => flags.has(own)))
    if (values.json === true) throw new UsageError(`give --json or --${flag}, not both`);
  const yes = values.yes ?? false;
  if (writes && !yes && !flags.has('dry-run') && !isTerminal(io)) {
    throw new UsageError(
      'standard input is not a terminal, so nobody can confirm: add --yes to run unattended',
    );
  }
  const file = await loadInstallFile(values.install).catch((error: unknown) => {
    // A file named on the command line that cannot be read is a usage error (exit 2), as for validate.
    if (error instanceof InstallerError && error.code === 'INSTALL_FILE_UNREADABLE')
      throw new UsageError(error.message);
    throw error;
  });
  const db = await openDatabase(databaseUrlFrom(values['database-url'], io.env), {
    connectionLimit: 3,
    timeoutMs: resolveDatabaseTimeout(io.env),
  });
  try {
    return await work({
      db,
      file,
      json: values.json ?? false,
      yes,
      force: values.force ?? false,
      flags,
      progress: (line) => say(io, line),
    });
  } catch (error) {
    throw asOneLine(error, writes);
  } finally {
    // The connection may be gone already (the error above): closing the pool must not replace it.
    await db.close().catch(() => undefined);
  }
}

/**
 * A server error in the middle of a run (a lock wait timeout, a refused statement) or a lost
 * connection is not a bug of ours: the operator gets one line (and `--json` its document), never a
 * stack trace. What it says of the writes is only what is known: the failed statement's transaction
 * was rolled back, and a command that writes in steps (rows, then tables) keeps the steps committed
 * before it, which `status` shows.
 */
function asOneLine(error: unknown, writes: boolean): unknown {
  const after = writes
    ? 'the transaction it was in was rolled back, and anything committed before it stays: `status` shows where the installation stands; run again once the cause is fixed'
    : 'nothing was written; run again once the cause is fixed';
  return databaseFailure(error, after) ?? error;
}

function isTerminal(io: CliIo): boolean {
  return (io.stdin as { isTTY?: boolean }).isTTY === true;
}

/** Findings on stderr: errors and notes the operator should read. */
export function reportFindings(io: CliIo, findings: readonly Finding[]): void {
  // A finding's message names its place itself (`sys_core_menu.ICON (varchar(40)) is NOT NULL ...`).
  for (const finding of findings)
    say(io, `${finding.level === 'error' ? 'error' : 'note'}: ${finding.message}`);
}

/** The changes, one line each, on stderr (stdout is kept for `--json`). */
export function reportChanges(io: CliIo, changes: readonly Change[], none: string): void {
  if (changes.length === 0) say(io, none);
  const indent = ' '.repeat(15);
  for (const change of changes)
    say(io, `  ${change.kind.padEnd(12)} ${change.message.replaceAll('\n', `\n${indent}`)}`);
}

/**
 * Shows the plan and asks on the terminal; anything but y/yes declines. Ctrl-C and SIGTERM
 * (`io.stopSignal`) while the question waits interrupt the command (runCli); the question ends too,
 * so an in-process run lets go of the installer's lock, held meanwhile.
 */
export async function askToProceed(
  io: CliIo,
  changes: readonly Change[],
  question: string,
): Promise<boolean> {
  reportChanges(io, changes, 'nothing to do');
  io.stderr.write(`${question} [y/N] `);
  const read = async () => {
    let answer = '';
    for await (const chunk of io.stdin) {
      answer += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      if (answer.includes('\n')) break;
    }
    return answer;
  };
  const interrupted = io.stopSignal?.then(() => undefined);
  const answer = await (interrupted === undefined ? read() : Promise.race([read(), interrupted]));
  if (answer === undefined) {
    io.stderr.write('\n');
    return false;
  }
  return /^\s*y(es)?\s*$/i.test(answer.split('\n')[0] ?? '');
}

/** A kept thing as `--json` prints it: its code, where, and why (the finding's message). */
function describeKept({ code, path, message }: Finding): { code: string; path: string; message: string } {
  return { code, path, message };
}

/**
 * `apply` and `uninstall`: run the change (asking first on a terminal, unless `--yes`), report the
 * findings, say when nothing was needed, print `{ "changes": [...] }` for `--json` (uninstall's
 * with `kept`). Exit 1 when the operator declined.
 */
export function runChangeCommand(
  args: readonly string[],
  io: CliIo,
  texts: { question: string; none: string },
  change: (
    context: {
      db: Database;
      file: InstallFile;
      force: boolean;
      dryRun: boolean;
      progress: (line: string) => void;
    },
    confirm: ((plan: { changes: readonly Change[] }) => Promise<boolean>) | undefined,
  ) => Promise<ChangeResult>,
  ownFlags: readonly string[] = [],
): Promise<ExitCode> {
  return withInstallation(
    args,
    io,
    true,
    async ({ db, file, json, yes, force, flags, progress }) => {
      const dryRun = flags.has('dry-run');
      const confirm =
        yes || dryRun
          ? undefined
          : (plan: { changes: readonly Change[] }) => askToProceed(io, plan.changes, texts.question);
      const result = await change({ db, file, force, dryRun, progress }, confirm);
      reportFindings(io, result.findings);
      // What uninstall keeps goes in the document too, for a script to read. The exit code stays 0:
      // what is kept is kept on purpose (the host's rows, or its key), and a later run that has
      // nothing left to remove answers NOT_INSTALLED, so 1 would not say "run it again".
      const kept = result.kept === undefined ? {} : { kept: result.kept.map(describeKept) };
      const finished = (result.kept ?? []).length === 0;
      if (!finished) {
        progress(
          `${dryRun ? 'would keep' : 'kept'} ${result.kept?.length} thing(s) of the installation (the notes above say why): it ${dryRun ? 'would not be' : 'is not'} wholly removed`,
        );
      }
      if (dryRun) {
        reportChanges(io, result.changes, texts.none);
        progress('dry run: nothing was changed');
        if (json) printJson(io, { changes: result.changes, ...kept });
        return 0;
      }
      if (!result.applied) {
        progress('nothing was changed');
        // `--json` promises one document, a declined run's too.
        if (json) printJson(io, { changes: [], applied: false });
        return 1;
      }
      // Each change was shown as it ran; only say so when there was none.
      if (result.changes.length === 0) progress(texts.none);
      if (json) printJson(io, { changes: result.changes, ...kept });
      return 0;
    },
    ownFlags,
  );
}
