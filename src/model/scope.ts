import { z } from 'zod';
import { TaskAssociationError } from './errors.js';

/**
 * The scope every row belongs to: company, branch, site (EMPRESA, FILIAL, LOCAL). Every read and
 * write of the package is filtered by one.
 */
export const Scope = z.strictObject({
  EMPRESA: z.int().min(0).max(2_147_483_647),
  FILIAL: z.int().min(0).max(2_147_483_647),
  LOCAL: z.int().min(0).max(2_147_483_647),
});
export type Scope = z.infer<typeof Scope>;

/**
 * Checks a scope a caller hands over (the host's session, a library argument) before any SQL: a
 * scope that is not three non-negative integers is a bug of the caller, never a filter to try.
 *
 * @example checkScope({ EMPRESA: 1, FILIAL: 1, LOCAL: 1 }) // the same scope
 */
export function checkScope(scope: unknown): Scope {
  const parsed = Scope.safeParse(scope);
  if (parsed.success) return parsed.data;
  throw new TaskAssociationError(
    'INVALID_SCOPE',
    `scope ${JSON.stringify(scope) ?? String(scope)} is not { EMPRESA, FILIAL, LOCAL } with non-negative integers: check the host's context`,
    { path: 'scope' },
  );
}

/**
 * Parses the command line's `EMPRESA/FILIAL/LOCAL` form.
 *
 * @example parseScope('1/1/1') // { EMPRESA: 1, FILIAL: 1, LOCAL: 1 }
 */
export function parseScope(text: string): Scope {
  const match = /^(\d{1,10})\/(\d{1,10})\/(\d{1,10})$/.exec(text.trim());
  const parsed =
    match &&
    Scope.safeParse({ EMPRESA: Number(match[1]), FILIAL: Number(match[2]), LOCAL: Number(match[3]) });
  if (!parsed?.success) {
    throw new TaskAssociationError(
      'INVALID_SCOPE',
      `scope ${JSON.stringify(text)} is not EMPRESA/FILIAL/LOCAL with three non-negative integers, as in 1/1/1`,
    );
  }
  return parsed.data;
}

/** `1/1/1`, for messages. */
export function formatScope(scope: Scope): string {
  return `${scope.EMPRESA}/${scope.FILIAL}/${scope.LOCAL}`;
}

/** Whether two scopes are the same company, branch and site. */
export function sameScope(a: Scope, b: Scope): boolean {
  return a.EMPRESA === b.EMPRESA && a.FILIAL === b.FILIAL && a.LOCAL === b.LOCAL;
}
