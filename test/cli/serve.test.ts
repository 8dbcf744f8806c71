import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { StopSignal } from '../../src/cli/io.js';
import { runCli } from '../../src/cli/main.js';
import { captureIo } from '../support/cli.js';

const dir = await mkdtemp(join(tmpdir(), 'cli-serve-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Starts `serve` in-process with a stop signal; resolves with its URL once it listens. */
async function startServe(args: string[], env: Record<string, string | undefined> = {}) {
  let stop = () => {};
  const stopSignal = new Promise<StopSignal>((resolve) => {
    stop = () => resolve('SIGINT');
  });
  const io = { ...captureIo({ env }), stopSignal };
  const exit = runCli(['serve', '--port', '0', '--cache', join(dir, 'cache'), ...args], io);
  let url: string | undefined;
  while (url === undefined) {
    const settled = await Promise.race([exit, new Promise((resolve) => setImmediate(resolve, 'running'))]);
    if (settled !== 'running') throw new Error(`serve ended early: ${io.err()}`);
    url = /serving the home gallery on (\S+)/.exec(io.err())?.[1];
  }
  return { url, io, exit, stop };
}

describe('task-association serve', () => {
  it('serves the bundled images until stopped, then exits 0', async () => {
    const { url, io, exit, stop } = await startServe([], { CAROULSEL_SECRET: 'cli-secret-0123456789' });
    const response = await fetch(`${url}/caroulsel/data`);
    expect(response.status).toBe(200);
    const { items } = (await response.json()) as { items: { id: string; previewUrl: string }[] };
    expect(items.map((item) => item.id)).toContain('joy-preview.jpg');
    expect((await fetch(url + (items[0]?.previewUrl ?? ''))).status).toBe(200);
    expect((await readdir(join(dir, 'cache'))).some((name) => name.endsWith('.media'))).toBe(true);
    stop();
    expect(await exit).toBe(0);
    expect(io.err()).not.toContain('random secret');
    expect(io.out()).toBe('');
  });

  it('takes --images and says when the secret is random', async () => {
    const { url, io, exit, stop } = await startServe(['--images', 'examples/images'], {
      CAROULSEL_SECRET: undefined,
    });
    expect((await fetch(`${url}/caroulsel/data`)).status).toBe(200);
    stop();
    expect(await exit).toBe(0);
    expect(io.err()).toContain('CAROULSEL_SECRET is not set');
  });

  it.each([
    [['--port', 'abc'], '--port must be a number'],
    [['--port', '70000'], '--port must be a number'],
    [['--colour', 'red'], 'unknown option --colour'],
    [['extra'], 'unexpected argument "extra"'],
    [
      ['--cache', '/tmp/c', '--redis', 'redis://127.0.0.1:6379'],
      '--cache and --redis both name where renditions are kept: give one (--redis for several nodes)',
    ],
    [
      ['--redis-prefix', 'p:'],
      '--redis-prefix names the prefix of the keys in a Redis: give --redis URL with it',
    ],
  ])('refuses %j with exit code 2', async (args, message) => {
    const io = captureIo();
    expect(await runCli(['serve', ...args], io)).toBe(2);
    expect(io.err()).toContain(message);
  });

  it('refuses a missing images folder and a weak secret with exit code 1', async () => {
    const missing = captureIo();
    expect(await runCli(['serve', '--port', '0', '--images', '/nonexistent/images'], missing)).toBe(1);
    expect(missing.err()).toContain('the images folder /nonexistent/images does not exist');
    for (const [secret, message] of [
      ['short', '$CAROULSEL_SECRET: a gallery secret needs at least 16 characters'],
      // A trailing comma: an empty second secret.
      [
        'one-secret-0123456789,',
        '$CAROULSEL_SECRET (secret 2 of 2, comma-separated): a gallery secret needs at least 16 characters',
      ],
    ]) {
      const weak = captureIo({ env: { CAROULSEL_SECRET: secret } });
      expect(await runCli(['serve', '--port', '0', '--cache', join(dir, 'cache')], weak)).toBe(1);
      expect(weak.err()).toContain(message);
    }
  });
});
