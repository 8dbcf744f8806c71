import type { z } from 'zod';
import { TaskAssociationError } from './errors.js';

/**
 * Refuses the options of a public factory (`openDatabase`, `wrapPool`, `createAssociationHandler`)
 * that a plain-JavaScript caller misspelt or gave a value that cannot work: `INVALID_OPTION`, naming
 * the option, and for an unknown one the options there are. A misspelt option is said before the one
 * it leaves missing (`ctx` before `context`).
 *
 * @example checkOptions(z.strictObject({ timeoutMs: z.number().optional() }), { timeout: 1 }, 'wrapPool') // throws INVALID_OPTION at "timeout"
 */
export function checkOptions(model: z.ZodObject, options: unknown, what: string): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TaskAssociationError(
      'INVALID_OPTION',
      `${what} takes its options as an object (its options: ${Object.keys(model.shape).join(', ')})`,
      { path: '' },
    );
  }
  const parsed = model.safeParse(options);
  if (parsed.success) return;
  const issues = parsed.error.issues;
  const issue = issues.find((found) => found.code === 'unrecognized_keys') ?? issues[0];
  const unknown = issue?.code === 'unrecognized_keys' ? issue.keys[0] : undefined;
  const path = unknown ?? issue?.path.join('.') ?? '';
  const missing =
    unknown === undefined && typeof options === 'object' && options !== null && !(path in options);
  const message =
    unknown !== undefined
      ? `is not an option (its options: ${Object.keys(model.shape).join(', ')})`
      : missing
        ? 'is required'
        : (issue?.message ?? 'invalid');
  throw new TaskAssociationError('INVALID_OPTION', `${what} option ${path}: ${message}`, { path });
}
