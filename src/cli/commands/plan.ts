import {
  INSTALLER_READ_HELP,
  reportChanges,
  reportFindings,
  withInstallation,
} from '../../installer/command-line.js';
import { planInstallation, refusalOf } from '../../installer/installer.js';
import { printJson } from '../io.js';
import type { Command } from '../main.js';

export const command: Command = {
  usage: 'plan --install <file> [--database-url URL] [--json]',
  summary: 'Shows every change apply would make, and why it would refuse. Writes nothing, takes no lock.',
  options: INSTALLER_READ_HELP,
  example: 'task-association plan --install install.json --database-url mysql://user:pass@host:3306/erp',
  run: (args, io) =>
    withInstallation(args, io, false, async ({ db, file, json, progress }) => {
      const plan = await planInstallation(db, file, { progress });
      reportFindings(io, plan.findings);
      const refused = refusalOf(plan.findings);
      // --json carries what apply would do, everything noticed, and why apply would refuse.
      if (json)
        printJson(io, { changes: plan.changes, findings: plan.findings, ...(refused ? { refused } : {}) });
      if (refused !== undefined) {
        progress('apply would refuse: fix the errors above first');
        return 1;
      }
      reportChanges(io, plan.changes, 'nothing to do: the installation is up to date');
      return 0;
    }),
};
