import { IDENTIFIER_PATTERN } from './identifier.js';
import type { ConfigIssueCode } from './issues.js';

/**
 * The most layers a TREE_VIEW may have. The JSON Schema spells the "no gap" and "last layer is the
 * task layer" rules out layer by layer, so it needs a bound; real trees have two to four levels.
 */
export const MAX_LAYERS = 10;

/** A layer key: a level number written as a string, "1", "2", ..., without leading zeros. */
export const LAYER_KEY_PATTERN = /^[1-9][0-9]*$/;

/** A broken layer rule, its path relative to `layers`. */
export interface LayerRuleIssue {
  readonly code: ConfigIssueCode;
  readonly path: string[];
  readonly message: string;
}

/**
 * The rules that tie the layers of a TREE_VIEW together: keys "1".."n" without gap, exactly the last
 * layer is the task layer, every other layer has an associationTable, and conventional association
 * columns fit in an identifier. Works on any value, since it also runs on layers zod found malformed,
 * so that every problem is reported at once.
 */
export function layerRuleIssues(layers: unknown): LayerRuleIssue[] {
  if (!isRecord(layers)) return [];
  const issues: LayerRuleIssue[] = [];
  const issue = (code: LayerRuleIssue['code'], path: string[], message: string) => {
    issues.push({ code, path, message });
  };
  for (const key of Object.keys(layers)) {
    if (!LAYER_KEY_PATTERN.test(key))
      issue(
        'INVALID_LAYER_KEY',
        [key],
        `layer key ${JSON.stringify(key)} is not a level number: use "1", "2", ... without leading zeros`,
      );
  }
  const levels = Object.keys(layers)
    .filter((key) => LAYER_KEY_PATTERN.test(key))
    .map(Number)
    .sort((a, b) => a - b);
  const last = levels.at(-1);
  if (last === undefined) {
    // Keys that are not numbers were reported above; an empty object gets its own message.
    if (Object.keys(layers).length === 0)
      issue(
        'NO_LAYERS',
        [],
        'no layers: list at least the task layer, as in {"1": {"table": "app_oper", "isTask": true}}',
      );
    return issues;
  }
  if (last > MAX_LAYERS) {
    issue('TOO_MANY_LAYERS', [String(last)], `layer ${last} is beyond the maximum of ${MAX_LAYERS} layers`);
    return issues;
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
    const layer = layers[level];
    // A layer that is not an object was reported as such; rules about its keys would only add noise.
    if (!isRecord(layer)) continue;
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
  return issues;
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

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
