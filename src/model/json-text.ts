import { abbreviated } from './errors.js';
import { type ConfigIssue, formatPath } from './issues.js';

const BOM = '\uFEFF';

/**
 * Parses a configuration document's text.
 *
 * - A leading UTF-8 byte-order mark is accepted and dropped: Windows editors write one, and it is not
 *   part of the document.
 * - Anything but whitespace after the document ("trailing garbage") is refused, as `JSON.parse` does:
 *   a second object pasted after the first is a mistake, not something to ignore.
 * - A syntax error is reported with its line, column and character offset (counted after the BOM).
 * - A key given twice in one object is refused: `JSON.parse` would silently keep the last one, so a
 *   copied layer "2" left unrenumbered would vanish without a word.
 * - A document nested deeper than {@link MAX_DEPTH} levels is refused where it goes deeper, its
 *   message naming `subject` (what the text is: a configuration document, a request body).
 * - No key is special: `JSON.parse` makes `__proto__`, `constructor` and `prototype` ordinary own
 *   keys, and the models refuse them like any other unknown key (strict objects report them, records
 *   go through `withOwnKeys`, since zod's records skip a `__proto__` key without a word).
 */
export function parseJsonText(
  text: string,
  subject = 'configuration document',
): { success: true; value: unknown } | { success: false; issues: ConfigIssue[] } {
  const body = text.startsWith(BOM) ? text.slice(BOM.length) : text;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return {
      success: false,
      issues: [{ path: '', code: 'INVALID_JSON', message: syntaxErrorMessage(body) }],
    };
  }
  const { error, duplicates, duplicateCount } = scanJson(body, subject);
  // JSON.parse took it, so the scan's only refusal is a document nested too deep to check.
  if (error !== undefined) {
    return {
      success: false,
      issues: [
        {
          path: '',
          code: 'INVALID_JSON',
          message: `not accepted at ${position(body, error.offset)}: expected ${error.expected}`,
        },
      ],
    };
  }
  if (duplicates.length === 0) return { success: true, value };
  const issues: ConfigIssue[] = duplicates.map((duplicate) => ({
    path: formatPath(duplicate.path),
    code: 'DUPLICATE_KEY',
    message: `the key ${JSON.stringify(abbreviated(String(duplicate.path.at(-1))))} is given twice in one object (again at ${lineColumn(body, duplicate.offset)}): JSON keeps only the last, so remove or rename one`,
  }));
  if (duplicateCount > duplicates.length) {
    issues.push({
      path: '',
      code: 'DUPLICATE_KEY',
      message: `${duplicateCount - duplicates.length} more keys are given twice in their objects`,
    });
  }
  return { success: false, issues };
}

/**
 * Finds where `text` stops being JSON (RFC 8259), because V8's messages do not always carry a position.
 *
 * @example locateSyntaxError('{"a":}') // { offset: 5, expected: 'a JSON value (...)' }
 */
export function locateSyntaxError(text: string): { offset: number; expected: string } | undefined {
  return scanJson(text).error;
}

function syntaxErrorMessage(text: string): string {
  if (text.trim() === '') return 'the text is empty: expected a JSON object';
  const found = locateSyntaxError(text);
  if (found === undefined) return 'not valid JSON';
  const at =
    found.offset < text.length ? `found ${JSON.stringify(text[found.offset])}` : 'found the end of the text';
  return `not valid JSON at ${position(text, found.offset)}: expected ${found.expected}, ${at}`;
}

/** `line 3, column 5 (offset 20)`. */
function position(text: string, offset: number): string {
  return `${lineColumn(text, offset)} (offset ${offset})`;
}

/** `line 3, column 5`, both counted from 1. */
function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  return `line ${before.split('\n').length}, column ${offset - before.lastIndexOf('\n')}`;
}

class SyntaxProblem {
  constructor(
    readonly offset: number,
    readonly expected: string,
  ) {}
}

// Deeper documents are not configuration: past this depth the document is refused where it goes
// deeper, rather than scanned at the risk of the stack (or passed on without its duplicate-key check).
const MAX_DEPTH = 512;

// The duplicates said by place. Each costs a pass over the text before it (its line and column), so
// a body of a million repeated keys would take minutes of the server's one thread if all were said:
// the rest are only counted.
const MAX_DUPLICATES_SAID = 20;

interface ScanResult {
  readonly error?: { offset: number; expected: string };
  /** The first {@link MAX_DUPLICATES_SAID} keys repeated within one object. */
  readonly duplicates: { path: (string | number)[]; offset: number }[];
  /** How many repeated keys there are in all. */
  readonly duplicateCount: number;
}

/** One pass over the text: the first syntax error, and the keys repeated within one object. */
function scanJson(text: string, subject = 'configuration document'): ScanResult {
  let i = 0;
  const path: (string | number)[] = [];
  const duplicates: ScanResult['duplicates'] = [];
  let duplicateCount = 0;
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
  const object = (depth: number) => {
    i++;
    skipWhitespace();
    if (text[i] === '}') {
      i++;
      return;
    }
    const keys = new Set<string>();
    for (;;) {
      skipWhitespace();
      if (text[i] !== '"') fail('a double-quoted property name');
      const start = i;
      string();
      const key = JSON.parse(text.slice(start, i)) as string;
      if (keys.has(key)) {
        duplicateCount++;
        if (duplicates.length < MAX_DUPLICATES_SAID) duplicates.push({ path: [...path, key], offset: start });
      }
      keys.add(key);
      skipWhitespace();
      if (text[i] !== ':') fail('":" after the property name');
      i++;
      path.push(key);
      value(depth + 1);
      path.pop();
      skipWhitespace();
      if (text[i] === ',') i++;
      else if (text[i] === '}') {
        i++;
        return;
      } else fail('"," or "}" after a property value');
    }
  };
  const array = (depth: number) => {
    i++;
    skipWhitespace();
    if (text[i] === ']') {
      i++;
      return;
    }
    for (let index = 0; ; index++) {
      path.push(index);
      value(depth + 1);
      path.pop();
      skipWhitespace();
      if (text[i] === ',') i++;
      else if (text[i] === ']') {
        i++;
        return;
      } else fail('"," or "]" after an array element');
    }
  };
  const value = (depth: number) => {
    if (depth > MAX_DEPTH) fail(`at most ${MAX_DEPTH} levels of nesting (no ${subject} nests deeper)`);
    skipWhitespace();
    const char = text[i];
    if (char === '{') return object(depth);
    if (char === '[') return array(depth);
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
    return { duplicates, duplicateCount };
  } catch (error) {
    if (!(error instanceof SyntaxProblem)) throw error;
    return { error: { offset: error.offset, expected: error.expected }, duplicates, duplicateCount };
  }
}
