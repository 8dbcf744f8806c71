import { LOGICAL_TABLES, type LogicalTable, type TableNames, tableNames } from '../model/table-names.js';

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
