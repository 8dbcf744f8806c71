import { runChangeCommand } from '../../installer/command-line.js';
import { applyInstallation } from '../../installer/installer.js';
import type { Command } from '../main.js';

export const command: Command = {
  usage: 'apply --install <file> [--database-url URL] [--json] [--yes] [--force]',
  run: (args, io) =>
    runChangeCommand(
      args,
      io,
      { question: 'apply these changes?', none: 'nothing to do: the installation is up to date' },
      ({ db, file, force, progress }, confirm) =>
        applyInstallation(db, file, { force, progress, ...(confirm === undefined ? {} : { confirm }) }),
    ),
};
