import { createHash } from 'node:crypto';
import { InstallerError } from '../model/installer-errors.js';
import type { Database } from './driver.js';
import { query, type Sql, sql } from './sql.js';

/** What `work` may ask of the lock it runs under. */
export interface HeldLock {
  /**
   * Throws `INSTALLER_LOCK_LOST` unless the lock is still ours, and keeps it ours for the step about
   * to run. Asked before every step that writes: after the operator's answer, or a schema change
   * that ran long, the lock's connection has sat idle, and an idle timeout, a proxy or the network
   * may have closed it (a GET_LOCK goes with it); a lease is renewed, and before a schema change
   * (`schemaChange`) for as long as the server may run one (see store/lease.ts).
   */
  assertHeld(next?: { readonly schemaChange?: boolean }): Promise<void>;
}

/**
 * Runs `work` while holding the installer lock of this database, so two installers never interleave.
 * GET_LOCK is per server, so the name carries the database (see {@link lockedDatabase}); it is held by one connection of its own
 * (writing nothing) and released by the server itself if the process dies. A second installer gets
 * an error at once instead of waiting.
 *
 * Once `work` has finished, a lock connection that has gone away is no error of the run: it wrote
 * nothing, and the server released the lock with it.
 */
export async function withNamedInstallerLock<T>(
  db: Database,
  work: (lock: HeldLock) => Promise<T>,
): Promise<T> {
  let done: { value: T } | undefined;
  try {
    await db.connection(async (connection) => {
      const [here] = await query<{ name: string | null; folds: number | string }>(
        connection,
        CURRENT_DATABASE,
      );
      const name = installerLockName(
        lockedDatabase(String(here?.name ?? db.schemaName), Number(here?.folds ?? 0)),
      );
      const [row] = await query<{ acquired: number | null }>(connection, takeLock(name));
      if (row?.acquired !== 1) {
        throw new InstallerError(
          'INSTALLER_LOCKED',
          `another installer is working on database "${db.schemaName}" (lock ${name} is held): wait for it to finish and run again`,
        );
      }
      const lost = (cause?: unknown) =>
        new InstallerError(
          'INSTALLER_LOCK_LOST',
          `the installer lock on database "${db.schemaName}" was lost while the run waited (its connection was closed: an idle timeout, a proxy or the network); nothing more was written: run again`,
          cause === undefined ? {} : { cause },
        );
      const held: HeldLock = {
        async assertHeld() {
          const [check] = await query<{ mine: number | null }>(connection, holdsLock(name)).catch(
            (error: unknown) => {
              throw lost(error);
            },
          );
          if (Number(check?.mine) !== 1) throw lost();
        },
      };
      try {
        done = { value: await work(held) };
      } finally {
        // Best effort: a connection that is gone has released the lock already.
        await query(connection, releaseLock(name)).catch(() => undefined);
      }
    });
  } catch (error) {
    if (done === undefined) throw error;
  }
  if (done === undefined) throw new Error('unreachable: the installer lock ran no work');
  return done.value;
}

/** The database this connection is in, as the server names it, and whether it folds names. */
export const CURRENT_DATABASE = sql`SELECT DATABASE() AS name, @@lower_case_table_names AS folds`;

/**
 * The database the installer lock is named after: the server's own name for it, not the URL's
 * spelling, and lower case where the server folds names (`lower_case_table_names` not 0), since
 * there `/ERP` and `/erp` reach one database while GET_LOCK tells `ERP` from `erp`: two installers
 * given the two spellings took two locks and interleaved.
 */
export function lockedDatabase(name: string, lowerCaseTableNames: number): string {
  return lowerCaseTableNames !== 0 ? name.toLowerCase() : name;
}

/** `task_association_installer:<database>`, hashed when that would pass MySQL's 64-character limit. */
export function installerLockName(schemaName: string): string {
  const name = `task_association_installer:${schemaName}`;
  if (name.length <= 64) return name;
  return `task_association_installer:${createHash('sha256').update(schemaName).digest('hex').slice(0, 32)}`;
}

/** Takes the named lock without waiting (`acquired` 1 when taken). */
export function takeLock(name: string): Sql {
  return sql`SELECT GET_LOCK(${name}, 0) AS acquired`;
}

/** Whether this connection holds the named lock (`mine` 1 when it does). */
export function holdsLock(name: string): Sql {
  return sql`SELECT IS_USED_LOCK(${name}) = CONNECTION_ID() AS mine`;
}

/** Lets go of the named lock. */
export function releaseLock(name: string): Sql {
  return sql`SELECT RELEASE_LOCK(${name})`;
}
