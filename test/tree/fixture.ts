import { expect } from 'vitest';
import { parseIdentifier, quoteIdentifier } from '../../src/model/identifier.js';
import type { Scope } from '../../src/model/scope.js';
import { OVERRIDE_PARAMETERS, type TableNames, tableNames } from '../../src/model/table-names.js';
import { planTree } from '../../src/model/tree-plan.js';
import { TreeView } from '../../src/model.js';
import type { Database, SqlExecutor } from '../../src/store/driver.js';
import { syncSchema } from '../../src/sync.js';

export const SCOPE_A: Scope = { EMPRESA: 1, FILIAL: 1, LOCAL: 1 };
export const SCOPE_B: Scope = { EMPRESA: 2, FILIAL: 1, LOCAL: 1 };

/** The user every fixture row is inserted by. */
export const FIXTURE_USER = 1;

/** Creates the four tables of `names` with the schema sync, as an operator would. */
export async function installTables(db: Database, names: TableNames): Promise<void> {
  await syncSchema(db, names);
}

/**
 * A host-added table with the common columns (scope, SEQ_DB, audit, flags) plus `columns` (`NAME type`
 * each): the kind of level table (app_setor) or association table a host adds for a custom TREE_VIEW.
 */
export async function createHostTable(
  db: SqlExecutor,
  name: string,
  columns: readonly string[],
): Promise<void> {
  const table = quoteIdentifier(parseIdentifier(name, 'fixture table'));
  await db.execute(`CREATE TABLE ${table} (
    SEQ_DB bigint unsigned NOT NULL AUTO_INCREMENT,
    EMPRESA int NOT NULL, FILIAL int NOT NULL, LOCAL int NOT NULL,
    INS_DH timestamp NULL DEFAULT CURRENT_TIMESTAMP, INS_USUARIO_SEQ_DB bigint unsigned NOT NULL,
    UPD_DH timestamp NULL DEFAULT NULL ON UPDATE CURRENT_TIMESTAMP, UPD_USUARIO_SEQ_DB bigint unsigned NULL,
    SOURCE varchar(50) NULL, ATIVO tinyint(1) DEFAULT 1, DELETED tinyint(1) DEFAULT 0, RO tinyint(1) DEFAULT 0,
    ID int unsigned NOT NULL,
    ${columns.map((column) => `${column},`).join(' ')}
    PRIMARY KEY (EMPRESA, FILIAL, LOCAL, ID), UNIQUE KEY (SEQ_DB)
  ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`);
}

const nextIds = new Map<string, number>();

/**
 * Inserts `rows` into `table` with multi-row INSERTs (2000 rows each) and returns their SEQ_DBs in
 * order. Each row needs EMPRESA/FILIAL/LOCAL; ID (next in scope, counted here) and
 * INS_USUARIO_SEQ_DB are filled in. Rows of one call must share their column set.
 */
/** How many metric rows the installation holds, every scope and state: a write refused whole leaves it unchanged. */
export async function countMetricRows(db: SqlExecutor, names: TableNames): Promise<number> {
  const [row] = await db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM ${names.OPER_GRUPO_METRICA}`);
  return Number(row?.n);
}

export async function insertRows(
  db: SqlExecutor,
  table: string,
  rows: readonly Record<string, unknown>[],
  options: { withId?: boolean } = {},
): Promise<number[]> {
  const first = rows[0];
  if (first === undefined) return [];
  const quoted = quoteIdentifier(parseIdentifier(table, 'fixture table'));
  const withId = options.withId ?? true;
  const columns = [...Object.keys(first), ...(withId ? ['ID', 'INS_USUARIO_SEQ_DB'] : [])];
  const ids: number[] = [];
  for (let start = 0; start < rows.length; start += 2000) {
    const slice = rows.slice(start, start + 2000);
    const params: unknown[] = [];
    for (const row of slice) {
      const values = Object.keys(first).map((column) => row[column] ?? null);
      if (withId) {
        const key = `${table}:${row.EMPRESA}/${row.FILIAL}/${row.LOCAL}`;
        const id = (nextIds.get(key) ?? 0) + 1;
        nextIds.set(key, id);
        values.push(id, FIXTURE_USER);
      }
      params.push(...values);
    }
    const tuple = `(${columns.map(() => '?').join(', ')})`;
    const result = await db.execute(
      `INSERT INTO ${quoted} (${columns.map((column) => quoteIdentifier(parseIdentifier(column, 'column'))).join(', ')}) VALUES ${slice.map(() => tuple).join(', ')}`,
      params,
    );
    // One multi-row INSERT gets consecutive AUTO_INCREMENT values (innodb_autoinc_lock_mode 1 or 2 without concurrent inserts).
    for (let index = 0; index < slice.length; index++) ids.push(result.insertId + index);
  }
  return ids;
}

/** Inserts one row and returns its SEQ_DB. */
export async function insertRow(
  db: SqlExecutor,
  table: string,
  row: Record<string, unknown>,
): Promise<number> {
  const [id] = await insertRows(db, table, [row]);
  if (id === undefined) throw new Error('no row inserted');
  return id;
}

/** Writes the scope's override rows and TREE_VIEW row into sys_core_par_parametros. */
export async function writeParameters(
  db: SqlExecutor,
  scope: Scope,
  parameters: { overrides?: Partial<Record<keyof typeof OVERRIDE_PARAMETERS, string>>; treeView?: TreeView },
): Promise<void> {
  const rows: Record<string, unknown>[] = Object.entries(parameters.overrides ?? {}).map(
    ([logical, name]) => ({
      ...scope,
      NOME: OVERRIDE_PARAMETERS[logical as keyof typeof OVERRIDE_PARAMETERS],
      TIPO: 0,
      CONTEUDO: name,
    }),
  );
  if (parameters.treeView)
    rows.push({ ...scope, NOME: 'TREE_VIEW', TIPO: 1, CONTEUDO: JSON.stringify(parameters.treeView) });
  for (const row of rows) await insertRows(db, 'sys_core_par_parametros', [row], { withId: false });
}

/** Counts round trips: wraps an executor, counting every query and execute. */
export function countingExecutor(db: SqlExecutor): SqlExecutor & { count(): number; reset(): void } {
  let count = 0;
  return {
    query: (sql, params, options) => {
      count++;
      return db.query(sql, params, options);
    },
    execute: (sql, params, options) => {
      count++;
      return db.execute(sql, params, options);
    },
    count: () => count,
    reset: () => {
      count = 0;
    },
  };
}

/** One live group with one live activity linked under it, in `scope`: the smallest tree to read and save. */
export async function insertLinkedActivity(
  db: SqlExecutor,
  names: TableNames,
  scope: Scope,
): Promise<{ group: number; oper: number }> {
  const live = { ATIVO: 1, DELETED: 0 };
  const group = await insertRow(db, names.OPER_GRUPO, { ...scope, CODIGO: 'G', ...live });
  const oper = await insertRow(db, names.OPER, { ...scope, CODIGO: 'O', INDICE: '2.00', ...live });
  await insertRow(db, names.OPER_OPER_GRUPO, {
    ...scope,
    OPER_GRUPO_SEQ_DB: group,
    OPER_SEQ_DB: oper,
    ...live,
  });
  return { group, oper };
}

/** What {@link insertGroupSheet} inserted: the task sheet, the group and its activities, by SEQ_DB. */
export interface GroupSheet {
  sheet: number;
  group: number;
  opers: number[];
}

/**
 * Inserts in `scope` a task sheet, a live group (CODIGO G) and `count` live activities linked under it
 * (CODIGO O0, O1, …, with the columns `activity` adds): a two-level tree with enough activities that
 * each test of a file saves on keys no other test touched.
 */
export async function insertGroupSheet(
  db: SqlExecutor,
  names: TableNames,
  scope: Scope,
  count: number,
  activity: Record<string, unknown> = {},
): Promise<GroupSheet> {
  const live = { ATIVO: 1, DELETED: 0 };
  const [sheet = 0] = await insertRows(db, 'app_folha_tarefa', [{ ...scope, DELETED: 0 }], { withId: false });
  const group = await insertRow(db, names.OPER_GRUPO, { ...scope, CODIGO: 'G', ...live });
  const opers = await insertRows(
    db,
    names.OPER,
    Array.from({ length: count }, (_, index) => ({ ...scope, CODIGO: `O${index}`, ...activity, ...live })),
  );
  await insertRows(
    db,
    names.OPER_OPER_GRUPO,
    opers.map((oper) => ({ ...scope, OPER_GRUPO_SEQ_DB: group, OPER_SEQ_DB: oper, ...live })),
  );
  return { sheet, group, opers };
}

/** Every row of the metric, history and request tables, in order: what a refused save must leave as it was. */
export async function everyWrittenRow(db: SqlExecutor, names: TableNames): Promise<unknown[][]> {
  return Promise.all(
    [names.OPER_GRUPO_METRICA, 'task_association_history', 'task_association_request'].map((table) =>
      db.query(`SELECT * FROM ${table} ORDER BY SEQ_DB`),
    ),
  );
}

/** Asserts that `work` fails with an error matching `expected` and writes nothing (see {@link everyWrittenRow}). */
export async function expectRefusedWithoutWrites(
  db: SqlExecutor,
  names: TableNames,
  work: () => Promise<unknown>,
  expected: object,
): Promise<void> {
  const before = await everyWrittenRow(db, names);
  await expect(work()).rejects.toMatchObject(expected);
  expect(await everyWrittenRow(db, names)).toEqual(before);
}

/**
 * Groups over activities, with the default table names, METRICA1 defaulting to the activity's INDICE
 * and METRICA2 to 3: the tree of the files that save over defaults a page showed from no row.
 */
export const DEFAULTS_TREE_VIEW = TreeView.parse({
  layers: {
    '1': { table: tableNames().OPER_GRUPO, associationTable: tableNames().OPER_OPER_GRUPO },
    '2': { table: tableNames().OPER, isTask: true },
  },
  metrics: [
    { field: 'METRICA1', default: { type: 'field', name: 'INDICE' } },
    { field: 'METRICA2', default: { type: 'value', value: 3 } },
  ],
});

/** The default tree's plan with the default table names. */
export const DEFAULT_PLAN = planTree(tableNames(), undefined);

/** Three levels through association tables: regions, groups under them, activities under the groups. */
export const THREE_LEVEL_PLAN = planTree(
  tableNames(),
  TreeView.parse({
    layers: {
      '1': { table: 'app_regiao', associationTable: 'app_regiao_n_oper_grupo' },
      '2': { table: 'app_oper_grupo', associationTable: 'app_oper_n_oper_grupo' },
      '3': { table: 'app_oper', isTask: true },
    },
  }),
);
