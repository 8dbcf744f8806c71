import { z } from 'zod';
import { checkScope, Scope } from '../model/scope.js';
import { TableNames } from '../model/table-names.js';
import { planTree, type TreePlan } from '../model/tree-plan.js';
import { TreeView } from '../model/tree-view.js';
import { createTables, type Tables } from '../schema/tables.js';
import type { SqlExecutor } from '../store/driver.js';
import { readParameters } from '../store/parameters.js';
import { checkArguments } from './arguments.js';

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

/** The parts of an installation a caller may already have, checked like everything else it gives. */
const GivenInstallation = z.object({
  scope: Scope,
  names: TableNames.optional(),
  treeView: TreeView.nullable().optional(),
});

/**
 * The tree plan for `scope`: from `names` and `treeView` when the caller has them (`treeView: null`
 * for the default tree), else from the scope's parameter rows (one query). A scope that is not three
 * non-negative integers is refused before any SQL: it comes from the host, so that is a host bug.
 */
export async function resolveTreePlan(
  db: SqlExecutor,
  scope: Scope,
  given: { readonly names?: TableNames | undefined; readonly treeView?: TreeView | null | undefined },
): Promise<TreePlan> {
  const checked = checkArguments(
    GivenInstallation,
    { scope, names: given.names, treeView: given.treeView },
    'resolveTreePlan',
  );
  const { names, treeView } = checked;
  if (names !== undefined && treeView !== undefined) return planTree(names, treeView ?? undefined);
  const installation = await readInstallation(db, checked.scope);
  return planTree(
    names ?? installation.names,
    treeView === undefined ? installation.treeView : (treeView ?? undefined),
  );
}
