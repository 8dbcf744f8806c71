import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { tableNames } from '../../src/model/table-names.js';
import { syncSchema } from '../../src/sync/sync.js';
import { captureIo } from '../support/cli.js';
import { freshDatabase, useScratchDatabase } from '../support/database.js';

const VALID =
  '{"layers":{"1":{"table":"app_oper_grupo","associationTable":"app_oper_n_oper_grupo"},"2":{"table":"app_oper","isTask":true}}}';
const INVALID = '{"layers":{"1":{"table":"app_oper_grupo"},"3":{"table":"app oper","isTask":true}}}';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ta-validate-'));
  await writeFile(join(dir, 'valid.json'), `\uFEFF${VALID}\n`);
  await writeFile(join(dir, 'invalid.json'), INVALID);
  // A label saved as Latin-1 (é as the one byte 0xE9).
  await writeFile(
    join(dir, 'latin1.json'),
    Buffer.from(VALID.replace('"isTask":true', '"isTask":true,"label":"Métricas"'), 'latin1'),
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('validate <file|->', () => {
  it('accepts a valid file (a BOM included) with exit 0', async () => {
    const io = captureIo();
    expect(await runCli(['validate', join(dir, 'valid.json')], io)).toBe(0);
    expect(io.err()).toBe(`✔ ${join(dir, 'valid.json')}: a valid TREE_VIEW\n`);
    expect(io.out()).toBe('');
  });

  it('prints every problem with its path and exits 1', async () => {
    const io = captureIo();
    expect(await runCli(['validate', join(dir, 'invalid.json')], io)).toBe(1);
    expect(io.err().replace(dir, '<dir>')).toMatchInlineSnapshot(`
      "✖ "app oper" is not an SQL identifier: use 1 to 64 ASCII letters, digits and underscores, not starting with a digit → at layers.3.table
      ✖ layer "2" is missing: layers are numbered "1" to "3" without gaps → at layers
      ✖ layer 1 needs "associationTable", the table linking it to layer 2 → at layers.1.associationTable
      ✖ <dir>/invalid.json: 3 problems
      "
    `);
    expect(io.out()).toBe('');
  });

  it('prints one JSON document with --json', async () => {
    const io = captureIo();
    expect(await runCli(['validate', join(dir, 'invalid.json'), '--json'], io)).toBe(1);
    const document = JSON.parse(io.out());
    expect(document.valid).toBe(false);
    expect(
      document.issues.map((issue: { path: string; code: string }) => [issue.path, issue.code]),
    ).toStrictEqual([
      ['layers.3.table', 'INVALID_IDENTIFIER'],
      ['layers', 'LAYER_GAP'],
      ['layers.1.associationTable', 'MISSING_ASSOCIATION_TABLE'],
    ]);
    const valid = captureIo();
    expect(await runCli(['validate', '--json', join(dir, 'valid.json')], valid)).toBe(0);
    expect(JSON.parse(valid.out())).toStrictEqual({ valid: true, issues: [] });
  });

  it('refuses a file that is not UTF-8, saying at which byte, also on standard input', async () => {
    const latin1 = VALID.replace('"isTask":true', '"isTask":true,"label":"Métricas"');
    const offset = latin1.indexOf('é');
    const issue = {
      path: '',
      code: 'INVALID_UTF8',
      message: `byte 0xE9 at offset ${offset} (line 1) is not UTF-8: save the file as UTF-8 (an editor's "encoding" setting; Latin-1 or Windows-1252 write é, ç, ã as one byte)`,
    };
    const io = captureIo();
    expect(await runCli(['validate', join(dir, 'latin1.json'), '--json'], io)).toBe(1);
    expect(JSON.parse(io.out())).toStrictEqual({ valid: false, issues: [issue] });
    const piped = {
      ...captureIo(),
      stdin: (async function* () {
        yield Buffer.from(latin1, 'latin1');
      })(),
    };
    expect(await runCli(['validate', '-', '--json'], piped)).toBe(1);
    expect(JSON.parse(piped.out())).toStrictEqual({ valid: false, issues: [issue] });
  });

  it('reads standard input for -', async () => {
    const ok = captureIo({ stdin: VALID });
    expect(await runCli(['validate', '-'], ok)).toBe(0);
    expect(ok.err()).toBe('✔ standard input: a valid TREE_VIEW\n');
    const garbage = captureIo({ stdin: `${VALID} trailing` });
    expect(await runCli(['validate', '-', '--json'], garbage)).toBe(1);
    expect(JSON.parse(garbage.out())).toStrictEqual({
      valid: false,
      issues: [
        {
          path: '',
          code: 'INVALID_JSON',
          message: `not valid JSON at line 1, column ${VALID.length + 2} (offset ${VALID.length + 1}): expected the end of the text after the JSON document, found "t"`,
        },
      ],
    });
  });

  it('checks several files, one result line each, and exits 1 when one has a problem', async () => {
    const io = captureIo();
    const files = [join(dir, 'valid.json'), join(dir, 'invalid.json')];
    expect(await runCli(['validate', ...files], io)).toBe(1);
    const results = io
      .err()
      .split('\n')
      .filter((line) => line.includes(dir));
    expect(results).toEqual([`✔ ${files[0]}: a valid TREE_VIEW`, `✖ ${files[1]}: 3 problems`]);
    const json = captureIo();
    expect(await runCli(['validate', '--json', ...files], json)).toBe(1);
    const document = JSON.parse(json.out());
    expect(document.valid).toBe(false);
    expect(document.issues).toHaveLength(3);
    expect(document.issues[0]).toMatchObject({
      file: files[1],
      path: 'layers.3.table',
      code: 'INVALID_IDENTIFIER',
    });
    const valid = captureIo();
    expect(await runCli(['validate', join(dir, 'valid.json'), join(dir, 'valid.json')], valid)).toBe(0);
  });

  it('reads every file before checking: one that cannot be read is exit 2 with no result line', async () => {
    const io = captureIo();
    expect(await runCli(['validate', join(dir, 'valid.json'), join(dir, 'missing.json')], io)).toBe(2);
    expect(io.err()).toContain(`cannot read ${join(dir, 'missing.json')}: no such file`);
    expect(io.err()).not.toContain('✔');
  });

  it.each([
    [[], 'give TREE_VIEW files, - for standard input, or --scope to read it from the database'],
    [['a.json', '--scope', '1/1/1'], 'give either files or --scope, not both'],
    [['-', '-'], 'standard input (-) can be read only once'],
    [['--database-url', 'mysql://root@127.0.0.1/test'], '--database-url reads the TREE_VIEW of a scope'],
    [['--scope', '1/x/1'], 'scope "1/x/1" is not EMPRESA/FILIAL/LOCAL'],
    [['--frobnicate', 'a.json'], 'unknown option --frobnicate'],
    [['does-not-exist.json'], 'cannot read does-not-exist.json: no such file'],
  ])('refuses %j with exit 2', async (args, message) => {
    const io = captureIo();
    expect(await runCli(['validate', ...args], io)).toBe(2);
    expect(io.err()).toContain(message);
    expect(io.err()).toContain('usage: task-association validate <file|->');
    expect(io.out()).toBe('');
  });
});

describe('validate --scope (database)', () => {
  const scratch = useScratchDatabase('cli_validate', { hostSchema: true });
  const run = async (scope: string, ...extra: string[]) => {
    const io = captureIo();
    const code = await runCli(
      ['validate', '--database-url', scratch().url, '--scope', scope, '--json', ...extra],
      io,
    );
    return { code, document: JSON.parse(io.out()), err: io.err() };
  };
  const insert = (empresa: number, nome: string, conteudo: string) =>
    scratch().db.execute(
      'INSERT INTO sys_core_par_parametros (EMPRESA, FILIAL, LOCAL, NOME, TIPO, CONTEUDO) VALUES (?, 1, 1, ?, 1, ?)',
      [empresa, nome, conteudo],
    );

  beforeAll(async () => {
    await syncSchema(scratch().db, tableNames());
  });

  beforeEach(async () => {
    await scratch().db.execute('DELETE FROM sys_core_par_parametros');
  });

  it('checks the TREE_VIEW row of exactly that scope', async () => {
    await insert(1, 'TREE_VIEW', VALID);
    await insert(2, 'TREE_VIEW', INVALID);
    await insert(3, 'ASSOCIATION_TASK_OPER', 'not an identifier');
    expect(await run('1/1/1')).toMatchObject({ code: 0, document: { valid: true, issues: [] } });
    const invalid = await run('2/1/1');
    expect(invalid.code).toBe(1);
    expect(invalid.document.issues).toHaveLength(3);
    expect(invalid.err).toContain(
      '✖ layer "2" is missing: layers are numbered "1" to "3" without gaps → at layers',
    );
    expect(invalid.err).toMatch(/the TREE_VIEW row SEQ_DB \d+ of scope 2\/1\/1: 3 problems/);
  });

  // The same mistakes verify and every load find: validate --scope used to say ✔ for all of them.
  it('checks a valid TREE_VIEW against the database as verify does, with the scope own table names', async () => {
    await insert(
      4,
      'TREE_VIEW',
      '{"layers":{"1":{"table":"app_setor","associationTable":"app_oper_n_oper_grupo"},"2":{"table":"app_oper","isTask":true}},"metrics":[{"field":"METRICA1","default":{"type":"value","value":1.234}},{"field":"METRICA2","default":{"type":"taskSheet","name":"NAO_EXISTE"}}]}',
    );
    const unfit = await run('4/1/1');
    expect(unfit.code).toBe(1);
    expect(
      unfit.document.issues.map((issue: { code: string; path: string }) => `${issue.code} ${issue.path}`),
    ).toEqual([
      'TREE_VIEW_TABLE_MISSING layers.1.table',
      // SETOR_SEQ_DB, the parent column derived from app_setor's name.
      'TREE_VIEW_COLUMN_MISSING layers.1.parentColumn',
      'TREE_VIEW_COLUMN_MISSING metrics.1.default.name',
      'TREE_VIEW_METRIC_TABLE metricAssociationTable',
      'TREE_VIEW_DEFAULT_UNFIT metrics.0.default.value',
    ]);
    // Override rows every load would refuse are said too, as verify says them, TREE_VIEW or not.
    await insert(5, 'TREE_VIEW', VALID);
    await insert(5, 'ASSOCIATION_TASK_OPER', 'not an identifier');
    const override = await run('5/1/1');
    expect(override.code).toBe(1);
    expect(override.document.issues).toMatchObject([
      {
        code: 'OVERRIDE_INVALID',
        path: 'sys_core_par_parametros.ASSOCIATION_TASK_OPER',
        message: expect.stringContaining('not a table name'),
      },
    ]);
    await insert(6, 'ASSOCIATION_TASK_OPER_GRUPO', 'app_folha_tarefa');
    expect(await run('6/1/1')).toMatchObject({
      code: 1,
      document: {
        valid: false,
        issues: [{ code: 'OVERRIDE_INVALID', path: 'sys_core_par_parametros.ASSOCIATION_TASK_OPER_GRUPO' }],
      },
    });
    // A row naming a table that does not exist: every load would fail on it (it said ✔).
    await insert(9, 'ASSOCIATION_TASK_OPER', 'MO_NO_SUCH_TABLE');
    expect(await run('9/1/1')).toMatchObject({
      code: 1,
      document: {
        valid: false,
        issues: [{ code: 'OVERRIDE_TABLE_MISSING', path: 'sys_core_par_parametros.ASSOCIATION_TASK_OPER' }],
      },
    });
    // Two rows on one table: still one {valid, issues} document, not an error document.
    await insert(8, 'TREE_VIEW', VALID);
    await insert(8, 'ASSOCIATION_TASK_OPER', 'app_oper_grupo');
    expect(await run('8/1/1')).toMatchObject({
      code: 1,
      document: { valid: false, issues: [{ code: 'OVERRIDE_CLASH', path: 'sys_core_par_parametros' }] },
    });
  });

  it('accepts a scope without TREE_VIEW (optional: the default tree), and reports conflicting rows', async () => {
    const none = await run('3/1/1');
    expect(none).toMatchObject({ code: 0, document: { valid: true, issues: [] } });
    expect(none.err).toBe('✔ scope 3/1/1: no TREE_VIEW: the default tree is used\n');
    await insert(1, 'TREE_VIEW', VALID);
    await insert(1, 'TREE_VIEW', INVALID);
    const conflict = await run('1/1/1');
    expect(conflict.code).toBe(1);
    expect(conflict.document.issues).toMatchObject([{ path: 'TREE_VIEW', code: 'CONFLICTING_PARAMETERS' }]);
    const [row] = await scratch().db.query<{ n: number }>(
      'SELECT COUNT(*) AS n FROM sys_core_par_parametros',
    );
    expect(Number(row?.n)).toBe(2);
  });

  it('exits 1 with one line on a database without the parameter table', async () => {
    const empty = await freshDatabase('cli_validate_empty');
    try {
      const io = captureIo();
      expect(await runCli(['validate', '--database-url', empty.url, '--scope', '1/1/1'], io)).toBe(1);
      expect(io.err()).toBe(
        "task-association validate: the database has no sys_core_par_parametros table: is the database URL the host's database?\n",
      );
    } finally {
      await empty.drop();
    }
  });

  it('exits 1 with one line when the database cannot be reached', async () => {
    const io = captureIo();
    const code = await runCli(
      ['validate', '--database-url', 'mysql://root@127.0.0.1:1/test', '--scope', '1/1/1'],
      io,
    );
    expect(code).toBe(1);
    expect(io.err()).toMatch(/^task-association validate: cannot reach the database at 127\.0\.0\.1:1/);
    expect(io.err().trim().split('\n')).toHaveLength(1);
  });
});
