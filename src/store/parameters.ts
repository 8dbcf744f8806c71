import { z } from 'zod';
import { TaskAssociationError } from '../model/errors.js';
import {
  type InstallationParameters,
  KNOWN_NAMES,
  PARAMETERS_TABLE,
  ParameterRow,
  parametersFromRows,
  pickParameterRows,
} from '../model/parameters.js';
import { checkScope, type Scope } from '../model/scope.js';
import type { SqlExecutor } from './driver.js';
import { query, type Sql, sql } from './sql.js';

/**
 * Reads the rows of `scope` (exactly that scope) with a NOME this package knows (or of `names`), one
 * per NOME.
 * NOME is compared as the database compares it (case-insensitively, trailing spaces ignored), so a
 * row the host would find is found here too. Two rows of one NOME with different CONTEUDO are an
 * error naming both; identical duplicates are accepted (the lowest SEQ_DB is used) and returned.
 */
export async function readParameterRows(
  db: SqlExecutor,
  scope: Scope,
  names: readonly string[] = KNOWN_NAMES,
): Promise<{ rows: Record<string, ParameterRow>; duplicates: ParameterRow[] }> {
  checkScope(scope);
  if (names.length === 0) return { rows: {}, duplicates: [] };
  const raw = await query(db, parameterRows(scope, names)).catch((error: unknown) => {
    // The usual cause is a database URL naming the wrong database: say so instead of a stack trace.
    if (typeof error === 'object' && error !== null && 'code' in error && error.code === 'ER_NO_SUCH_TABLE')
      throw new TaskAssociationError(
        'NO_PARAMETER_TABLE',
        `the database has no ${PARAMETERS_TABLE} table: is the database URL the host's database?`,
        { path: PARAMETERS_TABLE, cause: error },
      );
    throw error;
  });
  const parsed = z.array(ParameterRow).safeParse(raw);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    // The issue's path is [row index, column]: the column is what the operator can look at.
    const column = issue?.path.at(-1);
    throw new TaskAssociationError(
      'UNEXPECTED_PARAMETER_TABLE',
      `${PARAMETERS_TABLE} does not have the expected columns SEQ_DB, NOME, TIPO, CONTEUDO: ${issue?.message}`,
      { path: typeof column === 'string' ? `${PARAMETERS_TABLE}.${column}` : PARAMETERS_TABLE },
    );
  }
  return pickParameterRows(scope, names, parsed.data);
}

/**
 * Reads the table-name overrides and the TREE_VIEW of one scope from sys_core_par_parametros.
 * Unknown NOMEs are ignored. An override that is not an identifier, or an invalid TREE_VIEW, is an
 * error naming the row and listing every problem.
 *
 * @example const { tableNames, treeView } = await readParameters(db, { EMPRESA: 1, FILIAL: 1, LOCAL: 1 });
 * // SELECT SEQ_DB, NOME, TIPO, CONTEUDO FROM `sys_core_par_parametros` WHERE EMPRESA = ? AND FILIAL = ? AND LOCAL = ? AND NOME IN (?, ?, ?, ?, ?) ORDER BY SEQ_DB
 */
export async function readParameters(db: SqlExecutor, scope: Scope): Promise<InstallationParameters> {
  const { rows, duplicates } = await readParameterRows(db, scope);
  return parametersFromRows(scope, rows, duplicates);
}

/** The scope's parameter rows of `names` (NOME compared as the server compares it), in SEQ_DB order. */
export function parameterRows(scope: Scope, names: readonly string[]): Sql {
  return sql`SELECT SEQ_DB, NOME, TIPO, CONTEUDO FROM ${sql.identifier(PARAMETERS_TABLE)} WHERE EMPRESA = ${scope.EMPRESA} AND FILIAL = ${scope.FILIAL} AND LOCAL = ${scope.LOCAL} AND NOME IN (${sql.list(names)}) ORDER BY SEQ_DB`;
}
