import { describe, expect, it } from 'vitest';
import { markdownLinks, typescriptBlocks } from './markdown-blocks.js';

describe('reading the documentation blocks', () => {
  it('takes ts and typescript blocks with their kind, line and code, and leaves other languages', () => {
    const markdown = [
      '# Title',
      '```ts',
      "console.log('a');",
      '```',
      '```sh',
      'npm test',
      '```',
      '````typescript server=/caroulsel/data,/assets/x.js',
      '```',
      '````',
      '```ts fragment',
      'x;',
      '```',
      '```ts file=gallery.ts',
      '```',
      '```ts vitest',
      '```',
    ].join('\n');
    expect(typescriptBlocks(markdown, 'docs/x.md')).toEqual([
      { source: 'docs/x.md', line: 2, kind: { type: 'script' }, code: "console.log('a');" },
      {
        source: 'docs/x.md',
        line: 8,
        kind: { type: 'server', paths: ['/caroulsel/data', '/assets/x.js'] },
        code: '```',
      },
      { source: 'docs/x.md', line: 11, kind: { type: 'fragment' }, code: 'x;' },
      { source: 'docs/x.md', line: 14, kind: { type: 'file', name: 'gallery.ts' }, code: '' },
      { source: 'docs/x.md', line: 16, kind: { type: 'vitest' }, code: '' },
    ]);
  });

  it.each([
    ['```ts server\n```', 'unknown block word "server"'],
    ['```ts file=../x.ts\n```', 'unknown block word "file=../x.ts"'],
    ['```ts fragment vitest\n```', 'one word after the language at most'],
  ])('refuses a block it cannot place: %j', (markdown, message) => {
    expect(() => typescriptBlocks(markdown, 'README.md')).toThrow(`README.md:1: ${message}`);
  });

  it('follows relative links to markdown files only', () => {
    expect(
      markdownLinks(
        '[a](docs/a.md) [b](./docs/b.md#part) [c](https://x.org/c.md) [d](examples/install.json)',
      ),
    ).toEqual(['docs/a.md', './docs/b.md']);
  });
});
