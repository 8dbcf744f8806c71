// @ts-check
/**
 * Values of metric columns: what a person typed read against the column's database type
 * (`checkTyped`), and values written as the page's language writes them (`formatValue`,
 * `headerText`), as the database keeps them (`asStored`), and compared by value (`sameValue`,
 * `startsFromNow`). Pure functions of their arguments: nothing here touches the page.
 */

import { isPortuguese } from './labels.js';
import { brokenCharacter, textProblem } from './text-values.js';

/** @typedef {import('./api.js').MetricColumn} MetricColumn */
/** @typedef {import('./labels.js').ScreenLabels} ScreenLabels */

const INTEGER_BITS = /** @type {Record<string, number>} */ ({
  tinyint: 8,
  smallint: 16,
  mediumint: 24,
  int: 32,
  bigint: 64,
});

/**
 * Whether a column keeps whole numbers (`int`, `bigint`, ...).
 * @param {string | null} dataType
 */
export function isWholeNumber(dataType) {
  return dataType !== null && dataType in INTEGER_BITS;
}

/** Character columns that hold notes: their fields keep line breaks from the start. */
const NOTE_TYPES = new Set(['tinytext', 'text', 'mediumtext', 'longtext']);

/**
 * Whether a column holds notes (`text` and its sizes): a field of several lines, where Enter starts
 * a new line.
 * @param {string | null | undefined} dataType
 */
export function holdsNotes(dataType) {
  return typeof dataType === 'string' && NOTE_TYPES.has(dataType);
}

/**
 * Whether a column keeps text (`char`, `varchar`, `text`, ...), and so the line breaks in it.
 * @param {string | null | undefined} dataType
 */
export function isCharacter(dataType) {
  return dataType === 'char' || dataType === 'varchar' || holdsNotes(dataType);
}

/**
 * Whether a column keeps numbers with decimals (`decimal`, `float`, `double`).
 * @param {string | null | undefined} dataType
 */
export function isFractional(dataType) {
  return dataType === 'decimal' || dataType === 'float' || dataType === 'double';
}

/**
 * Checks what a person typed against the metric column's database type, as the server does.
 * Returns the value to send (decimals as exact text, integers as numbers, empty as null) or the
 * label key and parameters of the problem.
 *
 * @param {MetricColumn} column
 * @param {string} typed
 * @param {string} lang decides the decimal separator accepted besides "."
 * @returns {{ ok: true, value: string | number | null } | { ok: false, problem: keyof ScreenLabels, params?: Record<string, string | number> }}
 */
export function checkTyped(column, typed, lang) {
  const text = typed.trim();
  if (text === '') return column.nullable ? { ok: true, value: null } : { ok: false, problem: 'required' };
  const bits = column.dataType === null ? undefined : INTEGER_BITS[column.dataType];
  const pt = isPortuguese(lang);
  // Thousands may be grouped as the language writes them ("1.500" in pt-BR, "1,500" in English) in
  // a column of whole numbers, a decimal of scale 0 included: it cannot mean 1.5, so the grouping is
  // unambiguous there. A first group of 0 ("0.750") is no grouping at all.
  const grouping = pt ? /^-?[1-9]\d{0,2}(\.\d{3})+$/ : /^-?[1-9]\d{0,2}(,\d{3})+$/;
  const ungrouped = grouping.test(text) ? text.replace(/[.,]/g, '') : text;
  if (bits !== undefined) {
    const whole = ungrouped;
    if (!/^-?\d+$/.test(whole)) return { ok: false, problem: 'notWhole' };
    const number = BigInt(whole);
    const min = column.unsigned ? 0n : -(2n ** BigInt(bits - 1));
    const max = column.unsigned ? 2n ** BigInt(bits) - 1n : 2n ** BigInt(bits - 1) - 1n;
    if (number < min || number > max) {
      return { ok: false, problem: 'outOfRange', params: { min: String(min), max: String(max) } };
    }
    return { ok: true, value: Number.isSafeInteger(Number(number)) ? Number(number) : whole };
  }
  if (isFractional(column.dataType)) {
    const precision = column.precision ?? 10;
    const scale = column.scale ?? 0;
    const wholeDecimal = column.dataType === 'decimal' && scale === 0 && ungrouped !== text;
    // A float or a double may come with an exponent, as a spreadsheet writes a small one (1.5E-07,
    // "1,5E-07" in pt-BR) and as the screen showed one before: its digits are read as the language
    // writes them. A decimal keeps only plain digits, as the server does.
    const exponent = column.dataType === 'decimal' ? null : /^([^eE]+)[eE]([+-]?\d+)$/.exec(text);
    const digits = exponent?.[1] ?? text;
    const read = wholeDecimal ? ungrouped : pt ? brazilianNumber(digits) : englishNumber(digits);
    if (typeof read !== 'string') return { ok: false, problem: read.problem };
    const normal = read;
    if (column.unsigned && normal.startsWith('-') && /[1-9]/.test(normal)) {
      if (column.dataType !== 'decimal') return { ok: false, problem: 'notNegative' };
      const largest = `${'9'.repeat(precision - scale)}${scale > 0 ? `.${'9'.repeat(scale)}` : ''}`;
      return {
        ok: false,
        problem: 'outOfRange',
        params: { min: 0, max: pt ? largest.replace('.', ',') : largest },
      };
    }
    // "12.500" pasted from a pt-BR sheet on an English page (or "1,000" from an English one on a
    // Portuguese page) reads as a number only by dropping its zeros: 12.5, a thousandth of what it
    // may mean. Refused as "1,500" is there, rather than stored smaller.
    if (exponent === null && readsAsThousands(text, column, pt))
      return { ok: false, problem: 'ambiguousThousands' };
    if (column.dataType === 'decimal') {
      const places = placesProblem(normal, precision, scale);
      return places ?? { ok: true, value: normal };
    }
    // Read once, from the text as typed (JS reads "1.5e-7" to the nearest double, as MariaDB
    // does): too large for a double, or so small that nothing of it would be kept, is refused.
    const number = Number(exponent === null ? normal : `${normal}e${exponent[2]}`);
    if (!Number.isFinite(number) || (number === 0 && /[1-9]/.test(normal)))
      return { ok: false, problem: 'notNumber' };
    if (column.dataType === 'float' && Math.abs(number) > FLOAT_MAX) {
      const largest = pt ? '3,4028234E38' : '3.4028234E38';
      return { ok: false, problem: 'outOfRange', params: { min: `-${largest}`, max: largest } };
    }
    // A FLOAT(7,2) keeps its places and digits as a decimal(7,2) does: the server refuses more.
    const places =
      column.scale === null ? undefined : placesProblem(plainDigits(String(number)), precision, scale);
    if (places !== undefined) return places;
    const rounded = roundedProblem(column.dataType, normal, number);
    return rounded === undefined ? { ok: true, value: number } : { ok: false, problem: rounded };
  }
  const broken = brokenCharacter(text);
  if (broken !== undefined) return { ok: false, ...broken };
  if (column.maxLength !== null && [...text].length > column.maxLength) {
    return { ok: false, problem: 'tooLong', params: { max: column.maxLength } };
  }
  const beyond = textProblem(column, text);
  return beyond === undefined ? { ok: true, value: text } : { ok: false, ...beyond };
}

/**
 * Whether a number's places or digits are more than a column of `precision` and `scale` keeps (a
 * decimal, or a FLOAT(M,D)): the label of the problem, else undefined.
 * @param {string} normal plain digits with "." as the point
 * @param {number} precision
 * @param {number} scale
 * @returns {{ ok: false, problem: keyof ScreenLabels, params: Record<string, number> } | undefined}
 */
function placesProblem(normal, precision, scale) {
  const [whole = '', fraction = ''] = normal.replace(/^-/, '').split('.');
  if (fraction.replace(/0+$/, '').length > scale) {
    return {
      ok: false,
      problem: scale === 0 ? 'notWhole' : scale === 1 ? 'tooManyDecimalsOne' : 'tooManyDecimals',
      params: { scale },
    };
  }
  if (whole.replace(/^0+/, '').length > precision - scale) {
    return { ok: false, problem: 'tooManyDigits', params: { digits: precision - scale } };
  }
  return undefined;
}

/**
 * Whether `text` is a number of one group of three after the other language's thousands mark
 * ("12.500" on an English page, "1,000" on a Portuguese one) that fits the column only without its
 * trailing zeros: read as decimals it would lose a factor of a thousand unseen. A column keeping
 * three places or more keeps those zeros, so the text is a decimal there; a FLOAT or a DOUBLE without
 * places is shown by the page without trailing zeros, so a saved value never reads so.
 * @param {string} text trimmed
 * @param {MetricColumn} column
 * @param {boolean} pt
 */
function readsAsThousands(text, column, pt) {
  const group = pt ? /^-?[1-9]\d{0,2},\d{2}0$/ : /^-?[1-9]\d{0,2}\.\d{2}0$/;
  return group.test(text) && (column.scale === null || column.scale < 3);
}

/** The largest FLOAT; the server refuses a value past it. */
const FLOAT_MAX = 3.4028234663852886e38;

/**
 * Why a FLOAT or a DOUBLE would keep another number than the one typed, as the server refuses it: a
 * FLOAT keeps the single-precision number nearest it (16777217 is 16777216), a DOUBLE 15 to 17
 * significant digits of the text. A value the column holds as typed (0.1, 1234.5) passes.
 * @param {string | null} dataType
 * @param {string} normal the digits as typed, "." as the point, without an exponent
 * @param {number} number what they read as
 * @returns {'floatDigits' | 'doubleDigits' | undefined}
 */
function roundedProblem(dataType, normal, number) {
  if (dataType === 'float')
    return Math.fround(number) === number || singleValue(number) === number ? undefined : 'floatDigits';
  return significantDigits(normal) === significantDigits(String(number)) ? undefined : 'doubleDigits';
}

/**
 * The shortest decimal whose single-precision number is `value`'s, as the server gives a FLOAT (its
 * `floatValue`): the largest FLOAT's is given as 3.4028234e38, which the server takes.
 * @param {number} value
 */
function singleValue(value) {
  const single = Math.fround(value);
  if (Math.abs(single) === FLOAT_MAX) return Math.sign(single) * 3.4028234e38;
  for (let digits = 1; digits < 9; digits++) {
    const shorter = Number(single.toPrecision(digits));
    if (Math.fround(shorter) === single) return shorter;
  }
  return Number(single.toPrecision(9));
}

/**
 * A number's significant digits, without sign, point, exponent or the zeros around them.
 * @param {string} text
 */
function significantDigits(text) {
  return text
    .replace(/[eE].*$/, '')
    .replace(/\D/g, '')
    .replace(/^0+/, '')
    .replace(/0+$/, '');
}

/**
 * A saved value as the page's language writes it, for the tree and the modal's preset: decimals get
 * pt-BR's comma (12.5 → "12,5"), a float or a double plain digits (5e-7 → "0.0000005"); text is shown
 * as it is saved, since a point in "v1.2" is no decimal point. What it returns, saved again unchanged, is the same value ({@link checkTyped} reads it back).
 *
 * @param {string | number} value
 * @param {MetricColumn} column
 * @param {string} lang
 */
export function formatValue(value, column, lang) {
  // JSON writes a small or a large double with an exponent (5e-7, 2e+21): shown in plain digits, as
  // a person writes it and as the server's plainDecimal does.
  let text =
    column.dataType === 'float' || column.dataType === 'double' ? plainDigits(String(value)) : String(value);
  // A default copied from a column of another type ("6.00" from a decimal into a whole-number
  // metric, "1.2500" into two decimals) is written as the metric's own column keeps it, where that
  // changes no digit: preset as it came, it could not be saved unchanged.
  if (isWholeNumber(column.dataType)) text = text.replace(/^(-?\d+)\.0+$/, '$1');
  if (column.dataType === 'decimal' && column.scale !== null) {
    const scale = column.scale;
    text = text.replace(/^(-?\d+)\.(\d+)$/, (whole, integer, fraction) => {
      const kept = fraction.replace(/0+$/, '');
      if (kept.length > scale || fraction.length <= scale) return whole;
      return scale === 0 ? integer : `${integer}.${kept.padEnd(scale, '0')}`;
    });
  }
  return isFractional(column.dataType) && isPortuguese(lang) ? text.replace('.', ',') : text;
}

/**
 * A header value as the page's language writes it: in pt-BR a decimal with its comma ("12,50") and a
 * date day first ("20/11/2026"); English keeps the point and the ISO date. A DATETIME or TIMESTAMP,
 * sent as its wall time ("2026-11-20 07:30:00"), is its day so written and its time to the minute
 * (seconds only where they are not 0). Text is shown as it is.
 *
 * @param {string} value
 * @param {string | null | undefined} dataType
 * @param {string} lang
 */
export function headerText(value, dataType, lang) {
  const pt = isPortuguese(lang);
  if (dataType === 'datetime' || dataType === 'timestamp') {
    const at = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.\d+)?$/.exec(value);
    if (at === null) return value;
    const [, year, month, day, hours, minutes, seconds] = at;
    const time = `${hours}:${minutes}${seconds === '00' ? '' : `:${seconds}`}`;
    return pt ? `${day}/${month}/${year} ${time}` : `${year}-${month}-${day} ${time}`;
  }
  if (!pt) return value;
  if (isFractional(dataType)) return value.replace('.', ',');
  const day = dataType === 'date' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) : null;
  return day === null ? value : `${day[3]}/${day[2]}/${day[1]}`;
}

/**
 * A value just saved as the database keeps it, so the tree shows what a reload would: a decimal
 * with its column's places ("12.5" in decimal(10,2) is "12.50"); anything else as it is.
 *
 * @param {string | number} value
 * @param {MetricColumn} column
 */
export function asStored(value, column) {
  if (typeof value !== 'string' || column.dataType !== 'decimal' || !column.scale) return value;
  const [whole = '', fraction = ''] = value.split('.');
  return `${whole}.${fraction.padEnd(column.scale, '0')}`;
}

/**
 * Whether a change typed over `base` may start from `now`, the server's value as read again, with
 * nobody told: `now` is still its base, or it is what the server held under a value this device's
 * outbox kept (`under`: that entry discarded or sent, the base goes back to it), or the outbox
 * keeps a value of the field now (`kept`: this device's own, sent first). Anything else was stored
 * meanwhile, unseen: taken as the base, the next save would write over it unrefused, so it is met
 * as a conflict. The one rule of the modal's drafts (modal-draft.js) and the table's cells
 * (table-model.js `represent`).
 *
 * @param {MetricColumn} column
 * @param {string | number | null} now
 * @param {{ base: string | number | null, under?: string | number | null | undefined, kept: boolean }} change
 */
export function startsFromNow(column, now, { base, under, kept }) {
  return kept || sameValue(column, now, base) || (under !== undefined && sameValue(column, now, under));
}

/**
 * Whether two values of a metric column are the same value: what {@link checkTyped} read from the
 * input against what the form was preset with (as the server sent it). Numbers by value ("20",
 * "20.00" and 20 are one value in a decimal column; "6.00" and 6 in a whole-number one), text as
 * typed, trimmed; empty only equals empty.
 *
 * @param {MetricColumn} column
 * @param {string | number | null | undefined} a
 * @param {string | number | null | undefined} b
 */
export function sameValue(column, a, b) {
  if (a === null || a === undefined || b === null || b === undefined) {
    return (a ?? null) === (b ?? null);
  }
  if (!isWholeNumber(column.dataType) && !isFractional(column.dataType))
    return String(a).trim() === String(b).trim();
  const x = plainNumber(String(a));
  const y = plainNumber(String(b));
  return x !== undefined && y !== undefined ? x === y : String(a) === String(b);
}

/**
 * A number's digits in one spelling ("-012.500" → "-12.5", "-0.0" → "0"), compared as text so no
 * decimal passes through a float; undefined for anything else (an exponent, say).
 * @param {string} text
 */
function plainNumber(text) {
  const parts = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text.trim());
  if (parts === null || (parts[2] === '' && (parts[3] ?? '') === '')) return undefined;
  const whole = (parts[2] ?? '').replace(/^0+/, '') || '0';
  const fraction = (parts[3] ?? '').replace(/0+$/, '');
  const digits = fraction === '' ? whole : `${whole}.${fraction}`;
  return parts[1] === '-' && digits !== '0' ? `-${digits}` : digits;
}

/**
 * A number's text in plain digits, its exponent form written out exactly ("5e-7" → "0.0000005",
 * "1.5e+21" → "1500000000000000000000"); any other text as it is. An exponent past a double's range
 * is left as it is rather than written out in hundreds of zeros.
 * @param {string} text
 */
function plainDigits(text) {
  const parts = /^(-?)(\d+)(?:\.(\d+))?[eE]([+-]?\d+)$/.exec(text);
  if (parts === null || Math.abs(Number(parts[4])) > 400) return text;
  const [, sign = '', whole = '', fraction = '', power = '0'] = parts;
  const digits = `${whole}${fraction}`;
  const point = whole.length + Number(power);
  const plain =
    point <= 0
      ? `0.${'0'.repeat(-point)}${digits}`
      : point >= digits.length
        ? `${digits}${'0'.repeat(point - digits.length)}`
        : `${digits.slice(0, point)}.${digits.slice(point)}`;
  // "15e-1" is "1.5", "1.50e2" is "150": no leading zeros, no trailing decimal zeros.
  const [integer = '', decimals = ''] = plain.split('.');
  const kept = decimals.replace(/0+$/, '');
  return `${sign}${integer.replace(/^0+(?=\d)/, '')}${kept === '' ? '' : `.${kept}`}`;
}

/**
 * A decimal as pt-BR writes it, in plain digits with "." as the point: "12,50" and "1.500,25" (points
 * group thousands, a comma starts the decimals). A point without a comma is refused rather than
 * guessed: pt-BR reads "1.500" as fifteen hundred, and a person used to the point as the decimal mark
 * means one and a half; one group or more with a comma ("1.500,00"), or two groups ("1.500.000"), can
 * only be thousands.
 * @param {string} text trimmed
 * @returns {string | { problem: 'notNumber' | 'ambiguousPoint' }}
 */
function brazilianNumber(text) {
  if (/^-?\d+(,\d+)?$/.test(text)) return text.replace(',', '.');
  const grouped = /^-?[1-9]\d{0,2}((\.\d{3})+)(,\d+)?$/.exec(text);
  if (grouped !== null && (grouped[3] !== undefined || (grouped[1] ?? '').length > 4)) {
    return text.replace(/\./g, '').replace(',', '.');
  }
  return text.includes('.') && /^[-\d.,]+$/.test(text)
    ? { problem: 'ambiguousPoint' }
    : { problem: 'notNumber' };
}

/**
 * A decimal as English writes it, in plain digits: "12.50" and "1,500.25" (commas group thousands).
 * A comma without a point is refused rather than guessed, as pt-BR's lone point is: English reads
 * "1,500" as fifteen hundred, and a person used to the comma as the decimal mark (our users, often
 * on English browsers) means one and a half; "0,750" is no English number at all. Two groups
 * ("1,500,000"), or a group with a point ("1,500.00"), can only be thousands.
 * @param {string} text trimmed
 * @returns {string | { problem: 'notNumber' | 'ambiguousComma' }}
 */
function englishNumber(text) {
  if (/^-?\d+(\.\d+)?$/.test(text)) return text;
  if (/^-?[1-9]\d{0,2}((,\d{3}){2,}|(,\d{3})+\.\d+)$/.test(text)) return text.replace(/,/g, '');
  return /^-?\d+,\d+$/.test(text) ? { problem: 'ambiguousComma' } : { problem: 'notNumber' };
}

/**
 * What a metric is called on screen: its TREE_VIEW label, else (the server then sends the column's
 * name as its label) the column's name made readable, as headers are.
 * @param {MetricColumn} column
 */
export function metricLabel(column) {
  return column.label === column.field ? humanize(column.field) : column.label;
}

/**
 * A column name as a heading when the installation gives no label: "QTD_PESSOAS" → "Qtd pessoas".
 * @param {string} name
 */
export function humanize(name) {
  const words = name.replace(/_/g, ' ').trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
