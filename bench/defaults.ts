// One million metric-default resolutions: ours (compileMetricDefaults) against the switch a user would
// hand-write over the same metric list. Run with `npm run bench:defaults`; the last line is the ratio.
import { performance } from 'node:perf_hooks';
import { Metric } from '../src/model.js';
import { compileMetricDefaults } from '../src/tree.js';
import { loadLine, median, spread } from './report.js';

const RESOLUTIONS = 1_000_000;
const ROUNDS = 15;

const metrics = Metric.array().parse([
  { field: 'METRICA1', default: { type: 'field', name: 'INDICE' } },
  { field: 'METRICA2', default: { type: 'taskSheet', name: 'QTD_PESSOAS' } },
  { field: 'METRICA3', default: { type: 'value', value: 1 } },
  { field: 'METRICA4' },
]);
const taskSheet = { SEQ_DB: 42, QTD_PESSOAS: 7 };
// 1000 distinct activity rows, every fourth with a saved metric row, cycled through.
const activities = Array.from({ length: 1000 }, (_, index) => ({ SEQ_DB: index + 1, INDICE: `${index}.50` }));
const savedRows = activities.map((_, index) =>
  index % 4 === 0 ? { METRICA1: '9.00', METRICA2: null, METRICA3: 2, METRICA4: null } : undefined,
);

type Value = string | number | null;
type Resolved = Record<string, { value: Value; source: 'saved' | 'default' | 'none' }>;

/** The baseline: a plain loop with a switch on the kind, per activity. */
function resolveBySwitch(
  list: typeof metrics,
  activity: Record<string, unknown>,
  sheet: Record<string, unknown>,
  saved: Record<string, unknown> | undefined,
): Resolved {
  const result: Resolved = {};
  for (const metric of list) {
    const stored = saved?.[metric.field];
    if (stored !== undefined && stored !== null) {
      result[metric.field] = { value: stored as Value, source: 'saved' };
      continue;
    }
    const preset = metric.default;
    if (preset === undefined) {
      result[metric.field] = { value: null, source: 'none' };
      continue;
    }
    let value: Value;
    switch (preset.type) {
      case 'value':
        value = preset.value;
        break;
      case 'field':
        if (!(preset.name in activity)) throw new Error(`missing ${preset.name}`);
        value = activity[preset.name] as Value;
        break;
      case 'taskSheet':
        if (!(preset.name in sheet)) throw new Error(`missing ${preset.name}`);
        value = sheet[preset.name] as Value;
        break;
    }
    result[metric.field] = value === null ? { value: null, source: 'none' } : { value, source: 'default' };
  }
  return result;
}

const resolve = compileMetricDefaults(metrics);
// Results are kept (as the tree keeps them on its nodes), so neither side's allocations can be optimised away.
const kept: Resolved[] = new Array(1000);
let sink = 0;

function timeOurs(): number {
  const start = performance.now();
  for (let index = 0; index < RESOLUTIONS; index++) {
    const slot = index % 1000;
    const result = resolve({ activity: activities[slot] ?? {}, taskSheet, saved: savedRows[slot] });
    kept[slot] = result;
    sink += result.METRICA3?.value === 1 ? 1 : 0;
  }
  return performance.now() - start;
}

function timeSwitch(): number {
  const start = performance.now();
  for (let index = 0; index < RESOLUTIONS; index++) {
    const slot = index % 1000;
    const result = resolveBySwitch(metrics, activities[slot] ?? {}, taskSheet, savedRows[slot]);
    kept[slot] = result;
    sink += result.METRICA3?.value === 1 ? 1 : 0;
  }
  return performance.now() - start;
}

// Warm both up, then alternate rounds so neither gets a quieter machine.
console.log(`start: ${loadLine()}`);
timeOurs();
timeSwitch();
const ours: number[] = [];
const baseline: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  ours.push(timeOurs());
  baseline.push(timeSwitch());
}
const ratios = ours.map((time, round) => time / (baseline[round] ?? Number.NaN));
console.log(
  `resolutions per round: ${RESOLUTIONS.toLocaleString('en')} (${metrics.length} metrics each, 1000 distinct activities, every fourth with a saved row), ${ROUNDS} rounds`,
);
console.log(`ours (compileMetricDefaults): ${spread(ours, 1)} ms`);
console.log(`hand-written switch:          ${spread(baseline, 1)} ms`);
console.log(`ratio per round: ${spread(ratios)}; end: ${loadLine()}`);
console.log(`(checksum ${sink})`);
console.log(`ratio_vs_switch=${median(ratios).toFixed(2)}`);
