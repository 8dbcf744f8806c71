import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEMO_TABLES } from '../../src/demo/demo-install.js';
import type { Demo } from '../../src/demo/start-demo.js';
import { PARAMETERS_TABLE } from '../../src/model/parameters.js';
import { TreeView } from '../../src/model.js';
import { seqOfCode, useServedScreen } from '../support/demo.js';

/*
 * A host's program saving through the HTTP API (a field app, an import) with JSON numbers: the demo
 * with a BIGINT counter, a DECIMAL(18,2) amount and a DOUBLE, as a host's metric table may hold them.
 * The body is sent as raw JSON text: JSON.parse is where digits are lost.
 */

const METRICS = DEMO_TABLES.metrics;

async function widen(demo: Demo) {
  await demo.scratch.db.execute(
    `ALTER TABLE ${METRICS} ADD CONTADOR bigint NULL, ADD VALOR decimal(18,2) NULL, ADD RAZAO double NULL`,
  );
  const treeView = demo.install.treeView;
  if (treeView === undefined) throw new Error('the demo has no TREE_VIEW');
  const widened = TreeView.parse({
    ...treeView,
    metrics: [...(treeView.metrics ?? []), { field: 'CONTADOR' }, { field: 'VALOR' }, { field: 'RAZAO' }],
  });
  await demo.scratch.db.execute(`UPDATE ${PARAMETERS_TABLE} SET CONTEUDO = ? WHERE NOME = 'TREE_VIEW'`, [
    JSON.stringify(widened),
  ]);
}

const served = useServedScreen(9, widen);

async function put(code: string, values: string) {
  const demo = served.demo();
  const activity = await seqOfCode(demo, demo.names.OPER, code);
  const group = await seqOfCode(demo, demo.names.OPER_GRUPO, 'G-SOIL');
  const body = `{"requestId":"${randomUUID()}","source":"api","entries":[{"activity":${activity},"group":${group},"values":${values}}]}`;
  const answer = await fetch(`${served.origin()}/associationtask?taskSheet=${demo.sample.taskSheet}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', accept: 'application/json', cookie: 'user=9' },
    body,
  });
  const stored = await demo.scratch.db.query(
    `SELECT CAST(CONTADOR AS CHAR) AS CONTADOR, VALOR, RAZAO FROM ${METRICS} WHERE OPER_SEQ_DB = ? AND DELETED = 0`,
    [activity],
  );
  return { status: answer.status, body: await answer.json(), stored };
}

describe('a JSON number in a save body', () => {
  // JSON.parse had rounded these before any check: 9007199254740993 read as ...992 and
  // 1234567890123456.78 as ...56.8, which were stored and answered 200. Found by review.
  it('is refused with a 400 at its path where JSON may have lost its digits, nothing stored', async () => {
    const counter = await put('A-DISC', '{"CONTADOR":9007199254740993}');
    expect(counter).toMatchObject({
      status: 400,
      body: {
        error: {
          code: 'INVALID_METRIC_VALUE',
          path: 'entries.0.values.CONTADOR',
          message: expect.stringContaining('send it as a string, such as "12345678901234567890"'),
        },
      },
      stored: [],
    });
    const amount = await put('A-DISC', '{"VALOR":1234567890123456.78}');
    expect(amount).toMatchObject({
      status: 400,
      body: {
        error: { path: 'entries.0.values.VALOR', message: expect.stringMatching(/send it as a string/) },
      },
      stored: [],
    });
  });

  it('stores the same values sent as strings exactly, and a DOUBLE’s JSON number as it is', async () => {
    const saved = await put(
      'A-SUBSOIL',
      '{"CONTADOR":"9007199254740993","VALOR":"1234567890123456.78","RAZAO":0.30000000000000004}',
    );
    expect(saved).toMatchObject({
      status: 200,
      stored: [{ CONTADOR: '9007199254740993', VALOR: '1234567890123456.78', RAZAO: 0.30000000000000004 }],
    });
  });
});
