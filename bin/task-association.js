#!/usr/bin/env node
// The published entry point: runs the CLI as npm run build bundles it (dist/bundle/, from dist/cli/
// and zod by scripts/bundle-cli.ts): one file for zod's modules instead of some 95 makes serve
// listen about 60 ms sooner on Node 20. Ctrl-C and SIGTERM stop serve and demo cleanly and
// interrupt any other command (runCliProcess, src/cli/main.ts).
import { runCliProcess } from '../dist/bundle/cli.js';

await runCliProcess();
