#!/usr/bin/env node
// The published entry point: runs the compiled CLI (npm run build writes dist/).
import { runCli } from '../dist/cli/main.js';

// Long-running commands (serve, demo) stop cleanly on Ctrl-C or SIGTERM: they await this promise,
// then close their servers and drop what they created.
const stopSignal = new Promise((resolve) => {
  process.once('SIGINT', resolve);
  process.once('SIGTERM', resolve);
});

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  stopSignal,
});
// Nothing else should keep the process alive once the command is done.
process.exit();
