import { beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../../src/model/scope.js';
import { tableNames } from '../../src/model/table-names.js';
import { planTree } from '../../src/model/tree-plan.js';
import { ConfigError, TreeView } from '../../src/model.js';
import { createAssociationHandler, loadTaskTree, saveMetrics } from '../../src/tree.js';
import { useScratchDatabase } from '../support/database.js';
import { insertRow, insertRows, installTables, writeParameters } from './fixture.js';

/** Writes are accepted only as JSON; reads ask for JSON (a browser's text/html gets the screen's page). */
const JSON_BODY = { 'content-type': 'application/json' };

const scratch = useScratchDatabase('resolvers_installation_errors', { hostSchema: true });
const names = tableNames();
let nextScope = 20;
const sheets = new Map<number, number>();

/** A fresh scope with one live task sheet, and the parameter rows given. */
async function scopeWith(parameters: Parameters<typeof writeParameters>[2]): Promise<Scope> {
  const scope = { EMPRESA: nextScope++, FILIAL: 1, LOCAL: 1 };
  const [sheet] = await insertRows(scratch().db, 'app_folha_tarefa', [{ ...scope, DELETED: 0 }], {
    withId: false,
  });
  sheets.set(scope.EMPRESA, sheet ?? 0);
  await writeParameters(scratch().db, scope, parameters);
  return scope;
}

async function seqDbOf(scope: Scope, nome: string): Promise<number> {
  const [row] = await scratch().db.query<{ SEQ_DB: number }>(
    'SELECT SEQ_DB FROM sys_core_par_parametros WHERE EMPRESA = ? AND NOME = ?',
    [scope.EMPRESA, nome],
  );
  return Number(row?.SEQ_DB);
}

/** GET and PUT through the handler, as a host mounts it. */
async function answers(scope: Scope) {
  const handle = createAssociationHandler({
    db: scratch().db,
    context: async () => ({ scope, user: 7 }),
    onError: () => undefined,
  });
  const url = `http://host.test/associationtask?taskSheet=${sheets.get(scope.EMPRESA)}`;
  const body = JSON.stringify({ entries: [{ activity: 1, group: 1, values: { METRICA1: '1.00' } }] });
  const results = [];
  for (const init of [
    { method: 'GET', headers: { accept: 'application/json' } },
    { method: 'PUT', body, headers: JSON_BODY },
  ]) {
    const response = await handle(new Request(url, init));
    results.push({ status: response.status, ...((await response.json()) as { error: object }) });
  }
  return results;
}

const task = (table: string) => ({ table, isTask: true });

beforeAll(async () => {
  await installTables(scratch().db, names);
  await insertRow(scratch().db, names.OPER, { EMPRESA: 20, FILIAL: 1, LOCAL: 1, CODIGO: 'O', ATIVO: 1 });
});

describe('a parameter row naming a table the package cannot use', () => {
  it('names the override row (SEQ_DB, NOME, scope) and the missing table, on GET and PUT', async () => {
    const scope = await scopeWith({ overrides: { OPER: 'app_nao_existe' } });
    // A group, so that the activity level (the missing table) is read.
    await insertRow(scratch().db, names.OPER_GRUPO, { ...scope, CODIGO: 'G', ATIVO: 1 });
    const seqDb = await seqDbOf(scope, 'ASSOCIATION_TASK_OPER');
    for (const answer of await answers(scope)) {
      expect(answer).toMatchObject({
        status: 500,
        error: { code: 'TABLE_MISSING', path: 'ASSOCIATION_TASK_OPER' },
      });
      const { message } = answer.error as { message: string };
      expect(message).toContain(
        `parameter ASSOCIATION_TASK_OPER (SEQ_DB ${seqDb}, scope ${scope.EMPRESA}/1/1)`,
      );
      expect(message).toContain('app_nao_existe');
    }
  });

  it("says the same through the screen's own reads: the first screen, a branch and a search", async () => {
    const scope = await scopeWith({ overrides: { OPER_GRUPO: 'app_grupo_nao_existe' } });
    const seqDb = await seqDbOf(scope, 'ASSOCIATION_TASK_OPER_GRUPO');
    const handle = createAssociationHandler({
      db: scratch().db,
      context: async () => ({ scope, user: 7 }),
      onError: () => undefined,
    });
    const base = `http://host.test/associationtask?taskSheet=${sheets.get(scope.EMPRESA)}`;
    // Before, a 500 INTERNAL_ERROR for the first two, and a search answered "no match".
    for (const part of ['&part=start', '&part=children', '&part=search&q=a']) {
      const response = await handle(
        new Request(`${base}${part}`, { headers: { accept: 'application/json' } }),
      );
      expect({ part, status: response.status, ...((await response.json()) as object) }).toMatchObject({
        part,
        status: 500,
        error: {
          code: 'TABLE_MISSING',
          path: 'ASSOCIATION_TASK_OPER_GRUPO',
          message: expect.stringContaining(
            `parameter ASSOCIATION_TASK_OPER_GRUPO (SEQ_DB ${seqDb}, scope ${scope.EMPRESA}/1/1) names table app_grupo_nao_existe`,
          ),
        },
      });
    }
  });

  it('names the override row and the host table that lacks the columns it needs', async () => {
    const scope = await scopeWith({ overrides: { OPER_GRUPO: 'app_cliente' } });
    const seqDb = await seqDbOf(scope, 'ASSOCIATION_TASK_OPER_GRUPO');
    await expect(
      loadTaskTree(scratch().db, { scope, taskSheet: sheets.get(scope.EMPRESA) ?? 0 }),
    ).rejects.toMatchObject({
      code: 'TABLE_UNUSABLE',
      path: 'ASSOCIATION_TASK_OPER_GRUPO',
      message: expect.stringMatching(
        new RegExp(
          `^parameter ASSOCIATION_TASK_OPER_GRUPO \\(SEQ_DB ${seqDb}, scope ${scope.EMPRESA}/1/1\\) names table app_cliente, which lacks EMPRESA, FILIAL, LOCAL, DELETED, ATIVO, OPER_GRUPO_SEQ_DB`,
        ),
      ),
    });
  });

  it('names the TREE_VIEW row and the place in it of a missing table', async () => {
    const treeView = TreeView.parse({
      layers: {
        '1': { table: names.OPER_GRUPO, associationTable: 'app_ligacao_inexistente' },
        '2': task(names.OPER),
      },
    });
    const scope = await scopeWith({ treeView });
    await insertRow(scratch().db, names.OPER_GRUPO, { ...scope, CODIGO: 'G', ATIVO: 1 });
    const seqDb = await seqDbOf(scope, 'TREE_VIEW');
    for (const answer of await answers(scope)) {
      expect(answer).toMatchObject({
        status: 500,
        error: {
          code: 'TABLE_MISSING',
          path: 'TREE_VIEW.layers.1.associationTable',
          message: expect.stringContaining(
            `parameter TREE_VIEW (SEQ_DB ${seqDb}, scope ${scope.EMPRESA}/1/1) at layers.1.associationTable names table app_ligacao_inexistente`,
          ),
        },
      });
      // A table the TREE_VIEW adds is the host's to create: db sync makes only the four.
      expect((answer.error as { message: string }).message).toContain(
        'create it (db sync makes only the four tables of the installation) or correct the TREE_VIEW at layers.1.associationTable',
      );
    }
  });

  it('names the TREE_VIEW row whose metricAssociationTable is a host table without the metric columns', async () => {
    const treeView = TreeView.parse({
      layers: { '1': { table: names.OPER, isTask: true } },
      metricAssociationTable: 'app_folha_tarefa',
    });
    const scope = await scopeWith({ treeView });
    const oper = await insertRow(scratch().db, names.OPER, { ...scope, CODIGO: 'O', ATIVO: 1, DELETED: 0 });
    const seqDb = await seqDbOf(scope, 'TREE_VIEW');
    await expect(
      saveMetrics(scratch().db, {
        scope,
        user: 7,
        taskSheet: sheets.get(scope.EMPRESA) ?? 0,
        entries: [{ activity: oper, group: null, values: { METRICA1: '1.00' } }],
      }),
    ).rejects.toMatchObject({
      code: 'METRIC_TABLE_UNUSABLE',
      path: 'TREE_VIEW.metricAssociationTable',
      message: expect.stringMatching(
        new RegExp(
          `^parameter TREE_VIEW \\(SEQ_DB ${seqDb}, scope ${scope.EMPRESA}/1/1\\) at metricAssociationTable: metric table app_folha_tarefa lacks `,
        ),
      ),
    });
  });

  // On a server that tells case apart (lower_case_table_names=0, as here), mo_link_x and MO_LINK_X
  // are two tables: the row that wrote the missing one is blamed, not the override that is right.
  it('blames the row that wrote the missing name exactly, before one naming it in another case', async () => {
    await scratch().db.execute(`CREATE TABLE MO_LINK_X LIKE ${names.OPER_OPER_GRUPO}`);
    const treeView = TreeView.parse({
      layers: {
        '1': { table: names.OPER_GRUPO, associationTable: 'mo_link_x' },
        '2': { table: names.OPER, isTask: true },
      },
    });
    const scope = await scopeWith({ overrides: { OPER_OPER_GRUPO: 'MO_LINK_X' }, treeView });
    await insertRow(scratch().db, names.OPER_GRUPO, { ...scope, CODIGO: 'G', ATIVO: 1, DELETED: 0 });
    await expect(
      loadTaskTree(scratch().db, { scope, taskSheet: sheets.get(scope.EMPRESA) ?? 0 }),
    ).rejects.toMatchObject({ code: 'TABLE_MISSING', path: 'TREE_VIEW.layers.1.associationTable' });
  });

  it("says a table given by a library caller is the caller's, naming it", async () => {
    const scope = await scopeWith({});
    await expect(
      saveMetrics(scratch().db, {
        scope,
        user: 7,
        taskSheet: sheets.get(scope.EMPRESA) ?? 0,
        entries: [{ activity: 1, group: 1, values: { METRICA1: '1.00' } }],
        plan: planTree({ ...names, OPER_OPER_GRUPO: 'app_sem_tabela' }),
      }),
    ).rejects.toMatchObject({
      code: 'TABLE_MISSING',
      path: 'plan',
      message: expect.stringContaining('app_sem_tabela'),
    });
  });

  it.each(['app_folha_tarefa', 'SYS_CORE_MENU', 'sys_core_par_parametros'])(
    'refuses an override naming the host table %s before any read of it',
    async (table) => {
      const scope = await scopeWith({ overrides: { OPER_GRUPO_METRICA: table } });
      const seqDb = await seqDbOf(scope, 'ASSOCIATION_TASK_OPER_GRUPO_METRICA');
      const error = await loadTaskTree(scratch().db, { scope, taskSheet: 1 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigError);
      expect(error).toMatchObject({
        code: 'INVALID_PARAMETER',
        issues: [{ code: 'HOST_TABLE', path: 'CONTEUDO' }],
        message: expect.stringContaining(
          `parameter ASSOCIATION_TASK_OPER_GRUPO_METRICA (SEQ_DB ${seqDb}, scope ${scope.EMPRESA}/1/1) is invalid`,
        ),
      });
    },
  );
});

describe('spaces around an override value', () => {
  it('ignores ASCII spaces, tabs and line breaks around the name', async () => {
    const scope = await scopeWith({ overrides: { OPER: ` \t${names.OPER}\r\n` } });
    const tree = await loadTaskTree(scratch().db, { scope, taskSheet: sheets.get(scope.EMPRESA) ?? 0 });
    expect(tree.roots).toEqual([]);
  });

  it.each([
    ['a no-break space', `${names.OPER}\u00a0`, 'U+00A0'],
    ['a byte-order mark', `\ufeff${names.OPER}`, 'U+FEFF'],
    ['an ideographic space', `\u3000${names.OPER}`, 'U+3000'],
  ])('refuses %s, naming the character and the row', async (_, value, character) => {
    const scope = await scopeWith({ overrides: { OPER: value } });
    const seqDb = await seqDbOf(scope, 'ASSOCIATION_TASK_OPER');
    await expect(loadTaskTree(scratch().db, { scope, taskSheet: 1 })).rejects.toMatchObject({
      code: 'INVALID_PARAMETER',
      issues: [{ code: 'INVALID_IDENTIFIER', message: expect.stringContaining(character) }],
      message: expect.stringContaining(
        `parameter ASSOCIATION_TASK_OPER (SEQ_DB ${seqDb}, scope ${scope.EMPRESA}/1/1)`,
      ),
    });
  });
});
