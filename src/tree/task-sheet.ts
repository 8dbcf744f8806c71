import { parseInput } from '../model/metric-batch.js';
import { NotFoundError } from '../model/request-errors.js';
import { checkScope, formatScope, type Scope } from '../model/scope.js';
import { SeqDb } from '../model/seq-db.js';
import type { SqlExecutor } from '../store/driver.js';
import { query } from '../store/sql.js';
import { taskSheetRow } from '../store/tree-reads.js';
import { checkDatabase } from './arguments.js';
import type { Row } from './metric-defaults.js';

/**
 * The task sheet by SEQ_DB, live and in `scope`. One of another scope is as unknown as a missing one
 * ({@link NotFoundError}): the caller learns nothing about other scopes.
 *
 * The customer specifies nothing of app_folha_tarefa beyond SEQ_DB, so the scope and the DELETED /
 * ATIVO flags are checked on the row, for whichever of those columns the host's table has, rather than
 * in SQL that would fail on a table without them.
 */
export async function loadTaskSheet(db: SqlExecutor, scope: Scope, taskSheet: number): Promise<Row> {
  checkDatabase(db, 'loadTaskSheet');
  checkScope(scope);
  parseInput(SeqDb, taskSheet, 'loadTaskSheet', 'taskSheet');
  const [row] = await query(db, taskSheetRow(taskSheet));
  if (row === undefined || !inScope(row, scope) || !isLive(row)) throw taskSheetNotFound(scope, taskSheet);
  return row;
}

/** The one error for a task sheet that is missing, deleted, inactive or of another scope. */
export function taskSheetNotFound(scope: Scope, taskSheet: number): NotFoundError {
  return new NotFoundError(
    'TASK_SHEET_NOT_FOUND',
    `task sheet ${taskSheet} does not exist in scope ${formatScope(scope)} (or is deleted or inactive)`,
    { path: 'taskSheet' },
  );
}

function inScope(row: Row, scope: Scope): boolean {
  return (['EMPRESA', 'FILIAL', 'LOCAL'] as const).every(
    (column) => !(column in row) || Number(row[column]) === scope[column],
  );
}

/** NULL flags count as their defaults (DELETED 0, ATIVO 1), as everywhere in this package. */
function isLive(row: Row): boolean {
  return Number(row.DELETED ?? 0) === 0 && Number(row.ATIVO ?? 1) === 1;
}
