import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import {
  checkInstallFile,
  InstallFile,
  InstallFileError,
  loadInstallFile,
  parseInstallFile,
} from '../../src/installer/install-file.js';
import { installJsonSchema } from '../../src/installer/json-schema.js';
import { serializeJsonSchema } from '../../src/model/json-schema.js';
import { parseTreeView } from '../../src/model.js';
import { EXAMPLE_INSTALL_FILE } from './support.js';

const SCHEMA_FILE = new URL('../../schemas/install.schema.json', import.meta.url);
const example = JSON.parse(await readFile(EXAMPLE_INSTALL_FILE, 'utf8'));

function refusal(document: unknown) {
  try {
    parseInstallFile(JSON.stringify(document));
  } catch (error) {
    return error;
  }
  throw new Error('expected the install file to be refused');
}

describe('the install file', () => {
  it('reads examples/install.json', async () => {
    const file = await loadInstallFile(new URL(EXAMPLE_INSTALL_FILE).pathname);
    expect(file.scope).toEqual({ EMPRESA: 1, FILIAL: 1, LOCAL: 1 });
    expect(file.tableNames?.OPER).toBe('MO_OPER');
    expect(file.treeView?.layers['2']).toEqual({ table: 'MO_OPER', isTask: true });
  });

  it('lists every problem with its path', () => {
    const error = refusal({
      ...example,
      scope: { EMPRESA: -1, FILIAL: 1 },
      tableNames: { OPER: 'app_oper; DROP TABLE x', NOPE: 'x' },
      menus: { ...example.menus, activities: { father: 'root', order: 1 } },
      treeView: { layers: { '1': { table: 'MO_OPER' } } },
      extra: true,
    });
    expect(error).toBeInstanceOf(InstallFileError);
    expect(error).toMatchObject({ code: 'INSTALL_FILE_INVALID', path: 'scope.EMPRESA' });
    // One issue model for every configuration input: path, a stable code, a message to act on.
    expect((error as InstallFileError).issues).toMatchInlineSnapshot(`
      [
        {
          "code": "INVALID_VALUE",
          "message": "-1 is too small: use a whole number of at least 0",
          "path": "scope.EMPRESA",
        },
        {
          "code": "MISSING_KEY",
          "message": ""LOCAL" is required",
          "path": "scope.LOCAL",
        },
        {
          "code": "INVALID_IDENTIFIER",
          "message": ""app_oper; DROP TABLE x" is not an SQL identifier: use 1 to 64 ASCII letters, digits and underscores, not starting with a digit",
          "path": "tableNames.OPER",
        },
        {
          "code": "UNKNOWN_KEY",
          "message": "unknown key "NOPE": allowed keys are OPER, OPER_GRUPO, OPER_GRUPO_METRICA, OPER_OPER_GRUPO",
          "path": "tableNames.NOPE",
        },
        {
          "code": "WRONG_TYPE",
          "message": "expected a number, got a string ("root")",
          "path": "menus.activities.father",
        },
        {
          "code": "MISSING_TASK_LAYER",
          "message": "the last layer (1) is the task level: give it "isTask": true",
          "path": "treeView.layers.1.isTask",
        },
        {
          "code": "UNKNOWN_KEY",
          "message": "unknown key "extra": allowed keys are $schema, scope, actingUser, tableNames, menus, linkField, treeView, hostColumns",
          "path": "extra",
        },
      ]
    `);
    expect((error as Error).message).toMatch(
      /^install file is not a valid install file: 7 problems: scope\.EMPRESA: -1 is too small/,
    );
  });

  // Found by a review: the name clash came alone (DUPLICATE_TABLE_NAME, no issues) at plan time, then,
  // once fixed, the flag column with a path missing its linkField prefix.
  it('lists a table name clash, a host table and a link flag column that is another column, with the rest', () => {
    const error = refusal({
      ...example,
      tableNames: {
        ...example.tableNames,
        OPER: example.tableNames.OPER_GRUPO,
        OPER_OPER_GRUPO: 'sys_core_menu',
      },
      linkField: { ...example.linkField, mobileFlagColumn: 'OPCOES' },
      hostColumns: { sys_core_menu: { 'bad name': 1 } },
    }) as InstallFileError;
    expect(error.code).toBe('INSTALL_FILE_INVALID');
    expect(error.issues.map((issue) => `${issue.code} ${issue.path}`)).toEqual(
      expect.arrayContaining([
        'DUPLICATE_TABLE_NAME tableNames.OPER_GRUPO',
        'HOST_TABLE tableNames.OPER_OPER_GRUPO',
        'INVALID_VALUE linkField.mobileFlagColumn',
      ]),
    );
    // In our words, not zod's ("Invalid key in record").
    expect(error.issues.find((issue) => issue.path.startsWith('hostColumns'))).toEqual({
      path: 'hostColumns.sys_core_menu.bad name',
      code: 'INVALID_IDENTIFIER',
      message:
        'the key "bad name" is not allowed: use 1 to 64 ASCII letters, digits and underscores, not starting with a digit',
    });
    // A no-break space copied from a document: named, as the parameter rows' reader names it.
    const hidden = refusal({ ...example, tableNames: { ...example.tableNames, OPER: 'MO_OPER\u00a0' } });
    expect((hidden as InstallFileError).issues).toEqual([
      {
        path: 'tableNames.OPER',
        code: 'INVALID_IDENTIFIER',
        message:
          '"MO_OPER\u00a0" is not an SQL identifier: it holds U+00A0 at character 8: use 1 to 64 ASCII letters, digits and underscores, not starting with a digit',
      },
    ]);
    const long = refusal({ ...example, linkField: { ...example.linkField, label: 'x'.repeat(120) } });
    expect((long as InstallFileError).issues).toEqual([
      {
        path: 'linkField.label',
        code: 'INVALID_VALUE',
        message: 'the text has 120 characters: use at most 100',
      },
    ]);
  });

  it('gives a TREE_VIEW mistake the code and message validate gives, at its path in the file', () => {
    const treeView = {
      layers: {
        '1': { table: 'MO_OPER_GRUPO', assocationTable: 'x' },
        '3': { table: 'MO_OPER', isTask: true },
      },
      metrics: [{ field: 'METRICA1' }, { field: 'METRICA1' }],
    };
    const alone = parseTreeView(treeView);
    if (alone.success) throw new Error('expected the TREE_VIEW to be refused');
    const inFile = checkInstallFile({ ...example, treeView });
    if (inFile.success) throw new Error('expected the install file to be refused');
    expect(inFile.issues).toEqual(
      alone.issues.map((issue) => ({ ...issue, path: `treeView.${issue.path}` })),
    );
    expect(inFile.issues.map((issue) => issue.code)).toEqual(
      expect.arrayContaining(['UNKNOWN_KEY', 'LAYER_GAP', 'DUPLICATE_METRIC_FIELD']),
    );
  });

  it('refuses a SEQ_DB past 2^53 - 1, written in the text, instead of reading its rounded neighbour', () => {
    const text = JSON.stringify({ ...example, actingUser: 1 }).replace(
      '"actingUser":1',
      '"actingUser":9007199254740993',
    );
    expect(() => parseInstallFile(text)).toThrow(expect.objectContaining({ path: 'actingUser' }));
    // Once, in our words (the integer check and the maximum both refused it, and both were listed).
    let issues: unknown;
    try {
      parseInstallFile(text);
    } catch (error) {
      issues = (error as InstallFileError).issues;
    }
    expect(issues).toEqual([
      {
        path: 'actingUser',
        code: 'INVALID_VALUE',
        message: 'a SEQ_DB may be at most 9007199254740991 (2^53 - 1)',
      },
    ]);
    const menus = { ...example.menus, activities: { father: 2 ** 53, order: 1 } };
    expect(refusal({ ...example, menus })).toMatchObject({ path: 'menus.activities.father' });
  });

  it("refuses a report link under the task sheet's own parent menu", () => {
    const menus = {
      ...example.menus,
      taskSheet: { ...example.menus.taskSheet, father: 4 },
      taskSheetReport: { father: 4, order: 1 },
    };
    expect(refusal({ ...example, menus })).toMatchObject({ path: 'menus.taskSheetReport.father' });
  });

  // Found by a review: both were taken, and one value was dropped without a word.
  it('refuses a hostColumns column given twice in another case, naming both keys', () => {
    const error = refusal({
      ...example,
      hostColumns: { sys_core_menu: { MODULO: 'TAREFAS', PESO: 1, modulo: 'OUTRO', Peso: 2 } },
    }) as InstallFileError;
    expect(error).toMatchObject({ code: 'INSTALL_FILE_INVALID', path: 'hostColumns.sys_core_menu.modulo' });
    expect(error.issues).toEqual([
      {
        path: 'hostColumns.sys_core_menu.modulo',
        code: 'DUPLICATE_KEY',
        message:
          '"MODULO" and "modulo" name the same column (MySQL matches column names in any case), so one value would be dropped: keep one of them',
      },
      {
        path: 'hostColumns.sys_core_menu.Peso',
        code: 'DUPLICATE_KEY',
        message: expect.stringMatching(/^"PESO" and "Peso" name the same column/),
      },
    ]);
    // One column per table: the same name in two tables is two columns.
    const twoTables = { sys_core_menu: { MODULO: 'A' }, sys_core_par_parametros: { modulo: 'B' } };
    expect(parseInstallFile(JSON.stringify({ ...example, hostColumns: twoTables })).hostColumns).toEqual(
      twoTables,
    );
  });

  it('says where JSON breaks, and when the file is missing', async () => {
    expect(() => parseInstallFile('{\n  "scope": ', 'install file x.json')).toThrow(
      /install file x.json is not JSON: not valid JSON at line 2, column 12 \(offset 13\)/,
    );
    await expect(loadInstallFile('/nonexistent/install.json')).rejects.toMatchObject({
      code: 'INSTALL_FILE_UNREADABLE',
      message: 'install file /nonexistent/install.json does not exist',
    });
  });

  it('refuses a file that is not UTF-8, saying at which byte, rather than reading replacement characters', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ta-install-file-'));
    try {
      const file = join(dir, 'latin1.json');
      const text = JSON.stringify({ ...example, linkField: { label: 'Métricas' } }, null, 2);
      await writeFile(file, Buffer.from(text, 'latin1'));
      // In Latin-1 each character is one byte: the first one past ASCII is the first bad byte.
      const offset = [...text].findIndex((character) => character.charCodeAt(0) > 0x7f);
      const byte = text.charCodeAt(offset).toString(16).toUpperCase();
      await expect(loadInstallFile(file)).rejects.toMatchObject({
        code: 'INSTALL_FILE_INVALID',
        message: expect.stringContaining(
          `install file ${file} is not a valid install file: byte 0x${byte} at offset ${offset} (line `,
        ),
        issues: [expect.objectContaining({ code: 'INVALID_UTF8', path: '' })],
      });
      await writeFile(file, text);
      expect((await loadInstallFile(file)).linkField.label).toBe('Métricas');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  // Found by a review: a lone surrogate ("\ud800" in JSON) was written to the host as U+FFFD, and
  // verify and every apply then found the row changed, forever.
  it('refuses a lone UTF-16 surrogate in every text it writes to the host, at its path', () => {
    const lone = 'A\ud800B';
    const error = refusal({
      ...example,
      menus: {
        ...example.menus,
        taskSheet: { ...example.menus.taskSheet, label: lone },
        activities: { ...example.menus.activities, icon: '\udc00' },
      },
      linkField: { label: lone },
      hostColumns: { sys_core_menu: { MODULO: lone, PESO: 1 } },
      treeView: {
        ...example.treeView,
        metrics: [{ field: 'METRICA1', label: lone, default: { type: 'value', value: lone } }],
        taskSheetColumns: [{ column: 'SEQ_DB', label: lone }],
      },
    }) as InstallFileError;
    expect(error).toMatchObject({ code: 'INSTALL_FILE_INVALID', path: 'menus.taskSheet.label' });
    expect(error.issues.map(({ path, code }) => `${path} ${code}`)).toEqual([
      'menus.taskSheet.label INVALID_TEXT',
      'menus.activities.icon INVALID_TEXT',
      'linkField.label INVALID_TEXT',
      'treeView.metrics.0.label INVALID_TEXT',
      'treeView.metrics.0.default.value INVALID_TEXT',
      'treeView.taskSheetColumns.0.label INVALID_TEXT',
      'hostColumns.sys_core_menu.MODULO INVALID_TEXT',
    ]);
    expect(error.issues[0]?.message).toBe(
      'the text holds half of a UTF-16 surrogate pair alone (U+D800 at character 2, "\\ud800" in JSON), which UTF-8 cannot hold: the host would keep U+FFFD instead; write the character itself, or both halves of its pair',
    );
    expect(error.issues[1]?.message).toContain('(U+DC00 at character 1, "\\udc00" in JSON)');
    // A whole pair is one character, which UTF-8 holds: taken, as JSON escapes or as written.
    const pair = parseInstallFile(
      JSON.stringify({ ...example, linkField: { label: 'Métricas \ud83d\ude00' } }),
    );
    expect(pair.linkField.label).toBe('Métricas 😀');
  });

  it('refuses a key given twice in an embedded TREE_VIEW, with its path and position', () => {
    const text = JSON.stringify(example, null, 2).replace(
      '"2": {',
      '"1": { "table": "MO_OPER", "isTask": true },\n      "2": {',
    );
    let error: unknown;
    try {
      parseInstallFile(text);
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({
      code: 'INSTALL_FILE_INVALID',
      path: 'treeView.layers.1',
      message: expect.stringMatching(
        /^install file is not a valid install file: treeView\.layers\.1: the key "1" is given twice in one object \(again at line \d+, column \d+\)/,
      ),
    });
  });
});

describe('the install file JSON Schema', () => {
  it('is committed as generated (run `npm run schemas` after changing the model)', async () => {
    expect(await readFile(SCHEMA_FILE, 'utf8')).toBe(serializeJsonSchema(installJsonSchema()));
  });

  it('accepts the example and refuses what the model refuses', () => {
    const validate = new Ajv2020({ strict: false, allErrors: true }).compile(installJsonSchema());
    expect(validate(example)).toBe(true);
    expect(InstallFile.safeParse(example).success).toBe(true);
    for (const bad of [
      { ...example, scope: { EMPRESA: 1 } },
      { ...example, linkField: { label: '' } },
      { ...example, treeView: { layers: { '1': { table: 'MO_OPER' } } } },
    ]) {
      expect({ schema: validate(bad), model: InstallFile.safeParse(bad).success }).toEqual({
        schema: false,
        model: false,
      });
    }
  });
});
