import { describe, expect, it } from 'vitest';
import {
  DEFAULT_METRICS,
  METRIC_DEFAULT_TYPES,
  Metric,
  MetricDefault,
  Metrics,
  RESERVED_METRIC_COLUMNS,
} from '../../src/model.js';

describe('metrics', () => {
  it('defaults to METRICA1 and METRICA2 without defaults', () => {
    expect(DEFAULT_METRICS).toStrictEqual([{ field: 'METRICA1' }, { field: 'METRICA2' }]);
    expect(Object.isFrozen(DEFAULT_METRICS) && DEFAULT_METRICS.every(Object.isFrozen)).toBe(true);
  });

  it('knows the three default kinds', () => {
    expect(METRIC_DEFAULT_TYPES).toStrictEqual(['value', 'field', 'taskSheet']);
    for (const candidate of [
      { type: 'value', value: 0 },
      { type: 'value', value: null },
      { type: 'field', name: 'INDICE' },
      { type: 'taskSheet', name: 'QTD_PESSOAS' },
    ])
      expect(MetricDefault.parse(candidate)).toStrictEqual(candidate);
  });

  it('refuses a field listed twice in two cases, a blank label, and a number JSON could not keep exactly', () => {
    const twice = Metrics.safeParse([{ field: 'METRICA1' }, { field: 'metrica1' }]);
    expect(twice.success ? [] : twice.error.issues.map((issue) => [issue.path, issue.message])).toStrictEqual(
      [[[1, 'field'], 'metric field "metrica1" is already listed at metrics.0: list each column once']],
    );
    expect(Metric.safeParse({ field: 'METRICA1', label: '   ' }).success).toBe(false);
    expect(Metric.parse({ field: 'METRICA1', label: ' Horas ' }).label).toBe('Horas');
    // As a configuration file's JSON text reads them: already rounded when the model sees them.
    const rounded = JSON.parse('[9007199254740993, 12345678901234567890, -9007199254740993]') as number[];
    for (const value of rounded) {
      const result = MetricDefault.safeParse({ type: 'value', value });
      expect(result.success ? [] : result.error.issues.map((issue) => issue.message)).toStrictEqual([
        'this whole number is past 2^53 - 1, where JSON numbers lose digits (it may already have been rounded): give it as a string, such as "12345678901234567890"',
      ]);
    }
    // Fractions, exact or not, cannot be told from their neighbours once read: taken.
    for (const value of [9007199254740991, -12.5, 0.1, 0.1234567890123456, '12345678901234567890'])
      expect(MetricDefault.parse({ type: 'value', value })).toStrictEqual({ type: 'value', value });
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
