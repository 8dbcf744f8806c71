import { createHash } from 'node:crypto';
import type { Database } from '../db/driver.js';
import { InstallerError } from './errors.js';

/**
 * Runs `work` while holding the installer lock of this database, so two installers never interleave.
 * GET_LOCK is per server, so the name carries the database; it is held by one pinned connection
 * (a transaction that writes nothing is the interface's way to pin one) and released by the server
 * itself if the process dies. A second installer gets an error at once instead of waiting.
 */
export async function withInstallerLock<T>(db: Database, work: () => Promise<T>): Promise<T> {
  const name = installerLockName(db.schemaName);
  return db.transaction(async (connection) => {
    const [row] = await connection.query<{ acquired: number | null }>('SELECT GET_LOCK(?, 0) AS acquired', [
      name,
    ]);
    if (row?.acquired !== 1) {
      throw new InstallerError(
        'INSTALLER_LOCKED',
        `another installer is working on database "${db.schemaName}" (lock ${name} is held): wait for it to finish and run again`,
      );
    }
    try {
      return await work();
    } finally {
      await connection.query('SELECT RELEASE_LOCK(?)', [name]);
    }
  });
}

/** `task_association_installer:<database>`, hashed when that would pass MySQL's 64-character limit. */
export function installerLockName(schemaName: string): string {
  const name = `task_association_installer:${schemaName}`;
  if (name.length <= 64) return name;
  return `task_association_installer:${createHash('sha256').update(schemaName).digest('hex').slice(0, 32)}`;
}
