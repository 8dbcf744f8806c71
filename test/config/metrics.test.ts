import { describe, expect, it } from 'vitest';
import {
  DEFAULT_METRICS,
  METRIC_DEFAULT_TYPES,
  Metric,
  MetricDefault,
  Metrics,
  RESERVED_METRIC_COLUMNS,
} from '../../src/config/index.js';

describe('metrics', () => {
  it('defaults to METRICA1 and METRICA2 without defaults', () => {
    expect(DEFAULT_METRICS).toStrictEqual([{ field: 'METRICA1' }, { field: 'METRICA2' }]);
    expect(Object.isFrozen(DEFAULT_METRICS) && DEFAULT_METRICS.every(Object.isFrozen)).toBe(true);
  });

  it('knows the three default kinds of seed 2.9', () => {
    expect(METRIC_DEFAULT_TYPES).toStrictEqual(['value', 'field', 'taskSheet']);
    for (const candidate of [
      { type: 'value', value: 0 },
      { type: 'value', value: null },
      { type: 'field', name: 'INDICE' },
      { type: 'taskSheet', name: 'QTD_PESSOAS' },
    ])
      expect(MetricDefault.parse(candidate)).toStrictEqual(candidate);
  });

  it('refuses a metric whose field is not an identifier, and duplicate fields', () => {
    expect(Metric.safeParse({ field: 'METRICA 1' }).success).toBe(false);
    const duplicate = Metrics.safeParse([{ field: 'M' }, { field: 'M' }]);
    expect(duplicate.success ? [] : duplicate.error.issues.map((issue) => issue.path)).toStrictEqual([
      [1, 'field'],
    ]);
  });

  it('refuses every reserved column as a metric field, in any case, with its code and path', () => {
    for (const column of RESERVED_METRIC_COLUMNS)
      for (const field of [column, column.toLowerCase()]) {
        const result = Metrics.safeParse([{ field: 'METRICA1' }, { field }]);
        expect(
          result.success
            ? []
            : result.error.issues.map((issue) => ({
                path: issue.path,
                code: issue.code === 'custom' ? issue.params?.code : issue.code,
              })),
        ).toStrictEqual([{ path: [1, 'field'], code: 'RESERVED_METRIC_FIELD' }]);
      }
    expect(Metric.safeParse({ field: 'METRICA_RO' }).success).toBe(true);
  });
});
