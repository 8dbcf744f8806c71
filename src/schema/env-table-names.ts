import { TaskAssociationError } from '../model/errors.js';
import {
  HISTORY_TABLE_NAME,
  LOGICAL_TABLES,
  type LogicalTable,
  REQUEST_TABLE_NAME,
  type TableNames,
  tableNames,
} from '../model/table-names.js';

/** The environment variable that overrides each table's name for drizzle-kit, e.g. TASK_ASSOCIATION_TABLE_OPER. */
export const TABLE_NAME_VARIABLES = Object.fromEntries(
  LOGICAL_TABLES.map((logical) => [logical, `TASK_ASSOCIATION_TABLE_${logical}`]),
) as Record<LogicalTable, string>;

/**
 * The table names drizzle-kit works with, from the environment (drizzle-kit takes no arguments of
 * ours): each unset or empty variable keeps the default, each set one must be an identifier.
 *
 * @example tableNamesFromEnv({ TASK_ASSOCIATION_TABLE_OPER: 'MO_OPER' }).OPER // 'MO_OPER' (`TASK_ASSOCIATION_TABLE_OPER=MO_OPER npx drizzle-kit push`)
 */
export function tableNamesFromEnv(env: Readonly<Record<string, string | undefined>>): TableNames {
  const overrides: Partial<Record<LogicalTable, string>> = {};
  for (const logical of LOGICAL_TABLES) {
    const value = env[TABLE_NAME_VARIABLES[logical]];
    if (value !== undefined && value !== '') overrides[logical] = value;
  }
  return tableNames(overrides);
}

/**
 * The variable that says whether drizzle-kit pushes the two tables every installation of a database
 * shares: `yes` (or unset, or empty) for the first push in a database, `no` for another
 * installation's tables in a database that already has them. drizzle-kit cannot push an existing
 * table again on MariaDB (it re-adds the primary key and fails with "Multiple primary key defined",
 * after creating the new tables and before their foreign keys, and still exits 0), so they must be
 * left out of that push.
 */
export const PUSH_SHARED_TABLES_VARIABLE = 'TASK_ASSOCIATION_PUSH_SHARED_TABLES';

/** Whether drizzle-kit pushes the shared tables (see {@link PUSH_SHARED_TABLES_VARIABLE}); any other value is refused. */
export function pushSharedTablesFromEnv(env: Readonly<Record<string, string | undefined>>): boolean {
  const value = env[PUSH_SHARED_TABLES_VARIABLE] ?? '';
  if (value === '' || value === 'yes') return true;
  if (value === 'no') return false;
  throw new TaskAssociationError(
    'INVALID_OPTION',
    `${PUSH_SHARED_TABLES_VARIABLE} is ${JSON.stringify(value)}: give yes (push the shared tables, the first push in a database) or no (they exist already)`,
    { path: PUSH_SHARED_TABLES_VARIABLE },
  );
}

/**
 * Every table drizzle-kit is to look at (its `tablesFilter`): the four of {@link tableNamesFromEnv},
 * and the two shared ones unless {@link PUSH_SHARED_TABLES_VARIABLE} is `no`, as the package's
 * schema module exports them. drizzle-kit introspects the whole database: a table of the database
 * let in that the schema lacks is planned to be dropped, one of the schema left out is planned as
 * new.
 *
 * @example tablesFilterFromEnv({}) // ['app_oper', ..., 'task_association_history', 'task_association_request']
 */
export function tablesFilterFromEnv(env: Readonly<Record<string, string | undefined>>): string[] {
  const shared = pushSharedTablesFromEnv(env) ? [HISTORY_TABLE_NAME, REQUEST_TABLE_NAME] : [];
  return [...Object.values(tableNamesFromEnv(env)), ...shared];
}
