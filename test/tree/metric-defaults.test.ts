import { match } from 'ts-pattern';
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/model/issues.js';
import { Metric, type MetricDefault } from '../../src/model.js';
import {
  compileMetricDefaults,
  defaultSource,
  InvalidRequestError,
  resolveMetricDefaults,
} from '../../src/tree.js';

const metrics = Metric.array().parse([
  { field: 'METRICA1', label: 'Quantity', default: { type: 'field', name: 'INDICE' } },
  { field: 'METRICA2', label: 'Workers', default: { type: 'taskSheet', name: 'QTD_PESSOAS' } },
  { field: 'METRICA3', label: 'Passes', default: { type: 'value', value: 1 } },
  { field: 'METRICA4', label: 'Notes' },
]);
const activity = { SEQ_DB: 3, INDICE: '12.50' };
const taskSheet = { SEQ_DB: 42, QTD_PESSOAS: 7, AREA_HA: '3.25' };

describe('metric defaults', () => {
  it('resolves each kind: field from the activity, taskSheet from the task sheet, value as configured', () => {
    expect(resolveMetricDefaults(metrics, { activity, taskSheet })).toEqual({
      METRICA1: { value: '12.50', source: 'default' },
      METRICA2: { value: 7, source: 'default' },
      METRICA3: { value: 1, source: 'default' },
      METRICA4: { value: null, source: 'none' },
    });
  });

  it('shows what a saved row holds, a NULL as saved empty: a default presets only a key without a row', () => {
    const saved = { METRICA1: '99.00', METRICA2: null, METRICA3: 4, METRICA4: 0 };
    expect(resolveMetricDefaults(metrics, { activity, taskSheet, saved })).toEqual({
      METRICA1: { value: '99.00', source: 'saved' },
      // Cleared by a person, with a default of 7: it stays cleared.
      METRICA2: { value: null, source: 'saved' },
      METRICA3: { value: 4, source: 'saved' },
      METRICA4: { value: 0, source: 'saved' },
    });
    // The same key without its row (never saved, or removed): the defaults apply.
    expect(resolveMetricDefaults(metrics, { activity, taskSheet })).toMatchObject({
      METRICA2: { value: 7, source: 'default' },
    });
  });

  it('without a metric list (no TREE_VIEW, or one without metrics) resolves METRICA1 and METRICA2', () => {
    expect(compileMetricDefaults()({ activity, taskSheet, saved: { METRICA2: 3 } })).toEqual({
      METRICA1: { value: null, source: 'saved' },
      METRICA2: { value: 3, source: 'saved' },
    });
    expect(resolveMetricDefaults(undefined, { activity, taskSheet })).toEqual({
      METRICA1: { value: null, source: 'none' },
      METRICA2: { value: null, source: 'none' },
    });
  });

  it('takes a metric list written by hand, as its documentation example does', () => {
    const resolve = compileMetricDefaults([
      { field: 'METRICA1', default: { type: 'field', name: 'INDICE' } },
    ]);
    expect(resolve({ activity: { INDICE: '1.50' }, taskSheet: {} })).toEqual({
      METRICA1: { value: '1.50', source: 'default' },
    });
  });

  it('keeps decimals as the exact strings the driver returns, and a default from a NULL column presets nothing', () => {
    const resolve = compileMetricDefaults(metrics);
    expect(resolve({ activity: { INDICE: '0.10' }, taskSheet: { QTD_PESSOAS: null } })).toMatchObject({
      METRICA1: { value: '0.10', source: 'default' },
      // Nothing to preset: the modal must not say "default" over an empty field.
      METRICA2: { value: null, source: 'none' },
    });
    expect(
      compileMetricDefaults([{ field: 'METRICA1', default: { type: 'value', value: null } }])({
        activity: {},
        taskSheet: {},
      }),
    ).toEqual({ METRICA1: { value: null, source: 'none' } });
  });

  it('reads a saved value whose column the TREE_VIEW writes in another case, as the server matches it', () => {
    const resolve = compileMetricDefaults([{ field: 'metrica1', default: { type: 'value', value: 1 } }]);
    expect(resolve({ activity: {}, taskSheet: {}, saved: { METRICA1: '7.25' } })).toEqual({
      metrica1: { value: '7.25', source: 'saved' },
    });
  });

  it('refuses a default naming a column the activity lacks, naming the metric and the column', () => {
    const run = () => resolveMetricDefaults(metrics, { activity: { SEQ_DB: 3 }, taskSheet });
    expect(run).toThrow(ConfigurationError);
    expect(run).toThrow(/metric METRICA1: .*column "INDICE" of the activity/);
    try {
      run();
    } catch (error) {
      expect(error).toMatchObject({ code: 'DEFAULT_COLUMN_MISSING', path: 'metrics.0.default.name' });
    }
  });

  it('refuses a taskSheet default naming a column the task sheet lacks', () => {
    expect(() => resolveMetricDefaults(metrics, { activity, taskSheet: { SEQ_DB: 42 } })).toThrow(
      /metric METRICA2: .*column "QTD_PESSOAS" of the task sheet/,
    );
  });

  // Found by a review: ts-pattern's "Pattern matching error" (no code) and "metrics.map is not a function".
  it('refuses a metric list the TREE_VIEW would refuse as planTree refuses its arguments, with the path', () => {
    const refusal = (list: unknown) => {
      try {
        compileMetricDefaults(list as never);
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidRequestError);
        return error;
      }
      throw new Error('not refused');
    };
    expect(refusal([{ field: 'METRICA1', default: { type: 'bogus' } }])).toMatchObject({
      code: 'INVALID_REQUEST',
      path: 'metrics.0.default.type',
      message:
        "compileMetricDefaults arguments at metrics.0.default.type: Invalid discriminator value. Expected 'value' | 'field' | 'taskSheet'",
    });
    expect(refusal([{ field: 'METRICA1', default: null }])).toMatchObject({
      code: 'INVALID_REQUEST',
      path: 'metrics.0.default',
    });
    expect(refusal('METRICA1')).toMatchObject({
      code: 'INVALID_REQUEST',
      path: 'metrics',
      message: 'compileMetricDefaults arguments at metrics: Invalid input: expected array, received string',
    });
    expect(() => resolveMetricDefaults('METRICA1' as never, { activity, taskSheet })).toThrow(
      InvalidRequestError,
    );
  });

  it('is exhaustive over the default kinds: leaving one out does not compile', () => {
    const describeDefault = (metricDefault: MetricDefault) =>
      match(metricDefault)
        .with({ type: 'value' }, () => 'value')
        .with({ type: 'field' }, () => 'field')
        // @ts-expect-error: the taskSheet kind is not handled, so exhaustive() is not callable
        .exhaustive();
    expect(describeDefault({ type: 'value', value: 1 })).toBe('value');
    // A kind the union does not know is refused by the reader's signature, and by the reader itself
    // for a plain-JavaScript caller, at its path (it was ts-pattern's "Pattern matching error").
    // @ts-expect-error: 'formula' is not a MetricDefault kind
    expect(() => defaultSource({ type: 'formula', text: 'x' })).toThrow(
      expect.objectContaining({ code: 'INVALID_REQUEST', path: 'metricDefault.type' }),
    );
    expect(() => defaultSource(null as never)).toThrow(
      expect.objectContaining({ code: 'INVALID_REQUEST', path: 'metricDefault' }),
    );
  });
});
