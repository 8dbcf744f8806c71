import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// What a host's bundler makes of the package's browser entries: `sideEffects` in package.json tells
// it which files must stay when nothing is imported from them, as `import '…/caroulsel-gallery.js'`
// for the custom element alone. Bundled with vite (rolldown underneath), which comes with vitest:
// found from vitest's own folder, as the repository has no dependency on it of its own.
const REPOSITORY = fileURLToPath(new URL('../', import.meta.url));
const vitestRequire = createRequire(createRequire(import.meta.url).resolve('vitest/package.json'));
/** The little of vite's `build` this uses (its types are vitest's dependency's, not reachable from here). */
type Build = (config: object) => Promise<BuildResult | BuildResult[]>;
interface BuildResult {
  readonly output: ReadonlyArray<
    { readonly type: 'chunk'; readonly code: string } | { readonly type: 'asset' }
  >;
}
const { build } = (await import(pathToFileURL(vitestRequire.resolve('vite')).href)) as { build: Build };

let project = '';

beforeAll(async () => {
  // A host project with the package in its node_modules, so imports go through the exports map.
  project = await mkdtemp(join(tmpdir(), 'task-association-bundle-'));
  await mkdir(join(project, 'node_modules'));
  await symlink(REPOSITORY, join(project, 'node_modules', 'task-association'), 'dir');
});

afterAll(async () => {
  if (project !== '') await rm(project, { recursive: true, force: true });
});

/** The JavaScript a production build of a host entry whose code is `code` gives, all chunks. */
async function bundle(name: string, code: string): Promise<string> {
  const entry = join(project, `${name}.js`);
  await writeFile(entry, code);
  const output = await build({
    root: project,
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      minify: false,
      modulePreload: false,
      rollupOptions: { input: entry },
    },
  });
  const results = Array.isArray(output) ? output : [output];
  return results
    .flatMap((result) => result.output)
    .map((chunk) => (chunk.type === 'chunk' ? chunk.code : ''))
    .join('\n');
}

describe('the browser entries in a host bundle', () => {
  it.each([
    ['web/caroulsel-gallery.js', 'caroulsel-gallery'],
    ['web/association-screen.js', 'association-screen'],
  ])('an import of task-association/%s for its element alone keeps the element', async (file, element) => {
    const code = await bundle(element, `import 'task-association/${file}';\n`);
    expect(code).toContain('customElements.define(');
    expect(code).toMatch(new RegExp(`["']${element}["']`));
  });
});
