import { applyInstallation } from '../../installer/installer.js';
import type { Command } from '../command.js';
import { INSTALLER_WRITE_HELP, runChangeCommand } from '../installer-command.js';

export const command: Command = {
  usage: 'apply --install <file> [--database-url URL] [--json] [--yes] [--force]',
  summary:
    'Brings the database to the install file: the four tables, then every row in one transaction. Asks first on a terminal; a second run changes nothing.',
  options: [
    ...INSTALLER_WRITE_HELP,
    ['--force', 'also reset the rows administrators may edit (TREE_VIEW, table-name overrides) to the file'],
  ],
  example:
    'task-association apply --install install.json --database-url mysql://user:pass@host:3306/erp --yes',
  run: (args, io) =>
    runChangeCommand(
      args,
      io,
      { question: 'apply these changes?', none: 'nothing to do: the installation is up to date' },
      ({ db, file, force, progress }, confirm) =>
        applyInstallation(db, file, { force, progress, ...(confirm === undefined ? {} : { confirm }) }),
    ),
};
