// What every bench prints besides its figures: the machine's load, and how a figure spread over the
// rounds it was measured in (a best-of alone hides how noisy the run was).
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';

/** `load 1.23 0.98 0.75 on 2 cores`: the 1, 5 and 15 minute load averages, for the record. */
export function loadLine(): string {
  return `load ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')} on ${cpus().length} cores`;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? Number.NaN) + (sorted[middle] ?? Number.NaN)) / 2;
}

/** `1.23 (1.10-1.41 over 5)`: the median, then the lowest and highest of the rounds. */
export function spread(values: readonly number[], digits = 2): string {
  return `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}-${Math.max(...values).toFixed(digits)} over ${values.length})`;
}

/** Milliseconds `work` takes. */
export async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}
