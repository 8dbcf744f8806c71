import { match } from 'ts-pattern';
import type { Metric, MetricDefault } from '../config/index.js';
import { ConfigurationError } from './errors.js';

/**
 * A metric's value as it travels: DECIMAL columns stay the exact strings the driver returns
 * ("12.50"), INT columns are numbers, NULL is null. A `value` default is passed on as configured.
 */
export type MetricValue = string | number | null;

/** Where a metric's value came from: the saved row, the configured default, or neither. */
export type MetricSource = 'saved' | 'default' | 'none';

export interface ResolvedMetric {
  readonly value: MetricValue;
  readonly source: MetricSource;
}

/** Resolved metrics of one activity, keyed by metric column (METRICA1, ...). */
export type ResolvedMetrics = Record<string, ResolvedMetric>;

/** A row as read from the database: column name to value. */
export type Row = Readonly<Record<string, unknown>>;

/** What one resolution reads from: the activity (task-level row), the task sheet, the saved metric row. */
export interface DefaultInputs {
  readonly activity: Row;
  readonly taskSheet: Row;
  /** The saved metric row of this activity on this task sheet, if there is one. */
  readonly saved?: Row | undefined;
}

/** Resolves the metrics of one activity; built once per metric list by {@link compileMetricDefaults}. */
export type MetricDefaultsResolver = (inputs: DefaultInputs) => ResolvedMetrics;

type DefaultReader = (inputs: DefaultInputs) => MetricValue;

const NONE: ResolvedMetric = Object.freeze({ value: null, source: 'none' });

/**
 * Turns a metric list into a resolver. The kind of each default is matched once here (exhaustively:
 * a new kind in `MetricDefault` does not compile until it is handled), so resolving a million
 * activities only calls the small readers chosen up front.
 *
 * A saved non-null value always wins; a saved NULL falls back to the default, so a cleared metric
 * is preset again when the modal opens. A `field` or `taskSheet` default whose column the row lacks
 * throws {@link ConfigurationError} naming the metric and the column, never a silent `undefined`.
 *
 * @example
 * const resolve = compileMetricDefaults([{ field: 'METRICA1', default: { type: 'field', name: 'INDICE' } }]);
 * resolve({ activity: { INDICE: '1.50' }, taskSheet: {} }); // { METRICA1: { value: '1.50', source: 'default' } }
 */
export function compileMetricDefaults(metrics: readonly Metric[]): MetricDefaultsResolver {
  const compiled = metrics.map((metric, index) => ({
    field: metric.field,
    read: metric.default === undefined ? undefined : metricDefaultReader(metric.default, metric.field, index),
  }));
  return (inputs) => {
    const result: ResolvedMetrics = {};
    const saved = inputs.saved;
    for (const { field, read } of compiled) {
      const stored = saved === undefined ? undefined : saved[field];
      if (stored !== undefined && stored !== null)
        result[field] = { value: toMetricValue(stored), source: 'saved' };
      else if (read === undefined) result[field] = NONE;
      else result[field] = { value: read(inputs), source: 'default' };
    }
    return result;
  };
}

/** Resolves the metrics of one activity (compiles the list each call: for many rows use {@link compileMetricDefaults}). */
export function resolveMetricDefaults(metrics: readonly Metric[], inputs: DefaultInputs): ResolvedMetrics {
  return compileMetricDefaults(metrics)(inputs);
}

/** The reader of one default kind. Exhaustive over `MetricDefault['type']`. */
export function metricDefaultReader(
  metricDefault: MetricDefault,
  field: string,
  index: number,
): DefaultReader {
  return match(metricDefault)
    .with(
      { type: 'value' },
      ({ value }) =>
        () =>
          value,
    )
    .with(
      { type: 'field' },
      ({ name }) =>
        (inputs: DefaultInputs) =>
          readColumn(inputs.activity, name, field, index, 'the activity'),
    )
    .with(
      { type: 'taskSheet' },
      ({ name }) =>
        (inputs: DefaultInputs) =>
          readColumn(inputs.taskSheet, name, field, index, 'the task sheet'),
    )
    .exhaustive();
}

function readColumn(row: Row, column: string, field: string, index: number, what: string): MetricValue {
  const value = row[column];
  // `undefined` only when the row has no such column: NULL columns come back as null.
  if (value === undefined && !Object.hasOwn(row, column)) {
    throw new ConfigurationError(
      'DEFAULT_COLUMN_MISSING',
      `metric ${field}: its default copies column "${column}" of ${what}, which has no such column: name an existing column or change the default`,
      { path: `metrics.${index}.default.name` },
    );
  }
  return toMetricValue(value);
}

/** Values as the driver returns them, made JSON-safe: dates as ISO text, anything else exotic as text. */
function toMetricValue(value: unknown): MetricValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number') return value;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'boolean') return value ? 1 : 0;
  return String(value);
}
