import { describe, expect, it } from 'vitest';
import { formatScope, parseScope } from '../../src/model/scope.js';

describe('parseScope', () => {
  it('reads EMPRESA/FILIAL/LOCAL', () => {
    expect(parseScope('2/10/3')).toEqual({ EMPRESA: 2, FILIAL: 10, LOCAL: 3 });
    expect(formatScope(parseScope('1/1/1'))).toBe('1/1/1');
  });

  it.each(['', '1/1', '1/1/1/1', '1/a/1', '-1/1/1', '1.5/1/1', '99999999999/1/1', '1/1/1; DROP'])(
    'refuses %j',
    (text) => {
      expect(() => parseScope(text)).toThrowError(
        `scope ${JSON.stringify(text)} is not EMPRESA/FILIAL/LOCAL with three non-negative integers, as in 1/1/1`,
      );
    },
  );
});
