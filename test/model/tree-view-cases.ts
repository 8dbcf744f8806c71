/**
 * The table of TREE_VIEW cases, shared by the zod model's tests and the JSON Schema parity test.
 * A case is a document (an already parsed value) or a text (what a file or a parameter row holds);
 * text cases test the reading of the text itself (BOM, trailing garbage, syntax errors).
 */
export interface TreeViewCase {
  readonly name: string;
  readonly valid: boolean;
  readonly document?: unknown;
  readonly text?: string;
}

const task = { table: 'app_oper', isTask: true };
const group = { table: 'app_oper_grupo', associationTable: 'app_oper_n_oper_grupo' };

/** A chain of `count` layers, the last one the task layer. */
function chain(count: number): Record<string, unknown> {
  const layers: Record<string, unknown> = {};
  for (let level = 1; level < count; level++)
    layers[String(level)] = { table: `level_${level}`, associationTable: `level_${level}_link` };
  layers[String(count)] = task;
  return layers;
}

function nested(depth: number): unknown {
  let value: unknown = 'junk';
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { deeper: value };
  return value;
}

export const PRODUCT_EXAMPLE = {
  layers: {
    '1': { table: 'app_oper_grupo', associationTable: 'app_oper_n_oper_grupo' },
    '2': { table: 'app_oper', isTask: true },
  },
  metricAssociationTable: 'app_oper_grupo_metrica',
  metrics: [
    { field: 'METRICA1', label: 'Quantity', default: { type: 'field', name: 'INDICE' } },
    { field: 'METRICA2', label: 'Workers', default: { type: 'taskSheet', name: 'QTD_PESSOAS' } },
    { field: 'METRICA3', label: 'Passes', default: { type: 'value', value: 1 } },
  ],
};

export const TREE_VIEW_CASES: readonly TreeViewCase[] = [
  // Valid documents
  { name: 'one task layer', valid: true, document: { layers: { '1': task } } },
  { name: 'the README example', valid: true, document: PRODUCT_EXAMPLE },
  {
    name: 'three layers with explicit association columns',
    valid: true,
    document: {
      layers: {
        '1': {
          table: 'MO_ETAPA',
          associationTable: 'MO_ETAPA_GRUPO',
          parentColumn: 'ETAPA_ID',
          childColumn: 'GRUPO_ID',
        },
        '2': { table: 'MO_OPER_GRUPO', associationTable: 'MO_OPER_MO_OPER_GRUPO', isTask: false },
        '3': { table: 'MO_OPER', isTask: true },
      },
      metricAssociationTable: 'MO_OPER_GRUPO_METRICA',
    },
  },
  {
    name: 'a $schema key for editors',
    valid: true,
    document: {
      $schema: './node_modules/task-association/schemas/tree-view.schema.json',
      layers: { '1': task },
    },
  },
  {
    name: 'value defaults: null, a string, a negative decimal',
    valid: true,
    document: {
      layers: { '1': group, '2': task },
      metrics: [
        { field: 'METRICA1', default: { type: 'value', value: null } },
        { field: 'METRICA2', default: { type: 'value', value: 'N/A' } },
        { field: 'METRICA3', default: { type: 'value', value: -1.25 } },
      ],
    },
  },
  { name: 'the maximum of 10 layers', valid: true, document: { layers: chain(10) } },
  { name: 'layer keys in any order', valid: true, document: { layers: { '2': task, '1': group } } },
  {
    name: 'a byte-order mark before the text (accepted)',
    valid: true,
    text: `\uFEFF${JSON.stringify({ layers: { '1': task } })}`,
  },
  {
    name: 'whitespace around the text',
    valid: true,
    text: `\n  ${JSON.stringify({ layers: { '1': task } })}\n\n`,
  },

  // Layers
  { name: 'a gap in layer numbers', valid: false, document: { layers: { '1': group, '3': task } } },
  { name: 'a layer key that is not a number', valid: false, document: { layers: { '1': group, two: task } } },
  { name: 'a layer key with a leading zero', valid: false, document: { layers: { '01': task } } },
  { name: 'a layer numbered 0', valid: false, document: { layers: { '0': group, '1': task } } },
  {
    name: 'two task layers',
    valid: false,
    document: { layers: { '1': { ...group, isTask: true }, '2': task } },
  },
  {
    name: 'a task layer that is not last',
    valid: false,
    document: { layers: { '1': task, '2': { table: 'app_oper_grupo' } } },
  },
  { name: 'no task layer', valid: false, document: { layers: { '1': group, '2': { table: 'app_oper' } } } },
  {
    name: 'isTask as a string',
    valid: false,
    document: { layers: { '1': { table: 'app_oper', isTask: 'true' } } },
  },
  {
    name: 'a missing associationTable',
    valid: false,
    document: { layers: { '1': { table: 'app_oper_grupo' }, '2': task } },
  },
  {
    name: 'a misspelt associationTable',
    valid: false,
    document: {
      layers: { '1': { table: 'app_oper_grupo', assocationTable: 'app_oper_n_oper_grupo' }, '2': task },
    },
  },
  {
    name: 'association keys on the task layer',
    valid: false,
    document: { layers: { '1': { ...task, associationTable: 'x', parentColumn: 'y' } } },
  },
  { name: 'a layer without table', valid: false, document: { layers: { '1': { isTask: true } } } },
  { name: 'empty layers', valid: false, document: { layers: {} } },
  { name: 'layers as an array', valid: false, document: { layers: [group, task] } },
  { name: 'a layer that is not an object', valid: false, document: { layers: { '1': 'app_oper' } } },
  { name: '11 layers, one beyond the maximum', valid: false, document: { layers: chain(11) } },
  { name: 'a missing layers key', valid: false, document: { metrics: [{ field: 'METRICA1' }] } },

  // Identifiers
  {
    name: 'a table name carrying SQL',
    valid: false,
    document: { layers: { '1': { table: 'app_oper; DROP TABLE app_oper', isTask: true } } },
  },
  {
    name: 'a table name of 65 characters',
    valid: false,
    document: { layers: { '1': { table: `t${'x'.repeat(64)}`, isTask: true } } },
  },
  {
    name: 'a table name starting with a digit',
    valid: false,
    document: { layers: { '1': { table: '1oper', isTask: true } } },
  },
  {
    name: 'a metricAssociationTable with a dot',
    valid: false,
    document: { layers: { '1': task }, metricAssociationTable: 'other_db.app_oper_grupo_metrica' },
  },
  {
    name: 'a conventional association column beyond 64 characters',
    valid: false,
    document: { layers: { '1': { table: `g${'x'.repeat(59)}`, associationTable: 'link' }, '2': task } },
  },

  // Metrics
  {
    name: 'duplicate metric fields',
    valid: false,
    document: {
      layers: { '1': task },
      metrics: [{ field: 'METRICA1' }, { field: 'METRICA2' }, { field: 'METRICA1' }],
    },
  },
  {
    name: 'metric fields naming the scope and a flag column',
    valid: false,
    document: {
      layers: { '1': task },
      metrics: [{ field: 'METRICA1' }, { field: 'EMPRESA' }, { field: 'ro' }],
    },
  },
  {
    name: 'an unknown default kind',
    valid: false,
    document: {
      layers: { '1': task },
      metrics: [{ field: 'METRICA1', default: { type: 'constant', value: 1 } }],
    },
  },
  {
    name: 'a field default without a name',
    valid: false,
    document: { layers: { '1': task }, metrics: [{ field: 'METRICA1', default: { type: 'field' } }] },
  },
  {
    name: 'a default without type',
    valid: false,
    document: { layers: { '1': task }, metrics: [{ field: 'METRICA1', default: { name: 'INDICE' } }] },
  },
  {
    name: 'a value default without value',
    valid: false,
    document: { layers: { '1': task }, metrics: [{ field: 'METRICA1', default: { type: 'value' } }] },
  },
  {
    name: 'a value default holding an object',
    valid: false,
    document: {
      layers: { '1': task },
      metrics: [{ field: 'METRICA1', default: { type: 'value', value: { n: 1 } } }],
    },
  },
  {
    name: 'a taskSheet default naming a column with a space',
    valid: false,
    document: {
      layers: { '1': task },
      metrics: [{ field: 'METRICA1', default: { type: 'taskSheet', name: 'QTD PESSOAS' } }],
    },
  },
  {
    name: 'a name on a value default',
    valid: false,
    document: {
      layers: { '1': task },
      metrics: [{ field: 'METRICA1', default: { type: 'value', value: 1, name: 'INDICE' } }],
    },
  },
  {
    name: 'a metric without field',
    valid: false,
    document: { layers: { '1': task }, metrics: [{ label: 'Quantity' }] },
  },
  { name: 'an empty metric list', valid: false, document: { layers: { '1': task }, metrics: [] } },
  {
    name: 'an empty label',
    valid: false,
    document: { layers: { '1': task }, metrics: [{ field: 'METRICA1', label: '' }] },
  },
  {
    name: 'metrics as an object',
    valid: false,
    document: { layers: { '1': task }, metrics: { METRICA1: {} } },
  },

  // The document as a whole
  { name: 'an array document', valid: false, document: [{ layers: { '1': task } }] },
  {
    name: 'a "__proto__" layer key beside a valid layer',
    valid: false,
    text: `{"layers":{"__proto__":${JSON.stringify(task)},"1":${JSON.stringify(task)}}}`,
  },
  {
    name: 'a "constructor" layer key',
    valid: false,
    text: `{"layers":{"constructor":${JSON.stringify(task)}}}`,
  },
  { name: 'a "prototype" layer key', valid: false, text: `{"layers":{"prototype":${JSON.stringify(task)}}}` },
  {
    name: 'a "__proto__" key in a layer',
    valid: false,
    text: `{"layers":{"1":{"table":"app_oper","isTask":true,"__proto__":{"isTask":false}}}}`,
  },
  { name: 'a string document', valid: false, text: '"layers"' },
  { name: 'a null document', valid: false, document: null },
  {
    name: 'deeply nested junk under an unknown key',
    valid: false,
    document: { layers: { '1': task }, junk: nested(200) },
  },
  {
    name: 'deeply nested junk in place of metrics',
    valid: false,
    document: { layers: { '1': task }, metrics: nested(200) },
  },
  {
    name: 'every problem at once',
    valid: false,
    document: {
      layers: { '1': { table: 'app oper grupo' }, '3': { table: 'app_oper', isTask: true } },
      metrics: [{ field: 'METRICA1' }, { field: 'METRICA1', default: { type: 'guess' } }],
      extra: true,
    },
  },

  // The text
  {
    name: 'trailing garbage after the JSON',
    valid: false,
    text: `${JSON.stringify({ layers: { '1': task } })} }`,
  },
  {
    name: 'a second document after the first',
    valid: false,
    text: '{"layers":{"1":{"table":"a","isTask":true}}}\n{"layers":{}}',
  },
  {
    name: 'a missing comma',
    valid: false,
    text: '{\n  "layers": {\n    "1": {"table": "app_oper" "isTask": true}\n  }\n}',
  },
  {
    name: 'a trailing comma',
    valid: false,
    text: '{"layers": {"1": {"table": "app_oper", "isTask": true},}}',
  },
  { name: 'single quotes', valid: false, text: "{'layers': {}}" },
  {
    name: 'a header column that is a number',
    valid: false,
    document: { layers: { '1': task }, taskSheetColumns: [5] },
  },
  {
    name: 'a header column object without its label',
    valid: false,
    document: { layers: { '1': task }, taskSheetColumns: [{ column: 'TALHAO' }] },
  },
  {
    name: 'a header column name carrying SQL',
    valid: false,
    document: { layers: { '1': task }, taskSheetColumns: ['DATA; DROP TABLE x'] },
  },
  { name: 'an empty text', valid: false, text: '' },
  { name: 'a byte-order mark only', valid: false, text: '\uFEFF' },
  {
    name: 'a byte-order mark before trailing garbage',
    valid: false,
    text: '\uFEFF{"layers":{"1":{"table":"a","isTask":true}}}x',
  },
  {
    name: 'a layer number given twice',
    valid: false,
    text: '{"layers": {"1": {"table": "app_oper_grupo", "associationTable": "link"}, "1": {"table": "app_oper", "isTask": true}}}',
  },
  { name: 'an unterminated string', valid: false, text: '{"layers": {"1": {"table": "app_oper' },
  { name: 'deeply nested arrays as text', valid: false, text: `${'['.repeat(5000)}${']'.repeat(5000)}` },
];
