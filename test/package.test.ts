import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// These run against the built package (`npm test` builds first), as a host would import it.
const root = new URL('../', import.meta.url);
const manifest = JSON.parse(await readFile(new URL('package.json', root), 'utf8')) as {
  exports: Record<string, string | { import: string; default: string; types: string }>;
  bin: Record<string, string>;
  license: string;
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  scripts: Record<string, string>;
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

  // drizzle-kit loads a project's drizzle.config.ts with CommonJS `require`.
  it('task-association/schema can be required, as drizzle-kit loads a config that imports it', () => {
    const require = createRequire(import.meta.url);
    const schema = require('task-association/schema') as Record<string, unknown>;
    expect(typeof schema.tableNamesFromEnv).toBe('function');
  });

  it('every entry point has a default condition beside import (for require)', () => {
    for (const [subpath, target] of Object.entries(manifest.exports)) {
      if (typeof target === 'string') continue;
      expect(target.default, subpath).toBe(target.import);
    }
  });

  it('drizzle-orm is a peer dependency, so a host and the package share one copy', () => {
    expect(manifest.dependencies['drizzle-orm']).toBeUndefined();
    expect(manifest.peerDependencies['drizzle-orm']).toBe('>=0.44.0 <0.46.0');
  });

  it('ships the MIT license its manifest names, and builds dist before packing', async () => {
    expect(manifest.license).toBe('MIT');
    expect(await readFile(new URL('LICENSE', root), 'utf8')).toMatch(/^MIT License\n/);
    expect(manifest.scripts.prepack).toContain('npm run build');
  });

  it('the bin runs and prints its usage', async () => {
    const bin = new URL(manifest.bin['task-association'] ?? '', root);
    const { stdout } = await promisify(execFile)(process.execPath, [bin.pathname, '--help']);
    expect(stdout).toContain('usage: task-association <command>');
  });
});
