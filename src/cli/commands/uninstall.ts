import { uninstallInstallation } from '../../installer/uninstall.js';
import type { Command } from '../command.js';
import { INSTALLER_WRITE_HELP, runChangeCommand } from '../installer-command.js';

export const command: Command = {
  usage: 'uninstall --install <file> [--database-url URL] [--json] [--yes] [--force] [--dry-run]',
  summary:
    "Removes what the installer created for the file's scope, as its ledger records it: its rows, then its tables when empty and used by no other installation.",
  options: [
    ...INSTALLER_WRITE_HELP,
    ['--force', 'also drop our tables that still hold rows'],
    ['--dry-run', 'show what would be removed and change nothing (needs no --yes)'],
  ],
  example:
    'task-association uninstall --install install.json --database-url mysql://user:pass@host:3306/erp --yes',
  run: (args, io) =>
    runChangeCommand(
      args,
      io,
      { question: 'remove these?', none: 'nothing to remove' },
      ({ db, file, force, dryRun, progress }, confirm) =>
        uninstallInstallation(db, file, {
          force,
          dryRun,
          progress,
          ...(confirm === undefined ? {} : { confirm }),
        }),
      ['dry-run'],
    ),
};
