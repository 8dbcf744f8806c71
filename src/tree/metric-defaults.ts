import { match } from 'ts-pattern';
import { z } from 'zod';
import { storedValue } from '../model/column-values.js';
import { dateValueText } from '../model/date-text.js';
import { sameName } from '../model/identifier.js';
import { ConfigurationError } from '../model/issues.js';
import { parseInput } from '../model/metric-batch.js';
import {
  DEFAULT_METRICS,
  MetricDefault,
  type MetricInput,
  Metrics,
  type MetricValue,
} from '../model/metrics.js';
import { typeOf, type ValueTypes } from './value-types.js';

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

/**
 * Where one metric's default comes from, decided once per metric list. Plain data rather than a
 * closure per metric: the hot loop reads it inline, which measured twice as fast as calling a
 * closure for each metric of each activity.
 */
export interface DefaultSource {
  readonly from: 'none' | 'value' | 'activity' | 'taskSheet';
  /** The preset of a `value` default, else null. */
  readonly value: MetricValue;
  /** The column an `activity` or `taskSheet` default copies, else ''. */
  readonly column: string;
}

/** The arguments of {@link compileMetricDefaults}, checked as every public function's are. */
const CompileArguments = z.strictObject({ metrics: Metrics.optional() });

const NONE: ResolvedMetric = Object.freeze({ value: null, source: 'none' });
// Every DefaultSource has the same three properties, so the hot loop's property reads stay monomorphic.
const NO_DEFAULT: DefaultSource = Object.freeze({ from: 'none', value: null, column: '' });

/**
 * Turns a metric list into a resolver. The kind of each default is matched once here (exhaustively:
 * a new kind in `MetricDefault` does not compile until it is handled), so resolving a million
 * activities only reads the small plan made up front.
 *
 * A default presets only a key that has no saved row: once the key has a live row, every metric
 * shows what the row holds, source 'saved', a NULL too ("saved empty": the person cleared it, and
 * the host's reports read it empty). Removing the entry (soft-deleting the row) brings the defaults
 * back. A default that gives nothing (a NULL column, a `value` of
 * null) is source 'none', as if there were no default. Saved columns are matched without case, as
 * the server matches them (`metrica1` is METRICA1). A `field` or `taskSheet` default whose column the row lacks
 * throws {@link ConfigurationError} naming the metric and the column, never a silent `undefined`.
 *
 * With `types` (see `readValueTypes`), values are given as a save answers them: a saved FLOAT as the
 * shortest decimal of its single-precision number, a date copied by a default as its column keeps it
 * (a DATE as `2026-11-20`, a DATETIME as `2026-11-20 07:30:00`). Without, a date at midnight is taken
 * as a day.
 *
 * Without a list (a TREE_VIEW without `metrics`, or no TREE_VIEW) the metrics are
 * {@link DEFAULT_METRICS}: METRICA1 and METRICA2, no defaults. A list the TREE_VIEW's model would
 * refuse (a default of an unknown kind, a string for the list) is `INVALID_REQUEST` at its path
 * (`metrics.0.default.type`), as `planTree`'s arguments are.
 *
 * @example
 * const resolve = compileMetricDefaults([{ field: 'METRICA1', default: { type: 'field', name: 'INDICE' } }]);
 * resolve({ activity: { INDICE: '1.50' }, taskSheet: {} }); // { METRICA1: { value: '1.50', source: 'default' } }
 * compileMetricDefaults(undefined)({ activity: {}, taskSheet: {} }); // METRICA1 and METRICA2, source 'none'
 */
export function compileMetricDefaults(
  metrics?: readonly MetricInput[],
  types: ValueTypes = {},
): MetricDefaultsResolver {
  // A plain-JavaScript caller's list is checked here, not found wrong by ts-pattern mid-match.
  const checked =
    parseInput(CompileArguments, { metrics }, 'compileMetricDefaults arguments').metrics ?? DEFAULT_METRICS;
  const plan = checked.map((metric, index) => {
    const source = metric.default === undefined ? NO_DEFAULT : sourceOf(metric.default);
    const copied =
      source.from === 'activity' ? types.activity : source.from === 'taskSheet' ? types.taskSheet : undefined;
    const column = typeOf(types.metric, metric.field);
    return {
      field: metric.field,
      index,
      source,
      // A floating-point metric is given as a save answers it (a FLOAT as its shortest decimal).
      stored: column?.dataType === 'float' || column?.dataType === 'double' ? column : undefined,
      copiedType: source.column === '' ? undefined : typeOf(copied, source.column)?.dataType,
    };
  });
  return (inputs) => {
    const result: ResolvedMetrics = {};
    const saved = inputs.saved;
    for (const { field, index, source, stored: column, copiedType } of plan) {
      if (saved !== undefined) {
        // A key with a live row shows what the row holds, a NULL too: that is "saved empty". A
        // default naming a column the row lacks is still said, whatever rows happen to be saved.
        if (source.from === 'activity' || source.from === 'taskSheet') {
          readColumn(
            source.from === 'activity' ? inputs.activity : inputs.taskSheet,
            source,
            field,
            index,
            copiedType,
          );
        }
        const stored = saved[field] ?? saved[columnKey(saved, field) ?? field];
        const value = column === undefined ? toMetricValue(stored) : storedValue(column, stored);
        result[field] = { value, source: 'saved' };
        continue;
      }
      const value =
        source.from === 'none'
          ? null
          : source.from === 'value'
            ? source.value
            : readColumn(
                source.from === 'activity' ? inputs.activity : inputs.taskSheet,
                source,
                field,
                index,
                copiedType,
              );
      // A default that gives nothing (a NULL column, a null value) presets nothing: it says so.
      result[field] =
        value === null
          ? NONE
          : { value: column === undefined ? value : keptByFloat(column, value), source: 'default' };
    }
    return result;
  };
}

/** Resolves the metrics of one activity (compiles the list each call: for many rows use {@link compileMetricDefaults}). */
export function resolveMetricDefaults(
  metrics: readonly MetricInput[] | undefined,
  inputs: DefaultInputs,
): ResolvedMetrics {
  return compileMetricDefaults(metrics)(inputs);
}

/**
 * Where a default kind takes its value from. A default the TREE_VIEW's model would refuse (a kind it
 * does not know, `null`) is `INVALID_REQUEST` at its path, as {@link compileMetricDefaults}'s list is.
 */
export function defaultSource(metricDefault: MetricDefault | z.input<typeof MetricDefault>): DefaultSource {
  return sourceOf(
    parseInput(DefaultSourceArguments, { metricDefault }, 'defaultSource arguments').metricDefault,
  );
}

/** The arguments of {@link defaultSource}, checked as every public function's are. */
const DefaultSourceArguments = z.strictObject({ metricDefault: MetricDefault });

/** {@link defaultSource} of a default already checked. Exhaustive over `MetricDefault['type']`. */
function sourceOf(metricDefault: MetricDefault): DefaultSource {
  return match(metricDefault)
    .returnType<DefaultSource>()
    .with({ type: 'value' }, ({ value }) => ({ from: 'value', value, column: '' }))
    .with({ type: 'field' }, ({ name }) => ({ from: 'activity', value: null, column: name }))
    .with({ type: 'taskSheet' }, ({ name }) => ({ from: 'taskSheet', value: null, column: name }))
    .exhaustive();
}

/**
 * A floating-point metric's default as the column would keep it (1234.5678 copied from a DECIMAL into
 * a FLOAT is 1234.5677): what the form shows is what a save of it stores, and a first save, which
 * stores the defaults nobody typed over, is not refused as a value the column would round. A value
 * that is not a number is left as it is, for the save to refuse at its field.
 */
function keptByFloat(column: NonNullable<ReturnType<typeof typeOf>>, value: string | number): MetricValue {
  return typeof value === 'number' || (value.trim() !== '' && Number.isFinite(Number(value)))
    ? storedValue(column, value)
    : value;
}

function readColumn(
  row: Row,
  source: DefaultSource,
  field: string,
  index: number,
  dataType: string | undefined,
): MetricValue {
  const column = source.column;
  // One lookup for the usual case (the row has the column, set): this runs for every activity.
  const value = row[column];
  if (value !== undefined) return toMetricValue(value, dataType);
  const key = columnKey(row, column);
  if (key === undefined) {
    throw new ConfigurationError(
      'DEFAULT_COLUMN_MISSING',
      `metric ${field}: its default copies column "${column}" of ${source.from === 'activity' ? 'the activity' : 'the task sheet'}, which has no such column: name an existing column or change the default`,
      { path: `metrics.${index}.default.name` },
    );
  }
  return toMetricValue(row[key], dataType);
}

/**
 * The key of column `name` in a row read with `*`: the name itself, else the same name in another
 * case (the server matches column names regardless of case, so a TREE_VIEW may write `indice` for
 * the table's `INDICE`, and a row read with `*` carries the table's spelling); undefined when the
 * row has no such column. The first lookup is the one every row takes: no cost for exact names.
 */
export function columnKey(row: Row, name: string): string | undefined {
  if (row[name] !== undefined || Object.hasOwn(row, name)) return name;
  return Object.keys(row).find((key) => sameName(key, name));
}

/**
 * Values as the driver returns them, made JSON-safe: dates as the text a save keeps of them (a DATE
 * as its day, a DATETIME or TIMESTAMP as its wall time, by the column's `dataType` where known; an
 * ISO timestamp did not fit a `varchar(10)` metric and was not what the sheet shows), anything else
 * exotic as text.
 */
function toMetricValue(value: unknown, dataType?: string): MetricValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number') return value;
  if (value instanceof Date) return dateValueText(value, dataType);
  if (typeof value === 'boolean') return value ? 1 : 0;
  return String(value);
}
