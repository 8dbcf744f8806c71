import type { z } from 'zod';
import { parametersFromRows } from '../model/parameters.js';
import type { Scope } from '../model/scope.js';
import type { TableNames } from '../model/table-names.js';
import { planTree, type TreePlan } from '../model/tree-plan.js';
import type { TreeView } from '../model/tree-view.js';
import type { SqlExecutor } from '../store/driver.js';
import { readParameterRows } from '../store/parameters.js';
import { checkArguments } from './arguments.js';
import { explainTableErrors } from './table-diagnosis.js';

// The plan of a scope is made here and only here: read from its parameter rows, checked and planned
// once per text of them, kept in one memo per executor that the association handler and the library
// functions (loadTaskTree, saveMetrics, the screen's reads) share.

/** A scope's checked parameters and the tree plan drawn from them. */
export interface PlannedInstallation {
  readonly tableNames: TableNames;
  readonly treeView: TreeView | undefined;
  readonly plan: TreePlan;
}

/** How many different parameter texts are kept: a handful of scopes, each changing now and then. */
const DEFAULT_LIMIT = 32;

/** A memo of checked parameter rows: see {@link createPlanMemo}. */
export interface PlanMemo {
  /** The scope's rows, read now; checked and planned only when their text is new. */
  read(db: SqlExecutor, scope: Scope): Promise<PlannedInstallation>;
  /**
   * What `read` last answered for this scope, if anything: a guess to start a read with while the
   * rows are read again, kept only if `read` then answers the very same object.
   */
  last(scope: Scope): PlannedInstallation | undefined;
}

/**
 * Reads a scope's parameter rows on every call (so a changed row counts on the very next request),
 * but checks them and plans the tree only when their text is new: checking a TREE_VIEW costs more
 * than reading it, and an expand should cost what its branch costs. Keyed by the rows' exact text
 * (SEQ_DB, NOME, TIPO, CONTEUDO), so two scopes with the same rows share one entry. Only rows that
 * check are kept; bad rows throw on every call, naming their scope. The oldest entry goes first once
 * `limit` are kept.
 *
 * @example
 * const memo = createPlanMemo();
 * const { tableNames, treeView, plan } = await memo.read(db, scope);
 */
export function createPlanMemo(limit = DEFAULT_LIMIT): PlanMemo {
  const byText = new Map<string, PlannedInstallation>();
  const byScope = new Map<string, PlannedInstallation>();
  return {
    async read(db, scope) {
      const { rows, duplicates } = await readParameterRows(db, scope);
      const text = JSON.stringify(Object.entries(rows).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
      let planned = byText.get(text);
      if (planned === undefined) {
        const parameters = parametersFromRows(scope, rows, duplicates);
        planned = {
          tableNames: parameters.tableNames,
          treeView: parameters.treeView,
          plan: planTree(parameters.tableNames, parameters.treeView),
        };
        keep(byText, text, planned, limit);
      }
      keep(byScope, scopeKey(scope), planned, limit);
      return planned;
    },
    last: (scope) => byScope.get(scopeKey(scope)),
  };
}

/**
 * One memo per executor a caller passes (a pool, usually the same object call after call): the
 * handler's requests and a host's own calls on the same pool share it. Weakly held: an executor
 * dropped by its host takes its memo with it.
 */
const memos = new WeakMap<SqlExecutor, PlanMemo>();

/** The memo of plans of this executor's scopes, made on first use. */
export function plansOf(db: SqlExecutor): PlanMemo {
  let memo = memos.get(db);
  if (memo === undefined) {
    memo = createPlanMemo();
    memos.set(db, memo);
  }
  return memo;
}

/** The options every call on a scope's tree has: the scope, and its plan when the caller has made it. */
interface TreeCallOptions {
  readonly scope: Scope;
  readonly plan?: TreePlan | undefined;
}

/**
 * The start every call on a tree shares (`saveMetrics`, the sheet's reads, the history): its options
 * checked with `model` before any SQL, the tree plan (the one given, else the scope's, read now), then
 * `work`; a table of the plan that turns out missing or lacking a column becomes an error naming the
 * parameter row behind it.
 */
export async function withPlan<Model extends z.ZodType<TreeCallOptions>, T>(
  db: SqlExecutor,
  model: Model,
  given: unknown,
  what: string,
  work: (options: z.output<Model>, plan: TreePlan) => Promise<T>,
): Promise<T> {
  const options = checkArguments(db, model, given, what);
  const plan = options.plan ?? (await plansOf(db).read(db, options.scope)).plan;
  return explainTableErrors(db, options.scope, plan, () => work(options, plan));
}

/**
 * Runs `work` with the scope's tree plan, without waiting for the parameter rows before it starts
 * when this executor has read them before. The rows are read on every call, at the same time as
 * `work` runs on the plan they gave last time; that run's answer is kept only if the rows read now
 * still give that very plan, else it is dropped (its failure too) and `work` runs again on the new
 * plan. So a changed parameter row counts on the very next call, as when the rows are read first;
 * what is saved is a round trip of waiting, and checking the TREE_VIEW again when its text has not
 * changed. `work` must only read: a stale run's reads are thrown away, never its writes.
 *
 * With a `plan` given, nothing is read for it.
 */
export async function withGuessedPlan<T>(
  db: SqlExecutor,
  scope: Scope,
  given: { readonly plan?: TreePlan | undefined },
  work: (plan: TreePlan) => Promise<T>,
): Promise<T> {
  if (given.plan !== undefined) {
    const { plan } = given;
    return explainTableErrors(db, scope, plan, () => work(plan));
  }
  const memo = plansOf(db);
  const guess = memo.last(scope);
  const early = guess === undefined ? undefined : work(guess.plan);
  // Marked handled now: a stale guess may fail, and is then never awaited.
  early?.catch(() => undefined);
  const planned = await memo.read(db, scope);
  const { plan } = planned;
  if (early !== undefined && planned === guess) return explainTableErrors(db, scope, plan, () => early);
  return explainTableErrors(db, scope, plan, () => work(plan));
}

function scopeKey(scope: Scope): string {
  return `${scope.EMPRESA}/${scope.FILIAL}/${scope.LOCAL}`;
}

/** Sets `key`, dropping the oldest entry first when `limit` are kept. */
function keep<T>(map: Map<string, T>, key: string, value: T, limit: number): void {
  map.delete(key);
  if (map.size >= limit) {
    const [oldest] = map.keys();
    if (oldest !== undefined) map.delete(oldest);
  }
  map.set(key, value);
}
