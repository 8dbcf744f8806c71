import { readFile } from 'node:fs/promises';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import {
  type JSON_SCHEMA_LIMITS,
  serializeJsonSchema,
  treeViewJsonSchema,
} from '../../src/model/json-schema.js';
import { parseJsonText, parseTreeView } from '../../src/model.js';
import { TREE_VIEW_CASES } from './tree-view-cases.js';

const SCHEMA_FILE = new URL('../../schemas/tree-view.schema.json', import.meta.url);

/**
 * Cases the JSON Schema accepts although the zod model refuses them, each for a rule JSON Schema
 * cannot express (JSON_SCHEMA_LIMITS says why). Text cases are not here: a BOM or trailing garbage is
 * about reading the text, which happens before any schema sees a document.
 */
const KNOWN_DIFFERENCES: Record<string, keyof typeof JSON_SCHEMA_LIMITS> = {
  'duplicate metric fields': 'DUPLICATE_METRIC_FIELD',
  'a conventional association column beyond 64 characters': 'DERIVED_COLUMN_TOO_LONG',
};

describe('the TREE_VIEW JSON Schema', () => {
  it('is committed as generated (run `npm run schemas` after changing the model)', async () => {
    expect(await readFile(SCHEMA_FILE, 'utf8')).toBe(serializeJsonSchema(treeViewJsonSchema()));
  });

  it('is a valid draft 2020-12 schema', async () => {
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    expect(ajv.validateSchema(JSON.parse(await readFile(SCHEMA_FILE, 'utf8')))).toBe(true);
  });

  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const validate = ajv.compile(treeViewJsonSchema());

  it.each(TREE_VIEW_CASES.map((testCase) => [testCase.name, testCase] as const))(
    'agrees with the zod model on %s',
    (name, testCase) => {
      // A text case is judged on its document when the text parses (BOM, whitespace); a text that is
      // not JSON never reaches a schema.
      const text = testCase.text === undefined ? undefined : parseJsonText(testCase.text);
      if (text !== undefined && !text.success) {
        expect(testCase.valid).toBe(false);
        return;
      }
      const value = text === undefined ? testCase.document : text.value;
      const zodValid = parseTreeView(value).success;
      const schemaValid = validate(value);
      const limit = KNOWN_DIFFERENCES[name];
      if (limit === undefined)
        expect({ zodValid, schemaValid }).toStrictEqual({
          zodValid: testCase.valid,
          schemaValid: testCase.valid,
        });
      else {
        expect({ zodValid, schemaValid }).toStrictEqual({ zodValid: false, schemaValid: true });
        const result = parseTreeView(value);
        expect(result.success ? [] : result.issues.map((issue) => issue.code)).toStrictEqual([limit]);
      }
    },
  );

  it('lists only known differences that are cases of the table', () => {
    const names = new Set(TREE_VIEW_CASES.map((testCase) => testCase.name));
    for (const name of Object.keys(KNOWN_DIFFERENCES)) expect(names.has(name)).toBe(true);
  });
});
