import { z } from 'zod';
import { TaskAssociationError } from './errors.js';
import { Identifier, parseIdentifier } from './identifier.js';

/** The four tables of the feature by their logical names, the same whatever an installation calls them. */
export const LOGICAL_TABLES = ['OPER', 'OPER_GRUPO', 'OPER_GRUPO_METRICA', 'OPER_OPER_GRUPO'] as const;
export type LogicalTable = (typeof LOGICAL_TABLES)[number];

/** The names used where an installation does not override them (the customer's default names). */
export const DEFAULT_TABLE_NAMES = {
  OPER: 'app_oper',
  OPER_GRUPO: 'app_oper_grupo',
  OPER_GRUPO_METRICA: 'app_oper_grupo_metrica',
  OPER_OPER_GRUPO: 'app_oper_n_oper_grupo',
} as const satisfies Record<LogicalTable, string>;

/** The NOME of the sys_core_par_parametros row that overrides each table's name (CONTEUDO holds the name). */
export const OVERRIDE_PARAMETERS = {
  OPER: 'ASSOCIATION_TASK_OPER',
  OPER_GRUPO: 'ASSOCIATION_TASK_OPER_GRUPO',
  OPER_GRUPO_METRICA: 'ASSOCIATION_TASK_OPER_GRUPO_METRICA',
  OPER_OPER_GRUPO: 'ASSOCIATION_TASK_OPER_OPER_GRUPO',
} as const satisfies Record<LogicalTable, string>;

/** Host tables our tables reference; read, never created or altered. Only SEQ_DB is known of them. */
export const HOST_TABLES = {
  FOLHA_TAREFA: 'app_folha_tarefa',
  UNIDADE_MEDIDA: 'app_unidade_medida',
  ETAPA: 'app_etapa',
} as const;

/** The host's task sheet table, as an identifier: its rows are read, never written. */
export const TASK_SHEET_TABLE = parseIdentifier(HOST_TABLES.FOLHA_TAREFA, 'task sheet table');

/** Tables of the host's framework whose rows the package reads and writes: parameters, menu, fields. */
export const HOST_SYSTEM_TABLES = {
  PARAMETERS: 'sys_core_par_parametros',
  MENU: 'sys_core_menu',
  FIELDS: 'sys_core_ds_tabela_campo',
} as const;

/** The installer's ledger of what it made, shared by every installation of a database. */
export const LEDGER_TABLE_NAME = 'task_association_ledger';

/** Every change of a metric row, by every installation of a database (`saveMetrics` writes it). */
export const HISTORY_TABLE_NAME = 'task_association_history';

/** The saves that carried a request id and the answer each got, so that a retry is answered, not applied again. */
export const REQUEST_TABLE_NAME = 'task_association_request';

/** Lock rows a Galera cluster's nodes all see (saves on a cluster, the installer's lease). */
export const LOCK_TABLE_NAME = 'task_association_lock';

/**
 * What a table that is not one of an installation's four is, by lower-cased name: none of these may
 * be given as one. Sync would try to reshape a host table (and advise re-keying it), uninstall would
 * drop it; the ledger, if used, would be dropped with every installation's record in it.
 */
export const NOT_OUR_TABLES: ReadonlyMap<string, string> = new Map([
  ...[...Object.values(HOST_TABLES), ...Object.values(HOST_SYSTEM_TABLES)].map(
    (name) => [name, 'a host table'] as const,
  ),
  [LEDGER_TABLE_NAME, "the installer's ledger, shared by every installation"] as const,
  [HISTORY_TABLE_NAME, 'the metric history, shared by every installation'] as const,
  [REQUEST_TABLE_NAME, "the saves' request ids, shared by every installation"] as const,
  [LOCK_TABLE_NAME, "the package's lock rows, shared by every installation"] as const,
]);

/** The actual name of each of the four tables in one installation, every one a checked identifier. */
export const TableNames = z.strictObject({
  OPER: Identifier,
  OPER_GRUPO: Identifier,
  OPER_GRUPO_METRICA: Identifier,
  OPER_OPER_GRUPO: Identifier,
} satisfies Record<LogicalTable, typeof Identifier>);
export type TableNames = Readonly<z.infer<typeof TableNames>>;

/**
 * The table names of an installation: the defaults, with `overrides` applied. Each override must be
 * an identifier; an unknown logical name, a host table or the ledger, or two logical tables sharing
 * one name, is refused.
 *
 * @example tableNames({ OPER: 'MO_OPER' }).OPER // 'MO_OPER'
 */
export function tableNames(overrides: Readonly<Record<string, string | undefined>> = {}): TableNames {
  for (const key of Object.keys(overrides)) {
    if (!(LOGICAL_TABLES as readonly string[]).includes(key)) {
      throw new TaskAssociationError(
        'UNKNOWN_LOGICAL_TABLE',
        `"${key}" is not a logical table name: use one of ${LOGICAL_TABLES.join(', ')}`,
        { path: `tableNames.${key}` },
      );
    }
  }
  const names = Object.fromEntries(
    LOGICAL_TABLES.map((logical) => [
      logical,
      parseIdentifier(
        overrides[logical] ?? DEFAULT_TABLE_NAMES[logical],
        `table name for ${logical}`,
        `tableNames.${logical}`,
      ),
    ]),
  ) as Record<LogicalTable, Identifier>;
  const [problem] = tableNameProblems(names);
  if (problem !== undefined) {
    throw new TaskAssociationError(problem.code, problem.message, { path: `tableNames.${problem.logical}` });
  }
  return names;
}

/**
 * What is wrong with a set of the four names, each problem at its logical table: a host table or the
 * ledger (`HOST_TABLE`), or a name another logical table has already (`DUPLICATE_TABLE_NAME`, in
 * any case). Shared by {@link tableNames} (the first problem) and the install file's model (all).
 */
export function tableNameProblems(
  names: Readonly<Partial<Record<LogicalTable, string>>>,
): { logical: LogicalTable; code: 'HOST_TABLE' | 'DUPLICATE_TABLE_NAME'; message: string }[] {
  const problems: { logical: LogicalTable; code: 'HOST_TABLE' | 'DUPLICATE_TABLE_NAME'; message: string }[] =
    [];
  for (const logical of LOGICAL_TABLES) {
    const name = names[logical];
    const what = name === undefined ? undefined : NOT_OUR_TABLES.get(name.toLowerCase());
    if (what !== undefined) {
      problems.push({
        logical,
        code: 'HOST_TABLE',
        message: `"${name}" is ${what}: ${logical} must be a table of this package's own, such as ${DEFAULT_TABLE_NAMES[logical]}`,
      });
    }
  }
  const seen = new Map<string, LogicalTable>();
  for (const logical of LOGICAL_TABLES) {
    const name = names[logical];
    if (name === undefined) continue;
    const other = seen.get(name.toLowerCase());
    if (other !== undefined) {
      problems.push({
        logical,
        code: 'DUPLICATE_TABLE_NAME',
        message: `${other} and ${logical} would both use table "${name}": each logical table needs its own name`,
      });
    }
    seen.set(name.toLowerCase(), logical);
  }
  return problems;
}
