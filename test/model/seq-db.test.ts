import { describe, expect, it } from 'vitest';
import { SeqDb, SeqDbText } from '../../src/model/seq-db.js';

describe('SeqDb and SeqDbText, the one SEQ_DB model', () => {
  it('reads digits up to 2^53 - 1 exactly', () => {
    expect(SeqDbText.parse('1')).toBe(1);
    expect(SeqDbText.parse('42')).toBe(42);
    expect(SeqDbText.parse('9007199254740991')).toBe(9007199254740991);
    expect(SeqDb.parse(9007199254740991)).toBe(9007199254740991);
  });

  it.each([
    ['2^53', '9007199254740992'],
    ['2^53 + 1, which Number() rounds to 2^53', '9007199254740993'],
    ['a 16-digit value above 2^53', '9999999999999999'],
    ['17 digits', '10000000000000000'],
    ['zero', '0'],
    ['a leading zero', '042'],
    ['a sign', '+42'],
    ['a minus', '-42'],
    ['a fraction', '42.0'],
    ['an exponent', '4e2'],
    ['hexadecimal', '0x2a'],
    ['spaces', ' 42'],
    ['a no-break space', '42\u00a0'],
    ['non-ASCII digits', '\u0664\u0662'],
    ['SQL', '1 OR 1=1'],
    ['nothing', ''],
  ])('refuses %s as text', (_, text) => {
    expect(SeqDbText.safeParse(text).success).toBe(false);
  });

  it.each([
    ['2^53', 2 ** 53],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['a fraction', 1.5],
    ['zero', 0],
    ['a negative', -1],
    ['a string', '42'],
    ['a bigint', 42n],
    ['null', null],
  ])('refuses %s as a number', (_, value) => {
    expect(SeqDb.safeParse(value).success).toBe(false);
  });
});
