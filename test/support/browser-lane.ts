import { createServer, type Server } from 'node:net';
import { afterAll } from 'vitest';

// The browser project's setup file: its test files run beside the suite's, but one at a time (two
// Chromium files at once on two cores starved each other's pages past the waits of their tests).
// Vitest only limits workers per group of projects, and a group with one worker runs after every
// other group; so each browser file takes this lane before its module loads and leaves it when the
// file is done. The lane is an abstract Unix socket named for the run (vitest.config.ts): one
// process at a time can listen on it, and the kernel frees it when that process exits, however.

const name = process.env.BROWSER_LANE;
if (name === undefined)
  throw new Error('BROWSER_LANE is not set: the browser files run through vitest.config.ts');

/**
 * Far longer than a browser file takes (the longest, about two minutes), so reaching it means the
 * file holding the lane is stuck, not slow: then this one fails and says so instead of waiting on.
 */
const LANE_WAIT_MS = 15 * 60_000;

const lane = await take(`\0${name}`);
afterAll(() => new Promise<void>((resolve) => lane.close(() => resolve())));

async function take(path: string): Promise<Server> {
  const started = Date.now();
  for (;;) {
    if (Date.now() - started > LANE_WAIT_MS) {
      throw new Error(
        `the browser lane ${JSON.stringify(name)} was held by another Chromium test file for more than ${LANE_WAIT_MS / 60_000} minutes: that file is stuck; its own output says where`,
      );
    }
    const server = createServer();
    const taken = await new Promise<boolean>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) =>
        error.code === 'EADDRINUSE' ? resolve(false) : reject(error),
      );
      server.listen({ path }, () => resolve(true));
    });
    if (taken) return server;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
