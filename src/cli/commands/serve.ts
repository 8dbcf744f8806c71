import { TaskAssociationError } from '../../errors.js';
import type { Command } from '../main.js';

// Placeholder until its issue lands: refuses clearly instead of pretending to work.
export const command: Command = {
  usage: 'serve',
  async run() {
    throw new TaskAssociationError('NOT_IMPLEMENTED', '"serve" is not available in this build yet');
  },
};
