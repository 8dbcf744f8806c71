import { z } from 'zod';
import { HostText } from './host-text.js';
import { Identifier } from './identifier.js';

/**
 * A number JSON kept as written: a whole number past 2^53 - 1 was already rounded when the text was
 * read (9007199254740993 reads as ...992), so such a default would silently preset another value.
 * A fraction cannot be told apart from its rounded neighbour once read (3.141592653589793 is exact,
 * and 0.123456789012345678 reads as the same kind of double), so fractions are taken: a preset with
 * more decimals than its column keeps is refused by the column check (TREE_VIEW_DEFAULT_UNFIT).
 */
const exactNumber = z.number().refine((value) => !Number.isInteger(value) || Number.isSafeInteger(value), {
  message:
    'this whole number is past 2^53 - 1, where JSON numbers lose digits (it may already have been rounded): give it as a string, such as "12345678901234567890"',
});

/**
 * Where a metric's preset value comes from when the metric-entry modal opens (the customer's three kinds):
 * - `value`: a fixed value;
 * - `field`: the named column of the activity (the task-level row);
 * - `taskSheet`: the named column of the task sheet (the app_folha_tarefa row).
 */
export const MetricDefault = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('value').describe('a fixed value'),
    value: z.union([exactNumber, HostText, z.null()]).describe('the preset value'),
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

/** The kinds of default, in the order the customer lists them. */
export const METRIC_DEFAULT_TYPES = [
  'value',
  'field',
  'taskSheet',
] as const satisfies readonly MetricDefault['type'][];

/**
 * Columns a metric may not name: the scope, identity, audit and flag columns of every table, and the
 * metric row's own key. Saving writes each metric's column, so one of these would let a save move a
 * row to another scope, clear RO, undelete a row, or name a column twice in its INSERT.
 */
export const RESERVED_METRIC_COLUMNS = [
  'SEQ_DB',
  'EMPRESA',
  'FILIAL',
  'LOCAL',
  'ID',
  'INS_DH',
  'INS_USUARIO_SEQ_DB',
  'UPD_DH',
  'UPD_USUARIO_SEQ_DB',
  'SOURCE',
  'ATIVO',
  'DELETED',
  'RO',
  'OPER_SEQ_DB',
  'OPER_GRUPO_SEQ_DB',
  'FOLHA_TAREFA_SEQ_DB',
] as const;

const RESERVED = new Set<string>(RESERVED_METRIC_COLUMNS);

/** MySQL column names are case-insensitive: `ro` is the RO column. */
export function isReservedMetricColumn(name: string): boolean {
  return RESERVED.has(name.toUpperCase());
}

// The same rule for the JSON Schema, whose patterns have no case-insensitive flag: `[Rr][Oo]`.
const RESERVED_PATTERN = `^(?:${RESERVED_METRIC_COLUMNS.map((column) =>
  column.replace(/[A-Z]/g, (letter) => `[${letter}${letter.toLowerCase()}]`),
).join('|')})$`;

/** A metric's column: an identifier that is none of {@link RESERVED_METRIC_COLUMNS}. */
const MetricField = Identifier.superRefine((field, ctx) => {
  if (!isReservedMetricColumn(field)) return;
  ctx.addIssue({
    code: 'custom',
    message: `"${field}" is a column the package manages (scope, key, audit or flags), not a metric: name a metric column such as METRICA1`,
    params: { code: 'RESERVED_METRIC_FIELD' },
  });
}).meta({
  description: 'column of the metric association table, e.g. METRICA1',
  not: { pattern: RESERVED_PATTERN },
});

/** One metric column of the metric table, with the label the modal shows and an optional default. */
export const Metric = z.strictObject({
  field: MetricField,
  label: HostText.trim().min(1).optional().describe('label shown in the metric-entry modal'),
  default: MetricDefault.optional(),
});
export type Metric = z.infer<typeof Metric>;
/** A metric as written by hand (plain strings): what the model accepts, before its checks brand the names. */
export type MetricInput = z.input<typeof Metric>;

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
        // Column names are matched without case: `metrica1` is METRICA1 listed again.
        const first = seen.get(field.toUpperCase());
        if (first === undefined) seen.set(field.toUpperCase(), index);
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

/**
 * The metrics used when a TREE_VIEW lists none: METRICA1 and METRICA2, the metric table's two columns,
 * no defaults. The one source of that rule: the tree loader, the installer's checks and
 * `compileMetricDefaults` without a list all take it from here.
 */
export const DEFAULT_METRICS: readonly Readonly<Metric>[] = Object.freeze(
  z
    .array(Metric)
    .parse([{ field: 'METRICA1' }, { field: 'METRICA2' }])
    .map((metric) => Object.freeze(metric)),
);

/**
 * A metric's value as it travels: DECIMAL columns stay the exact strings the driver returns
 * ("12.50"), INT columns are numbers, NULL is null. A `value` default is passed on as configured.
 */
export type MetricValue = string | number | null;
