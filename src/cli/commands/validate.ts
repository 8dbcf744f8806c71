import { readFile } from 'node:fs/promises';
import {
  ConfigError,
  type ConfigIssue,
  formatIssues,
  parseTreeView,
  readParameterRows,
  TREE_VIEW_PARAMETER,
} from '../../config/index.js';
import { openDatabase } from '../../db/mysql.js';
import { resolveDatabaseTimeout, resolveDatabaseUrl } from '../../db/url.js';
import { formatScope, parseScope, type Scope } from '../../scope.js';
import { databaseUrlOption, jsonOption, parseCommandLine, UsageError } from '../args.js';
import { type CliIo, type ExitCode, printJson, readStdin, say } from '../io.js';
import type { Command } from '../main.js';

/**
 * `validate <file|->` checks a TREE_VIEW file (or standard input); `validate --scope E/F/L` checks the
 * TREE_VIEW row of that scope in the database. Every problem is printed with its path; exit 1 when
 * there is one. A file that cannot be read is a usage error (exit 2): the command line names it.
 */
export const command: Command = {
  usage: 'validate <file|-> [--json] | validate --scope EMPRESA/FILIAL/LOCAL [--database-url URL] [--json]',
  async run(args, io) {
    const { values, positionals } = parseCommandLine(
      args,
      { ...databaseUrlOption, ...jsonOption, scope: { type: 'string' } },
      1,
    );
    const [file] = positionals;
    if (file !== undefined && values.scope !== undefined)
      throw new UsageError('give either a file or --scope, not both');
    if (values['database-url'] !== undefined && values.scope === undefined)
      throw new UsageError('--database-url reads the TREE_VIEW of a scope: add --scope EMPRESA/FILIAL/LOCAL');
    if (file === undefined && values.scope === undefined)
      throw new UsageError(
        'give a TREE_VIEW file, - for standard input, or --scope to read it from the database',
      );
    const checked =
      file === undefined
        ? await fromDatabase(
            resolveDatabaseUrl(values['database-url'], io.env),
            scopeOption(values.scope ?? ''),
            resolveDatabaseTimeout(io.env),
          )
        : { source: file === '-' ? 'standard input' : file, issues: issuesOf(await readSource(file, io)) };
    return report(checked, values.json === true, io);
  },
};

function scopeOption(text: string): Scope {
  try {
    return parseScope(text);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

async function readSource(file: string, io: CliIo): Promise<string> {
  if (file === '-') return readStdin(io);
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : String(error);
    throw new UsageError(`cannot read ${file}: ${reason}`);
  }
}

function issuesOf(text: string): readonly ConfigIssue[] {
  const result = parseTreeView(text);
  return result.success ? [] : result.issues;
}

async function fromDatabase(
  url: string,
  scope: Scope,
  timeoutMs: number,
): Promise<{ source: string; issues: readonly ConfigIssue[] }> {
  const db = await openDatabase(url, { connectionLimit: 1, timeoutMs });
  try {
    const { rows } = await readParameterRows(db, scope, [TREE_VIEW_PARAMETER]);
    const row = rows[TREE_VIEW_PARAMETER];
    // Asked to check a TREE_VIEW that is not there: a problem (exit 1), not a silent pass.
    if (row === undefined) {
      return {
        source: `scope ${formatScope(scope)}`,
        issues: [
          {
            path: '',
            code: 'NO_TREE_VIEW',
            message: `scope ${formatScope(scope)} has no TREE_VIEW parameter row (it uses the default tree)`,
          },
        ],
      };
    }
    return {
      source: `the TREE_VIEW row SEQ_DB ${row.SEQ_DB} of scope ${formatScope(scope)}`,
      issues: issuesOf(row.CONTEUDO ?? ''),
    };
  } catch (error) {
    // Conflicting TREE_VIEW rows are a problem of the configuration: reported like the others.
    if (error instanceof ConfigError) return { source: `scope ${formatScope(scope)}`, issues: error.issues };
    throw error;
  } finally {
    await db.close();
  }
}

function report(
  checked: { source: string; issues: readonly ConfigIssue[] },
  json: boolean,
  io: CliIo,
): ExitCode {
  const { source, issues } = checked;
  if (json) printJson(io, { valid: issues.length === 0, issues });
  if (issues.length === 0) {
    say(io, `✔ ${source}: a valid TREE_VIEW`);
    return 0;
  }
  say(io, formatIssues(issues));
  say(io, `${source}: ${issues.length === 1 ? '1 problem' : `${issues.length} problems`}`);
  return 1;
}
