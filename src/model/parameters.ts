import { z } from 'zod';
import { TaskAssociationError } from './errors.js';
import { IDENTIFIER_PATTERN, IDENTIFIER_RULE, type Identifier, parseIdentifier } from './identifier.js';
import { ConfigError, type ConfigIssueCode } from './issues.js';
import { formatScope, type Scope } from './scope.js';
import {
  DEFAULT_TABLE_NAMES,
  HOST_SYSTEM_TABLES,
  LOGICAL_TABLES,
  type LogicalTable,
  NOT_OUR_TABLES,
  OVERRIDE_PARAMETERS,
  type TableNames,
  tableNames,
} from './table-names.js';
import { parseTreeView, type TreeView } from './tree-view.js';

/** The host's parameter table: holds the table-name overrides and the TREE_VIEW. */
export const PARAMETERS_TABLE = parseIdentifier(HOST_SYSTEM_TABLES.PARAMETERS, 'parameter table');

/** NOME of the tree configuration row. */
export const TREE_VIEW_PARAMETER = 'TREE_VIEW';
/** TIPO of the TREE_VIEW row: 1 (JSON text), as the customer specifies. */
export const TREE_VIEW_TIPO = 1;
/**
 * TIPO of the table-name override rows. The customer does not say; 0 is the host column's default, i.e.
 * what a row gets when an operator inserts it without TIPO. Reading ignores TIPO altogether.
 */
export const OVERRIDE_TIPO = 0;

/** Every NOME this package reads: the table-name overrides and the TREE_VIEW. */
export const KNOWN_NAMES: readonly string[] = [...Object.values(OVERRIDE_PARAMETERS), TREE_VIEW_PARAMETER];

// Some hosts declare CONTEUDO as a BLOB, which the driver returns as bytes: read them as UTF-8 text.
const Text = z.union([
  z.string(),
  z.instanceof(Uint8Array).transform((bytes) => Buffer.from(bytes).toString('utf8')),
]);

/** A sys_core_par_parametros row as read. */
export const ParameterRow = z.object({
  SEQ_DB: z.coerce.number(),
  NOME: Text,
  TIPO: z.coerce.number().nullable(),
  CONTEUDO: Text.nullable(),
});
export type ParameterRow = z.infer<typeof ParameterRow>;

/** A row to insert into sys_core_par_parametros, keyed by column name. */
export const NewParameterRow = z.object({
  EMPRESA: z.int(),
  FILIAL: z.int(),
  LOCAL: z.int(),
  NOME: z.string(),
  TIPO: z.int(),
  CONTEUDO: z.string(),
});
export type NewParameterRow = z.infer<typeof NewParameterRow>;

/** What the parameter rows of one scope configure. */
export interface InstallationParameters {
  /** The four table names, defaults where no override row exists. */
  readonly tableNames: TableNames;
  /** Only the names an override row sets. */
  readonly overrides: Partial<Record<LogicalTable, Identifier>>;
  /** The checked TREE_VIEW, when the scope has one. */
  readonly treeView?: TreeView;
  /** The row each known NOME was taken from (the lowest SEQ_DB of identical duplicates). */
  readonly rows: Readonly<Record<string, ParameterRow>>;
  /** Extra rows that repeat another row's NOME and CONTEUDO: harmless, but worth cleaning up. */
  readonly duplicates: readonly ParameterRow[];
}

/**
 * The table one override row names, read as every load reads it: ASCII blanks around it dropped,
 * and refused (a {@link ConfigError} naming the row) when it is not a table name, holds a character
 * a person cannot see, or is a host table. Whether two rows clash is for the rows together.
 *
 * @example overrideTableName({ EMPRESA: 1, FILIAL: 1, LOCAL: 1 }, 'OPER', { SEQ_DB: 3, NOME: 'ASSOCIATION_TASK_OPER', TIPO: 1, CONTEUDO: ' MO_OPER ' }) // 'MO_OPER'
 */
export function overrideTableName(scope: Scope, logical: LogicalTable, row: ParameterRow): Identifier {
  const invalid = (code: ConfigIssueCode, message: string) =>
    new ConfigError(
      'INVALID_PARAMETER',
      `parameter ${row.NOME} (SEQ_DB ${row.SEQ_DB}, scope ${formatScope(scope)}) is invalid`,
      [{ path: 'CONTEUDO', code, message }],
    );
  // Only ASCII blanks around the name are dropped (the host compares NOME and CONTEUDO ignoring
  // trailing spaces; an editor adds a newline). A no-break space or a byte-order mark is invisible
  // and the host would not drop it, so it is refused rather than silently read past.
  const value = (row.CONTEUDO ?? '').replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');
  if (!IDENTIFIER_PATTERN.test(value)) {
    const hidden = /[^\x20-\x7e]/u.exec(value);
    throw invalid(
      'INVALID_IDENTIFIER',
      hidden === null
        ? `${shown(row.CONTEUDO)} is not a table name: ${IDENTIFIER_RULE}`
        : `${shown(row.CONTEUDO)} is not a table name: it holds U+${hidden[0].codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0')} at character ${hidden.index + 1} (only ASCII spaces around the name are ignored): remove it`,
    );
  }
  const what = NOT_OUR_TABLES.get(value.toLowerCase());
  if (what !== undefined)
    throw invalid(
      'HOST_TABLE',
      `${shown(value)} is ${what}: ${logical} must be a table of this package's own (the package writes its metric rows and reads its groups there), such as ${DEFAULT_TABLE_NAMES[logical]}`,
    );
  return parseIdentifier(value, `table name for ${logical}`);
}

/**
 * What the rows {@link readParameterRows} returned configure, checked as {@link readParameters}
 * checks them: for a caller that keeps the checked result while the rows' text stays the same.
 *
 * @example const { tableNames } = parametersFromRows(scope, { ASSOCIATION_TASK_OPER: { SEQ_DB: 3, NOME: 'ASSOCIATION_TASK_OPER', TIPO: 0, CONTEUDO: 'MO_OPER' } }); // tableNames.OPER === 'MO_OPER'
 */
export function parametersFromRows(
  scope: Scope,
  rows: Readonly<Record<string, ParameterRow>>,
  duplicates: readonly ParameterRow[] = [],
): InstallationParameters {
  const overrides: Partial<Record<LogicalTable, Identifier>> = {};
  for (const logical of LOGICAL_TABLES) {
    const row = rows[OVERRIDE_PARAMETERS[logical]];
    if (row !== undefined) overrides[logical] = overrideTableName(scope, logical, row);
  }
  const treeRow = rows[TREE_VIEW_PARAMETER];
  let treeView: TreeView | undefined;
  if (treeRow !== undefined) {
    const parsed = parseTreeView(treeRow.CONTEUDO ?? '');
    if (!parsed.success)
      throw new ConfigError(
        'INVALID_TREE_VIEW',
        `the TREE_VIEW parameter (SEQ_DB ${treeRow.SEQ_DB}, scope ${formatScope(scope)}) is invalid`,
        parsed.issues,
      );
    treeView = parsed.data;
  }
  return {
    tableNames: checkedTableNames(overrides, rows, scope),
    overrides,
    ...(treeView === undefined ? {} : { treeView }),
    rows,
    duplicates,
  };
}

/**
 * The table-name override rows for the names given, TIPO {@link OVERRIDE_TIPO}. Each name is checked
 * as {@link tableNames} checks it (identifier, no two logical tables on one name).
 *
 * @example overrideParameterRows(scope, { OPER: 'MO_OPER' }) // [{ ..., NOME: 'ASSOCIATION_TASK_OPER', TIPO: 0, CONTEUDO: 'MO_OPER' }]
 */
export function overrideParameterRows(
  scope: Scope,
  overrides: Readonly<Partial<Record<LogicalTable, string>>>,
): NewParameterRow[] {
  const names = tableNames(overrides);
  return LOGICAL_TABLES.filter((logical) => overrides[logical] !== undefined).map((logical) => ({
    ...scopeColumns(scope),
    NOME: OVERRIDE_PARAMETERS[logical],
    TIPO: OVERRIDE_TIPO,
    CONTEUDO: names[logical],
  }));
}

/**
 * The TREE_VIEW row: TIPO 1, CONTEUDO the compact JSON text of the checked tree, without
 * `$schema` (a path on the author's machine means nothing inside the database).
 */
export function treeViewParameterRow(scope: Scope, treeView: TreeView): NewParameterRow {
  const { $schema: _schema, ...document } = treeView;
  return {
    ...scopeColumns(scope),
    NOME: TREE_VIEW_PARAMETER,
    TIPO: TREE_VIEW_TIPO,
    CONTEUDO: JSON.stringify(document),
  };
}

/** {@link tableNames}, with an error that names the parameter rows behind a clash. */
/**
 * One row per NOME of `names` out of `found` (rows in SEQ_DB order), as the host would find them: NOME
 * compared case-insensitively with trailing spaces ignored. Identical duplicates are returned apart;
 * two rows of one NOME with different CONTEUDO are an error naming both.
 */
export function pickParameterRows(
  scope: Scope,
  names: readonly string[],
  found: readonly ParameterRow[],
): { rows: Record<string, ParameterRow>; duplicates: ParameterRow[] } {
  const rows: Record<string, ParameterRow> = {};
  const duplicates: ParameterRow[] = [];
  for (const row of found) {
    const name = row.NOME.trimEnd().toUpperCase();
    if (!names.includes(name)) continue;
    const first = rows[name];
    if (first === undefined) rows[name] = row;
    else if (first.CONTEUDO === row.CONTEUDO) duplicates.push(row);
    else
      throw new ConfigError(
        'CONFLICTING_PARAMETERS',
        `scope ${formatScope(scope)} has conflicting parameter rows`,
        [
          {
            path: name,
            code: 'CONFLICTING_PARAMETERS',
            message: `rows SEQ_DB ${first.SEQ_DB} (${shown(first.CONTEUDO)}) and SEQ_DB ${row.SEQ_DB} (${shown(row.CONTEUDO)}) disagree: delete one of them`,
          },
        ],
      );
  }
  return { rows, duplicates };
}

function checkedTableNames(
  overrides: Partial<Record<LogicalTable, Identifier>>,
  rows: Readonly<Record<string, ParameterRow>>,
  scope: Scope,
): TableNames {
  try {
    return tableNames(overrides);
  } catch (error) {
    if (!(error instanceof TaskAssociationError)) throw error;
    const sources = LOGICAL_TABLES.flatMap((logical) => {
      const row = rows[OVERRIDE_PARAMETERS[logical]];
      return row === undefined ? [] : [`${row.NOME} is SEQ_DB ${row.SEQ_DB}`];
    });
    throw new TaskAssociationError(
      error.code,
      `the parameter rows of scope ${formatScope(scope)} clash: ${error.message} (${sources.join(', ')})`,
      { ...(error.path === undefined ? {} : { path: error.path }), cause: error },
    );
  }
}

function scopeColumns(scope: Scope): Pick<NewParameterRow, 'EMPRESA' | 'FILIAL' | 'LOCAL'> {
  return { EMPRESA: scope.EMPRESA, FILIAL: scope.FILIAL, LOCAL: scope.LOCAL };
}

function shown(value: string | null): string {
  if (value === null) return 'NULL';
  return value.length > 80 ? `${JSON.stringify(value.slice(0, 80))}...` : JSON.stringify(value);
}
