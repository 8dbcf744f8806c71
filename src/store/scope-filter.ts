import type { Scope } from '../model/scope.js';

/**
 * The filter every level of a read goes through: the caller's scope, not deleted, active.
 * `alias` is one of our own fixed aliases, never user text. DELETED and ATIVO are nullable with
 * defaults 0 and 1 in the customer's layout, so NULL counts as the default.
 */
export function liveInScope(alias: string): string {
  return `${alias}.EMPRESA = ? AND ${alias}.FILIAL = ? AND ${alias}.LOCAL = ? AND IFNULL(${alias}.DELETED, 0) = 0 AND IFNULL(${alias}.ATIVO, 1) = 1`;
}

/**
 * The filter of a task sheet's saved metric rows: the caller's scope, not deleted. Inactive rows are
 * read too: they are shown, not editable (see `withSavedRow`). Takes {@link scopeParams}.
 */
export function savedInScope(alias: string): string {
  return `${alias}.EMPRESA = ? AND ${alias}.FILIAL = ? AND ${alias}.LOCAL = ? AND IFNULL(${alias}.DELETED, 0) = 0`;
}

/** The parameters of {@link liveInScope}, in its order. */
export function scopeParams(scope: Scope): [number, number, number] {
  return [scope.EMPRESA, scope.FILIAL, scope.LOCAL];
}

/** `?, ?, ?` for an IN list of `count` values (count > 0: an empty IN list is never built). */
export function placeholders(count: number): string {
  return count === 1 ? '?' : `?${', ?'.repeat(count - 1)}`;
}

/** Splits `values` into chunks of at most `size`; an empty input gives no chunk, so no query. */
export function chunks<T>(values: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < values.length; start += size) result.push(values.slice(start, start + size));
  return result;
}
