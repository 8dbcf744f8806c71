import { type TableNames, tableNames } from '../../model/table-names.js';
import { openDatabase } from '../../store/mysql.js';
import { resolveDatabaseTimeout } from '../../store/url.js';
import { syncSchema } from '../../sync/sync.js';
import { SchemaSyncError } from '../../sync/sync-errors.js';
import {
  DATABASE_URL_HELP,
  databaseUrlFrom,
  databaseUrlOption,
  JSON_HELP,
  jsonOption,
  parseCommandLine,
  UsageError,
} from '../args.js';
import type { Command } from '../command.js';
import { printJson, say } from '../io.js';

const options = {
  ...databaseUrlOption,
  ...jsonOption,
  'table-name': { type: 'string', multiple: true },
  'dry-run': { type: 'boolean', default: false },
} as const;

/**
 * `db sync`: creates or completes the four tables and the two shared ones. Without --json the statements go to stdout, each
 * ending in `;` (so `--dry-run` output can be reviewed or piped into a client) and a summary to stderr.
 */
export const command: Command = {
  usage: 'db sync [--database-url URL] [--table-name LOGICAL=NAME]... [--dry-run] [--json]',
  summary:
    'Creates the four tables and the two every installation shares (history, request ids), or completes them, from their Drizzle definitions. It only adds; it refuses (exit 1) a difference that would drop or narrow something.',
  options: [
    DATABASE_URL_HELP,
    ['--table-name LOGICAL=NAME', 'a table name override, e.g. OPER=MO_OPER (repeat for each table)'],
    ['--dry-run', 'print the statements and change nothing'],
    JSON_HELP,
  ],
  example:
    'task-association db sync --database-url mysql://user:pass@host:3306/erp --table-name OPER=MO_OPER --dry-run',
  async run(args, io) {
    const { values } = parseCommandLine(args, options);
    // Names are checked before the database is even opened: a bad one never reaches SQL.
    const names = parseTableNames(values['table-name'] ?? []);
    const db = await openDatabase(databaseUrlFrom(values['database-url'], io.env), {
      connectionLimit: 1,
      timeoutMs: resolveDatabaseTimeout(io.env),
    });
    try {
      const result = await syncSchema(db, names, { dryRun: values['dry-run'] === true });
      if (values.json === true) printJson(io, result);
      else {
        for (const statement of result.statements) io.stdout.write(`${statement};\n`);
        say(
          io,
          result.statements.length === 0
            ? `the four tables and the shared ones in ${db.schemaName} are up to date: nothing to do`
            : result.applied
              ? `ran ${result.statements.length} statement(s) on ${db.schemaName}`
              : `dry run: ${result.statements.length} statement(s) would run on ${db.schemaName}`,
        );
      }
      return 0;
    } catch (error) {
      const refused = error instanceof SchemaSyncError && error.code !== 'STATEMENT_FAILED';
      if (!refused || values.json !== true) throw error;
      // A refusal changed nothing: --json still prints its one document, with what was refused and why.
      printJson(io, { statements: [], applied: false, code: error.code, differences: error.differences });
      say(io, `task-association db sync: ${error.message}`);
      return 1;
    } finally {
      await db.close();
    }
  },
};

/** `--table-name OPER=MO_OPER` (repeatable) into checked table names. */
function parseTableNames(pairs: readonly string[]): TableNames {
  // A Map: `toString` or `__proto__` is a name like any other (an object's `in` found them "given").
  const overrides = new Map<string, string>();
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`--table-name "${pair}" must be LOGICAL=NAME, e.g. OPER=MO_OPER`);
    const logical = pair.slice(0, at);
    if (overrides.has(logical)) throw new UsageError(`--table-name ${logical} is given twice`);
    overrides.set(logical, pair.slice(at + 1));
  }
  return tableNames(Object.fromEntries(overrides));
}
