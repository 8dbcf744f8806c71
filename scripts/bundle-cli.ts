// Links the compiled CLI (dist/cli/, from tsc) and zod into dist/bundle/ (`npm run build` runs it
// after tsc). Node 20's ESM loader pays for every module it reads, and `serve` loaded some 140
// before listening, 95 of them zod's: one file for them took about 60 ms off its start (#30,
// docs/benchmarks.md, thirteenth session). esbuild only links here; tsc still compiles and checks.
import { readFile, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = new URL('../', import.meta.url);
// Two levels under the package root, as every dist module is: the `new URL('../../…',
// import.meta.url)` of the bundled modules (package.json, web/, examples/) still find their files.
const outdir = new URL('dist/bundle/', root);

// Plain JS on the start path, bundled; every other dependency is imported as installed: sharp is
// native, drizzle-orm is the host's own copy (a peer), and the rest load after listening or in other
// commands. Their licenses (MIT) ship with them, as they stay dependencies.
const BUNDLED = new Set(['zod', 'ts-pattern', 'thumbhash']);

const manifest = JSON.parse(await readFile(new URL('package.json', root), 'utf8')) as {
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};
const external = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })
  .filter((name) => !BUNDLED.has(name))
  .flatMap((name) => [name, `${name}/*`]);

// Chunk names change with their content: a stale chunk of an earlier build would ship too.
await rm(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: fileURLToPath(root),
  entryPoints: { cli: 'dist/cli/main.js' },
  outdir: fileURLToPath(outdir),
  bundle: true,
  // Each command stays in a chunk of its own, loaded when it runs (src/cli/main.ts).
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external,
  // No source map: its sources would name zod's files under this package's own node_modules,
  // which an install does not have (zod is hoisted). Unminified, a stack still reads as the code.
  sourcemap: false,
  logLevel: 'warning',
});
