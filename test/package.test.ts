import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// These run against the built package (`npm test` builds first), as a host would import it.
const root = new URL('../', import.meta.url);
const manifest = JSON.parse(await readFile(new URL('package.json', root), 'utf8')) as {
  exports: Record<string, string | { import: string; types: string }>;
  bin: Record<string, string>;
};

describe('the published package', () => {
  it.each([
    'task-association',
    'task-association/schema',
    'task-association/config',
    'task-association/resolvers',
    'task-association/gallery',
    'task-association/testing',
  ])('%s resolves and exports something', async (specifier) => {
    const module = (await import(specifier)) as Record<string, unknown>;
    expect(Object.keys(module).length).toBeGreaterThan(0);
  });

  it('exports the main entry points a host uses', async () => {
    const main = (await import('task-association')) as Record<string, unknown>;
    for (const name of [
      'createTables',
      'syncSchema',
      'parseTreeView',
      'loadTaskTree',
      'saveMetrics',
      'applyInstallation',
      'openDatabase',
    ]) {
      expect(typeof main[name], name).toBe('function');
    }
    const gallery = (await import('task-association/gallery')) as Record<string, unknown>;
    expect(typeof gallery.createGalleryHandler).toBe('function');
  });

  it('every file the exports map names exists', async () => {
    for (const [subpath, target] of Object.entries(manifest.exports)) {
      if (subpath.includes('*')) continue;
      const files = typeof target === 'string' ? [target] : [target.import, target.types];
      for (const file of files)
        await expect(readFile(new URL(file, root)), `${subpath} → ${file}`).resolves.toBeDefined();
    }
  });

  it('the bin runs and prints its usage', async () => {
    const bin = new URL(manifest.bin['task-association'] ?? '', root);
    const { stdout } = await promisify(execFile)(process.execPath, [bin.pathname, '--help']);
    expect(stdout).toContain('usage: task-association <command>');
  });
});
