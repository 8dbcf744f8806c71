import { loneSurrogate } from './host-text.js';
import { sameName } from './identifier.js';
import type { MetricValue } from './metrics.js';

/** What information_schema says about one column: enough to check a value before it is written. */
export interface ColumnType {
  readonly name: string;
  /** `int`, `decimal`, `varchar`, ... */
  readonly dataType: string;
  readonly unsigned: boolean;
  readonly nullable: boolean;
  readonly precision: number | null;
  readonly scale: number | null;
  readonly maxLength: number | null;
  /**
   * What a new row holds in this column when an insert leaves it out, as information_schema says:
   * NULL, a default of its own (`default`: the save reads the row back for its answer), or nothing
   * (`refused`: NOT NULL without a default, which the server refuses). Absent for a column described
   * by a model rather than read (see {@link columnTypeOf}), which nothing inserts into.
   */
  readonly leftOut?: 'null' | 'default' | 'refused';
  /**
   * A text column's character set (`utf8mb4`, `utf8mb3`, `latin1`, ...: COLLATION_NAME up to its first
   * `_`), whose characters a value must be made of. Absent for other columns and for a column
   * described by a model: any character passes, the server judges.
   */
  readonly charset?: string;
  /**
   * The most bytes a TINYTEXT, TEXT, MEDIUMTEXT or LONGTEXT holds (information_schema's
   * CHARACTER_OCTET_LENGTH), whose limit is in bytes of its character set, not in characters. Absent
   * for other columns and for a column described by a model.
   */
  readonly maxBytes?: number;
}

const INTEGER_BITS: Record<string, number> = { tinyint: 8, smallint: 16, mediumint: 24, int: 32, bigint: 64 };
const TEXT_TYPES = new Set(['char', 'varchar', 'text', 'tinytext', 'mediumtext', 'longtext']);
const BYTE_LIMITED = new Set(['tinytext', 'text', 'mediumtext', 'longtext']);

/** Whether a text column's limit is in bytes (the TEXT types), not in characters (CHAR, VARCHAR). */
export function isByteLimited(dataType: string): boolean {
  return BYTE_LIMITED.has(dataType);
}

/**
 * Whether a metric may be kept in a column of this type (information_schema's DATA_TYPE, lower
 * case): whole numbers, decimals, floating point and text. Dates, binary and JSON are not: the
 * modal has no input for them and a save could not check a value for them.
 */
export function isMetricType(dataType: string): boolean {
  return (
    INTEGER_BITS[dataType] !== undefined ||
    dataType === 'decimal' ||
    dataType === 'float' ||
    dataType === 'double' ||
    TEXT_TYPES.has(dataType)
  );
}
const DECIMAL_TEXT = /^-?\d+(\.\d+)?$/;
const INTEGER_TEXT = /^-?\d+$/;

/** The most bytes of a value the history keeps (its OLD_VALUE and NEW_VALUE are TEXT). */
export const HISTORY_VALUE_BYTES = 65_535;

/**
 * Checks `value` against `column` and returns what to bind: decimals as exact text (never rounded:
 * a value with more digits than the column keeps is refused), integers as numbers or digit strings.
 * Returns a problem (a phrase completing "value ... ") instead of throwing, so the caller can name
 * the entry and the column.
 */
export function checkValue(
  column: ColumnType,
  value: MetricValue,
): { ok: true; value: MetricValue } | { ok: false; problem: string } {
  if (value === null) {
    return column.nullable
      ? { ok: true, value }
      : { ok: false, problem: 'is null, and the column is NOT NULL' };
  }
  // A FLOAT or a DOUBLE keeps a number as JSON read it (checkFloat judges a FLOAT's rounding); any
  // other column would keep digits JSON may already have dropped.
  const lost =
    typeof value === 'number' && column.dataType !== 'float' && column.dataType !== 'double'
      ? lostJsonDigits(value)
      : undefined;
  if (lost !== undefined) return { ok: false, problem: lost };
  const bits = INTEGER_BITS[column.dataType];
  if (bits !== undefined) return checkInteger(column, value, bits);
  if (column.dataType === 'decimal') return checkDecimal(column, value);
  if (column.dataType === 'float' || column.dataType === 'double') return checkFloat(column, value);
  if (TEXT_TYPES.has(column.dataType)) {
    // A number for a text metric is kept as its text: a `value` default of 1 in a text column is
    // handed out as the number 1, and a client saving what it loaded must not be refused for it.
    const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
    if (typeof text !== 'string') return { ok: false, problem: 'is not text' };
    // Half of a UTF-16 pair (JSON's "\ud800") is no character: no character set can hold it, and
    // MariaDB refused the save's whole JSON (a 500) instead of this value.
    const lone = loneSurrogate(text);
    if (lone !== undefined) {
      return {
        ok: false,
        problem: `has half of a UTF-16 surrogate pair (U+${lone.unit}) at character ${lone.character}, which is no character`,
      };
    }
    if (column.maxLength !== null && [...text].length > column.maxLength) {
      return { ok: false, problem: `is longer than the column's ${column.maxLength} characters` };
    }
    const foreign = column.charset === undefined ? undefined : foreignCharacter(text, column.charset);
    if (foreign !== undefined) {
      return {
        ok: false,
        problem: `has ${JSON.stringify(foreign)} (U+${foreign.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0')}), which the column's character set ${column.charset} cannot hold`,
      };
    }
    // Past its bytes a TEXT is not refused but cut (MariaDB wraps a longer value from the save's JSON
    // table: 400 bytes in a TINYTEXT kept 144), so the answer would say what the row does not hold.
    const bytes = column.maxBytes === undefined ? 0 : encodedLength(text, column.charset);
    if (column.maxBytes !== undefined && bytes > column.maxBytes) {
      return {
        ok: false,
        problem: `is ${bytes} bytes in ${column.charset ?? 'utf8mb4'}, longer than the column's ${column.maxBytes} (${column.dataType})`,
      };
    }
    // The history records every value whole, in TEXT columns (64 KB): a longer value (a MEDIUMTEXT
    // metric's) would be cut there, so it is refused rather than recorded otherwise than saved.
    const recorded = encodedLength(text, 'utf8mb4');
    return recorded > HISTORY_VALUE_BYTES
      ? {
          ok: false,
          problem: `is ${recorded} bytes, longer than the ${HISTORY_VALUE_BYTES} the history records of a value`,
        }
      : { ok: true, value: text };
  }
  return {
    ok: false,
    problem: `cannot be checked: the column's type ${column.dataType} is not a metric type`,
  };
}

/** The most significant digits every decimal keeps through a double, and so through a JSON number. */
const JSON_DIGITS = 15;

/**
 * Why a JSON number may not be the number its sender wrote, if it may not: JSON.parse has already
 * rounded 9007199254740993 to ...992 and 1234567890123456.78 to ...56.8 before any check sees them.
 * A whole number up to 2^53 - 1, and any number of at most 15 significant digits (1e21 too), reads
 * back exactly.
 */
function lostJsonDigits(value: number): string | undefined {
  const where = 'where a JSON number loses digits (it may already have been rounded): send it as a string';
  if (Number.isSafeInteger(value) || significantDigits(String(value)).length <= JSON_DIGITS) return undefined;
  return Number.isInteger(value)
    ? `is past 2^53 - 1, ${where}, such as "12345678901234567890"`
    : `has more than ${JSON_DIGITS} significant digits, ${where}, such as "1234567890123456.78"`;
}

/** A number's significant digits, without sign, point, exponent or the zeros around them: "-0.01250e3" → "125". */
function significantDigits(text: string): string {
  return text
    .replace(/[eE].*$/, '')
    .replace(/[^\d]/g, '')
    .replace(/^0+/, '')
    .replace(/0+$/, '');
}

/** The characters of cp1252 above 0x7F that are not the Latin-1 code point of their byte. */
const CP1252_EXTRA = new Set(
  [
    0x20ac, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x017d,
    0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0x017e,
    0x0178,
  ].map((code) => String.fromCodePoint(code)),
);

/**
 * Which characters a character set holds, for the sets a metric column is likely to have; a set not
 * listed is left to the server. MySQL's and MariaDB's `latin1` is cp1252, whose five unused bytes
 * stand for the C1 controls of the same code; `utf8mb3` (`utf8` before MySQL 8.0.30 and MariaDB 10.6)
 * and `ucs2` hold the Basic Multilingual Plane only.
 */
const CHARSETS: Record<string, (character: string) => boolean> = {
  ascii: (character) => (character.codePointAt(0) ?? 0) <= 0x7f,
  latin1: (character) => {
    const code = character.codePointAt(0) ?? 0;
    return (
      code <= 0x7f ||
      (code >= 0xa0 && code <= 0xff) ||
      [0x81, 0x8d, 0x8f, 0x90, 0x9d].includes(code) ||
      CP1252_EXTRA.has(character)
    );
  },
  utf8mb3: (character) => (character.codePointAt(0) ?? 0) <= 0xffff,
  utf8: (character) => (character.codePointAt(0) ?? 0) <= 0xffff,
  ucs2: (character) => (character.codePointAt(0) ?? 0) <= 0xffff,
};

/** Character sets of one byte a character, the common ones of MySQL and MariaDB. */
const SINGLE_BYTE = new Set([
  'ascii',
  'latin1',
  'latin2',
  'latin5',
  'latin7',
  'cp1250',
  'cp1251',
  'cp1256',
  'cp1257',
  'cp850',
  'cp852',
  'cp866',
  'dec8',
  'hp8',
  'koi8r',
  'koi8u',
  'swe7',
  'hebrew',
  'greek',
  'tis620',
  'armscii8',
  'keybcs2',
  'macce',
  'macroman',
  'geostd8',
  'binary',
]);

/**
 * How many bytes `text` takes in `charset`. A set neither of one byte nor of the UTF family is
 * counted as UTF-8, at least its length for the East Asian sets (2 bytes where UTF-8 takes 3): such a
 * value may be refused a little early, never cut.
 */
function encodedLength(text: string, charset: string | undefined): number {
  if (charset !== undefined && SINGLE_BYTE.has(charset)) return [...text].length;
  if (charset === 'ucs2') return text.length * 2;
  // UTF-16 as JavaScript holds it: 2 bytes a code unit, 4 a pair.
  if (charset === 'utf16' || charset === 'utf16le') return text.length * 2;
  if (charset === 'utf32') return [...text].length * 4;
  let bytes = 0;
  for (const character of text) {
    const code = character.codePointAt(0) ?? 0;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}

/**
 * The first character of `text` that `charset` cannot hold, if any. Without this check the server
 * refuses the write (ER_TRUNCATED_WRONG_VALUE_FOR_FIELD) after the batch's checks, which was a 500.
 */
function foreignCharacter(text: string, charset: string): string | undefined {
  const holds = CHARSETS[charset];
  if (holds === undefined) return undefined;
  return [...text].find((character) => !holds(character));
}

function checkInteger(column: ColumnType, value: string | number, bits: number) {
  const text = typeof value === 'number' ? (Number.isInteger(value) ? BigInt(value).toString() : '') : value;
  if (!INTEGER_TEXT.test(text))
    return { ok: false as const, problem: `is not a whole number (column is ${column.dataType})` };
  const number = BigInt(text);
  const min = column.unsigned ? 0n : -(2n ** BigInt(bits - 1));
  const max = column.unsigned ? 2n ** BigInt(bits) - 1n : 2n ** BigInt(bits - 1) - 1n;
  if (number < min || number > max) {
    return { ok: false as const, problem: `is outside the column's range ${min}..${max}` };
  }
  return { ok: true as const, value: Number.isSafeInteger(Number(number)) ? Number(number) : text };
}

/** The largest FLOAT: a value above it is refused by the server (ER_WARN_DATA_OUT_OF_RANGE), not rounded to it. */
const FLOAT_MAX = 3.4028234663852886e38;

/**
 * A FLOAT or DOUBLE: a finite number, within FLOAT's range for a FLOAT, and for a column with M,D
 * (`float(7,2)`: information_schema's NUMERIC_SCALE is not null) no more digits than it keeps, as a
 * DECIMAL's are checked: more decimal places would be rounded by the server (the answer would not be
 * what is stored), more digits before the point are refused by it, which was a 500. Nor a
 * value the column would keep as another number ({@link roundedFloat}).
 */
function checkFloat(column: ColumnType, value: string | number) {
  const number = typeof value === 'number' ? value : DECIMAL_TEXT.test(value) ? Number(value) : Number.NaN;
  if (!Number.isFinite(number)) return { ok: false as const, problem: 'is not a number' };
  if (column.unsigned && number < 0) {
    return { ok: false as const, problem: `is negative, and the column is ${column.dataType} unsigned` };
  }
  if (column.dataType === 'float' && Math.abs(number) > FLOAT_MAX) {
    return { ok: false as const, problem: `is outside the range of a float (±${FLOAT_MAX})` };
  }
  if (column.scale !== null && column.precision !== null) {
    const type = `${column.dataType}(${column.precision},${column.scale})`;
    const [whole = '', fraction = ''] = plainDecimal(number).replace(/^-/, '').split('.');
    if (fraction.length > column.scale) {
      return {
        ok: false as const,
        problem: `has more than ${column.scale} decimal places (column is ${type})`,
      };
    }
    if (whole.replace(/^0+/, '').length > column.precision - column.scale) {
      return {
        ok: false as const,
        problem: `has more than ${column.precision - column.scale} digits before the point (column is ${type})`,
      };
    }
  }
  // After M,D's places and digits, which say better what to change.
  const rounded = roundedFloat(column, value, number);
  if (rounded !== undefined) return { ok: false as const, problem: rounded };
  return { ok: true as const, value: number };
}

/**
 * Why `number` (read from `value`) would be stored as another number, if it would: a FLOAT keeps the
 * single-precision number nearest it (16777217 is 16777216, 1234.5678 is 1234.5677), a DOUBLE a
 * text's first 15 to 17 digits. A value the column holds as given, written as its shortest decimal
 * (0.1, 1234.5) or in full (1234.5670166015625), is kept; a DOUBLE given as a number is one already.
 */
function roundedFloat(column: ColumnType, value: string | number, number: number): string | undefined {
  if (column.dataType === 'float') {
    const kept = floatValue(number);
    return kept === number || Math.fround(number) === number
      ? undefined
      : `would be stored as ${plainDecimal(kept)}: a FLOAT keeps about 7 significant digits`;
  }
  if (typeof value !== 'string' || significantDigits(value) === significantDigits(String(number))) {
    return undefined;
  }
  return `has more significant digits than a DOUBLE keeps (about ${JSON_DIGITS}): it would be stored as ${plainDecimal(number)}`;
}

function checkDecimal(column: ColumnType, value: string | number) {
  const precision = column.precision ?? 10;
  const scale = column.scale ?? 0;
  // A number as the digits it holds: String(n) is its shortest exact form, written out in full where
  // JS would use an exponent (1e-7 is 0.0000001); exponent forms in text are refused.
  const text = typeof value === 'number' ? plainDecimal(value) : value;
  if (!DECIMAL_TEXT.test(text))
    return { ok: false as const, problem: 'is not a decimal number such as "12.50"' };
  if (column.unsigned && isNegative(text)) {
    return {
      ok: false as const,
      problem: `is negative, and the column is decimal(${precision},${scale}) unsigned`,
    };
  }
  const [whole = '', fraction = ''] = text.replace(/^-/, '').split('.');
  const wholeDigits = whole.replace(/^0+(?=\d)/, '').replace(/^0$/, '').length;
  if (fraction.replace(/0+$/, '').length > scale) {
    return {
      ok: false as const,
      problem: `has more than ${scale} decimal places (column is decimal(${precision},${scale}))`,
    };
  }
  if (wholeDigits > precision - scale) {
    return {
      ok: false as const,
      problem: `has more than ${precision - scale} digits before the point (column is decimal(${precision},${scale}))`,
    };
  }
  return { ok: true as const, value: text };
}

/** A decimal's text below zero: "-0.00" is zero, which an unsigned column takes. */
function isNegative(text: string): boolean {
  return text.startsWith('-') && /[1-9]/.test(text);
}

/**
 * Column `name` of a table's columns, matched as the server matches names: exactly, else in any case
 * (a TREE_VIEW may write `metrica1` for the table's METRICA1).
 */
export function columnNamed(columns: ReadonlyMap<string, ColumnType>, name: string): ColumnType | undefined {
  const exact = columns.get(name);
  if (exact !== undefined) return exact;
  return [...columns.values()].find((column) => sameName(column.name, name));
}

/**
 * A column's type from its SQL type text (`decimal(10,2)`, `int`, `bigint unsigned`, `varchar(50)`),
 * for a table not created yet, described by a model: what `checkValue` reads of `readColumnTypes`'
 * answer. Only that: an integer's precision and scale, which information_schema gives (10 and 0 for
 * an int) and `checkValue` does not read, are null here.
 */
export function columnTypeOf(name: string, typeText: string, nullable: boolean): ColumnType {
  const match = /^(\w+)(?:\((\d+)(?:,(\d+))?\))?( unsigned)?/i.exec(typeText.trim());
  const dataType = (match?.[1] ?? typeText).toLowerCase();
  const first = match?.[2] === undefined ? null : Number(match[2]);
  const second = match?.[3] === undefined ? null : Number(match[3]);
  const text = TEXT_TYPES.has(dataType);
  // `float(7,2)` keeps 7 digits, 2 after the point; `float(24)` only picks FLOAT or DOUBLE.
  const floating = dataType === 'float' || dataType === 'double';
  return {
    name,
    dataType,
    unsigned: match?.[4] !== undefined,
    nullable,
    precision: dataType === 'decimal' ? (first ?? 10) : floating && second !== null ? first : null,
    scale: dataType === 'decimal' ? (second ?? 0) : floating ? second : null,
    maxLength: text ? first : null,
  };
}

/** `n` in plain decimal digits, never in exponent form: 1e-7 → "0.0000001", 1e21 → "1000000000000000000000". */
function plainDecimal(n: number): string {
  const text = String(n);
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (match === null) return text;
  const [, sign = '', first = '', rest = '', power = '0'] = match;
  const digits = `${first}${rest}`;
  const point = 1 + Number(power);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/**
 * A value of `column` as comparable text, whether it comes from a client or as the driver read it:
 * decimals at the column's scale ("21.5" and "21.50" are one value), whole numbers without leading
 * zeros, a FLOAT as the shortest decimal of its single-precision number (see {@link floatText}), a DOUBLE as its number, text as it is
 * (a CHAR without trailing spaces); null for NULL. Two values are the same stored value when their texts are equal.
 */
export function storedText(column: ColumnType, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const text = typeof value === 'string' ? value : String(value);
  if (INTEGER_BITS[column.dataType] !== undefined) {
    return INTEGER_TEXT.test(text) ? BigInt(text).toString() : text;
  }
  if (column.dataType === 'decimal') return decimalText(text, column.scale ?? 0);
  if ((column.dataType === 'float' || column.dataType === 'double') && column.scale !== null) {
    // `float(7,2)`: every reader gives its D places (12345.67, where 6 digits would be 12345.7).
    const number = column.dataType === 'float' ? Math.fround(Number(text)) : Number(text);
    return String(Number(number.toFixed(column.scale)));
  }
  if (column.dataType === 'float') return floatText(Number(text));
  if (column.dataType === 'double') return String(Number(text));
  // A CHAR is read back without its trailing spaces (padded to its length, then stripped, unless the
  // host's sql_mode has PAD_CHAR_TO_FULL_LENGTH): "ab  " is stored as what a read gives, "ab".
  if (column.dataType === 'char') return text.replace(/ +$/, '');
  return text;
}

/**
 * A FLOAT's value as every reader of the package gives it: the single-precision number it holds,
 * written as the shortest decimal that is that number (1234.567 holds 1234.5670166015625 and is
 * given as 1234.567; 100000.4 as 100000.4, where 6 digits said 100000). Two values are one stored
 * value exactly when they are one single-precision number: a change in the 7th digit (1000000 to
 * 1000001, which a FLOAT holds exactly) is written and, made by another, is a conflict. MariaDB's text
 * protocol writes a FLOAT at 6 digits, so the package reads metric rows with the binary protocol
 * (prepared), which gives its every bit.
 */
function floatText(value: number): string {
  return String(floatValue(value));
}

/**
 * The shortest decimal whose single-precision number is `value`'s (9 significant digits always are).
 * The largest FLOAT's shortest decimal, 3.4028235e38, is above it as the server reads a value, and
 * refused: it is given as 3.4028234e38, the shortest at most that.
 */
export function floatValue(value: number): number {
  const single = Math.fround(value);
  if (!Number.isFinite(single)) return single;
  if (Math.abs(single) === FLOAT_MAX) return Math.sign(single) * LARGEST_FLOAT_TEXT;
  for (let digits = 1; digits < 9; digits++) {
    const shorter = Number(single.toPrecision(digits));
    if (Math.fround(shorter) === single) return shorter;
  }
  return Number(single.toPrecision(9));
}

const LARGEST_FLOAT_TEXT = 3.4028234e38;

/** Whether two values are one stored value of `column` (see {@link storedText}). */
export function sameStored(column: ColumnType, a: unknown, b: unknown): boolean {
  return storedText(column, a) === storedText(column, b);
}

/**
 * A value as the answer of a save gives it, the form a read of the row gives: decimals as text at the
 * column's scale, whole numbers and floats as numbers (whole numbers beyond 2^53 as text), text as text.
 */
export function storedValue(column: ColumnType, value: unknown): MetricValue {
  const text = storedText(column, value);
  if (text === null) return null;
  if (INTEGER_BITS[column.dataType] !== undefined) {
    const number = Number(text);
    return Number.isSafeInteger(number) ? number : text;
  }
  if (column.dataType === 'float' || column.dataType === 'double') return Number(text);
  return text;
}

/** Whether `text` is already decimal text as the server writes it at `scale` places (`12.50`, `-0.25`, `0.00`). */
function isStoredDecimal(text: string, scale: number): boolean {
  const start = text.charCodeAt(0) === 45 ? 1 : 0; // '-'
  const point = scale > 0 ? text.length - scale - 1 : text.length;
  if (point <= start || (scale > 0 && text.charCodeAt(point) !== 46)) return false; // '.'
  // No leading zero unless the whole part is 0 itself.
  if (text.charCodeAt(start) === 48 && point - start > 1) return false;
  let nonZero = false;
  for (let at = start; at < text.length; at++) {
    if (at === point) continue;
    const code = text.charCodeAt(at);
    if (code < 48 || code > 57) return false;
    if (code !== 48) nonZero = true;
  }
  // A negative zero is written without its sign.
  return start === 0 || nonZero;
}

/** Decimal text at `scale` places, without leading zeros or a sign on zero: what the server stores. */
function decimalText(text: string, scale: number): string {
  // Most values reach here already as the server writes them (a stored value, a base read from the
  // row): checked in one pass without copies, since a save of 1000 entries compares each a few times.
  if (isStoredDecimal(text, scale)) return text;
  if (!DECIMAL_TEXT.test(text)) return text;
  const negative = text.startsWith('-');
  const [whole = '', fraction = ''] = text.replace(/^-/, '').split('.');
  const digits = whole.replace(/^0+(?=\d)/, '');
  const places = fraction.padEnd(scale, '0').slice(0, scale);
  const zero = /^0*$/.test(digits) && /^0*$/.test(places);
  return `${negative && !zero ? '-' : ''}${digits}${scale > 0 ? `.${places}` : ''}`;
}
