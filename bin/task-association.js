#!/usr/bin/env node
// The published entry point: runs the compiled CLI (npm run build writes dist/).
import { runCli } from '../dist/cli/main.js';

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
});
