import { errorsOf } from '../model/findings.js';
import { ConfigError, type Issue, issuesUnder } from '../model/issues.js';
import { PARAMETERS_TABLE, type ParameterRow, TREE_VIEW_PARAMETER } from '../model/parameters.js';
import { sameScope } from '../model/scope.js';
import { LOGICAL_TABLES, OVERRIDE_PARAMETERS, type TableNames } from '../model/table-names.js';
import type { Database, SqlExecutor } from '../store/driver.js';
import { readParameterRows } from '../store/parameters.js';
import { differenceIssue } from '../sync/schema-difference.js';
import { type DesiredRow, desiredRows } from './desired-rows.js';
import { fitRow } from './fit-row.js';
import { hostContext } from './host-context.js';
import { type InstallFile, requireInstallFile } from './install-file.js';
import { type HostRow, rowId } from './ledger-keys.js';
import { checkOverrideRows, missingOverrideTables } from './override-rows.js';
import { identifiableRows } from './row-identity.js';
import { sameValue } from './same-value.js';
import { type InstallerState, installationTableNames, readByHand, readInstallerState } from './state.js';
import { checkStoredTreeView } from './verify-tree-view.js';

/** One way the installation differs from what it must be: an {@link Issue}, its path in the database (`sys_core_menu.ICON`, `link-field`). */
export type Problem = Issue;

export interface VerifyResult {
  readonly ok: boolean;
  readonly problems: readonly Problem[];
}

/**
 * Reports every drift of one installation at once: the four tables and the shared ones (through the schema sync's
 * differences), the rows the installer owns (menus, link field: compared value by value, OPCOES
 * byte for byte), and the parameter rows as they are now (an override naming a missing table, a
 * TREE_VIEW that is invalid or names missing tables or columns). Writes nothing.
 */
export async function verifyInstallation(db: Database, given: InstallFile): Promise<VerifyResult> {
  const file = requireInstallFile(given);
  const state = await readInstallerState(db, { action: 'apply', file, force: false });
  const problems: Problem[] = [];
  const host = hostContext(file, state);
  problems.push(...errorsOf(host.findings).map(({ code, path, message }) => ({ code, path, message })));
  problems.push(...(state.schema?.differences ?? []).map(differenceIssue));
  if (host.mobileFlagColumn !== undefined) {
    const identifiable = identifiableRows(desiredRows(file, host.mobileFlagColumn), host.tables);
    problems.push(...identifiable.findings.map(({ code, path, message }) => ({ code, path, message })));
    const wanted = identifiable.rows.filter(
      (row) => host.tables.has(row.table) && row.table !== PARAMETERS_TABLE,
    );
    const recorded = new Map(wanted.map((row) => [row.key, recordedRow(row, file, state)]));
    // A row the ledger does not lead to may have been made by hand: verify checks that one instead.
    const byHand = await readByHand(
      db,
      wanted.filter((row) => recorded.get(row.key) === undefined),
    );
    for (const row of wanted) {
      const table = host.tables.get(row.table);
      const found = recorded.get(row.key) ?? byHand.get(row.key)?.[0];
      if (table === undefined) continue;
      if (found === undefined) {
        problems.push({
          code: 'ROW_MISSING',
          path: row.key,
          message: `${row.what} is missing from ${row.table}: run apply`,
        });
        continue;
      }
      const expected = fitRow(table, row.owned).values;
      const changed = Object.entries(expected).filter(([name, value]) => !sameValue(found[name], value));
      if (changed.length > 0) {
        problems.push({
          code: 'ROW_CHANGED',
          path: row.key,
          message: `${row.what} (SEQ_DB ${found.SEQ_DB}) differs: ${changed
            .map(
              ([name, value]) =>
                `${name} is ${JSON.stringify(found[name])}, expected ${JSON.stringify(value)}`,
            )
            .join('; ')}: run apply`,
        });
      }
    }
  }
  const names = installationTableNames(file);
  if (host.tables.has(PARAMETERS_TABLE)) problems.push(...(await checkParameters(db, file, names)));
  return { ok: problems.length === 0, problems };
}

/** The row the ledger says stands for `row`: ours, or another installation's when the row is shared. */
function recordedRow(row: DesiredRow, file: InstallFile, state: InstallerState): HostRow | undefined {
  for (const entry of state.ledger) {
    if (entry.key !== row.key || !(row.shared || sameScope(entry.scope, file.scope))) continue;
    const found =
      entry.rowSeqDb === null ? undefined : state.rows.existing.get(rowId(row.table, entry.rowSeqDb));
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * The override and TREE_VIEW rows of this scope as they are now (administrators may have edited
 * them), read by config's reader so NOME and CONTEUDO are matched and trimmed as everywhere else.
 */
async function checkParameters(db: SqlExecutor, file: InstallFile, names: TableNames): Promise<Problem[]> {
  let rows: Readonly<Record<string, ParameterRow>>;
  try {
    ({ rows } = await readParameterRows(db, file.scope));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.issues.map((issue) => ({
      code: error.code,
      path: `${PARAMETERS_TABLE}.${issue.path}`,
      message: `parameter ${issue.path} of this scope: ${issue.message}`,
    }));
  }
  const problems: Problem[] = [];
  const checked = checkOverrideRows(file.scope, rows);
  const found = [...checked.problems, ...(await missingOverrideTables(db, rows, checked.given))];
  problems.push(...found);
  for (const logical of LOGICAL_TABLES) {
    const nome = OVERRIDE_PARAMETERS[logical];
    if (rows[nome] === undefined && file.tableNames?.[logical] !== undefined)
      problems.push(parameterMissing(nome));
  }
  const tree = rows[TREE_VIEW_PARAMETER];
  if (tree !== undefined) {
    const found = await checkStoredTreeView(db, tree.CONTEUDO, { seqDb: tree.SEQ_DB, names });
    problems.push(...issuesUnder(`${PARAMETERS_TABLE}.${TREE_VIEW_PARAMETER}`, found));
  } else if (file.treeView !== undefined) {
    problems.push(parameterMissing(TREE_VIEW_PARAMETER));
  }
  return problems;
}

function parameterMissing(nome: string): Problem {
  return {
    code: 'ROW_MISSING',
    path: `parameter:${nome}`,
    message: `parameter ${nome} is missing from ${PARAMETERS_TABLE} for this scope: run apply`,
  };
}
