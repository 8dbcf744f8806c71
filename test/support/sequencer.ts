import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Vitest's order (by group, project, then the longest or largest first), with the browser files
 * spread over the suite's: a browser file runs only when the other is done (test/support/browser-lane.ts),
 * so two of them in a row would leave a worker waiting while suite files are still queued. Each
 * browser file is queued once the suite has got as far through its own files, by their last
 * duration (or size, the first time), as the browser files before it: both move along together,
 * and whichever of them takes longer keeps one worker busy to the end.
 */
export class BrowserLaneSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const lane = sorted.filter((file) => file.project.name === 'browser');
    const suite = sorted.filter((file) => file.project.name === 'suite');
    const others = sorted.filter((file) => !lane.includes(file) && !suite.includes(file));
    const weigh = this.weigher([...lane, ...suite]);
    const laneTotal = sum(lane.map(weigh));
    const suiteTotal = sum(suite.map(weigh));
    const order: TestSpecification[] = [];
    let laneDone = 0;
    let suiteDone = 0;
    let next = 0;
    for (const file of suite) {
      while (next < lane.length && laneDone / laneTotal <= suiteDone / suiteTotal) {
        const browserFile = lane[next++] as TestSpecification;
        order.push(browserFile);
        laneDone += weigh(browserFile);
      }
      order.push(file);
      suiteDone += weigh(file);
    }
    return [...order, ...lane.slice(next), ...others];
  }

  /** A file's last duration when every file has one, else its size. */
  private weigher(files: TestSpecification[]): (file: TestSpecification) => number {
    const key = (file: TestSpecification) =>
      `${file.project.name}:${relative(this.ctx.config.root, file.moduleId)}`;
    const durations = files.map((file) => this.ctx.cache.getFileTestResults(key(file))?.duration);
    const byDuration = durations.every((duration) => duration !== undefined && duration > 0);
    return (file) =>
      Math.max(
        1,
        (byDuration
          ? this.ctx.cache.getFileTestResults(key(file))?.duration
          : this.ctx.cache.getFileStats(key(file))?.size) ?? 1,
      );
  }
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
