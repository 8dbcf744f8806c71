#!/usr/bin/env node
// The published entry point: runs the CLI as npm run build bundles it (dist/bundle/, from dist/cli/
// and zod by scripts/bundle-cli.ts): one file for zod's modules instead of some 95 makes serve
// listen about 60 ms sooner on Node 20.
import { runCli } from '../dist/bundle/cli.js';

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
