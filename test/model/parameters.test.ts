import { beforeEach, describe, expect, it } from 'vitest';
import type { Scope } from '../../src/model/scope.js';
import { parseTreeView } from '../../src/model/tree-view.js';
import {
  ConfigError,
  overrideParameterRows,
  readParameters,
  TREE_VIEW_PARAMETER,
  treeViewParameterRow,
} from '../../src/model.js';
import { useScratchDatabase } from '../support/database.js';
import { PRODUCT_EXAMPLE } from './tree-view-cases.js';

const scratch = useScratchDatabase('config_parameters', { hostSchema: true });
const scope: Scope = { EMPRESA: 1, FILIAL: 1, LOCAL: 1 };

async function insert(rows: readonly (readonly [Scope, string, number, string | null])[]): Promise<number[]> {
  const ids: number[] = [];
  for (const [where, nome, tipo, conteudo] of rows) {
    const result = await scratch().db.execute(
      'INSERT INTO sys_core_par_parametros (EMPRESA, FILIAL, LOCAL, NOME, TIPO, CONTEUDO) VALUES (?, ?, ?, ?, ?, ?)',
      [where.EMPRESA, where.FILIAL, where.LOCAL, nome, tipo, conteudo],
    );
    ids.push(result.insertId);
  }
  return ids;
}

async function count(): Promise<number> {
  const [row] = await scratch().db.query<{ n: number }>('SELECT COUNT(*) AS n FROM sys_core_par_parametros');
  return Number(row?.n);
}

beforeEach(async () => {
  await scratch().db.execute('DELETE FROM sys_core_par_parametros');
});

describe('readParameters', () => {
  it('gives the defaults when the scope has no rows', async () => {
    const read = await readParameters(scratch().db, scope);
    expect(read.tableNames).toStrictEqual({
      OPER: 'app_oper',
      OPER_GRUPO: 'app_oper_grupo',
      OPER_GRUPO_METRICA: 'app_oper_grupo_metrica',
      OPER_OPER_GRUPO: 'app_oper_n_oper_grupo',
    });
    expect(read.treeView).toBeUndefined();
    expect(read.overrides).toStrictEqual({});
  });

  it('reads overrides and the TREE_VIEW of exactly its scope, ignoring unknown NOMEs', async () => {
    await insert([
      [scope, 'ASSOCIATION_TASK_OPER', 0, 'MO_OPER'],
      [scope, 'ASSOCIATION_TASK_OPER_OPER_GRUPO', 0, 'MO_OPER_MO_OPER_GRUPO'],
      [scope, 'TREE_VIEW', 1, JSON.stringify(PRODUCT_EXAMPLE)],
      [scope, 'SOMETHING_ELSE', 0, 'not; an identifier'],
      [{ ...scope, LOCAL: 2 }, 'ASSOCIATION_TASK_OPER_GRUPO', 0, 'OTHER_SCOPE'],
      [{ ...scope, LOCAL: 2 }, 'ASSOCIATION_TASK_OPER', 0, 'CONFLICT_IN_OTHER_SCOPE'],
      [{ EMPRESA: 2, FILIAL: 1, LOCAL: 1 }, 'TREE_VIEW', 1, 'not json'],
    ]);
    const read = await readParameters(scratch().db, scope);
    expect(read.tableNames).toStrictEqual({
      OPER: 'MO_OPER',
      OPER_GRUPO: 'app_oper_grupo',
      OPER_GRUPO_METRICA: 'app_oper_grupo_metrica',
      OPER_OPER_GRUPO: 'MO_OPER_MO_OPER_GRUPO',
    });
    expect(read.overrides).toStrictEqual({ OPER: 'MO_OPER', OPER_OPER_GRUPO: 'MO_OPER_MO_OPER_GRUPO' });
    expect(read.treeView).toStrictEqual(PRODUCT_EXAMPLE);
    expect(Object.keys(read.rows).sort()).toStrictEqual([
      'ASSOCIATION_TASK_OPER',
      'ASSOCIATION_TASK_OPER_OPER_GRUPO',
      'TREE_VIEW',
    ]);
  });

  it('refuses two conflicting rows of one name, naming both', async () => {
    const [first, second] = await insert([
      [scope, 'ASSOCIATION_TASK_OPER', 0, 'MO_OPER'],
      [scope, 'ASSOCIATION_TASK_OPER', 0, 'MO_OPER_2'],
    ]);
    const error = await readParameters(scratch().db, scope).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({
      code: 'CONFLICTING_PARAMETERS',
      message: `scope 1/1/1 has conflicting parameter rows: ASSOCIATION_TASK_OPER: rows SEQ_DB ${first} ("MO_OPER") and SEQ_DB ${second} ("MO_OPER_2") disagree: delete one of them`,
    });
  });

  it('accepts identical duplicates, using the first and returning the others', async () => {
    const [first, second] = await insert([
      [scope, 'TREE_VIEW', 1, '{"layers":{"1":{"table":"app_oper","isTask":true}}}'],
      [scope, 'TREE_VIEW', 1, '{"layers":{"1":{"table":"app_oper","isTask":true}}}'],
    ]);
    const read = await readParameters(scratch().db, scope);
    expect(read.rows.TREE_VIEW?.SEQ_DB).toBe(first);
    expect(read.duplicates.map((row) => row.SEQ_DB)).toStrictEqual([second]);
  });

  it('reads a CONTEUDO the host declares as a BLOB as UTF-8 text', async () => {
    await scratch().db.execute('ALTER TABLE sys_core_par_parametros MODIFY CONTEUDO longblob');
    try {
      await insert([[scope, 'TREE_VIEW', 1, JSON.stringify(PRODUCT_EXAMPLE)]]);
      expect((await readParameters(scratch().db, scope)).treeView).toStrictEqual(PRODUCT_EXAMPLE);
    } finally {
      await scratch().db.execute('ALTER TABLE sys_core_par_parametros MODIFY CONTEUDO longtext');
    }
  });

  it('finds NOME as the database compares it (case, trailing spaces)', async () => {
    await insert([[scope, 'association_task_oper ', 0, 'MO_OPER']]);
    expect((await readParameters(scratch().db, scope)).tableNames.OPER).toBe('MO_OPER');
  });

  it.each([
    [
      'an override that is not an identifier',
      'ASSOCIATION_TASK_OPER',
      'MO_OPER; DROP TABLE x',
      'INVALID_PARAMETER',
      'is invalid: CONTEUDO: "MO_OPER; DROP TABLE x" is not a table name',
    ],
    [
      'an empty override',
      'ASSOCIATION_TASK_OPER_GRUPO',
      null,
      'INVALID_PARAMETER',
      'is invalid: CONTEUDO: NULL is not a table name',
    ],
    [
      'two tables on one name',
      'ASSOCIATION_TASK_OPER',
      'app_oper_grupo',
      'DUPLICATE_TABLE_NAME',
      'clash: OPER and OPER_GRUPO would both use table "app_oper_grupo"',
    ],
    [
      'an invalid TREE_VIEW',
      'TREE_VIEW',
      '{"layers":{"1":{"table":"app_oper"},"3":{}}}',
      'INVALID_TREE_VIEW',
      'is invalid: 4 problems: layers.3.table: "table" is required; layers: layer "2" is missing',
    ],
    [
      'a TREE_VIEW that is not JSON',
      'TREE_VIEW',
      '{layers}',
      'INVALID_TREE_VIEW',
      'not valid JSON at line 1, column 2',
    ],
  ])('refuses %s, naming the row', async (_name, nome, conteudo, code, message) => {
    const [id] = await insert([[scope, nome, nome === 'TREE_VIEW' ? 1 : 0, conteudo]]);
    const error = await readParameters(scratch().db, scope).catch((e: unknown) => e);
    expect(error).toMatchObject({ code });
    expect((error as Error).message).toContain(message);
    expect((error as Error).message).toContain(
      code === 'DUPLICATE_TABLE_NAME' ? `(${nome} is SEQ_DB ${id})` : `(SEQ_DB ${id}, scope 1/1/1)`,
    );
    expect(await count()).toBe(1);
    if (code === 'DUPLICATE_TABLE_NAME') expect(error).toMatchObject({ path: 'tableNames.OPER_GRUPO' });
  });

  it('names the missing parameter table as the path', async () => {
    const { db } = scratch();
    await db.execute('RENAME TABLE sys_core_par_parametros TO sys_core_par_parametros_away');
    try {
      await expect(readParameters(db, scope)).rejects.toMatchObject({
        code: 'NO_PARAMETER_TABLE',
        path: 'sys_core_par_parametros',
      });
    } finally {
      await db.execute('RENAME TABLE sys_core_par_parametros_away TO sys_core_par_parametros');
    }
  });
});

describe('parameter row builders', () => {
  it('builds override rows for the names given', () => {
    expect(
      overrideParameterRows(scope, { OPER: 'MO_OPER', OPER_GRUPO_METRICA: 'MO_OPER_GRUPO_METRICA' }),
    ).toStrictEqual([
      { EMPRESA: 1, FILIAL: 1, LOCAL: 1, NOME: 'ASSOCIATION_TASK_OPER', TIPO: 0, CONTEUDO: 'MO_OPER' },
      {
        EMPRESA: 1,
        FILIAL: 1,
        LOCAL: 1,
        NOME: 'ASSOCIATION_TASK_OPER_GRUPO_METRICA',
        TIPO: 0,
        CONTEUDO: 'MO_OPER_GRUPO_METRICA',
      },
    ]);
  });

  it.each([
    [{ OPER: 'MO OPER' }, 'table name for OPER "MO OPER" is not an SQL identifier'],
    [{ OPER: 'x', OPER_GRUPO: 'X' }, 'OPER and OPER_GRUPO would both use table "X"'],
    [{ OPERATION: 'x' } as never, '"OPERATION" is not a logical table name'],
  ])('refuses overrides %j', (overrides, message) => {
    expect(() => overrideParameterRows(scope, overrides)).toThrowError(message);
  });

  it('builds the TREE_VIEW row (TIPO 1, compact JSON, no $schema) that reads back the same', async () => {
    const parsed = parseTreeView({ $schema: './tree-view.schema.json', ...PRODUCT_EXAMPLE });
    if (!parsed.success) throw new Error('the product example is valid');
    const row = treeViewParameterRow(scope, parsed.data);
    expect(row).toStrictEqual({
      EMPRESA: 1,
      FILIAL: 1,
      LOCAL: 1,
      NOME: TREE_VIEW_PARAMETER,
      TIPO: 1,
      CONTEUDO: JSON.stringify(PRODUCT_EXAMPLE),
    });
    await insert([[scope, row.NOME, row.TIPO, row.CONTEUDO]]);
    expect((await readParameters(scratch().db, scope)).treeView).toStrictEqual(PRODUCT_EXAMPLE);
  });
});
