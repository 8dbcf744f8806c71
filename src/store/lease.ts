import { randomBytes } from 'node:crypto';
import { InstallerError } from '../model/installer-errors.js';
import type { Database } from './driver.js';
import { LOCK_TABLE, LOCKS } from './history.js';
import type { HeldLock } from './lock.js';
import { execute, type Sql, sql } from './sql.js';
import { SCHEMA_CHANGE_TIMEOUT_MS } from './timeout.js';

/*
 * The installer's lock on a Galera cluster: a lease in the lock table, which every node sees, where
 * `GET_LOCK` is one node's alone (two `apply` through two nodes both took it and raced their DDL).
 * Taking it is one UPDATE of one row: two takers through two nodes both change it, and the cluster
 * lets only one commit (the other fails at certification, and is told the installer is locked).
 */

/** How long a lease lasts without being renewed: a crashed installer blocks the next one this long. */
export const LEASE_SECONDS = 600;

/**
 * How long a lease is renewed for before a schema change: as long as the statement may be awaited,
 * and the usual lease after it. A lease lapsing while a long ALTER runs would let a second installer
 * in beside it; and the server goes on running the statement when the installer dies, so the next
 * one waits for that too. (A renewal during the statement would not help on Galera: a schema change
 * runs in total order, and the cluster's commits wait for it.)
 */
export const SCHEMA_CHANGE_LEASE_SECONDS = SCHEMA_CHANGE_TIMEOUT_MS / 1000 + LEASE_SECONDS;

const NAME = 'installer';
/** The lease is the database's, not a scope's. */
const where = sql`EMPRESA = 0 AND FILIAL = 0 AND LOCAL = 0 AND LOCK_NAME = ${NAME}`;

/** The lease's row, made once (a no-op when it exists). */
export const LEASE_ROW = sql`INSERT IGNORE INTO ${LOCKS} (EMPRESA, FILIAL, LOCAL, LOCK_NAME, N) VALUES (0, 0, 0, ${NAME}, 0)`;

/** Takes the lease for `holder` when nobody holds it, or its holder let it lapse (1 row changed when taken). */
export function takeLease(holder: string): Sql {
  return sql`UPDATE ${LOCKS} SET HOLDER = ${holder}, EXPIRES_DH = NOW() + INTERVAL ${LEASE_SECONDS} SECOND, N = N + 1 WHERE ${where} AND (HOLDER IS NULL OR EXPIRES_DH < NOW())`;
}

/** Renews `holder`'s lease for `seconds` from now (1 row changed while it is still theirs). */
export function renewLease(holder: string, seconds: number = LEASE_SECONDS): Sql {
  return sql`UPDATE ${LOCKS} SET EXPIRES_DH = NOW() + INTERVAL ${seconds} SECOND WHERE ${where} AND HOLDER = ${holder}`;
}

/** Gives `holder`'s lease back. */
export function returnLease(holder: string): Sql {
  return sql`UPDATE ${LOCKS} SET HOLDER = NULL, EXPIRES_DH = NULL WHERE ${where} AND HOLDER = ${holder}`;
}

/**
 * Runs `work` holding the installer's lease; a second installer, through any node, is refused with
 * `INSTALLER_LOCKED` at once. `assertHeld` renews the lease (one UPDATE of one row), so a run goes on
 * only while no other installer took over: the installer asks it before each step.
 */
export async function withInstallerLease<T>(db: Database, work: (lock: HeldLock) => Promise<T>): Promise<T> {
  const holder = randomBytes(16).toString('hex');
  const locked = (cause?: unknown) =>
    new InstallerError(
      'INSTALLER_LOCKED',
      `another installer is working on database "${db.schemaName}" (its lease in ${LOCK_TABLE} is held, and lapses ${LEASE_SECONDS / 60} minutes after its last step, or ${SCHEMA_CHANGE_LEASE_SECONDS / 60} after the start of its last schema change): wait for it to finish and run again`,
      cause === undefined ? {} : { cause },
    );
  // A certification conflict (another node made the lease row, or took the lease, in the same
  // moment) is the same answer as a lease held: another installer is starting right now.
  const refuseOnConflict = (error: unknown) => {
    throw isConflict(error) ? locked(error) : error;
  };
  await execute(db, LEASE_ROW).catch(refuseOnConflict);
  const taken = await execute(db, takeLease(holder)).catch(refuseOnConflict);
  if (taken.affectedRows !== 1) throw locked();
  const held: HeldLock = {
    async assertHeld(next) {
      const seconds = next?.schemaChange === true ? SCHEMA_CHANGE_LEASE_SECONDS : LEASE_SECONDS;
      const renewed = await execute(db, renewLease(holder, seconds));
      if (renewed.affectedRows !== 1) {
        throw new InstallerError(
          'INSTALLER_LOCK_LOST',
          `the installer's lease on database "${db.schemaName}" lapsed while the run waited, and may have been taken by another installer; nothing more was written: run again`,
        );
      }
    },
  };
  try {
    return await work(held);
  } finally {
    await execute(db, returnLease(holder)).catch(() => undefined);
  }
}

function isConflict(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  return code === 'ER_LOCK_DEADLOCK' || code === 'ER_LOCK_WAIT_TIMEOUT';
}
