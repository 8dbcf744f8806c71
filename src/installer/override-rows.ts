import { TaskAssociationError } from '../model/errors.js';
import type { Issue } from '../model/issues.js';
import {
  overrideTableName,
  PARAMETERS_TABLE,
  type ParameterRow,
  parametersFromRows,
} from '../model/parameters.js';
import type { Scope } from '../model/scope.js';
import {
  LOGICAL_TABLES,
  type LogicalTable,
  OVERRIDE_PARAMETERS,
  type TableNames,
} from '../model/table-names.js';
import type { SqlExecutor } from '../store/driver.js';
import { tableExists } from '../store/information-schema.js';

/**
 * A table-name override row every load of the scope would refuse, at the row
 * (`sys_core_par_parametros.<NOME>`, the table alone for a clash, which is two rows'):
 * `OVERRIDE_INVALID` the row alone (not a table name, a hidden character, a host table),
 * `OVERRIDE_CLASH` two rows on one table, `OVERRIDE_TABLE_MISSING` a table that does not exist.
 */
export type OverrideProblem = Issue<'OVERRIDE_INVALID' | 'OVERRIDE_CLASH' | 'OVERRIDE_TABLE_MISSING'>;

/** Where an override row's problem is: the row, by its NOME. */
const rowPath = (nome: string) => `${PARAMETERS_TABLE}.${nome}`;

/**
 * The scope's override rows read by the reader every load and save uses, so `verify` and `validate
 * --scope` refuse what they would, in their words: each row alone first (`overrideTableName`: a
 * clash is not one row's fault, as a row may name another table's default while that table is
 * overridden too), then the rows together. The table names they give, when they give any.
 */
export function checkOverrideRows(
  scope: Scope,
  rows: Readonly<Record<string, ParameterRow>>,
): {
  problems: OverrideProblem[];
  names: TableNames | undefined;
  given: Partial<Record<LogicalTable, string>>;
} {
  const problems: OverrideProblem[] = [];
  const given: Partial<Record<LogicalTable, string>> = {};
  const overrides: [string, ParameterRow][] = [];
  for (const logical of LOGICAL_TABLES) {
    const nome = OVERRIDE_PARAMETERS[logical];
    const row = rows[nome];
    if (row === undefined) continue;
    overrides.push([nome, row]);
    try {
      given[logical] = overrideTableName(scope, logical, row);
    } catch (error) {
      if (!(error instanceof TaskAssociationError)) throw error;
      problems.push({ code: 'OVERRIDE_INVALID', path: rowPath(nome), message: error.message });
    }
  }
  if (problems.length > 0) return { problems, names: undefined, given };
  try {
    return { problems, names: parametersFromRows(scope, Object.fromEntries(overrides)).tableNames, given };
  } catch (error) {
    if (!(error instanceof TaskAssociationError) || error.code !== 'DUPLICATE_TABLE_NAME') throw error;
    return {
      problems: [{ code: 'OVERRIDE_CLASH', path: PARAMETERS_TABLE, message: error.message }],
      names: undefined,
      given,
    };
  }
}

/** The override rows naming a table that does not exist: every load of the scope would fail on it. */
export async function missingOverrideTables(
  db: SqlExecutor,
  rows: Readonly<Record<string, ParameterRow>>,
  given: Partial<Record<LogicalTable, string>>,
): Promise<OverrideProblem[]> {
  const problems: OverrideProblem[] = [];
  for (const logical of LOGICAL_TABLES) {
    const nome = OVERRIDE_PARAMETERS[logical];
    const row = rows[nome];
    const name = given[logical];
    if (row === undefined || name === undefined || (await tableExists(db, name))) continue;
    problems.push({
      code: 'OVERRIDE_TABLE_MISSING',
      path: rowPath(nome),
      message: `parameter ${nome} (SEQ_DB ${row.SEQ_DB}) names table ${name}, which does not exist: run apply, or correct the parameter`,
    });
  }
  return problems;
}
