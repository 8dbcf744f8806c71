import { configDefaults, defineConfig } from 'vitest/config';

const CLUSTER_TESTS = 'test/cluster/**/*.test.ts';
const BROWSER_TESTS = 'test/web/**/*.test.ts';

// Three phases, one after the other (sequence.groupOrder): the suite on both cores, then the
// Chromium files one at a time, then the Galera files one at a time. Run side by side, the
// Chromium files and the suite starved each other: the browser files took 1,230 s beside the
// suite against 445 s alone, and the suite 423 s against 107 s alone (measured on CI's two cores),
// so the whole run took longer than the three phases in a row do.
export default defineConfig({
  test: {
    // Two workers match the two cores our machines and CI have.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Room for a loaded two-core machine: vitest's 1 s let a poll give up on a page still working
    // (a CI run failed so), where Playwright's own waits in these tests have 10 s.
    expect: { poll: { timeout: 15_000, interval: 100 } },
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
          // One file at a time: a Chromium file alone already keeps about one and a half cores
          // busy, and two at once starved each other's pages past the waits of their tests.
          name: 'browser',
          include: [BROWSER_TESTS],
          sequence: { groupOrder: 1 },
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          // The Galera cluster tests start three mariadbd of their own (test/support/galera.ts): one
          // file at a time with the machine to themselves, so the cluster's timings (a node's failure
          // detection, a rejoin) are not starved by other files. Two at a time raced for ports: each
          // takes free ports (test/support/ports.ts) that the other file's servers may bind first
          // (a node then failed "Address already in use" in a CI run).
          name: 'cluster',
          include: [CLUSTER_TESTS],
          sequence: { groupOrder: 2 },
          fileParallelism: false,
          testTimeout: 90_000,
          hookTimeout: 150_000,
        },
      },
    ],
  },
});
