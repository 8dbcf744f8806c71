import { TaskAssociationError } from './errors.js';

/**
 * Anything the installer refuses: a bad install file, a host it cannot adapt to, another installer
 * holding the lock. Raised before any row is written (the checks all run first).
 */
export class InstallerError extends TaskAssociationError {
  /** Not an answer to a request: the command line reports it with its own exit code. */
  override get status(): number | undefined {
    return undefined;
  }
}
