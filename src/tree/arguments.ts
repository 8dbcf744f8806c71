import type { z } from 'zod';
import { parseInput } from '../model/metric-batch.js';
import { checkScope } from '../model/scope.js';

/**
 * Checks a public function's options with its zod model before any SQL: the models are the ones the
 * HTTP handler reads a request with, so a library caller gets the same refusals (a task sheet of
 * `NaN` or `'1 OR 1=1'` never reaches the database). The scope comes from the host's session, so a
 * bad one is the host's bug (`INVALID_SCOPE`); anything else is the caller's `INVALID_REQUEST`, with
 * the option's path.
 *
 * @example const { taskSheet } = checkArguments(LoadTaskTreeOptions, options, 'loadTaskTree');
 */
export function checkArguments<Model extends z.ZodType>(
  model: Model,
  options: unknown,
  what: string,
): z.output<Model> {
  if (typeof options === 'object' && options !== null && 'scope' in options) checkScope(options.scope);
  return parseInput(model, options, `${what} options`);
}
