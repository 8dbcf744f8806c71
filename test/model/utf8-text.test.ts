import { describe, expect, it } from 'vitest';
import { decodeUtf8, invalidUtf8Offset } from '../../src/model/utf8-text.js';

const bytes = (...values: number[]) => new Uint8Array(values);

describe('decodeUtf8', () => {
  it('decodes UTF-8, a byte-order mark kept for the JSON reader to drop', () => {
    const text = new TextEncoder().encode('\uFEFF{"label": "Descrição 🌱"}');
    expect(decodeUtf8(text)).toEqual({ success: true, text: '\uFEFF{"label": "Descrição 🌱"}' });
  });

  it('refuses Latin-1, saying at which byte and line', () => {
    // "Descrição" saved as Latin-1: ç is the one byte 0xE7.
    const latin1 = new Uint8Array(Buffer.from('{\n"label": "Descrição"}', 'latin1'));
    expect(decodeUtf8(latin1)).toEqual({
      success: false,
      issues: [
        {
          path: '',
          code: 'INVALID_UTF8',
          message:
            'byte 0xE7 at offset 18 (line 2) is not UTF-8: save the file as UTF-8 (an editor\'s "encoding" setting; Latin-1 or Windows-1252 write é, ç, ã as one byte)',
        },
      ],
    });
  });
});

describe('invalidUtf8Offset', () => {
  it.each([
    ['ASCII', bytes(0x41, 0x42), undefined],
    ['a two-byte character', bytes(0x41, 0xc3, 0xa7), undefined],
    ['the largest code point', bytes(0xf4, 0x8f, 0xbf, 0xbf), undefined],
    ['a lone continuation byte', bytes(0x41, 0x80), 1],
    ['an overlong form', bytes(0x41, 0xc0, 0x80), 1],
    ['an overlong three-byte form', bytes(0xe0, 0x80, 0x80), 0],
    ['a surrogate', bytes(0x41, 0x41, 0xed, 0xa0, 0x80), 2],
    ['past U+10FFFF', bytes(0xf4, 0x90, 0x80, 0x80), 0],
    ['a sequence cut short by the end', bytes(0x41, 0xe2, 0x82), 1],
    ['a sequence cut short by ASCII', bytes(0xe2, 0x41, 0x41), 0],
  ])('%s', (_name, input, offset) => {
    expect(invalidUtf8Offset(input)).toBe(offset);
    // It agrees with the platform's own decoder about whether the bytes are UTF-8.
    const platform = (() => {
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(input);
        return true;
      } catch {
        return false;
      }
    })();
    expect(platform).toBe(offset === undefined);
  });
});
