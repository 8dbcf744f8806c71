import { ZodArray, ZodObject, ZodOptional, type z } from 'zod';
import { TaskAssociationError } from './errors.js';

/** Whether `value` is a function: for option models (`z.custom(isFunction, ...)`). */
export const isFunction = (value: unknown): boolean => typeof value === 'function';

/** A test that a value is an object with these methods: for option models (a database, a cache). */
export const hasMethods =
  (...names: string[]) =>
  (value: unknown): boolean =>
    typeof value === 'object' &&
    value !== null &&
    names.every((name) => isFunction((value as Record<string, unknown>)[name]));

/**
 * What is wrong with the options of a public factory that a plain-JavaScript caller misspelt or gave
 * a value that cannot work, as `{ path, message }` (`what option path: message`), or undefined: for
 * an unknown one the options there are, for a missing one that it is required. A misspelt option is
 * said before the one it leaves missing (`ctx` before `context`).
 *
 * @example optionProblem(z.strictObject({ timeoutMs: z.number().optional() }), { timeout: 1 }, 'wrapPool')?.path // 'timeout'
 */
export function optionProblem(
  model: z.ZodObject,
  options: unknown,
  what: string,
): { path: string; message: string } | undefined {
  const known = Object.keys(model.shape).join(', ');
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    return { path: '', message: `${what} takes its options as an object (its options: ${known})` };
  }
  const parsed = model.safeParse(options);
  if (parsed.success) return undefined;
  const issues = parsed.error.issues;
  const issue = issues.find((found) => found.code === 'unrecognized_keys') ?? issues[0];
  const unknown = issue?.code === 'unrecognized_keys' ? issue.keys[0] : undefined;
  const at = issue?.path ?? [];
  // An unknown key inside an option (a mount's `hanlder`) is said there, with the keys it has.
  const path = [...at, ...(unknown === undefined ? [] : [unknown])].join('.');
  const problem =
    unknown !== undefined
      ? `is not an option (its options: ${at.length === 0 ? known : Object.keys(shapeAt(model, at)).join(', ')})`
      : !holds(options, at)
        ? 'is required'
        : (issue?.message ?? 'invalid');
  return { path, message: `${what} option ${path}: ${problem}` };
}

/**
 * Refuses the options of a public factory (`openDatabase`, `wrapPool`, `createAssociationHandler`)
 * as {@link optionProblem} finds them: `INVALID_OPTION`, naming the option.
 *
 * @example checkOptions(z.strictObject({ timeoutMs: z.number().optional() }), { timeout: 1 }, 'wrapPool') // throws INVALID_OPTION at "timeout"
 */
export function checkOptions(model: z.ZodObject, options: unknown, what: string): void {
  const problem = optionProblem(model, options, what);
  if (problem !== undefined)
    throw new TaskAssociationError('INVALID_OPTION', problem.message, { path: problem.path });
}

/** Whether `value` holds something at `path` (an option, or a part of one: `mount.0.path`). */
function holds(value: unknown, path: readonly PropertyKey[]): boolean {
  let at = value;
  for (const key of path) {
    if (typeof at !== 'object' || at === null || !(key in at)) return false;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return true;
}

/**
 * The keys of the object a model takes at `path` (through optional values and arrays): where an
 * unknown key was found. Empty where the path leads to no object.
 */
function shapeAt(model: z.ZodType, path: readonly PropertyKey[]): Record<string, unknown> {
  let at: z.ZodType | undefined = model;
  for (const key of path) {
    while (at instanceof ZodOptional) at = at.unwrap() as z.ZodType;
    if (at instanceof ZodArray) at = at.element as z.ZodType;
    else if (at instanceof ZodObject) at = at.shape[String(key)] as z.ZodType | undefined;
    else return {};
  }
  while (at instanceof ZodOptional) at = at.unwrap() as z.ZodType;
  return at instanceof ZodObject ? at.shape : {};
}
