// @ts-check
/**
 * What a text column holds beyond its length in characters: the characters of its character set
 * and, for the TEXT types, its bytes; and every value whole in the history, whose columns are TEXT
 * (64 KB). The server checks the same (src/model/column-values.ts `checkValue`); the page checks it
 * too so that a field refuses an emoji in a utf8mb3 column when it is typed, in the page's language,
 * and a phone offline does not keep for hours an entry the server will refuse. The browser's modules
 * cannot import the server's, so the sets are written here again; `check-typed.test.ts` holds the
 * two verdicts equal. A character set not listed here is left to the server, as there.
 */

/** The most bytes of a value the history keeps (the server's `HISTORY_VALUE_BYTES`). */
const HISTORY_VALUE_BYTES = 65_535;

/** cp1252's characters above 0x7F that are not Latin-1's own (MySQL's `latin1` is cp1252). */
const CP1252_EXTRA = new Set(
  [
    0x20ac, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x017d,
    0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0x017e,
    0x0178,
  ].map((code) => String.fromCodePoint(code)),
);

/** @param {string} character */
const codeOf = (character) => character.codePointAt(0) ?? 0;

/** Which characters a set holds: `utf8mb3` (`utf8` before MySQL 8.0.30) and `ucs2` only the BMP. */
const CHARSETS = /** @type {Record<string, (character: string) => boolean>} */ ({
  ascii: (character) => codeOf(character) <= 0x7f,
  latin1: (character) => {
    const code = codeOf(character);
    return (
      code <= 0x7f ||
      (code >= 0xa0 && code <= 0xff) ||
      [0x81, 0x8d, 0x8f, 0x90, 0x9d].includes(code) ||
      CP1252_EXTRA.has(character)
    );
  },
  utf8mb3: (character) => codeOf(character) <= 0xffff,
  utf8: (character) => codeOf(character) <= 0xffff,
  ucs2: (character) => codeOf(character) <= 0xffff,
});

/** Character sets of one byte a character, the common ones of MySQL and MariaDB. */
const SINGLE_BYTE = new Set(
  'ascii latin1 latin2 latin5 latin7 cp1250 cp1251 cp1256 cp1257 cp850 cp852 cp866 dec8 hp8 koi8r koi8u swe7 hebrew greek tis620 armscii8 keybcs2 macce macroman geostd8 binary'.split(
    ' ',
  ),
);

/**
 * How many bytes `text` takes in `charset`, counted as the server counts them (a set of neither one
 * byte nor the UTF family as UTF-8).
 * @param {string} text @param {string | undefined} charset
 */
function encodedLength(text, charset) {
  if (charset !== undefined && SINGLE_BYTE.has(charset)) return [...text].length;
  if (charset === 'ucs2' || charset === 'utf16' || charset === 'utf16le') return text.length * 2;
  if (charset === 'utf32') return [...text].length * 4;
  let bytes = 0;
  for (const character of text) {
    const code = codeOf(character);
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}

/**
 * Half of a UTF-16 pair alone in a text (a broken paste), which no character set holds: checked
 * first, as the server checks it (src/model/host-text.ts `loneSurrogate`), whose refusal stopped the
 * whole save. With the `u` flag a whole pair is one code point, so only a lone half matches.
 * @param {string} text
 * @returns {{ problem: 'brokenCharacter', params: { at: number } } | undefined}
 */
export function brokenCharacter(text) {
  const lone = /[\uD800-\uDFFF]/u.exec(text);
  return lone === null
    ? undefined
    : { problem: 'brokenCharacter', params: { at: [...text.slice(0, lone.index)].length + 1 } };
}

/**
 * The problem of a text for a text column beyond its length in characters (checked before), as a
 * label key and its parameters, else undefined.
 *
 * @param {{ charset?: string | undefined, maxBytes?: number | undefined }} column
 * @param {string} text
 * @returns {{ problem: 'foreignCharacter' | 'tooManyBytes', params: Record<string, string | number> } | undefined}
 */
export function textProblem(column, text) {
  const holds = column.charset === undefined ? undefined : CHARSETS[column.charset];
  const foreign = holds === undefined ? undefined : [...text].find((character) => !holds(character));
  if (foreign !== undefined) return { problem: 'foreignCharacter', params: { character: foreign } };
  const bytes = column.maxBytes === undefined ? 0 : encodedLength(text, column.charset);
  if (column.maxBytes !== undefined && bytes > column.maxBytes) {
    return { problem: 'tooManyBytes', params: { bytes, max: column.maxBytes } };
  }
  const recorded = encodedLength(text, 'utf8mb4');
  return recorded > HISTORY_VALUE_BYTES
    ? { problem: 'tooManyBytes', params: { bytes: recorded, max: HISTORY_VALUE_BYTES } }
    : undefined;
}
