import { configDefaults, defineConfig } from 'vitest/config';
import { BrowserLaneSequencer } from './test/support/sequencer.js';

const CLUSTER_TESTS = 'test/cluster/**/*.test.ts';
const BROWSER_TESTS = 'test/web/**/*.test.ts';

export default defineConfig({
  test: {
    // Two workers match the two cores our machines and CI have.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The browser files spread over the suite's, so that the one running beside them always has one.
    sequence: { sequencer: BrowserLaneSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'suite',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, CLUSTER_TESTS, BROWSER_TESTS],
          // Each test file works in a scratch database of its own, so files may run in parallel.
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          // The Chromium files, one at a time beside the rest: two of them at once on two cores
          // starved each other's pages past the waits of their tests (a lightbox not open in 10 s,
          // seen in a full run; each passes alone). Not `fileParallelism: false`: Vitest runs such a
          // project after every group, the cluster's too (10 of 15.6 minutes alone); each file takes
          // the lane of this run instead (test/support/browser-lane.ts).
          name: 'browser',
          include: [BROWSER_TESTS],
          sequence: { groupOrder: 0 },
          setupFiles: ['test/support/browser-lane.ts'],
          env: { BROWSER_LANE: `task-association-browser-lane-${process.pid}` },
        },
      },
      {
        extends: true,
        test: {
          // The Galera cluster tests start three mariadbd of their own (test/support/galera.ts): they
          // run after the rest (groupOrder), one file at a time, so the cluster has both cores and its
          // timings (a node's failure detection, a rejoin) are not starved by the other files.
          name: 'cluster',
          include: [CLUSTER_TESTS],
          sequence: { groupOrder: 1 },
          fileParallelism: false,
          testTimeout: 90_000,
          hookTimeout: 150_000,
        },
      },
    ],
  },
});
