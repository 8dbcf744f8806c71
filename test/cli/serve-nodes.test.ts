import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
// A prefix of our own: engineers and CI runs share this Redis.
const prefix = `test:serve-nodes:${randomBytes(6).toString('hex')}:`;
const redis = new Redis(REDIS_URL);
const CLI = new URL('../support/run-cli.ts', import.meta.url).pathname;
const nodes: ChildProcess[] = [];

afterAll(async () => {
  for (const node of nodes) if (node.exitCode === null) node.kill('SIGKILL');
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

/** `task-association serve` as a process of its own on a free port; resolves with its URL once it listens. */
async function startNode(): Promise<{ url: string; node: ChildProcess }> {
  const node = spawn(
    process.execPath,
    ['--import', 'tsx', CLI, 'serve', '--port', '0', '--redis', REDIS_URL, '--redis-prefix', prefix],
    {
      env: { ...process.env, CAROULSEL_SECRET: 'serve-nodes-secret-0123456789' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  nodes.push(node);
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

describe('three serve processes sharing one Redis', () => {
  it('generate a cold thumbnail once for 100 concurrent requests spread over them', async () => {
    const started = await Promise.all([startNode(), startNode(), startNode()]);
    const urls = started.map(({ url }) => url);
    const { items } = (await (await fetch(`${urls[0]}/caroulsel/data`)).json()) as {
      items: { previewUrl: string }[];
    };
    const path = items[0]?.previewUrl ?? '';
    // The other nodes list the same page (same secret, same images): the same URL on each.
    for (const url of urls.slice(1)) {
      const other = (await (await fetch(`${url}/caroulsel/data`)).json()) as {
        items: { previewUrl: string }[];
      };
      expect(other.items[0]?.previewUrl).toBe(path);
    }
    const answers = await Promise.all(
      Array.from({ length: 100 }, async (_, index) => {
        const response = await fetch(`${urls[index % 3]}${path}`);
        return [response.status, Buffer.from(await response.arrayBuffer()).toString('base64')] as const;
      }),
    );
    expect(answers.map(([status]) => status)).toEqual(answers.map(() => 200));
    expect(new Set(answers.map(([, body]) => body)).size).toBe(1);
    // Each node counts its decodes in the shared Redis: one for the three of them.
    expect(await redis.get(`${prefix}generations`)).toBe('1');
    for (const { node } of started) {
      node.kill('SIGTERM');
      await once(node, 'exit');
    }
  }, 60_000);
});
