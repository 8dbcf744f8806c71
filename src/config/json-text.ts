import type { ConfigIssue } from './issues.js';

const BOM = '\uFEFF';

/**
 * Parses a configuration document's text.
 *
 * - A leading UTF-8 byte-order mark is accepted and dropped: Windows editors write one, and it is not
 *   part of the document.
 * - Anything but whitespace after the document ("trailing garbage") is refused, as `JSON.parse` does:
 *   a second object pasted after the first is a mistake, not something to ignore.
 * - A syntax error is reported with its line, column and character offset (counted after the BOM).
 */
export function parseJsonText(
  text: string,
): { success: true; value: unknown } | { success: false; issue: ConfigIssue } {
  const body = text.startsWith(BOM) ? text.slice(BOM.length) : text;
  try {
    return { success: true, value: JSON.parse(body) };
  } catch {
    return { success: false, issue: { path: '', code: 'INVALID_JSON', message: syntaxErrorMessage(body) } };
  }
}

function syntaxErrorMessage(text: string): string {
  if (text.trim() === '') return 'the text is empty: expected a JSON object';
  const found = locateSyntaxError(text);
  if (found === undefined) return 'not valid JSON';
  const before = text.slice(0, found.offset);
  const line = before.split('\n').length;
  const column = found.offset - before.lastIndexOf('\n');
  const at =
    found.offset < text.length ? `found ${JSON.stringify(text[found.offset])}` : 'found the end of the text';
  return `not valid JSON at line ${line}, column ${column} (offset ${found.offset}): expected ${found.expected}, ${at}`;
}

class SyntaxProblem {
  constructor(
    readonly offset: number,
    readonly expected: string,
  ) {}
}

// Deeper documents are not TREE_VIEWs; past this depth we say "not valid JSON" without a position
// rather than risk the stack.
const MAX_DEPTH = 512;

/**
 * Finds where `text` stops being JSON (RFC 8259), because V8's messages do not always carry a position.
 * Only called after `JSON.parse` failed, so it only needs to find the first error.
 */
export function locateSyntaxError(text: string): { offset: number; expected: string } | undefined {
  let i = 0;
  const fail = (expected: string): never => {
    throw new SyntaxProblem(i, expected);
  };
  const skipWhitespace = () => {
    while (i < text.length && ' \t\n\r'.includes(text.charAt(i))) i++;
  };
  const literal = (word: string) => {
    for (const char of word) {
      if (text[i] !== char) fail(`"${word}"`);
      i++;
    }
  };
  const string = () => {
    i++; // the opening quote
    for (;;) {
      const char = text[i];
      if (char === undefined) fail("a closing '\"'");
      else if (char === '"') {
        i++;
        return;
      } else if (char === '\\') {
        i++;
        const escaped = text[i];
        if (escaped === 'u') {
          i++;
          for (let k = 0; k < 4; k++) {
            if (!/[0-9A-Fa-f]/.test(text.charAt(i))) fail('a hexadecimal digit of a \\u escape');
            i++;
          }
        } else if (escaped !== undefined && '"\\/bfnrt'.includes(escaped)) i++;
        else fail('an escape such as \\n, \\" or \\u0041');
      } else if (char < ' ') fail('no control character inside a string (write \\n, \\t)');
      else i++;
    }
  };
  const digits = () => {
    if (!/[0-9]/.test(text.charAt(i))) fail('a digit');
    while (/[0-9]/.test(text.charAt(i))) i++;
  };
  const number = () => {
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else digits();
    if (text[i] === '.') {
      i++;
      digits();
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      digits();
    }
  };
  const value = (depth: number) => {
    if (depth > MAX_DEPTH) throw new SyntaxProblem(-1, '');
    skipWhitespace();
    const char = text[i];
    if (char === '{') {
      i++;
      skipWhitespace();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        skipWhitespace();
        if (text[i] !== '"') fail('a double-quoted property name');
        string();
        skipWhitespace();
        if (text[i] !== ':') fail('":" after the property name');
        i++;
        value(depth + 1);
        skipWhitespace();
        if (text[i] === ',') i++;
        else if (text[i] === '}') {
          i++;
          return;
        } else fail('"," or "}" after a property value');
      }
    }
    if (char === '[') {
      i++;
      skipWhitespace();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value(depth + 1);
        skipWhitespace();
        if (text[i] === ',') i++;
        else if (text[i] === ']') {
          i++;
          return;
        } else fail('"," or "]" after an array element');
      }
    }
    if (char === '"') return string();
    if (char === 't') return literal('true');
    if (char === 'f') return literal('false');
    if (char === 'n') return literal('null');
    if (char === '-' || (char !== undefined && /[0-9]/.test(char))) return number();
    fail('a JSON value (object, array, string, number, true, false or null)');
  };
  try {
    value(0);
    skipWhitespace();
    if (i < text.length) fail('the end of the text after the JSON document');
    return undefined;
  } catch (error) {
    if (error instanceof SyntaxProblem) return error.offset < 0 ? undefined : error;
    throw error;
  }
}
