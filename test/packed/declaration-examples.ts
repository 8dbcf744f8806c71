import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

/** One `@example` of a shipped declaration file: where it is and its code (several lines allowed). */
export interface DeclarationExample {
  /** The `.d.ts` file, relative to the package folder, and the tag's line (1-based). */
  readonly source: string;
  readonly line: number;
  readonly code: string;
}

/** Every `@example` of a JSDoc comment: the tag's text and the comment lines after it, up to the next tag. */
export function jsdocExamples(text: string, source: string): DeclarationExample[] {
  const examples: DeclarationExample[] = [];
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const start = /^\s*\* @example ?(?<code>.*)$/.exec(lines[index] ?? '')?.groups;
    if (start === undefined) continue;
    const code = start.code === undefined || start.code === '' ? [] : [start.code];
    let next = index + 1;
    for (; next < lines.length; next++) {
      const line = lines[next] ?? '';
      if (/^\s*\*\//.test(line) || /^\s*\* @\w/.test(line)) break;
      code.push(line.replace(/^\s*\* ?/, ''));
    }
    examples.push({ source, line: index + 1, code: code.join('\n').trim() });
    index = next - 1;
  }
  return examples;
}

/** The examples of every `.d.ts` under `dir` (the installed package's `dist`), paths relative to `root`. */
export async function declarationExamples(
  root: string,
  dir = join(root, 'dist'),
): Promise<DeclarationExample[]> {
  const examples: DeclarationExample[] = [];
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  const files = entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.d.ts'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
  for (const file of files) {
    examples.push(...jsdocExamples(await readFile(file, 'utf8'), relative(root, file)));
  }
  return examples;
}

/**
 * The names an example may use without declaring them, as a reader of the documentation assumes
 * them: "db" is an open Database, "scope" a scope, and so on. Each is declared for an example only
 * when the example uses it and does not bind it itself.
 */
export const EXAMPLE_CONTEXT: Readonly<Record<string, string>> = {
  db: "import('task-association').Database",
  scope: "import('task-association').Scope",
  tree: "import('task-association').TreeView",
  file: "import('task-association/installer').InstallFile",
  input: "import('task-association/model').MenuRowsInput",
  request: 'Request',
  secret: 'string',
  options: "import('task-association/gallery').GalleryHandlerOptions",
  session: "(request: Request) => Promise<{ scope: import('task-association').Scope; user: number }>",
};

/** Names of other modules an example may use as the README does (Node's, zod's), imported for it when used. */
export const KNOWN_IMPORTS: Readonly<Record<string, string>> = {
  createServer: 'node:http',
  readFile: 'node:fs/promises',
  z: 'zod',
};

/** Whether `code` binds `name` itself (`const name =`, `const { name } =`, an arrow's only parameter `(name) =>`). */
export function binds(code: string, name: string): boolean {
  return new RegExp(
    `(?:const|let|var)\\s+(?:${name}\\b|\\{[^}]*\\b${name}\\b[^}]*\\})|\\(\\s*${name}\\s*(?::[^)]*)?\\)\\s*=>`,
  ).test(code);
}

/** Whether `code` mentions `name` as an identifier (not as a property after a dot). */
export function uses(code: string, name: string): boolean {
  return new RegExp(`(?<![.\\w$'"])${name}\\b(?!['"])`).test(code);
}
