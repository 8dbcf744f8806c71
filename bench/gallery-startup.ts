// Start to listening: `task-association serve --port 0` (the published bin, over dist/bundle/)
// spawned as a process, timed from the spawn to its "serving the home gallery on …" line, median of
// `runs`. Beside it, bare node starting and exiting (the floor any CLI pays), and node importing zod
// as installed and exiting: its ~95 modules, which serve read before listening until the bin was
// bundled (it now reads zod from one file, so it can start sooner than this). Build first.
// `node --import tsx bench/gallery-startup.ts` alone, or through `npm run bench:gallery`.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/task-association.js', import.meta.url));
// zod resolved from the package, as the bin resolves it.
const PACKAGE_ROOT = fileURLToPath(new URL('../', import.meta.url));

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Milliseconds from spawning `args` until a line of stderr matches `ready` (or the process exits). */
function timeUntil(
  args: readonly string[],
  ready: RegExp | undefined,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, {
      env,
      cwd: PACKAGE_ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let said = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      said += chunk;
      if (ready?.test(said)) {
        const elapsed = performance.now() - started;
        child.kill('SIGTERM');
        resolve(elapsed);
      }
    });
    child.once('exit', (code) => {
      if (ready === undefined) resolve(performance.now() - started);
      else if (!ready.test(said)) reject(new Error(`exited with ${code} before it was ready: ${said}`));
    });
  });
}

export async function startupTimes(
  runs = 7,
): Promise<{ serveMs: number; bareNodeMs: number; zodFloorMs: number }> {
  const cacheDir = await mkdtemp(join(tmpdir(), 'startup-bench-'));
  const env = { ...process.env, CAROULSEL_SECRET: 'startup-bench-secret-0123' };
  try {
    const serve: number[] = [];
    const bare: number[] = [];
    const zod: number[] = [];
    for (let run = 0; run < runs; run += 1) {
      serve.push(
        await timeUntil(
          [BIN, 'serve', '--port', '0', '--cache', cacheDir],
          /serving the home gallery on/,
          env,
        ),
      );
      bare.push(await timeUntil(['-e', ''], undefined, env));
      zod.push(await timeUntil(['--input-type=module', '-e', "await import('zod')"], undefined, env));
    }
    return { serveMs: median(serve), bareNodeMs: median(bare), zodFloorMs: median(zod) };
  } finally {
    await rm(cacheDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { serveMs, bareNodeMs, zodFloorMs } = await startupTimes();
  console.log(
    `start to listening: serve ${serveMs.toFixed(0)} ms, bare node ${bareNodeMs.toFixed(0)} ms, node importing zod ${zodFloorMs.toFixed(0)} ms (median of 7)`,
  );
}
