import { checkScope, type Scope } from '../model/scope.js';
import type { TableNames } from '../model/table-names.js';
import type { TreePlan } from '../model/tree-plan.js';
import type { TreeView } from '../model/tree-view.js';
import { createTables, type Tables } from '../schema/tables.js';
import type { SqlExecutor } from '../store/driver.js';
import { readParameters } from '../store/parameters.js';
import { checkDatabase } from './arguments.js';
import { plansOf } from './plan-memo.js';

/** One installation as one scope sees it: its table names, their Drizzle tables, its TREE_VIEW if any. */
export interface Installation {
  readonly names: TableNames;
  readonly tables: Tables;
  readonly treeView: TreeView | undefined;
}

/**
 * Reads the scope's parameter rows (one query, exactly that scope): the table-name overrides, defaults
 * where there is none, and the TREE_VIEW. Conflicting rows, a bad table name or an invalid TREE_VIEW
 * throw the config reader's `ConfigError`, listing every problem.
 *
 * @example const { names, tables, treeView } = await resolveInstallation(db, { EMPRESA: 1, FILIAL: 1, LOCAL: 1 });
 */
export async function resolveInstallation(db: SqlExecutor, scope: Scope): Promise<Installation> {
  const { names, treeView } = await readInstallation(db, scope);
  return { names, tables: createTables(names), treeView };
}

/**
 * The scope's table names and TREE_VIEW, without the Drizzle tables: what the package's own reads
 * need (they build their statements in the store), so no request builds tables it never queries.
 */
export async function readInstallation(db: SqlExecutor, scope: Scope): Promise<Omit<Installation, 'tables'>> {
  const parameters = await readParameters(db, checkScope(scope));
  return { names: parameters.tableNames, treeView: parameters.treeView };
}

/**
 * The scope's four table names (defaults where no override row exists) and the Drizzle tables built
 * with them.
 *
 * @example const { names, tables } = await resolveTableNames(db, scope); // names.OPER === 'MO_OPER' with an override
 */
export async function resolveTableNames(
  db: SqlExecutor,
  scope: Scope,
): Promise<{ names: TableNames; tables: Tables }> {
  const { names, tables } = await resolveInstallation(db, scope);
  return { names, tables };
}

/**
 * The tree plan of `scope`, from its parameter rows (one query): its table names and TREE_VIEW, the
 * default tree when it has none. A caller that has the names and the TREE_VIEW already makes the plan
 * with `planTree`. A scope that is not three non-negative integers is refused before any SQL: it
 * comes from the host, so that is a host bug. Planned through this executor's memo (plan-memo.ts):
 * the rows are read every time, checked again only when their text changed.
 *
 * @example const plan = await resolveTreePlan(db, scope); await loadTaskTree(db, { scope, taskSheet: 42, plan });
 */
export async function resolveTreePlan(db: SqlExecutor, scope: Scope): Promise<TreePlan> {
  checkDatabase(db, 'resolveTreePlan');
  return (await plansOf(db).read(db, checkScope(scope))).plan;
}
