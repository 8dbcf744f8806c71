import { readParameters, type TreeView } from '../config/index.js';
import type { SqlExecutor } from '../db/driver.js';
import { createTables, type Tables } from '../schema/index.js';
import type { Scope } from '../scope.js';
import type { TableNames } from '../table-names.js';

/** One installation as one scope sees it: its table names, their Drizzle tables, its TREE_VIEW if any. */
export interface Installation {
  readonly names: TableNames;
  readonly tables: Tables;
  readonly treeView: TreeView | undefined;
}

/**
 * Reads the scope's parameter rows (one query, exactly that scope): the table-name overrides of seed
 * 2.6, defaults where there is none, and the TREE_VIEW of seed 2.9. Conflicting rows, a bad table name
 * or an invalid TREE_VIEW throw the config reader's `ConfigError`, listing every problem.
 *
 * @example const { names, tables, treeView } = await resolveInstallation(db, { EMPRESA: 1, FILIAL: 1, LOCAL: 1 });
 */
export async function resolveInstallation(db: SqlExecutor, scope: Scope): Promise<Installation> {
  const parameters = await readParameters(db, scope);
  return {
    names: parameters.tableNames,
    tables: createTables(parameters.tableNames),
    treeView: parameters.treeView,
  };
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
