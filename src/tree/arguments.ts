import type { z } from 'zod';
import { TaskAssociationError } from '../model/errors.js';
import { parseInput } from '../model/metric-batch.js';
import { hasMethods } from '../model/options.js';
import { checkScope } from '../model/scope.js';

const isExecutor = hasMethods('query', 'execute');
const isDatabase = hasMethods('query', 'execute', 'transaction');
/** mysql2's own pool and connection (`getConnection`, `beginTransaction`), which our Database has not. */
const isDriver = (db: object) => 'getConnection' in db || 'beginTransaction' in db;

/**
 * Checks a public function's options with its zod model before any SQL: the models are the ones the
 * HTTP handler reads a request with, so a library caller gets the same refusals (a task sheet of
 * `NaN` or `'1 OR 1=1'` never reaches the database). The scope comes from the host's session, so a
 * bad one is the host's bug (`INVALID_SCOPE`); anything else is the caller's `INVALID_REQUEST`, with
 * the option's path. The database comes first: a plain-JavaScript caller's `null` or pool of another
 * kind is `INVALID_OPTION` at `db`, not a TypeError from deep inside.
 *
 * @example const { taskSheet } = checkArguments(db, LoadTaskTreeOptions, options, 'loadTaskTree');
 */
export function checkArguments<Model extends z.ZodType>(
  db: unknown,
  model: Model,
  options: unknown,
  what: string,
): z.output<Model> {
  checkDatabase(db, what);
  if (typeof options === 'object' && options !== null && 'scope' in options) checkScope(options.scope);
  return parseInput(model, options, `${what} options`);
}

/**
 * Refuses what is not a database as a public function's first argument: `INVALID_OPTION` at `db`.
 * A mysql2 pool or connection handed in as it is (not through `wrapPool`) has `query` and `execute`
 * too, but its `query` answers `[rows, fields]`: said as such. `writes`: the function runs its own
 * transaction (`saveMetrics`), so a transaction's executor will not do.
 * @example checkDatabase(db, 'loadTaskSheet');
 */
export function checkDatabase(db: unknown, what: string, needs: 'reads' | 'writes' = 'reads'): void {
  const problem = databaseProblem(db, needs);
  if (problem !== undefined)
    throw new TaskAssociationError('INVALID_OPTION', `${what}: its first argument ${problem}`, {
      path: 'db',
    });
}

/**
 * What is wrong with `db` as a Database (see {@link checkDatabase}), said from "must be": also what
 * an options model says of its `db` (the association handler's). Undefined: nothing.
 */
export function databaseProblem(db: unknown, needs: 'reads' | 'writes'): string | undefined {
  return !isExecutor(db)
    ? `must be a Database (openDatabase or wrapPool), not ${db === null ? 'null' : typeof db === 'object' ? 'an object without query() and execute()' : typeof db}`
    : isDriver(db as object)
      ? 'must be a Database, not a mysql2 pool or connection as it is: wrap it (wrapPool(pool))'
      : needs === 'writes' && !isDatabase(db)
        ? 'must be the Database itself (openDatabase or wrapPool), not the executor of a transaction: it runs a transaction of its own'
        : undefined;
}
