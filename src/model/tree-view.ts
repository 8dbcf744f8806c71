import { z } from 'zod';
import { TaskAssociationError } from './errors.js';
import { HostText } from './host-text.js';
import { Identifier, parseIdentifier } from './identifier.js';
import type { ConfigResult } from './issues.js';
import { conventionalColumn, isRecord, layerRuleIssues } from './layer-rules.js';
import { Metric, Metrics } from './metrics.js';
import { withOwnKeys } from './own-keys.js';
import { checkDocument } from './parse-or-throw.js';

/** Columns shown together as one label: a few, each once. */
const LabelColumns = z
  .array(Identifier)
  .min(1)
  .max(4)
  .refine((columns) => new Set(columns.map((column) => column.toUpperCase())).size === columns.length, {
    message: 'list each label column once',
  });

/** A column of the association screen's header: its name, or its name and the label shown for it. */
const HeaderColumn = z.union([
  Identifier,
  z.strictObject({
    column: Identifier,
    label: HostText.trim().min(1).max(60).describe('shown above the value instead of the column name'),
  }),
]);

/** One level of the tree: a record table and how it links to the next level. */
export const Layer = z.strictObject({
  table: Identifier.describe('the record table of this level'),
  associationTable: Identifier.optional().describe(
    'table linking this level to the next one; required on every level but the task level',
  ),
  isTask: z.boolean().optional().describe('true on the last level, the activity (task) table'),
  parentColumn: Identifier.optional().describe(
    "column of associationTable naming this level's row; default <STEM>_SEQ_DB of table",
  ),
  childColumn: Identifier.optional().describe(
    "column of associationTable naming the next level's row; default <STEM>_SEQ_DB of its table",
  ),
  labelColumns: LabelColumns.optional().describe(
    'columns of table whose values, joined by " — ", label a node of this level in the association screen (and are what its search matches); default CODIGO and DESCRICAO',
  ),
});
export type Layer = z.infer<typeof Layer>;

/** `layers`: keyed "1".."n" without gaps; exactly the last layer has `isTask: true` (see layer-rules.ts). */
// Keys are checked by the rules rather than by the record's key schema: zod drops entries with a bad
// key before refinements run, and "no layers" must not be said of {"01": ...}. The rules run even
// when a layer is malformed (`when`), so every problem is reported in one pass.
export const Layers = withOwnKeys(
  z.record(z.string(), Layer).superRefine(
    (layers, ctx) => {
      for (const { code, path, message } of layerRuleIssues(layers))
        ctx.addIssue({ code: 'custom', path, message, params: { code } });
    },
    { when: () => true },
  ),
  // A "__proto__" key never reaches the record: the same rules, run on the layers as given.
  layerRuleIssues,
).describe('the levels of the tree, keyed "1", "2", ... from the root');

/** A TREE_VIEW parameter: the customer's layers and metric table, plus our metric list. */
export const TreeView = z.strictObject({
  $schema: z.string().optional().describe('the JSON Schema of this file, for editors'),
  layers: Layers,
  metricAssociationTable: Identifier.optional().describe(
    "table the metrics are saved in; default the installation's OPER_GRUPO_METRICA table",
  ),
  metrics: Metrics.optional().describe('metric columns and their defaults; default METRICA1 and METRICA2'),
  taskSheetColumns: z
    .array(HeaderColumn)
    .min(1)
    .max(8)
    .optional()
    .describe(
      "columns of the task sheet shown in the association screen's header, in order, each a column name or { column, label }; default SEQ_DB and the table's date and code columns",
    ),
});
export type TreeView = z.infer<typeof TreeView>;

/**
 * Checks a TREE_VIEW, given as JSON text (a parameter row's CONTEUDO, a file) or as an already
 * parsed value. A string is always read as JSON text. Every problem is reported at once.
 *
 * @example parseTreeView('{"layers":{"1":{"table":"app_oper","isTask":true}}}').success // true
 */
export function parseTreeView(input: unknown): ConfigResult<TreeView> {
  return checkDocument(TreeView, input, treeViewKeys);
}

/** One level of a tree, in order from the root, with its association to the next level resolved. */
export interface TreeViewLevel {
  /** 1 for the root. */
  readonly level: number;
  readonly table: Identifier;
  readonly isTask: boolean;
  /** The layer's `labelColumns`, when it names them (the screen labels its nodes with them). */
  readonly labelColumns?: readonly Identifier[];
  /** How this level's rows reach the next level's rows; absent on the task level. */
  readonly association?: {
    readonly table: Identifier;
    readonly parentColumn: Identifier;
    readonly childColumn: Identifier;
  };
}

/**
 * The layers of a checked TREE_VIEW in order, with association columns resolved: `parentColumn` /
 * `childColumn` when given, else the convention `<STEM>_SEQ_DB` of the level's and the next level's
 * table (see {@link conventionalColumn}).
 *
 * @example treeViewLevels(tree)[0].association // { table: 'app_oper_n_oper_grupo', parentColumn: 'OPER_GRUPO_SEQ_DB', childColumn: 'OPER_SEQ_DB' }
 */
export function treeViewLevels(treeView: TreeView): TreeViewLevel[] {
  const count = Object.keys(treeView.layers).length;
  const layerAt = (level: number): Layer => {
    const layer = treeView.layers[String(level)];
    // A parsed TreeView has every level from 1 to count; this guards hand-built values.
    if (layer === undefined)
      throw new TaskAssociationError(
        'INVALID_TREE_VIEW',
        `layer "${level}" is missing: check the TREE_VIEW with parseTreeView first`,
        {
          path: `layers.${level}`,
        },
      );
    return layer;
  };
  const levels: TreeViewLevel[] = [];
  for (let level = 1; level <= count; level++) {
    const layer = layerAt(level);
    const isTask = layer.isTask === true;
    const labels = layer.labelColumns === undefined ? {} : { labelColumns: layer.labelColumns };
    if (isTask || layer.associationTable === undefined) {
      levels.push({ level, table: layer.table, isTask, ...labels });
      continue;
    }
    const child = layerAt(level + 1);
    levels.push({
      level,
      table: layer.table,
      isTask,
      ...labels,
      association: {
        table: layer.associationTable,
        parentColumn:
          layer.parentColumn ??
          parseIdentifier(conventionalColumn(layer.table), `conventional column of ${layer.table}`),
        childColumn:
          layer.childColumn ??
          parseIdentifier(conventionalColumn(child.table), `conventional column of ${child.table}`),
      },
    });
  }
  return levels;
}

/** The keys an object at `path` of a TREE_VIEW may have, for "unknown key" messages. */
export function treeViewKeys(path: readonly PropertyKey[], value: unknown): readonly string[] | undefined {
  const shape = (schema: { shape: object }) => Object.keys(schema.shape);
  if (path.length === 0) return shape(TreeView);
  if (path.length === 2 && path[0] === 'layers') return shape(Layer);
  if (path.length === 2 && path[0] === 'metrics') return shape(Metric);
  if (path.length === 2 && path[0] === 'taskSheetColumns') return ['column', 'label'];
  if (path.length === 3 && path[0] === 'metrics' && path[2] === 'default')
    return isRecord(value) && value.type === 'value' ? ['type', 'value'] : ['type', 'name'];
  return undefined;
}
