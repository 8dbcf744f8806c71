import { type Identifier, sameName } from '../model/identifier.js';
import { ConfigurationError } from '../model/issues.js';
import { TREE_VIEW_PARAMETER } from '../model/parameters.js';
import { formatScope, type Scope } from '../model/scope.js';
import { DEFAULT_TABLE_NAMES, LOGICAL_TABLES, OVERRIDE_PARAMETERS } from '../model/table-names.js';
import type { TreePlan } from '../model/tree-plan.js';
import { parseTreeView, treeViewLevels } from '../model/tree-view.js';
import type { SqlExecutor } from '../store/driver.js';
import { readHostTable } from '../store/host-table.js';
import { IDENTITY_COLUMNS } from '../store/metric-table.js';
import { readParameterRows } from '../store/parameters.js';

/** The driver's codes for "this table is not there" and "this table lacks a column the SQL names". */
const TABLE_ERRORS: ReadonlySet<unknown> = new Set(['ER_NO_SUCH_TABLE', 'ER_BAD_FIELD_ERROR']);

/** What every table the tree reads must have: the key, the scope and the two flags. */
/** The columns every level table needs: its id, its scope, its flags (an association table: all but SEQ_DB). */
export const LIVE_COLUMNS = ['SEQ_DB', 'EMPRESA', 'FILIAL', 'LOCAL', 'DELETED', 'ATIVO'];

/**
 * Runs `work` (the reads and writes of one plan); when the database says a table or a column is not
 * there, finds which table of the plan it is and which parameter row named it, and throws that as a
 * {@link ConfigurationError} (`TABLE_MISSING`, `TABLE_UNUSABLE`) instead of the driver's error. The
 * diagnosis reads information_schema, on the failure path only: a working installation pays nothing.
 */
export async function explainTableErrors<T>(
  db: SqlExecutor,
  scope: Scope,
  plan: TreePlan,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    // The saver's own check of the metric table says what is wrong with it; this adds who named it.
    if (error instanceof ConfigurationError && error.code === 'METRIC_TABLE_UNUSABLE') {
      const source = await sourceOf(db, scope, plan.metricTable);
      throw new ConfigurationError(error.code, `${source.what}: ${error.message}`, {
        path: source.path,
        cause: error,
      });
    }
    if (!isTableError(error)) throw error;
    throw (await diagnoseTables(db, scope, plan, error)) ?? error;
  }
}

export function isTableError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && TABLE_ERRORS.has(error.code);
}

/** The first table of `plan` that is missing or lacks a column it needs, as an error naming its source. */
export async function diagnoseTables(
  db: SqlExecutor,
  scope: Scope,
  plan: TreePlan,
  cause: unknown,
): Promise<ConfigurationError | undefined> {
  for (const [table, columns] of requiredColumns(plan)) {
    const has = await readHostTable(db, table);
    const missing =
      has === undefined ? [] : [...columns].filter((column) => has.column(column) === undefined);
    if (has !== undefined && missing.length === 0) continue;
    const source = await sourceOf(db, scope, table);
    return has === undefined
      ? new ConfigurationError(
          'TABLE_MISSING',
          `${source.what} names table ${table}, which does not exist in this database: ${source.fromTreeView ? 'create it (db sync makes only the four tables of the installation)' : 'create it (db sync)'} or correct the ${source.fix}`,
          { path: source.path, cause },
        )
      : new ConfigurationError(
          'TABLE_UNUSABLE',
          `${source.what} names table ${table}, which lacks ${missing.join(', ')}: it is not a table this package can use (a host table?); correct the ${source.fix}`,
          { path: source.path, cause },
        );
  }
  return undefined;
}

/** Each table of the plan with the columns the package's SQL names in it. */
function requiredColumns(plan: TreePlan): Map<Identifier, Set<string>> {
  const needs = new Map<Identifier, Set<string>>();
  const need = (table: Identifier, columns: readonly string[]) => {
    const set = needs.get(table) ?? new Set<string>();
    for (const column of columns) set.add(column);
    needs.set(table, set);
  };
  for (const level of plan.levels) {
    need(level.table, [...LIVE_COLUMNS, ...(level.nestedBy === undefined ? [] : [level.nestedBy])]);
    const association = level.association;
    if (association !== undefined)
      need(association.table, [...LIVE_COLUMNS.slice(1), association.parentColumn, association.childColumn]);
  }
  need(plan.metricTable, IDENTITY_COLUMNS);
  return needs;
}

interface TableSource {
  /** "parameter ASSOCIATION_TASK_OPER (SEQ_DB 12, scope 1/1/1)", for the message. */
  readonly what: string;
  /** What to correct: "its CONTEUDO", "TREE_VIEW at layers.2.table". */
  readonly fix: string;
  /** The NOME and, for a TREE_VIEW, the path inside it. */
  readonly path: string;
  /** Named by the TREE_VIEW: perhaps a host's own level table, which db sync does not make. */
  readonly fromTreeView?: boolean;
}

/** Which parameter row of `scope` names `table`: an override, a place in the TREE_VIEW, or none (a default or the caller's). */
async function sourceOf(db: SqlExecutor, scope: Scope, table: string): Promise<TableSource> {
  const { rows } = await readParameterRows(db, scope);
  const same = (name: string | null | undefined) => name != null && sameName(name.trim(), table);
  const row = (nome: string) => rows[nome];
  const described = (nome: string) => {
    const found = row(nome);
    return `parameter ${nome} (SEQ_DB ${found?.SEQ_DB}, scope ${formatScope(scope)})`;
  };
  // Every place a parameter row names a table: the overrides first, then the TREE_VIEW's.
  const candidates: { name: string | null | undefined; source: TableSource }[] = LOGICAL_TABLES.map(
    (logical) => {
      const nome = OVERRIDE_PARAMETERS[logical];
      return {
        name: row(nome)?.CONTEUDO,
        source: { what: described(nome), fix: "row's CONTEUDO", path: nome },
      };
    },
  );
  const treeRow = row(TREE_VIEW_PARAMETER);
  const parsed = treeRow === undefined ? undefined : parseTreeView(treeRow.CONTEUDO ?? '');
  if (parsed?.success) {
    const places: [string, string][] = [];
    if (parsed.data.metricAssociationTable !== undefined)
      places.push(['metricAssociationTable', parsed.data.metricAssociationTable]);
    for (const level of treeViewLevels(parsed.data)) {
      places.push([`layers.${level.level}.table`, level.table]);
      if (level.association !== undefined)
        places.push([`layers.${level.level}.associationTable`, level.association.table]);
    }
    for (const [at, name] of places) {
      candidates.push({
        name,
        source: {
          what: `${described(TREE_VIEW_PARAMETER)} at ${at}`,
          fix: `TREE_VIEW at ${at}`,
          path: `${TREE_VIEW_PARAMETER}.${at}`,
          fromTreeView: true,
        },
      });
    }
  }
  // The name as written first: on a server that tells case apart, mo_oper and MO_OPER are two
  // tables, and the row that wrote the missing one is the one to correct. Then in any case.
  const found =
    candidates.find((candidate) => candidate.name?.trim() === table) ??
    candidates.find((candidate) => same(candidate.name));
  if (found !== undefined) return found.source;
  const logical = LOGICAL_TABLES.find((name) => same(DEFAULT_TABLE_NAMES[name]));
  if (logical !== undefined)
    return {
      what: `the default name of ${logical} (scope ${formatScope(scope)} has no ${OVERRIDE_PARAMETERS[logical]} row)`,
      fix: `installation (run apply, or add a ${OVERRIDE_PARAMETERS[logical]} row)`,
      path: OVERRIDE_PARAMETERS[logical],
    };
  return { what: 'the plan given to the call', fix: 'names or TREE_VIEW it was planned with', path: 'plan' };
}
