import { z } from 'zod';
import { Identifier } from '../identifier.js';

/**
 * Where a metric's preset value comes from when the metric-entry modal opens (seed 2.9 rule 4):
 * - `value`: a fixed value;
 * - `field`: the named column of the activity (the task-level row);
 * - `taskSheet`: the named column of the task sheet (the app_folha_tarefa row).
 */
export const MetricDefault = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('value').describe('a fixed value'),
    value: z.union([z.number(), z.string(), z.null()]).describe('the preset value'),
  }),
  z.strictObject({
    type: z.literal('field').describe('copied from a column of the activity (task-level row)'),
    name: Identifier.describe('column of the activity table'),
  }),
  z.strictObject({
    type: z.literal('taskSheet').describe('copied from a column of the task sheet'),
    name: Identifier.describe('column of the task sheet table'),
  }),
]);
export type MetricDefault = z.infer<typeof MetricDefault>;

/** The kinds of default, in the order the seed lists them. */
export const METRIC_DEFAULT_TYPES = [
  'value',
  'field',
  'taskSheet',
] as const satisfies readonly MetricDefault['type'][];

/** One metric column of the metric table, with the label the modal shows and an optional default. */
export const Metric = z.strictObject({
  field: Identifier.describe('column of the metric association table, e.g. METRICA1'),
  label: z.string().min(1).optional().describe('label shown in the metric-entry modal'),
  default: MetricDefault.optional(),
});
export type Metric = z.infer<typeof Metric>;

/**
 * The metric list of a TREE_VIEW: at least one metric, each `field` once. The uniqueness check runs
 * even when an element is malformed, so every problem is reported in one pass.
 */
export const Metrics = z
  .array(Metric)
  .min(1)
  .superRefine(
    (metrics, ctx) => {
      if (!Array.isArray(metrics)) return;
      const seen = new Map<string, number>();
      metrics.forEach((metric: unknown, index) => {
        const field =
          typeof metric === 'object' && metric !== null ? (metric as { field?: unknown }).field : undefined;
        if (typeof field !== 'string') return;
        const first = seen.get(field);
        if (first === undefined) seen.set(field, index);
        else
          ctx.addIssue({
            code: 'custom',
            path: [index, 'field'],
            message: `metric field "${field}" is already listed at metrics.${first}: list each column once`,
            params: { code: 'DUPLICATE_METRIC_FIELD' },
          });
      });
    },
    { when: () => true },
  );

/** The metrics used when a TREE_VIEW lists none (product.md): METRICA1 and METRICA2 of seed 2.4, no defaults. */
export const DEFAULT_METRICS: readonly Readonly<Metric>[] = Object.freeze(
  z
    .array(Metric)
    .parse([{ field: 'METRICA1' }, { field: 'METRICA2' }])
    .map((metric) => Object.freeze(metric)),
);
