import { DatabaseConnectionError, TaskAssociationError } from '../model/errors.js';
import { BusyError } from '../model/request-errors.js';
import type { Database, SqlExecutor } from '../store/driver.js';
import { isConnectionLoss } from '../store/failure.js';
import type { CheckedBatch } from './save-batch.js';
import { LOCK_TIMEOUT_SECONDS } from './save-turns.js';
import { type SaveMetricsResult, writeBatch } from './save-write.js';

/** How often a batch is retried when concurrent writers deadlock or take the same new ID. */
const MAX_ATTEMPTS = 10;

/**
 * How often a batch that lost to another writer (1213: a deadlock, or on a Galera cluster a lost
 * certification race) is tried. Writers of one scope through three nodes are not queued: each round
 * one of them wins, so a writer may lose many in a row, and 10 attempts left about 2% of them without
 * a turn (measured: 3 or 4 of 180 saves a round answered METRICS_BUSY). Still within the same time
 * bound as a wait for the lock, {@link LOCK_TIMEOUT_SECONDS}.
 */
const MAX_LOST_RACE_ATTEMPTS = 50;

/**
 * Writes a checked batch in its own transaction, again after a collision with a concurrent writer
 * (see {@link RETRYABLE}), within the attempts and the time a save may wait.
 */
export function writeRetrying(db: Database, batch: CheckedBatch): Promise<SaveMetricsResult> {
  return retrying(db, batch.taskSheet, (tx) => writeBatch(tx, batch), batch.galera);
}

/**
 * Runs `work` (a save's transaction, or its look-up of a request record) in a transaction of its
 * own, again after a collision with a concurrent writer, as {@link writeRetrying} does. `taskSheet`
 * is for the messages. `galera`: each transaction starts after a causal wait
 * (`TransactionOptions.causal`), so that its locking read sees every save acknowledged through
 * another node before it: a refusal (a conflict, a missing entry, a key out of the tree) is decided
 * on that read and never reaches COMMIT, where certification would catch a stale view.
 */
export async function retrying<T>(
  db: Database,
  taskSheet: number,
  work: (tx: SqlExecutor) => Promise<T>,
  galera: boolean,
): Promise<T> {
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(work, { causal: galera });
    } catch (error) {
      // The server went away under the save (a cluster node killed, a network cut), or did not
      // answer its COMMIT in time: whether the COMMIT was applied is not known. The same save sent again with its request id is answered
      // if it was, applied if it was not. The driver's words (`connect ECONNREFUSED 10.0.0.5:3306`)
      // name the database's address: they stay in the cause, for the operators (`onError`), out of
      // the answer, as a connection lost outside a save is answered.
      if (isOutcomeUnknown(error)) {
        throw new DatabaseConnectionError(
          'DATABASE_CONNECTION_LOST',
          `the connection to the database was lost while saving metrics of task sheet ${taskSheet}: the save may or may not be stored; send it again with the same request id, which is then answered once, not applied twice`,
          { cause: error },
        );
      }
      if (!isRetryable(error)) throw error;
      if (attempt >= MAX_ATTEMPTS && isNodeNotReady(error)) {
        throw new BusyError(
          'DATABASE_NOT_READY',
          `metrics of task sheet ${taskSheet} could not be saved: the database node is not ready for writes (${error instanceof Error ? error.message : String(error)}: a Galera node cut off from the cluster's majority, or still joining it); nothing was written, send the batch again, through another node if it lasts`,
          { cause: error },
        );
      }
      const limit = isLostRace(error) ? MAX_LOST_RACE_ATTEMPTS : MAX_ATTEMPTS;
      if (attempt >= limit || Date.now() - started > LOCK_TIMEOUT_SECONDS * 1000) {
        throw new BusyError(
          'METRICS_BUSY',
          `metrics of task sheet ${taskSheet} could not be saved: other writers kept colliding (${attempt} attempts); nothing was written, send the batch again`,
          { cause: error },
        );
      }
      // Jittered backoff, so writers that just collided do not collide again in lockstep; it stops
      // growing after a few attempts, so that a writer that lost a few races is not left further behind.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * Math.min(attempt, 4)));
    }
  }
}

/**
 * What a concurrent writer can make a save's transaction fail with, all of which leave nothing
 * written and pass if the save runs again: a deadlock (on a Galera cluster also a certification
 * conflict at commit, which the server reports as one), a lock wait past its bound (the scope's lock
 * row on a cluster), an ID another writer took (a host writer without our lock), InnoDB's
 * auto-increment lock giving way to a host's bulk insert (ER_AUTOINC_READ_FAILED), a row changed
 * since a snapshot read (ER_CHECKREAD, with innodb_snapshot_isolation), and a cluster node that is
 * not ready yet (ER_UNKNOWN_COM_ERROR: "WSREP has not yet prepared node for application use").
 */
const RETRYABLE = new Set([
  'ER_LOCK_DEADLOCK',
  'ER_LOCK_WAIT_TIMEOUT',
  'ER_DUP_ENTRY',
  'ER_AUTOINC_READ_FAILED',
  'ER_CHECKREAD',
  'ER_UNKNOWN_COM_ERROR',
]);

/** The driver's error code (`ER_...`) of a failed statement, if it has one. */
export function codeOf(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/**
 * The connection broke under the save (a driver's error), or its COMMIT went unanswered (ours, from
 * the pool's transaction): either way the server may have committed it. A timeout of any earlier
 * statement is not one of these: the server rolls back the transaction of the connection it loses.
 */
function isOutcomeUnknown(error: unknown): error is Error {
  if (error instanceof DatabaseConnectionError) return error.code === 'DATABASE_CONNECTION_LOST';
  return error instanceof Error && !(error instanceof TaskAssociationError) && isConnectionLoss(error);
}

/** A Galera node that is not part of the cluster's primary component (or not yet joined) refuses with 1047. */
const isNodeNotReady = (error: unknown) => codeOf(error) === 'ER_UNKNOWN_COM_ERROR';

/** A deadlock, or on a Galera cluster a transaction that lost at certification (both 1213). */
const isLostRace = (error: unknown) => codeOf(error) === 'ER_LOCK_DEADLOCK';

const isRetryable = (error: unknown) => RETRYABLE.has(codeOf(error) ?? '');
