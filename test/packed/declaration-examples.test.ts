import { describe, expect, it } from 'vitest';
import { binds, jsdocExamples, uses } from './declaration-examples.js';

describe('the examples of declaration files', () => {
  it('reads one-line and multi-line @example tags, up to the next tag or the comment end', () => {
    const text = [
      '/**',
      ' * Does a thing.',
      ' * @example parseScope("1/1/1") // { EMPRESA: 1 }',
      ' * @example',
      ' * const a = 1;',
      ' * a + 1;',
      ' * @param x what',
      ' */',
    ].join('\n');
    expect(jsdocExamples(text, 'dist/x.d.ts')).toEqual([
      { source: 'dist/x.d.ts', line: 3, code: 'parseScope("1/1/1") // { EMPRESA: 1 }' },
      { source: 'dist/x.d.ts', line: 4, code: 'const a = 1;\na + 1;' },
    ]);
  });

  it('tells a name the example binds from one it only uses', () => {
    expect(binds('const { names, tree } = await f(db);', 'tree')).toBe(true);
    expect(binds('await saveMetrics(db, {});', 'db')).toBe(false);
    expect(binds('context: async (request) => session(request)', 'request')).toBe(true);
    expect(uses('await saveMetrics(db, {});', 'db')).toBe(true);
    expect(uses('plan.db; "db"', 'db')).toBe(false);
  });
});
