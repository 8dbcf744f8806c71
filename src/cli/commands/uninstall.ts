import { askToProceed, reportFindings, withInstallation } from '../../installer/command-line.js';
import { uninstallInstallation } from '../../installer/uninstall.js';
import { printJson } from '../io.js';
import type { Command } from '../main.js';

export const command: Command = {
  usage: 'uninstall --install <file> [--database-url URL] [--json] [--yes] [--force]',
  run: (args, io) =>
    withInstallation(args, io, true, async ({ db, file, json, yes, force, progress }) => {
      const result = await uninstallInstallation(db, file, {
        force,
        progress,
        ...(yes ? {} : { confirm: (plan) => askToProceed(io, plan.changes, 'remove these?') }),
      });
      reportFindings(io, result.findings);
      if (!result.applied) {
        progress('nothing was changed');
        return 1;
      }
      // Each change was shown as it ran; only say so when there was none.
      if (result.changes.length === 0) progress('nothing to remove');
      if (json) printJson(io, { changes: result.changes });
      return 0;
    }),
};
