import type { z } from 'zod';
import { TaskAssociationError } from '../model/errors.js';
import { parseInput } from '../model/metric-batch.js';
import { hasMethods } from '../model/options.js';
import { checkScope } from '../model/scope.js';

const isExecutor = hasMethods('query', 'execute');

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
 * @example checkDatabase(db, 'loadTaskSheet');
 */
export function checkDatabase(db: unknown, what: string): void {
  if (isExecutor(db)) return;
  const said =
    db === null ? 'null' : typeof db === 'object' ? 'an object without query() and execute()' : typeof db;
  throw new TaskAssociationError(
    'INVALID_OPTION',
    `${what}: its first argument must be a Database (openDatabase or wrapPool), not ${said}`,
    { path: 'db' },
  );
}
