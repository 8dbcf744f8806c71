import { parametersFromRows } from '../model/parameters.js';
import type { Scope } from '../model/scope.js';
import type { TableNames } from '../model/table-names.js';
import { planTree, type TreePlan } from '../model/tree-plan.js';
import type { TreeView } from '../model/tree-view.js';
import type { SqlExecutor } from '../store/driver.js';
import { readParameterRows } from '../store/parameters.js';

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
