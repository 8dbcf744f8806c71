// Several nodes on one Redis: three `task-association serve --redis` processes (the published bin,
// over dist/), 100 concurrent requests of one cold thumbnail spread over them, and the number of
// generations the three counted in Redis together. Build first (npm run build); needs the Redis at
// $REDIS_URL (default redis://127.0.0.1:6379).
// `node --import tsx bench/gallery-nodes.ts` alone, or through `npm run bench:gallery`.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';

const BIN = fileURLToPath(new URL('../bin/task-association.js', import.meta.url));
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

function startNode(prefix: string): Promise<{ url: string; node: ChildProcess }> {
  const node = spawn(
    process.execPath,
    [BIN, 'serve', '--port', '0', '--redis', REDIS_URL, '--redis-prefix', prefix],
    {
      env: { ...process.env, CAROULSEL_SECRET: 'bench-nodes-secret-0123456789' },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let said = '';
  node.stderr?.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    node.stderr?.on('data', (chunk: string) => {
      said += chunk;
      const url = /serving the home gallery on (\S+)/.exec(said)?.[1];
      if (url !== undefined) resolve({ url, node });
    });
    node.once('exit', (code) => reject(new Error(`serve ended with ${code}: ${said}`)));
  });
}

/** Generations for 100 concurrent requests of one cold thumbnail over three nodes (goal: 1). */
export async function threeNodeGenerations(): Promise<number> {
  const prefix = `bench:nodes:${randomBytes(6).toString('hex')}:`;
  const redis = new Redis(REDIS_URL, { lazyConnect: true, commandTimeout: 2000 });
  redis.on('error', () => undefined);
  await redis.connect();
  const nodes: ChildProcess[] = [];
  try {
    const started = await Promise.all([startNode(prefix), startNode(prefix), startNode(prefix)]);
    nodes.push(...started.map(({ node }) => node));
    const urls = started.map(({ url }) => url);
    const { items } = (await (await fetch(`${urls[0]}/caroulsel/data`)).json()) as {
      items: { previewUrl: string }[];
    };
    const path = items[0]?.previewUrl ?? '';
    // Each node lists the page once before: a node never asked for the list would look the token up.
    for (const url of urls.slice(1)) await (await fetch(`${url}/caroulsel/data`)).arrayBuffer();
    const answers = await Promise.all(
      Array.from({ length: 100 }, async (_, index) => {
        const response = await fetch(`${urls[index % 3]}${path}`);
        await response.arrayBuffer();
        return response.status;
      }),
    );
    if (answers.some((status) => status !== 200)) throw new Error(`answers: ${answers.join(' ')}`);
    return Number((await redis.get(`${prefix}generations`)) ?? 0);
  } finally {
    for (const node of nodes) {
      node.kill('SIGTERM');
      if (node.exitCode === null) await once(node, 'exit');
    }
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`three nodes: ${await threeNodeGenerations()} generation(s) for 100 concurrent cold requests`);
}
