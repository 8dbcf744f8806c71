import { readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sourceFiles, withoutComments } from './support/source-files.js';

// The source is layered, each folder importing only from the folders below it, so that a reader can
// learn the package bottom up and a change low down never has to know who sits above it.
const SRC = fileURLToPath(new URL('../src/', import.meta.url));

/** What each folder of src/ may import besides itself; the files at the top of src/ are the public entry points and may import anything. */
const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  model: [],
  schema: ['model'],
  store: ['model', 'schema'],
  sync: ['model', 'schema', 'store'],
  tree: ['model', 'schema', 'store'],
  gallery: ['model'],
  installer: ['model', 'schema', 'store', 'sync', 'tree'],
  http: ['model', 'schema', 'store', 'tree', 'gallery'],
  demo: ['model', 'schema', 'store', 'sync', 'tree', 'gallery', 'installer', 'http'],
  cli: ['model', 'schema', 'store', 'sync', 'tree', 'gallery', 'installer', 'http', 'demo'],
};

/** Every relative import of a file (static, type-only and dynamic), as paths relative to src/. */
function importsOf(file: string): string[] {
  // Comments left out: a doc comment may show an import as an example (module-imports.ts does).
  const text = withoutComments(readFileSync(file, 'utf8'));
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((match) =>
    relative(SRC, normalize(join(dirname(file), (match[1] as string).replace(/\.js$/, '.ts')))),
  );
}

const graph = new Map(sourceFiles(SRC).map((file) => [relative(SRC, file), importsOf(file)]));
const folderOf = (path: string): string | undefined => (path.includes('/') ? path.split('/')[0] : undefined);

describe('the layers of src/', () => {
  it('puts every file in a known folder or at the top as an entry point', () => {
    const unknown = [...graph.keys()].filter((path) => {
      const folder = folderOf(path);
      return folder !== undefined && !(folder in MAY_IMPORT);
    });
    expect(unknown).toEqual([]);
  });

  it('imports only from the same folder or a folder below', () => {
    const upward: string[] = [];
    for (const [path, imports] of graph) {
      const folder = folderOf(path);
      if (folder === undefined) continue;
      for (const target of imports) {
        const targetFolder = folderOf(target);
        if (targetFolder === folder) continue;
        if (targetFolder === undefined || !MAY_IMPORT[folder]?.includes(targetFolder))
          upward.push(`${path} -> ${target}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('has no import cycle', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const visit = (path: string) => {
      state.set(path, 'open');
      stack.push(path);
      for (const target of graph.get(path) ?? []) {
        if (state.get(target) === 'open')
          cycles.push([...stack.slice(stack.indexOf(target)), target].join(' -> '));
        else if (!state.has(target)) visit(target);
      }
      stack.pop();
      state.set(path, 'done');
    };
    for (const path of graph.keys()) if (!state.has(path)) visit(path);
    expect(cycles).toEqual([]);
  });

  it('resolves every import to a file of src/', () => {
    const missing = [...graph.values()].flat().filter((target) => !graph.has(target));
    expect(missing).toEqual([]);
  });
});
