import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { opcoesParameters } from '../../src/model/opcoes.js';
import {
  buildLink,
  ConfigError,
  LINK_FIELD_OPCOES,
  type OpcoesEntry,
  parseOpcoes,
  serializeOpcoes,
} from '../../src/model.js';

const key = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,8}$/).filter((k) => !/^[pv][0-9]+$/.test(k));
const value = fc.string({ unit: 'binary', maxLength: 20 }).filter((v) => !v.includes(';'));

/** Valid entry lists: distinct plain keys, plus complete pN/vN pairs. */
const entries = fc
  .tuple(
    fc.uniqueArray(fc.tuple(key, value), { selector: ([k]) => k, maxLength: 6 }),
    fc.uniqueArray(fc.tuple(fc.nat(20), value, value), { selector: ([n]) => n, maxLength: 3 }),
  )
  .chain(([plain, pairs]) =>
    fc.shuffledSubarray(
      [
        ...plain.map(([k, v]) => ({ key: k, value: v })),
        ...pairs.flatMap(([n, name, column]) => [
          { key: `p${n}`, value: name },
          { key: `v${n}`, value: column },
        ]),
      ],
      { minLength: plain.length + pairs.length * 2 },
    ),
  );

describe('OPCOES', () => {
  it("reads the link field's OPCOES string", () => {
    expect(parseOpcoes(LINK_FIELD_OPCOES)).toStrictEqual([
      { key: 'type', value: 'GET_URL' },
      { key: 'url', value: 'associationtask' },
      { key: 'p1', value: 'taskSheet' },
      { key: 'v1', value: 'SEQ_DB' },
      { key: 'icon', value: 'fa fa-link' },
    ]);
    expect(serializeOpcoes(parseOpcoes(LINK_FIELD_OPCOES))).toBe(LINK_FIELD_OPCOES);
  });

  it('round-trips any valid entry list (entries → text → entries)', () => {
    fc.assert(
      fc.property(entries, (list: OpcoesEntry[]) => {
        expect(parseOpcoes(serializeOpcoes(list))).toStrictEqual(list);
      }),
    );
  });

  it('round-trips any valid text byte for byte (text → entries → text)', () => {
    fc.assert(
      fc.property(entries, (list: OpcoesEntry[]) => {
        const text = list.map((e) => `${e.key}:${e.value}`).join(';');
        expect(serializeOpcoes(parseOpcoes(text))).toBe(text);
      }),
    );
  });

  it.each([
    ['', []],
    ['icon:', [{ key: 'icon', value: '' }]],
    [
      'url:http://host:8080/x;a:',
      [
        { key: 'url', value: 'http://host:8080/x' },
        { key: 'a', value: '' },
      ],
    ],
    ['a:::', [{ key: 'a', value: '::' }]],
    ['a: spaced value ', [{ key: 'a', value: ' spaced value ' }]],
  ])('reads the edge case %j', (text, expected) => {
    expect(parseOpcoes(text)).toStrictEqual(expected);
    expect(serializeOpcoes(expected)).toBe(text);
  });

  it.each([
    ['type:GET_URL;;icon:x', 'at offset 13: an empty pair'],
    ['type:GET_URL;', 'at offset 13: an empty pair'],
    [';type:GET_URL', 'at offset 0: an empty pair'],
    ['type:GET_URL;url', 'at offset 16: the key "url" has no ":" and value'],
    [':GET_URL', 'at offset 0: a pair without a key'],
    ['type:a; icon:x', 'at offset 7: " " cannot be part of a key'],
    ['1type:a', 'at offset 0: "1" cannot be part of a key'],
    ['ty-pe:a', 'at offset 2: "-" cannot be part of a key'],
    ['a:1;b:2;a:3', 'at offset 8: the key "a" is given twice (first at offset 0)'],
    ['url:x;p1:taskSheet', 'at offset 6: parameter "p1" has no "v1"'],
    ['url:x;v2:SEQ_DB', 'at offset 6: "v2" has no "p2"'],
  ])('refuses %j with the offending offset', (text, message) => {
    expect(() => parseOpcoes(text)).toThrowError(ConfigError);
    expect(() => parseOpcoes(text)).toThrowError(`OPCOES ${JSON.stringify(text)} is malformed: ${message}`);
  });

  it('refuses to write what it could not read back', () => {
    expect(() => serializeOpcoes([{ key: 'a', value: 'x;y' }])).toThrowError('a value cannot contain ";"');
    expect(() => serializeOpcoes([{ key: 'a b', value: 'x' }])).toThrowError(ConfigError);
    expect(() =>
      serializeOpcoes([
        { key: 'a', value: '1' },
        { key: 'a', value: '2' },
      ]),
    ).toThrowError('the key "a" is given twice');
  });

  it('lists pN/vN parameters in N order', () => {
    expect(opcoesParameters(parseOpcoes('v2:B;p2:second;url:x;p1:first;v1:A'))).toStrictEqual([
      { index: 1, name: 'first', column: 'A' },
      { index: 2, name: 'second', column: 'B' },
    ]);
  });
});

describe('buildLink', () => {
  it('opens the task sheet link with URL-encoded values', () => {
    expect(buildLink(LINK_FIELD_OPCOES, { SEQ_DB: 42, OTHER: 'x' })).toBe('associationtask?taskSheet=42');
    expect(buildLink('url:r;p1:a b;v1:X;p2:c;v2:Y', { X: 'é&=?', Y: 0 })).toBe('r?a%20b=%C3%A9%26%3D%3F&c=0');
    expect(buildLink('type:GET_URL;url:home', {})).toBe('home');
  });

  it.each([
    [LINK_FIELD_OPCOES, {}, 'parameter "taskSheet" takes column "SEQ_DB", which the record does not have'],
    [
      LINK_FIELD_OPCOES,
      { SEQ_DB: null },
      'parameter "taskSheet" takes column "SEQ_DB", which the record holds null in',
    ],
    ['type:GET_URL;p1:a;v1:X', { X: 1 }, 'OPCOES has no "url" entry naming the route to open'],
  ])('refuses %j for %j', (opcoes, record, message) => {
    expect(() => buildLink(opcoes, record)).toThrowError(message);
  });
});
