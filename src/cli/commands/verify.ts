import { verifyInstallation } from '../../installer/verify.js';
import { formatIssue } from '../../model/issues.js';
import type { Command } from '../command.js';
import { INSTALLER_READ_HELP, withInstallation } from '../installer-command.js';
import { printJson, say } from '../io.js';

export const command: Command = {
  usage: 'verify --install <file> [--database-url URL] [--json]',
  summary:
    'Checks an installation against its install file: tables and columns, menu rows, the link field, parameters and the TREE_VIEW. Exit 1 lists every problem.',
  options: INSTALLER_READ_HELP,
  example:
    'task-association verify --install install.json --database-url mysql://user:pass@host:3306/erp --json',
  run: (args, io) =>
    withInstallation(args, io, false, async ({ db, file, json, progress }) => {
      progress('checking tables, rows and parameters');
      const result = await verifyInstallation(db, file);
      for (const problem of result.problems) say(io, `problem: ${formatIssue(problem)}`);
      say(
        io,
        result.ok ? 'ok: the installation is as it must be' : `${result.problems.length} problem(s) found`,
      );
      if (json) printJson(io, result);
      return result.ok ? 0 : 1;
    }),
};
