import { describe, expect, it } from 'vitest';
import { formatIssues, parseTreeView, treeViewLevels } from '../../src/model.js';
import { PRODUCT_EXAMPLE, TREE_VIEW_CASES } from './tree-view-cases.js';

const inputOf = (testCase: (typeof TREE_VIEW_CASES)[number]) =>
  testCase.text !== undefined ? testCase.text : testCase.document;

describe('parseTreeView', () => {
  it('has a table of at least 30 cases, valid and invalid', () => {
    expect(TREE_VIEW_CASES.length).toBeGreaterThanOrEqual(30);
    expect(new Set(TREE_VIEW_CASES.map((c) => c.name)).size).toBe(TREE_VIEW_CASES.length);
  });

  it.each(TREE_VIEW_CASES.map((c) => [c.name, c] as const))('%s', (_name, testCase) => {
    const result = parseTreeView(inputOf(testCase));
    expect(result.success).toBe(testCase.valid);
    if (!result.success) {
      expect(result.issues.length).toBeGreaterThan(0);
      for (const issue of result.issues) expect(issue.message).not.toMatch(/Invalid input|undefined/);
    }
  });

  it('reports every problem with its path, code and message', () => {
    const outcomes = Object.fromEntries(
      TREE_VIEW_CASES.filter((c) => !c.valid).map((c) => {
        const result = parseTreeView(inputOf(c));
        return [c.name, result.success ? 'valid' : formatIssues(result.issues)];
      }),
    );
    expect(outcomes).toMatchInlineSnapshot(`
      {
        "11 layers, one beyond the maximum": "✖ layer 11 is beyond the maximum of 10 layers → at layers.11",
        "a "__proto__" key in a layer": "✖ unknown key "__proto__": allowed keys are table, associationTable, isTask, parentColumn, childColumn, labelColumns → at layers.1.__proto__",
        "a "__proto__" layer key beside a valid layer": "✖ layer key "__proto__" is not a level number: use "1", "2", ... without leading zeros → at layers.__proto__",
        "a "constructor" layer key": "✖ layer key "constructor" is not a level number: use "1", "2", ... without leading zeros → at layers.constructor",
        "a "prototype" layer key": "✖ layer key "prototype" is not a level number: use "1", "2", ... without leading zeros → at layers.prototype",
        "a byte-order mark before trailing garbage": "✖ not valid JSON at line 1, column 45 (offset 44): expected the end of the text after the JSON document, found "x"",
        "a byte-order mark only": "✖ the text is empty: expected a JSON object",
        "a conventional association column beyond 64 characters": "✖ the conventional column "GXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX_SEQ_DB" for table "gxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" is longer than 64 characters: name it with "parentColumn" → at layers.1.parentColumn",
        "a default without type": "✖ "type" is required: one of value, field, taskSheet → at metrics.0.default.type",
        "a field default without a name": "✖ "name" is required → at metrics.0.default.name",
        "a gap in layer numbers": "✖ layer "2" is missing: layers are numbered "1" to "3" without gaps → at layers",
        "a header column name carrying SQL": "✖ "DATA; DROP TABLE x" is not an SQL identifier: use 1 to 64 ASCII letters, digits and underscores, not starting with a digit → at taskSheetColumns.0",
        "a header column object without its label": "✖ "label" is required → at taskSheetColumns.0.label",
        "a header column that is a number": "✖ expected a column name, or { "column": ..., "label": ... }, got a number (5) → at taskSheetColumns.0",
        "a layer key that is not a number": "✖ layer key "two" is not a level number: use "1", "2", ... without leading zeros → at layers.two
      ✖ the last layer (1) is the task level: give it "isTask": true → at layers.1.isTask
      ✖ the task layer (1) has no child level, so "associationTable" has nothing to link: remove it → at layers.1.associationTable",
        "a layer key with a leading zero": "✖ layer key "01" is not a level number: use "1", "2", ... without leading zeros → at layers.01",
        "a layer number given twice": "✖ the key "1" is given twice in one object (again at line 1, column 75): JSON keeps only the last, so remove or rename one → at layers.1",
        "a layer numbered 0": "✖ layer key "0" is not a level number: use "1", "2", ... without leading zeros → at layers.0",
        "a layer that is not an object": "✖ expected an object, got a string ("app_oper") → at layers.1",
        "a layer without table": "✖ "table" is required → at layers.1.table",
        "a metric without field": "✖ "field" is required → at metrics.0.field",
        "a metricAssociationTable with a dot": "✖ "other_db.app_oper_grupo_metrica" is not an SQL identifier: use 1 to 64 ASCII letters, digits and underscores, not starting with a digit → at metricAssociationTable",
        "a missing associationTable": "✖ layer 1 needs "associationTable", the table linking it to layer 2 → at layers.1.associationTable",
        "a missing comma": "✖ not valid JSON at line 3, column 31 (offset 46): expected "," or "}" after a property value, found "\\""",
        "a missing layers key": "✖ "layers" is required → at layers",
        "a misspelt associationTable": "✖ unknown key "assocationTable": allowed keys are table, associationTable, isTask, parentColumn, childColumn, labelColumns → at layers.1.assocationTable
      ✖ layer 1 needs "associationTable", the table linking it to layer 2 → at layers.1.associationTable",
        "a name on a value default": "✖ unknown key "name": allowed keys are type, value → at metrics.0.default.name",
        "a null document": "✖ the document must be a JSON object, got null",
        "a second document after the first": "✖ not valid JSON at line 2, column 1 (offset 45): expected the end of the text after the JSON document, found "{"",
        "a string document": "✖ the document must be a JSON object, got a string ("layers")",
        "a table name carrying SQL": "✖ "app_oper; DROP TABLE app_oper" is not an SQL identifier: use 1 to 64 ASCII letters, digits and underscores, not starting with a digit → at layers.1.table",
        "a table name of 65 characters": "✖ "txxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"... (65 characters) is not an SQL identifier: use 1 to 64 ASCII letters, digits and underscores, not starting with a digit → at layers.1.table",
        "a table name starting with a digit": "✖ "1oper" is not an SQL identifier: use 1 to 64 ASCII letters, digits and underscores, not starting with a digit → at layers.1.table",
        "a task layer that is not last": "✖ only the last layer (2) is the task level: layer 1 has "isTask": true → at layers.1.isTask
      ✖ layer 1 needs "associationTable", the table linking it to layer 2 → at layers.1.associationTable
      ✖ the last layer (2) is the task level: give it "isTask": true → at layers.2.isTask",
        "a taskSheet default naming a column with a space": "✖ "QTD PESSOAS" is not an SQL identifier: use 1 to 64 ASCII letters, digits and underscores, not starting with a digit → at metrics.0.default.name",
        "a trailing comma": "✖ not valid JSON at line 1, column 56 (offset 55): expected a double-quoted property name, found "}"",
        "a value default holding an object": "✖ expected a number, a string or null, got an object → at metrics.0.default.value",
        "a value default without value": "✖ "value" is required → at metrics.0.default.value",
        "an array document": "✖ the document must be a JSON object, got an array",
        "an empty label": "✖ the text is empty: write something or leave the key out → at metrics.0.label",
        "an empty metric list": "✖ the list is empty: list at least one metric, or leave the key out for the defaults → at metrics",
        "an empty text": "✖ the text is empty: expected a JSON object",
        "an unknown default kind": "✖ unknown default type "constant": use one of value, field, taskSheet → at metrics.0.default.type",
        "an unterminated string": "✖ not valid JSON at line 1, column 37 (offset 36): expected a closing '"', found the end of the text",
        "association keys on the task layer": "✖ the task layer (1) has no child level, so "associationTable" has nothing to link: remove it → at layers.1.associationTable
      ✖ the task layer (1) has no child level, so "parentColumn" has nothing to link: remove it → at layers.1.parentColumn",
        "deeply nested arrays as text": "✖ not accepted at line 1, column 514 (offset 513): expected at most 512 levels of nesting (no configuration document nests deeper)",
        "deeply nested junk in place of metrics": "✖ expected an array, got an object → at metrics",
        "deeply nested junk under an unknown key": "✖ unknown key "junk": allowed keys are $schema, layers, metricAssociationTable, metrics, taskSheetColumns → at junk",
        "duplicate metric fields": "✖ metric field "METRICA1" is already listed at metrics.0: list each column once → at metrics.2.field",
        "empty layers": "✖ no layers: list at least the task layer, as in {"1": {"table": "app_oper", "isTask": true}} → at layers",
        "every problem at once": "✖ "app oper grupo" is not an SQL identifier: use 1 to 64 ASCII letters, digits and underscores, not starting with a digit → at layers.1.table
      ✖ layer "2" is missing: layers are numbered "1" to "3" without gaps → at layers
      ✖ layer 1 needs "associationTable", the table linking it to layer 2 → at layers.1.associationTable
      ✖ unknown default type "guess": use one of value, field, taskSheet → at metrics.1.default.type
      ✖ metric field "METRICA1" is already listed at metrics.0: list each column once → at metrics.1.field
      ✖ unknown key "extra": allowed keys are $schema, layers, metricAssociationTable, metrics, taskSheetColumns → at extra",
        "isTask as a string": "✖ expected a boolean, got a string ("true") → at layers.1.isTask
      ✖ the last layer (1) is the task level: give it "isTask": true → at layers.1.isTask",
        "layers as an array": "✖ expected an object, got an array → at layers",
        "metric fields naming the scope and a flag column": "✖ "EMPRESA" is a column the package manages (scope, key, audit or flags), not a metric: name a metric column such as METRICA1 → at metrics.1.field
      ✖ "ro" is a column the package manages (scope, key, audit or flags), not a metric: name a metric column such as METRICA1 → at metrics.2.field",
        "metrics as an object": "✖ expected an array, got an object → at metrics",
        "no task layer": "✖ the last layer (2) is the task level: give it "isTask": true → at layers.2.isTask",
        "single quotes": "✖ not valid JSON at line 1, column 2 (offset 1): expected a double-quoted property name, found "'"",
        "trailing garbage after the JSON": "✖ not valid JSON at line 1, column 53 (offset 52): expected the end of the text after the JSON document, found "}"",
        "two task layers": "✖ only the last layer (2) is the task level: layer 1 has "isTask": true → at layers.1.isTask",
      }
    `);
  });

  it('gives the codes and paths of the whole-problem case', () => {
    const testCase = TREE_VIEW_CASES.find((c) => c.name === 'every problem at once');
    const result = parseTreeView(testCase?.document);
    expect(
      result.success ? [] : result.issues.map(({ path, code }) => ({ path, code })),
    ).toMatchInlineSnapshot(`
      [
        {
          "code": "INVALID_IDENTIFIER",
          "path": "layers.1.table",
        },
        {
          "code": "LAYER_GAP",
          "path": "layers",
        },
        {
          "code": "MISSING_ASSOCIATION_TABLE",
          "path": "layers.1.associationTable",
        },
        {
          "code": "UNKNOWN_DEFAULT_TYPE",
          "path": "metrics.1.default.type",
        },
        {
          "code": "DUPLICATE_METRIC_FIELD",
          "path": "metrics.1.field",
        },
        {
          "code": "UNKNOWN_KEY",
          "path": "extra",
        },
      ]
    `);
  });

  it('names a reserved metric field by code and path', () => {
    const testCase = TREE_VIEW_CASES.find(
      (c) => c.name === 'metric fields naming the scope and a flag column',
    );
    const result = parseTreeView(testCase?.document);
    expect(result.success ? [] : result.issues.map(({ path, code }) => `${code} ${path}`)).toStrictEqual([
      'RESERVED_METRIC_FIELD metrics.1.field',
      'RESERVED_METRIC_FIELD metrics.2.field',
    ]);
  });

  it.each([
    [
      '__proto__',
      `{"layers":{"__proto__":{"table":"x","isTask":true},"1":{"table":"app_oper","isTask":true}}}`,
    ],
    ['__proto__', `{"layers":{"1":{"table":"app_oper","isTask":true},"__proto__":{}}}`],
    [
      'constructor',
      `{"layers":{"1":{"table":"app_oper","isTask":true},"constructor":{"table":"x","isTask":true}}}`,
    ],
    ['prototype', `{"layers":{"prototype":{"table":"app_oper","isTask":true}}}`],
  ])('refuses the layer key %s as any other bad key, at its path (%s)', (key, text) => {
    const result = parseTreeView(text);
    expect(result.success ? [] : result.issues.map(({ path, code }) => `${code} ${path}`)).toStrictEqual([
      `INVALID_LAYER_KEY layers.${key}`,
    ]);
  });

  it('refuses a "__proto__" key anywhere else as an unknown key', () => {
    const task = '{"table":"app_oper","isTask":true}';
    for (const [text, path] of [
      [`{"layers":{"1":${task}},"__proto__":{"metrics":[]}}`, '__proto__'],
      [`{"layers":{"1":{"table":"app_oper","isTask":true,"__proto__":{}}}}`, 'layers.1.__proto__'],
      [`{"layers":{"1":${task}},"metrics":[{"field":"METRICA1","__proto__":{}}]}`, 'metrics.0.__proto__'],
    ]) {
      const result = parseTreeView(text);
      expect(result.success ? [] : result.issues.map(({ path, code }) => `${code} ${path}`)).toStrictEqual([
        `UNKNOWN_KEY ${path}`,
      ]);
    }
  });

  it('accepts text and a parsed value alike', () => {
    const fromText = parseTreeView(JSON.stringify(PRODUCT_EXAMPLE));
    const fromValue = parseTreeView(PRODUCT_EXAMPLE);
    expect(fromText).toEqual(fromValue);
    expect(fromValue).toMatchObject({ success: true, data: PRODUCT_EXAMPLE });
  });
});

describe('treeViewLevels', () => {
  it('resolves association columns by convention', () => {
    const result = parseTreeView(PRODUCT_EXAMPLE);
    if (!result.success) throw new Error('the product example is valid');
    expect(treeViewLevels(result.data)).toStrictEqual([
      {
        level: 1,
        table: 'app_oper_grupo',
        isTask: false,
        association: {
          table: 'app_oper_n_oper_grupo',
          parentColumn: 'OPER_GRUPO_SEQ_DB',
          childColumn: 'OPER_SEQ_DB',
        },
      },
      { level: 2, table: 'app_oper', isTask: true },
    ]);
  });

  it('uses explicit columns, strips MO_ and orders layers by number', () => {
    const result = parseTreeView({
      layers: {
        '3': { table: 'MO_OPER', isTask: true },
        '1': { table: 'MO_ETAPA', associationTable: 'MO_ETAPA_GRUPO', parentColumn: 'ETAPA_ID' },
        '2': { table: 'MO_OPER_GRUPO', associationTable: 'MO_OPER_MO_OPER_GRUPO', childColumn: 'ATIVIDADE' },
      },
    });
    if (!result.success) throw new Error(formatIssues(result.issues));
    expect(
      treeViewLevels(result.data).map((level) => [level.level, level.table, level.association]),
    ).toStrictEqual([
      [
        1,
        'MO_ETAPA',
        { table: 'MO_ETAPA_GRUPO', parentColumn: 'ETAPA_ID', childColumn: 'OPER_GRUPO_SEQ_DB' },
      ],
      [
        2,
        'MO_OPER_GRUPO',
        { table: 'MO_OPER_MO_OPER_GRUPO', parentColumn: 'OPER_GRUPO_SEQ_DB', childColumn: 'ATIVIDADE' },
      ],
      [3, 'MO_OPER', undefined],
    ]);
  });
});
