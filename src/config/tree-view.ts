import { z } from 'zod';
import { TaskAssociationError } from '../errors.js';
import { IDENTIFIER_PATTERN, Identifier, parseIdentifier } from '../identifier.js';
import type { ConfigResult } from './issues.js';
import { parseJsonText } from './json-text.js';
import { Metric, Metrics } from './metrics.js';
import { toConfigIssues } from './zod-issues.js';

/**
 * The most layers a TREE_VIEW may have. The JSON Schema spells the "no gap" and "last layer is the
 * task layer" rules out layer by layer, so it needs a bound; real trees have two to four levels.
 */
export const MAX_LAYERS = 10;

/** A layer key: a level number written as a string, "1", "2", ..., without leading zeros. */
export const LAYER_KEY_PATTERN = /^[1-9][0-9]*$/;

/** One level of the tree (seed 2.9). */
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
});
export type Layer = z.infer<typeof Layer>;

/** `layers`: keyed "1".."n" without gaps; exactly the last layer has `isTask: true`. */
export const Layers = z.record(z.string().regex(LAYER_KEY_PATTERN), Layer).superRefine(
  (layers, ctx) => {
    if (typeof layers !== 'object' || layers === null || Array.isArray(layers)) return;
    const issue = (code: string, path: (string | number)[], message: string) =>
      ctx.addIssue({ code: 'custom', path, message, params: { code } });
    const levels = Object.keys(layers)
      .filter((key) => LAYER_KEY_PATTERN.test(key))
      .map(Number)
      .sort((a, b) => a - b);
    const last = levels.at(-1);
    if (last === undefined) {
      // Keys that are not numbers were already reported; an empty object gets its own message.
      if (Object.keys(layers).length === 0)
        issue(
          'NO_LAYERS',
          [],
          'no layers: list at least the task layer, as in {"1": {"table": "app_oper", "isTask": true}}',
        );
      return;
    }
    if (last > MAX_LAYERS) {
      issue('TOO_MANY_LAYERS', [String(last)], `layer ${last} is beyond the maximum of ${MAX_LAYERS} layers`);
      return;
    }
    for (let level = 1; level < last; level++) {
      if (!levels.includes(level))
        issue(
          'LAYER_GAP',
          [],
          `layer "${level}" is missing: layers are numbered "1" to "${last}" without gaps`,
        );
    }
    for (const level of levels) {
      const layer: Record<string, unknown> = isRecord(layers[level]) ? layers[level] : {};
      const isLast = level === last;
      if (isLast) {
        if (layer.isTask !== true)
          issue(
            'MISSING_TASK_LAYER',
            [String(level), 'isTask'],
            `the last layer (${level}) is the task level: give it "isTask": true`,
          );
        for (const key of ['associationTable', 'parentColumn', 'childColumn'] as const) {
          if (layer[key] !== undefined)
            issue(
              'ASSOCIATION_ON_TASK_LAYER',
              [String(level), key],
              `the task layer (${level}) has no child level, so "${key}" has nothing to link: remove it`,
            );
        }
      } else {
        if (layer.isTask === true)
          issue(
            'TASK_LAYER_NOT_LAST',
            [String(level), 'isTask'],
            `only the last layer (${last}) is the task level: layer ${level} has "isTask": true`,
          );
        if (layer.associationTable === undefined)
          issue(
            'MISSING_ASSOCIATION_TABLE',
            [String(level), 'associationTable'],
            `layer ${level} needs "associationTable", the table linking it to layer ${level + 1}`,
          );
        const child = layers[level + 1];
        const derived: [string, unknown, unknown][] = [
          ['parentColumn', layer.parentColumn, layer.table],
          ['childColumn', layer.childColumn, isRecord(child) ? child.table : undefined],
        ];
        for (const [key, given, table] of derived) {
          if (given !== undefined || typeof table !== 'string' || !IDENTIFIER_PATTERN.test(table)) continue;
          const column = conventionalColumn(table);
          if (!IDENTIFIER_PATTERN.test(column))
            issue(
              'DERIVED_COLUMN_TOO_LONG',
              [String(level), key],
              `the conventional column "${column}" for table "${table}" is longer than 64 characters: name it with "${key}"`,
            );
        }
      }
    }
  },
  { when: () => true },
);

/** A TREE_VIEW parameter (seed 2.9, product.md "TREE_VIEW format"). */
export const TreeView = z.strictObject({
  $schema: z.string().optional().describe('the JSON Schema of this file, for editors'),
  layers: Layers.describe('the levels of the tree, keyed "1", "2", ... from the root'),
  metricAssociationTable: Identifier.optional().describe(
    "table the metrics are saved in; default the installation's OPER_GRUPO_METRICA table",
  ),
  metrics: Metrics.optional().describe('metric columns and their defaults; default METRICA1 and METRICA2'),
});
export type TreeView = z.infer<typeof TreeView>;

/**
 * Checks a TREE_VIEW, given as JSON text (a parameter row's CONTEUDO, a file) or as an already
 * parsed value. A string is always read as JSON text. Every problem is reported at once.
 *
 * @example parseTreeView('{"layers":{"1":{"table":"app_oper","isTask":true}}}').success // true
 */
export function parseTreeView(input: unknown): ConfigResult<TreeView> {
  let value = input;
  if (typeof input === 'string') {
    const parsed = parseJsonText(input);
    if (!parsed.success) return { success: false, issues: [parsed.issue] };
    value = parsed.value;
  }
  const result = TreeView.safeParse(value);
  if (result.success) return { success: true, data: result.data };
  return { success: false, issues: toConfigIssues(result.error.issues, value, treeViewKeys) };
}

/** One level of a tree, in order from the root, with its association to the next level resolved. */
export interface TreeViewLevel {
  /** 1 for the root. */
  readonly level: number;
  readonly table: Identifier;
  readonly isTask: boolean;
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
    if (isTask || layer.associationTable === undefined) {
      levels.push({ level, table: layer.table, isTask });
      continue;
    }
    const child = layerAt(level + 1);
    levels.push({
      level,
      table: layer.table,
      isTask,
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

/**
 * The association column that names a row of `table` by convention: the table name without a leading
 * `app_` or `MO_` (either case), upper-cased, plus `_SEQ_DB`.
 *
 * @example conventionalColumn('app_oper_grupo') // 'OPER_GRUPO_SEQ_DB'
 * @example conventionalColumn('MO_OPER') // 'OPER_SEQ_DB'
 */
export function conventionalColumn(table: string): string {
  return `${table.replace(/^(app_|mo_)/i, '').toUpperCase()}_SEQ_DB`;
}

/** The keys an object at `path` of a TREE_VIEW may have, for "unknown key" messages. */
function treeViewKeys(path: readonly PropertyKey[], value: unknown): readonly string[] | undefined {
  const shape = (schema: { shape: object }) => Object.keys(schema.shape);
  if (path.length === 0) return shape(TreeView);
  if (path.length === 2 && path[0] === 'layers') return shape(Layer);
  if (path.length === 2 && path[0] === 'metrics') return shape(Metric);
  if (path.length === 3 && path[0] === 'metrics' && path[2] === 'default')
    return isRecord(value) && value.type === 'value' ? ['type', 'value'] : ['type', 'name'];
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
