import { runChangeCommand } from '../../installer/command-line.js';
import { uninstallInstallation } from '../../installer/uninstall.js';
import type { Command } from '../main.js';

export const command: Command = {
  usage: 'uninstall --install <file> [--database-url URL] [--json] [--yes] [--force]',
  run: (args, io) =>
    runChangeCommand(
      args,
      io,
      { question: 'remove these?', none: 'nothing to remove' },
      ({ db, file, force, progress }, confirm) =>
        uninstallInstallation(db, file, { force, progress, ...(confirm === undefined ? {} : { confirm }) }),
    ),
};
