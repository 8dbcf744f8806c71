import { readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';

/**
 * What the packed-tarball check does with one TypeScript block of the documentation, from the words
 * after the fence's language (```ts server=/caroulsel/data):
 *
 * - no word: a script. It typechecks, then runs with node against the examples database
 *   (DATABASE_URL) and must exit 0.
 * - `server=PATH[,PATH...]`: a server. It typechecks, runs with PORT set to a free port, and
 *   `GET PATH` must answer 200 for each path (requests carry `Cookie: session=example`).
 * - `file=NAME`: a module other blocks import (`./gallery.js`) or a tool reads (`drizzle.config.ts`):
 *   it typechecks and is written under that name, and is not run on its own.
 * - `vitest`: a test file of the reader's own suite: it typechecks and runs with vitest.
 * - `fragment`: a piece of the block above it in the same file; it typechecks appended to that
 *   block, and is not run. Keep these rare: a reader cannot paste a fragment and run it.
 */
export type BlockKind =
  | { readonly type: 'script' }
  | { readonly type: 'server'; readonly paths: readonly string[] }
  | { readonly type: 'file'; readonly name: string }
  | { readonly type: 'vitest' }
  | { readonly type: 'fragment' };

export interface CodeBlock {
  /** The markdown file, relative to the repository root, and the fence's line (1-based). */
  readonly source: string;
  readonly line: number;
  readonly kind: BlockKind;
  readonly code: string;
}

const FENCE = /^(?<indent> {0,3})(?<fence>`{3,}|~{3,})(?<info>[^`]*)$/;
const TYPESCRIPT = new Set(['ts', 'typescript']);

/** The TypeScript blocks of one markdown text, in order. A block with an unknown word is an error. */
export function typescriptBlocks(markdown: string, source: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = markdown.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const open = FENCE.exec(lines[index] ?? '')?.groups;
    if (open === undefined) continue;
    const fence = open.fence ?? '```';
    const [language = '', ...words] = (open.info ?? '').trim().split(/\s+/);
    const body: string[] = [];
    let end = index + 1;
    for (; end < lines.length; end++) {
      const line = lines[end] ?? '';
      if (isClosingFence(line, fence)) break;
      body.push(line);
    }
    if (TYPESCRIPT.has(language.toLowerCase())) {
      blocks.push({
        source,
        line: index + 1,
        kind: blockKind(words, `${source}:${index + 1}`),
        code: body.join('\n'),
      });
    }
    index = end;
  }
  return blocks;
}

/** A closing fence: only the opening fence's character, at least as many of it. */
function isClosingFence(line: string, fence: string): boolean {
  const text = line.trim();
  return text.length >= fence.length && [...text].every((character) => character === fence[0]);
}

function blockKind(words: readonly string[], where: string): BlockKind {
  if (words.length === 0) return { type: 'script' };
  if (words.length > 1)
    throw new Error(`${where}: one word after the language at most, not "${words.join(' ')}"`);
  const [word = ''] = words;
  if (word === 'fragment') return { type: 'fragment' };
  if (word === 'vitest') return { type: 'vitest' };
  const [key, value] = [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)];
  const paths = value.split(',');
  if (key === 'server' && paths.every((path) => path.startsWith('/'))) return { type: 'server', paths };
  if (key === 'file' && /^[\w.-]+\.ts$/.test(value)) return { type: 'file', name: value };
  throw new Error(
    `${where}: unknown block word "${word}" (use fragment, vitest, server=/path or file=name.ts)`,
  );
}

/** Relative links to markdown files (`[x](docs/topic.md#part)`), as paths relative to `from`'s folder. */
export function markdownLinks(markdown: string): string[] {
  const links: string[] = [];
  for (const match of markdown.matchAll(/\]\((?<target>[^)\s#]+\.md)(?:#[^)\s]*)?\)/g)) {
    const target = match.groups?.target ?? '';
    if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) links.push(target);
  }
  return links;
}

/**
 * The README and every markdown file it links to, followed from file to file (each read once):
 * the documentation a reader of the package follows. A link to a missing file is an error.
 */
export async function documentationFiles(root: string, start = 'README.md'): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const pending = [start];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (files.has(file)) continue;
    const text = await readFile(join(root, file), 'utf8');
    files.set(file, text);
    for (const link of markdownLinks(text)) pending.push(relative(root, join(root, dirname(file), link)));
  }
  return files;
}
