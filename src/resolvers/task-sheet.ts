import type { SqlExecutor } from '../db/driver.js';
import { parseIdentifier, quoteIdentifier } from '../identifier.js';
import { formatScope, type Scope } from '../scope.js';
import { HOST_TABLES } from '../table-names.js';
import { NotFoundError } from './errors.js';
import type { Row } from './metric-defaults.js';
import { liveInScope, scopeParams } from './sql.js';

const FOLHA_TAREFA = quoteIdentifier(parseIdentifier(HOST_TABLES.FOLHA_TAREFA, 'task sheet table'));

/**
 * The task sheet by SEQ_DB, live and in `scope`. One of another scope is as unknown as a missing one
 * ({@link NotFoundError}): the caller learns nothing about other scopes.
 */
export async function loadTaskSheet(db: SqlExecutor, scope: Scope, taskSheet: number): Promise<Row> {
  const [row] = await db.query(
    `SELECT t.* FROM ${FOLHA_TAREFA} t WHERE t.SEQ_DB = ? AND ${liveInScope('t')}`,
    [taskSheet, ...scopeParams(scope)],
  );
  if (row === undefined) {
    throw new NotFoundError(
      'TASK_SHEET_NOT_FOUND',
      `task sheet ${taskSheet} does not exist in scope ${formatScope(scope)} (or is deleted or inactive)`,
      { path: 'taskSheet' },
    );
  }
  return row;
}
