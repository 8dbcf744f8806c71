import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Every `.ts` file below `dir`, for the tests that read the source itself (its layers, its codes). */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

/** A source's text without its comments: a doc comment may show code as an example (module-imports.ts does). */
export function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}
