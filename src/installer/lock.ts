import type { Database } from '../store/driver.js';
import { withInstallerLease } from '../store/lease.js';
import { type HeldLock, withNamedInstallerLock } from '../store/lock.js';
import { execute } from '../store/sql.js';
import { readTopology } from '../store/topology.js';
import { LOCK_TABLE_DDL } from '../sync/lock-table.js';

/**
 * Runs `work` under the installer's lock of this database, so two installers never interleave: on a
 * single server `GET_LOCK` on a connection of its own (the server lets go of it if the process dies);
 * on a Galera cluster, where that lock is one node's alone, a lease row every node sees (see
 * store/lease.ts), in the lock table made first if the database lacks it.
 */
export async function withInstallerLock<T>(db: Database, work: (lock: HeldLock) => Promise<T>): Promise<T> {
  if (!(await readTopology(db)).galera) return withNamedInstallerLock(db, work);
  await execute(db, LOCK_TABLE_DDL, { schemaChange: true });
  return withInstallerLease(db, work);
}
