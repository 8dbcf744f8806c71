import { readFile } from 'node:fs/promises';
import { checkOverrideRows, missingOverrideTables } from '../../installer/override-rows.js';
import { checkStoredTreeView } from '../../installer/verify-tree-view.js';
import { ConfigError, formatIssues, type Issue } from '../../model/issues.js';
import { TREE_VIEW_PARAMETER } from '../../model/parameters.js';
import { formatScope, parseScope, type Scope } from '../../model/scope.js';
import { parseTreeView } from '../../model/tree-view.js';
import { decodeUtf8 } from '../../model/utf8-text.js';
import { openDatabase } from '../../store/mysql.js';
import { readParameterRows } from '../../store/parameters.js';
import { resolveDatabaseTimeout } from '../../store/url.js';
import {
  databaseUrlFrom,
  databaseUrlOption,
  JSON_HELP,
  jsonOption,
  parseCommandLine,
  UsageError,
} from '../args.js';
import type { Command } from '../command.js';
import { type CliIo, type ExitCode, printJson, readStdin, say } from '../io.js';

/**
 * `validate <file|->...` checks TREE_VIEW files (or standard input), one result line each;
 * `validate --scope E/F/L` checks the TREE_VIEW row of that scope in the database. Every problem is
 * printed with its path; exit 1 when there is one. A file that cannot be read is a usage error
 * (exit 2): the command line names it, and nothing is checked.
 */
export const command: Command = {
  usage:
    'validate <file|->... [--json] | validate --scope EMPRESA/FILIAL/LOCAL [--database-url URL] [--json]',
  summary:
    'Checks TREE_VIEW files (each problem with its path and a stable code), or the TREE_VIEW row of a scope in the database.',
  options: [
    ['<file|->...', 'TREE_VIEW files to check, one result line each; - reads standard input'],
    ['--scope E/F/L', 'check the TREE_VIEW parameter row of this scope instead of files'],
    [
      '--database-url URL',
      'with --scope: the database (default $DATABASE_URL, then mysql://root@127.0.0.1:3306/test)',
    ],
    JSON_HELP,
  ],
  example: 'task-association validate config/*.json',
  async run(args, io) {
    const { values, positionals } = parseCommandLine(
      args,
      { ...databaseUrlOption, ...jsonOption, scope: { type: 'string' } },
      Number.POSITIVE_INFINITY,
    );
    if (positionals.length > 0 && values.scope !== undefined)
      throw new UsageError('give either files or --scope, not both');
    if (values['database-url'] !== undefined && values.scope === undefined)
      throw new UsageError('--database-url reads the TREE_VIEW of a scope: add --scope EMPRESA/FILIAL/LOCAL');
    if (positionals.length === 0 && values.scope === undefined)
      throw new UsageError(
        'give TREE_VIEW files, - for standard input, or --scope to read it from the database',
      );
    if (positionals.filter((file) => file === '-').length > 1)
      throw new UsageError('standard input (-) can be read only once');
    const checked =
      values.scope !== undefined
        ? [
            await fromDatabase(
              databaseUrlFrom(values['database-url'], io.env),
              scopeOption(values.scope),
              resolveDatabaseTimeout(io.env),
            ),
          ]
        : await fromFiles(positionals, io);
    return report(checked, values.json === true, io);
  },
};

/** Every file read first: one that cannot be read stops the command before any result is printed. */
async function fromFiles(files: readonly string[], io: CliIo): Promise<Checked[]> {
  const contents: Uint8Array[] = [];
  for (const file of files) contents.push(await readSource(file, io));
  return files.map((file, index) => {
    // Bytes that are not UTF-8 are the file's problem, not replacement characters in its labels.
    const text = decodeUtf8(contents[index] ?? new Uint8Array());
    return {
      source: file === '-' ? 'standard input' : file,
      issues: text.success ? issuesOf(text.text) : text.issues,
    };
  });
}

interface Checked {
  readonly source: string;
  readonly issues: readonly Issue[];
  /** Said on the result line when the check passed without a TREE_VIEW to check. */
  readonly note?: string;
}

function scopeOption(text: string): Scope {
  try {
    return parseScope(text);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

async function readSource(file: string, io: CliIo): Promise<Uint8Array> {
  if (file === '-') return readStdin(io);
  try {
    return await readFile(file);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : String(error);
    throw new UsageError(`cannot read ${file}: ${reason}`);
  }
}

function issuesOf(text: string): readonly Issue[] {
  const result = parseTreeView(text);
  return result.success ? [] : result.issues;
}

async function fromDatabase(url: string, scope: Scope, timeoutMs: number): Promise<Checked> {
  const db = await openDatabase(url, { connectionLimit: 1, timeoutMs });
  try {
    const { rows } = await readParameterRows(db, scope);
    // The override rows every load reads, said as verify says them, TREE_VIEW or not.
    const overrides = checkOverrideRows(scope, rows);
    // At their row, as verify says them.
    const overrideIssues: Issue[] = [
      ...overrides.problems,
      ...(await missingOverrideTables(db, rows, overrides.given)),
    ];
    const row = rows[TREE_VIEW_PARAMETER];
    // TREE_VIEW is optional: a scope without one uses the default tree, which is always valid.
    if (row === undefined) {
      return overrideIssues.length > 0
        ? { source: `scope ${formatScope(scope)}`, issues: overrideIssues }
        : {
            source: `scope ${formatScope(scope)}`,
            issues: [],
            note: 'no TREE_VIEW: the default tree is used',
          };
    }
    const source = `the TREE_VIEW row SEQ_DB ${row.SEQ_DB} of scope ${formatScope(scope)}`;
    const issues = issuesOf(row.CONTEUDO ?? '');
    // A valid document may still not fit this database: the same checks verify makes (tables and
    // columns it names, metrics the metric table can keep), with the scope's own table names.
    if (issues.length > 0 || overrides.names === undefined)
      return { source, issues: [...overrideIssues, ...issues] };
    const problems = await checkStoredTreeView(db, row.CONTEUDO, {
      seqDb: row.SEQ_DB,
      names: overrides.names,
    });
    return {
      source,
      // TREE_VIEW_INVALID cannot come back: the document was checked above.
      issues: [
        ...overrideIssues,
        ...problems.flatMap(({ code, path, message }) =>
          code === 'TREE_VIEW_INVALID' ? [] : [{ code, path, message }],
        ),
      ],
    };
  } catch (error) {
    // Conflicting TREE_VIEW rows are a problem of the configuration: reported like the others.
    if (error instanceof ConfigError) return { source: `scope ${formatScope(scope)}`, issues: error.issues };
    throw error;
  } finally {
    await db.close();
  }
}

/**
 * One result line per source. `--json` keeps the one-document contract: `{ valid, issues }`, each
 * issue carrying its `file` when several files were checked.
 */
function report(checked: readonly Checked[], json: boolean, io: CliIo): ExitCode {
  const valid = checked.every(({ issues }) => issues.length === 0);
  if (json) {
    const issues =
      checked.length === 1
        ? (checked[0]?.issues ?? [])
        : checked.flatMap(({ source, issues }) => issues.map((issue) => ({ file: source, ...issue })));
    printJson(io, { valid, issues });
  }
  for (const { source, issues, note } of checked) {
    if (issues.length === 0) {
      say(io, `✔ ${source}: ${note ?? 'a valid TREE_VIEW'}`);
      continue;
    }
    say(io, formatIssues(issues));
    say(io, `✖ ${source}: ${issues.length === 1 ? '1 problem' : `${issues.length} problems`}`);
  }
  return valid ? 0 : 1;
}
