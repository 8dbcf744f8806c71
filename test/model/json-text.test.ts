import { describe, expect, it } from 'vitest';
import { locateSyntaxError, parseJsonText } from '../../src/model.js';

describe('parseJsonText', () => {
  it('drops a leading byte-order mark', () => {
    expect(parseJsonText('\uFEFF{"a":1}')).toStrictEqual({ success: true, value: { a: 1 } });
  });

  it('refuses a byte-order mark in the middle', () => {
    expect(parseJsonText('{"a":1}\uFEFF')).toMatchObject({
      success: false,
      issues: [{ code: 'INVALID_JSON', path: '' }],
    });
  });

  it('refuses a key given twice in one object, with its path and position', () => {
    expect(parseJsonText('{"a": {"x": 1, "y": [{"k": 1, "k": 2}], "x": 3}, "b": {"x": 1}}')).toStrictEqual({
      success: false,
      issues: [
        {
          path: 'a.y.0.k',
          code: 'DUPLICATE_KEY',
          message:
            'the key "k" is given twice in one object (again at line 1, column 31): JSON keeps only the last, so remove or rename one',
        },
        {
          path: 'a.x',
          code: 'DUPLICATE_KEY',
          message:
            'the key "x" is given twice in one object (again at line 1, column 41): JSON keeps only the last, so remove or rename one',
        },
      ],
    });
    // The same key written with an escape is the same key.
    expect(parseJsonText('{"a": 1, "\\u0061": 2}')).toMatchObject({
      success: false,
      issues: [{ path: 'a' }],
    });
  });

  // Each duplicate said costs a pass over the text before it (its line and column): a 280 KB body of
  // 40,000 repeated keys, one a line, held the server's thread for two minutes when all were said.
  it('says the first 20 repeated keys by place and counts the rest', () => {
    const text = `{"entries":[{${Array.from({ length: 40_000 }, () => '"a":0').join(',\n')}}]}`;
    const parsed = parseJsonText(text);
    expect(parsed.success).toBe(false);
    const issues = parsed.success ? [] : parsed.issues;
    expect(issues).toHaveLength(21);
    expect(issues[0]).toMatchObject({
      path: 'entries.0.a',
      message: expect.stringContaining('line 2, column 1'),
    });
    expect(issues[20]).toEqual({
      path: '',
      code: 'DUPLICATE_KEY',
      message: '39979 more keys are given twice in their objects',
    });
  });

  // A duplicate deep inside used to pass unseen: past the depth the scan gave up without a word.
  it('refuses a document nested deeper than any configuration, saying where', () => {
    const deep = `${'['.repeat(600)}{"a":1,"a":2}${']'.repeat(600)}`;
    const result = parseJsonText(deep);
    expect(result).toMatchObject({ success: false, issues: [{ code: 'INVALID_JSON', path: '' }] });
    expect(result.success ? '' : result.issues[0]?.message).toContain('at most 512 levels of nesting');
    expect(parseJsonText(`${'['.repeat(100)}1${']'.repeat(100)}`).success).toBe(true);
  });

  it('agrees with JSON.parse on which texts are JSON', () => {
    const texts = [
      '{}',
      '[]',
      '1',
      '-0.5e+3',
      '"\\u00e9\\n"',
      'true',
      'null',
      ' { "a" : [ 1 , { } ] } ',
      '{"a":1,"a":2}',
    ];
    for (const text of texts) expect(locateSyntaxError(text)).toBeUndefined();
    const broken = [
      '{',
      '[1,]',
      '01',
      '1.',
      '-',
      '"\\x"',
      '"\\u12"',
      'tru',
      '{"a" 1}',
      '{"a":1}}',
      '"a\tb"',
      'NaN',
    ];
    for (const text of broken) {
      expect(() => JSON.parse(text)).toThrow();
      expect(locateSyntaxError(text)).toBeDefined();
    }
  });

  it.each([
    [
      '{"a":}',
      'line 1, column 6 (offset 5): expected a JSON value (object, array, string, number, true, false or null), found "}"',
    ],
    ['{\n  "a": 1,\n}', 'line 3, column 1 (offset 12): expected a double-quoted property name, found "}"'],
    [
      '[1, 2',
      'line 1, column 6 (offset 5): expected "," or "]" after an array element, found the end of the text',
    ],
    ['"\\x"', 'line 1, column 3 (offset 2): expected an escape such as \\n, \\" or \\u0041, found "x"'],
  ])('locates the error in %j', (text, message) => {
    const result = parseJsonText(text);
    expect(result.success ? '' : result.issues[0]?.message).toBe(`not valid JSON at ${message}`);
  });
});
