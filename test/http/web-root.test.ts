import type * as fs from 'node:fs/promises';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createWebRootHandler } from '../../src/http/web-root.js';

// A file named here is removed right before the handler reads it: it vanishes between the look at
// the folder and the read, as when a release is copied in while the page is asked for.
const vanishing = vi.hoisted(() => ({ path: '' }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const original = await importOriginal<typeof fs>();
  const readFile = async (...args: Parameters<typeof original.readFile>) => {
    if (String(args[0]) === vanishing.path) await original.rm(vanishing.path);
    return original.readFile(...args);
  };
  return { ...original, readFile, default: { ...original, readFile } };
});

let root = '';
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'gallery-web-root-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('createWebRootHandler', () => {
  it('answers 404 for a file removed between the look at its folder and its read', async () => {
    const handler = createWebRootHandler(root);
    await writeFile(join(root, 'app.js'), 'export {};');
    await writeFile(join(root, 'index.html'), '<!doctype html><title>home</title>');
    expect((await handler(new Request('http://x/assets/app.js'))).status).toBe(200);
    for (const [path, file, message] of [
      ['/assets/app.js', 'app.js', 'nothing is served at /assets/app.js'],
      ['/', 'index.html', 'is missing'],
    ] as const) {
      vanishing.path = join(root, file);
      const response = await handler(new Request(`http://x${path}`));
      expect(response.status, path).toBe(404);
      expect(await response.json()).toMatchObject({
        error: { code: 'NOT_FOUND', message: expect.stringContaining(message) },
      });
    }
  });
});
