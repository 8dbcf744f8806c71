import type { Metric, MetricValue } from '../../model/metrics.js';
import type { MetricSource } from '../metric-defaults.js';
import type { LastChange } from '../saved-row.js';

/** Where a metric's preset came from, as the modal says it: saved, one of the default kinds, or none. */
export type ScreenMetricSource = 'saved' | 'none' | `default:${NonNullable<Metric['default']>['type']}`;

/** One metric of an activity, as the screen shows and presets it. */
export interface ScreenMetric {
  readonly value: MetricValue;
  readonly source: ScreenMetricSource;
}

/**
 * A node as the association screen gets it: a few fields, never the whole row. `group` and
 * `metrics` only on activities (the task level).
 */
export interface ScreenNode {
  /** The node's SEQ_DB. */
  readonly id: number;
  /** Its TREE_VIEW level (1 for the root; the default tree's nested groups are all level 1). */
  readonly level: number;
  readonly label: string;
  readonly hasChildren: boolean;
  readonly kind: 'branch' | 'task';
  /** Activities: the parent node it was reached through (the metric row's OPER_GRUPO_SEQ_DB); null on a one-level tree. */
  readonly group?: number | null;
  /** Activities: the values the modal presets, by metric column, with their source. */
  readonly metrics?: Readonly<Record<string, ScreenMetric>>;
  /** Activities: false when the saved row is read-only (RO=1) or inactive (ATIVO=0): the modal only shows it. */
  readonly editable?: boolean;
  /** Activities: who last changed the saved row, and when; null when the key has no row (the defaults show). */
  readonly lastChange?: LastChange | null;
}

/** The screen's name for a resolved source: a default says which kind it is. */
export function screenSource(metric: Metric, source: MetricSource): ScreenMetricSource {
  if (source !== 'default' || metric.default === undefined) return source === 'saved' ? 'saved' : 'none';
  return `default:${metric.default.type}`;
}
