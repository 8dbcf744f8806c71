import type { InstallFile } from '../../installer/install-file.js';
import { planInstallation } from '../../installer/installer.js';
import { refusalOf } from '../../installer/planner.js';
import { formatScope } from '../../model/scope.js';
import { PACKAGE_VERSION } from '../../model/version.js';
import { inlineStatement } from '../../store/script.js';
import type { Statement } from '../../store/sql.js';
import type { Command } from '../command.js';
import {
  INSTALLER_READ_HELP,
  reportChanges,
  reportFindings,
  withInstallation,
} from '../installer-command.js';
import { printJson } from '../io.js';

export const command: Command = {
  usage: 'plan --install <file> [--database-url URL] [--json | --sql] [--force]',
  summary: 'Shows every change apply would make, and why it would refuse. Writes nothing, takes no lock.',
  options: [
    ...INSTALLER_READ_HELP,
    ['--sql', 'print the SQL script apply would run (values written in) for a DBA to review and run as is'],
    ['--force', 'plan what apply --force would do: also reset the rows administrators may edit'],
  ],
  example:
    'task-association plan --install install.json --database-url mysql://user:pass@host:3306/erp --sql > plan.sql',
  run: (args, io) =>
    withInstallation(
      args,
      io,
      false,
      async ({ db, file, json, flags, progress }) => {
        const sql = flags.has('sql');
        const plan = await planInstallation(db, file, { progress, force: flags.has('force') });
        reportFindings(io, plan.findings);
        const refused = refusalOf(plan.findings);
        // --json carries what apply would do, everything noticed, and why apply would refuse.
        if (json)
          printJson(io, { changes: plan.changes, findings: plan.findings, ...(refused ? { refused } : {}) });
        if (refused !== undefined) {
          progress('apply would refuse: fix the errors above first');
          return 1;
        }
        if (sql) io.stdout.write(sqlScript(plan.script, db.schemaName, file));
        else reportChanges(io, plan.changes, 'nothing to do: the installation is up to date');
        return 0;
      },
      ['sql', 'force'],
      ['sql'],
    ),
};

/**
 * The plan as a script: a header saying what it is, the connection's character set, then each
 * statement with its values written in.
 */
function sqlScript(statements: readonly Statement[], database: string, file: InstallFile): string {
  const header = [
    `-- task-association ${PACKAGE_VERSION}: what apply would run on database ${database} for scope ${formatScope(file.scope)}.`,
    '-- Review it, then run it as is (mysql DATABASE < plan.sql) with no installer running meanwhile.',
    '-- DDL commits on its own in MySQL; the rows and their ledger entries are one transaction.',
  ];
  if (statements.length === 0) header.push('-- Nothing to do: the installation is up to date.');
  // The script is UTF-8 and its texts hold any character (an accent, an emoji): a client whose
  // default is latin1 would store them as mojibake, one on utf8mb3 would stop at an emoji after the DDL.
  const charset = statements.length === 0 ? [] : ['SET NAMES utf8mb4;'];
  return `${[...header, ...charset, ...statements.map(({ sql, params }) => inlineStatement(sql, params))].join('\n')}\n`;
}
