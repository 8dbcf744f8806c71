import type { ConfigIssue } from './issues.js';

/** What a file's author does about bytes that are not UTF-8: the default advice of {@link decodeUtf8}. */
const SAVE_AS_UTF8 = `save the file as UTF-8 (an editor's "encoding" setting; Latin-1 or Windows-1252 write é, ç, ã as one byte)`;

/**
 * A configuration file's bytes as text, refusing what is not UTF-8. Node's `readFile(file, 'utf8')`
 * turns each bad byte into U+FFFD without a word, and a file saved as Latin-1 (`Descrição` as one
 * byte 0xE7) would put those replacement characters into the host's rows on every apply.
 * A byte-order mark is kept: the JSON reader drops it and counts its positions after it. `advice`
 * ends the message: what the sender of other bytes than a file's (a request body) should do.
 *
 * @example decodeUtf8(new Uint8Array([0x7b, 0xe7, 0x7d])) // { success: false, issues: [{ code: 'INVALID_UTF8', message: 'byte 0xE7 at offset 1 (line 1) ...' }] }
 */
export function decodeUtf8(
  bytes: Uint8Array,
  advice = SAVE_AS_UTF8,
): { success: true; text: string } | { success: false; issues: ConfigIssue[] } {
  try {
    return { success: true, text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes) };
  } catch {
    // The decoder says only that the bytes are not UTF-8; where they stop being, is found here.
    const offset = invalidUtf8Offset(bytes) ?? 0;
    const line = bytes.subarray(0, offset).filter((byte) => byte === 0x0a).length + 1;
    const byte = (bytes[offset] ?? 0).toString(16).toUpperCase().padStart(2, '0');
    return {
      success: false,
      issues: [
        {
          path: '',
          code: 'INVALID_UTF8',
          message: `byte 0x${byte} at offset ${offset} (line ${line}) is not UTF-8: ${advice}`,
        },
      ],
    };
  }
}

/**
 * Where the first ill-formed sequence of `bytes` starts (Unicode's table 3-7 of well-formed UTF-8:
 * no overlong forms, no surrogates, nothing past U+10FFFF), or `undefined` when there is none.
 */
export function invalidUtf8Offset(bytes: Uint8Array): number | undefined {
  let at = 0;
  while (at < bytes.length) {
    const lead = bytes[at] ?? 0;
    if (lead < 0x80) {
      at += 1;
      continue;
    }
    const form = FORMS.find(({ from, to }) => lead >= from && lead <= to);
    if (form === undefined || at + form.length > bytes.length) return at;
    const second = bytes[at + 1] ?? 0;
    if (second < form.second[0] || second > form.second[1]) return at;
    for (let next = at + 2; next < at + form.length; next++) {
      const byte = bytes[next] ?? 0;
      if (byte < 0x80 || byte > 0xbf) return at;
    }
    at += form.length;
  }
  return undefined;
}

/** The well-formed multi-byte sequences by lead byte: their length and the range of their second byte. */
const FORMS: readonly { from: number; to: number; length: number; second: readonly [number, number] }[] = [
  { from: 0xc2, to: 0xdf, length: 2, second: [0x80, 0xbf] },
  { from: 0xe0, to: 0xe0, length: 3, second: [0xa0, 0xbf] },
  { from: 0xe1, to: 0xec, length: 3, second: [0x80, 0xbf] },
  { from: 0xed, to: 0xed, length: 3, second: [0x80, 0x9f] },
  { from: 0xee, to: 0xef, length: 3, second: [0x80, 0xbf] },
  { from: 0xf0, to: 0xf0, length: 4, second: [0x90, 0xbf] },
  { from: 0xf1, to: 0xf3, length: 4, second: [0x80, 0xbf] },
  { from: 0xf4, to: 0xf4, length: 4, second: [0x80, 0x8f] },
];
