import { ConfigurationError } from '../model/issues.js';
import { HISTORY_TABLE, LOCK_TABLE, REQUEST_TABLE } from '../store/history.js';
import { codeOf } from './save-retry.js';

/**
 * The shared table (history, request ids, on a cluster the lock rows) a statement failed on for want
 * of it, if it did: a database whose tables predate them until `db sync` runs.
 */
export function missingSharedTable(error: unknown): string | undefined {
  if (codeOf(error) !== 'ER_NO_SUCH_TABLE') return undefined;
  const message = error instanceof Error ? error.message : '';
  return [HISTORY_TABLE, REQUEST_TABLE, LOCK_TABLE].find((table) => message.includes(`.${table}'`));
}

/**
 * `error` said as what to do when it is a missing shared table (`HISTORY_TABLE_MISSING`, naming the
 * table and `db sync`; `outcome` says what did not happen), else `error` itself.
 */
export function explainMissingSharedTable(error: unknown, outcome: string): unknown {
  const missing = missingSharedTable(error);
  if (missing === undefined) return error;
  return new ConfigurationError(
    'HISTORY_TABLE_MISSING',
    `table ${missing} does not exist in this database: run \`task-association db sync\` (or apply) to create it; ${outcome}`,
    { path: missing },
  );
}
