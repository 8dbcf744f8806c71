import { describe, expect, it } from 'vitest';
import { type ColumnType, checkValue } from '../../src/model/column-values.js';
// The browser module, imported in Node: it registers its element only where customElements exists.
import { asStored, checkTyped, formatValue, headerText, labelsFor } from '../../web/association-screen.js';

const column = (dataType: string, more: Partial<ColumnType> = {}): ColumnType => ({
  name: 'M',
  dataType,
  unsigned: false,
  nullable: true,
  precision: dataType === 'decimal' ? 10 : 10,
  scale: dataType === 'decimal' ? 2 : 0,
  maxLength: null,
  ...more,
});

const COLUMNS = [
  column('decimal'),
  column('decimal', { precision: 4, scale: 1 }),
  column('decimal', { precision: 5, scale: 0 }),
  column('int'),
  column('int', { unsigned: true }),
  column('tinyint'),
  column('smallint', { unsigned: true }),
  column('bigint'),
  column('int', { nullable: false }),
  column('double', { precision: null, scale: null }),
  column('float', { precision: null, scale: null }),
  column('float', { precision: 7, scale: 2 }),
  column('double', { precision: 10, scale: 2 }),
];
const TYPED = [
  '',
  '0',
  '12',
  '12.5',
  '12.50',
  '12.505',
  '12.500',
  '-3',
  '-3.25',
  '99999999.99',
  '100000000',
  '999.9',
  '1000',
  '2147483647',
  '2147483648',
  '-2147483648',
  '-2147483649',
  '4294967295',
  '255',
  '127',
  '128',
  '-129',
  '65535',
  '65536',
  '9223372036854775807',
  '9223372036854775808',
  '1e3',
  '1.',
  '.5',
  'abc',
  ' 7 ',
  '0012.30',
  '1.5E-07',
  '2e+21',
  '1e999',
  '16777217',
  '1234.5678',
  '0.1',
  '2.345',
  '12345.67',
  '9007199254740993',
  '0.30000000000000004',
];

describe('the modal checks what is typed as the server checks what is saved', () => {
  it('accepts and refuses the same values for every column type', () => {
    const disagreements: string[] = [];
    for (const type of COLUMNS) {
      for (const typed of TYPED) {
        const browser = checkTyped({ field: 'M', label: 'M', ...type }, typed, 'en');
        // "12.500" may be pt-BR thousands to a person on an English page: asked, where a program's
        // text is its exact value.
        if (!browser.ok && browser.problem === 'ambiguousThousands') continue;
        const server = checkValue(
          type,
          browser.ok ? browser.value : typed.trim() === '' ? null : typed.trim(),
        );
        if (browser.ok !== server.ok) {
          disagreements.push(
            `${type.dataType}(${type.precision},${type.scale})${type.unsigned ? ' unsigned' : ''}${type.nullable ? '' : ' not null'} "${typed}": browser ${browser.ok}, server ${server.ok}`,
          );
        }
      }
    }
    expect(disagreements).toEqual([]);
  });

  it('accepts and refuses the same texts for every text column: its length, its character set, its bytes', () => {
    const texts = [
      column('varchar', { maxLength: 20, charset: 'utf8mb3' }),
      column('varchar', { maxLength: 20, charset: 'utf8mb4' }),
      column('varchar', { maxLength: 20, charset: 'latin1' }),
      column('char', { maxLength: 5, charset: 'ascii' }),
      column('tinytext', { maxLength: 255, maxBytes: 255, charset: 'utf8mb4' }),
      column('tinytext', { maxLength: 255, maxBytes: 255, charset: 'latin1' }),
      column('text', { maxLength: 65_535, maxBytes: 65_535, charset: 'utf8mb3' }),
      column('mediumtext', { maxLength: 16_777_215, maxBytes: 16_777_215, charset: 'utf8mb4' }),
      column('varchar', { maxLength: 20 }),
    ];
    const written = [
      'Solo úmido',
      'ação € 10',
      'chuva 🌧 à tarde',
      'Ā',
      'naïve',
      'x'.repeat(21),
      'é'.repeat(128),
      'é'.repeat(200),
      '🌧'.repeat(64),
      'x'.repeat(65_535),
      'ç'.repeat(40_000),
      // Half of a UTF-16 pair alone, either half, and a whole pair beside one.
      'chuva \ud83c à tarde',
      '\udf27',
      '🌧\ud800',
    ];
    const disagreements: string[] = [];
    for (const type of texts) {
      for (const text of written) {
        const browser = checkTyped({ field: 'M', label: 'M', ...type }, text, 'pt-BR');
        const server = checkValue(type, text);
        if (browser.ok !== server.ok) {
          disagreements.push(
            `${type.dataType}(${type.maxLength}) ${type.charset ?? 'no charset'} "${text.slice(0, 20)}" (${text.length}): browser ${browser.ok}, server ${server.ok}`,
          );
        }
      }
    }
    expect(disagreements).toEqual([]);
  });

  it('says which character a column cannot hold, and a TEXT’s bytes, in the page’s language', () => {
    const notes = column('text', { maxLength: 65_535, maxBytes: 65_535, charset: 'utf8mb3' });
    expect(typed(notes, 'chuva 🌧 à tarde', 'pt-BR')).toEqual({
      ok: false,
      problem: 'foreignCharacter',
      params: { character: '🌧' },
    });
    const tiny = column('tinytext', { maxLength: 255, maxBytes: 255, charset: 'utf8mb4' });
    expect(typed(tiny, 'é'.repeat(200), 'en')).toEqual({
      ok: false,
      problem: 'tooManyBytes',
      params: { bytes: 400, max: 255 },
    });
    expect(typed(tiny, 'é'.repeat(127), 'en')).toEqual({ ok: true, value: 'é'.repeat(127) });
    expect(typed(tiny, '🌧 a\udc00', 'en')).toEqual({
      ok: false,
      problem: 'brokenCharacter',
      params: { at: 4 },
    });
    const labels = labelsFor('pt-BR');
    expect(labels.foreignCharacter).toContain('{character}');
    expect(labels.tooManyBytes).toContain('{max}');
    expect(labels.brokenCharacter).toContain('{at}');
  });

  it('sends decimals as exact text, integers as numbers, empty as null; pt-BR takes a decimal comma', () => {
    expect(checkTyped({ field: 'M', label: 'M', ...column('decimal') }, '12.50', 'en')).toEqual({
      ok: true,
      value: '12.50',
    });
    expect(checkTyped({ field: 'M', label: 'M', ...column('decimal') }, '12,50', 'pt-BR')).toEqual({
      ok: true,
      value: '12.50',
    });
    expect(checkTyped({ field: 'M', label: 'M', ...column('decimal') }, '12,50', 'en')).toMatchObject({
      ok: false,
      problem: 'ambiguousComma',
    });
    expect(checkTyped({ field: 'M', label: 'M', ...column('int') }, '7', 'en')).toEqual({
      ok: true,
      value: 7,
    });
    expect(checkTyped({ field: 'M', label: 'M', ...column('int') }, '', 'en')).toEqual({
      ok: true,
      value: null,
    });
    expect(checkTyped({ field: 'M', label: 'M', ...column('decimal') }, '1.234', 'en')).toEqual({
      ok: false,
      problem: 'tooManyDecimals',
      params: { scale: 2 },
    });
    expect(checkTyped({ field: 'M', label: 'M', ...column('tinyint') }, '128', 'en')).toEqual({
      ok: false,
      problem: 'outOfRange',
      params: { min: '-128', max: '127' },
    });
  });
});

const typed = (type: ColumnType, text: string, lang: string) =>
  checkTyped({ field: 'M', label: 'M', ...type }, text, lang);

describe('numbers as each language writes them', () => {
  it.each([
    ['1,5', '1.5'],
    ['12,50', '12.50'],
    ['1.500,25', '1500.25'],
    ['-1.234,5', '-1234.5'],
    ['1.500.000', '1500000'],
    ['1.500,00', '1500.00'],
  ])('pt-BR reads %s as %s', (text, value) => {
    expect(typed(column('decimal'), text, 'pt-BR')).toEqual({ ok: true, value });
  });

  it.each([['1.500'], ['1.5'], ['12.50'], ['1.50,5'], ['.5']])(
    'pt-BR refuses %s, which reads two ways, rather than guess (it saved "1.500" as 1.5)',
    (text) => {
      expect(typed(column('decimal'), text, 'pt-BR')).toEqual({ ok: false, problem: 'ambiguousPoint' });
    },
  );

  it('takes thousands grouped as the language writes them in a whole-number column', () => {
    expect(typed(column('int'), '1.500', 'pt-BR')).toEqual({ ok: true, value: 1500 });
    expect(typed(column('int'), '1,500', 'en')).toEqual({ ok: true, value: 1500 });
    expect(typed(column('int'), '1.5', 'pt-BR')).toEqual({ ok: false, problem: 'notWhole' });
    expect(typed(column('int'), '1,500', 'pt-BR')).toEqual({ ok: false, problem: 'notWhole' });
  });

  it('reads English thousands with commas and a point, and refuses a comma that reads two ways', () => {
    expect(typed(column('decimal'), '1,500.25', 'en')).toEqual({ ok: true, value: '1500.25' });
    expect(typed(column('decimal'), '1,500,000', 'en')).toEqual({ ok: true, value: '1500000' });
    expect(typed(column('decimal'), '1,50,000', 'en')).toEqual({ ok: false, problem: 'notNumber' });
  });

  // Our users write pt-BR, often on English browsers: "12,345" was saved as twelve thousand, "0,750"
  // as 750. English reads a lone comma group as thousands; they mean decimals. Asked, not guessed.
  it.each([['1,5'], ['12,345'], ['0,750'], ['12,50']])(
    'English refuses %s in a decimal column rather than guess',
    (text) => {
      expect(typed(column('decimal'), text, 'en')).toEqual({ ok: false, problem: 'ambiguousComma' });
    },
  );

  it('never reads a first group of 0 as thousands, in either language', () => {
    expect(typed(column('int'), '0,750', 'en')).toEqual({ ok: false, problem: 'notWhole' });
    expect(typed(column('int'), '0.750', 'pt-BR')).toEqual({ ok: false, problem: 'notWhole' });
    expect(typed(column('decimal'), '0.750.000', 'pt-BR')).toEqual({ ok: false, problem: 'ambiguousPoint' });
  });

  it('takes grouped thousands in a decimal of scale 0, as in a whole-number column', () => {
    const scaleZero = column('decimal', { precision: 5, scale: 0 });
    expect(typed(scaleZero, '-99.999', 'pt-BR')).toEqual({ ok: true, value: '-99999' });
    expect(typed(scaleZero, '12,345', 'en')).toEqual({ ok: true, value: '12345' });
    expect(typed(scaleZero, '1,5', 'pt-BR')).toMatchObject({ ok: false, problem: 'notWhole' });
  });

  it('says the range of an unsigned decimal, and that an unsigned double keeps no negative number', () => {
    const unsigned = column('decimal', { precision: 6, scale: 3, unsigned: true });
    expect(typed(unsigned, '-1,5', 'pt-BR')).toEqual({
      ok: false,
      problem: 'outOfRange',
      params: { min: 0, max: '999,999' },
    });
    expect(typed(unsigned, '-1.5', 'en')).toEqual({
      ok: false,
      problem: 'outOfRange',
      params: { min: 0, max: '999.999' },
    });
    expect(typed(unsigned, '-0,000', 'pt-BR')).toEqual({ ok: true, value: '-0.000' });
    expect(typed(column('double', { precision: null, scale: null, unsigned: true }), '-2', 'en')).toEqual({
      ok: false,
      problem: 'notNegative',
    });
  });
});

describe('a header value, as the page language writes it', () => {
  it('gives pt-BR its decimal comma and its day-first date, and leaves text and English alone', () => {
    expect(headerText('12.50', 'decimal', 'pt-BR')).toBe('12,50');
    expect(headerText('2026-11-20', 'date', 'pt-BR')).toBe('20/11/2026');
    // A DATETIME's wall time, to the minute (it was shown as "2026-11-20T07:30:00.000Z").
    expect(headerText('2026-11-20 07:30:00', 'datetime', 'pt-BR')).toBe('20/11/2026 07:30');
    expect(headerText('2026-11-20 07:30:00', 'datetime', 'en')).toBe('2026-11-20 07:30');
    expect(headerText('2026-11-20 07:30:15.250', 'timestamp', 'pt-BR')).toBe('20/11/2026 07:30:15');
    expect(headerText('T-1.2', 'varchar', 'pt-BR')).toBe('T-1.2');
    expect(headerText('12.50', 'decimal', 'en')).toBe('12.50');
    expect(headerText('2026-11-20', 'date', 'en')).toBe('2026-11-20');
  });
});

describe('a value just saved, as the tree shows it', () => {
  it('keeps its column decimal places, as a reload would show it', () => {
    const two = { field: 'M', label: 'M', ...column('decimal') };
    expect(asStored('12.5', two)).toBe('12.50');
    expect(asStored('1500', two)).toBe('1500.00');
    expect(asStored('-3.25', two)).toBe('-3.25');
    expect(asStored(7, { field: 'M', label: 'M', ...column('int') })).toBe(7);
    expect(
      asStored('v1.2', {
        field: 'M',
        label: 'M',
        ...column('varchar', { precision: null, scale: null, maxLength: 9 }),
      }),
    ).toBe('v1.2');
  });

  it('says "one decimal place" in the singular', () => {
    const one = column('decimal', { precision: 4, scale: 1 });
    expect(typed(one, '7.25', 'en')).toEqual({
      ok: false,
      problem: 'tooManyDecimalsOne',
      params: { scale: 1 },
    });
    expect(labelsFor('en').tooManyDecimalsOne).toBe('Use at most 1 decimal place.');
    expect(labelsFor('pt-BR').tooManyDecimalsOne).toBe('Use no máximo 1 casa decimal.');
  });
});

describe('a saved value shown in the modal and saved again is the same value', () => {
  const cases: [ColumnType, (string | number)[]][] = [
    [column('decimal'), ['1500.25', '-3.50', '0.00', '12345678.90']],
    [column('decimal', { precision: 4, scale: 1 }), ['8.0', '-999.9']],
    [column('int'), [0, 1500, -2147483648]],
    [column('float', { precision: null, scale: null }), [1.5, -0.25, 3]],
    [column('varchar', { precision: null, scale: null, maxLength: 20 }), ['v1.2', 'a,b', '1.500', '12,5']],
  ];
  it.each([['en'], ['pt-BR']])('in %s, for decimals, integers, floats and text', (lang) => {
    for (const [type, values] of cases) {
      for (const value of values) {
        const shown = formatValue(value, { field: 'M', label: 'M', ...type }, lang);
        expect(typed(type, shown, lang), `${type.dataType} ${value} shown as "${shown}"`).toEqual({
          ok: true,
          value,
        });
      }
    }
  });

  it('shows decimals with a comma in pt-BR and text as it is saved', () => {
    expect(formatValue('12.50', { field: 'M', label: 'M', ...column('decimal') }, 'pt-BR')).toBe('12,50');
    expect(
      formatValue('v1.2', { field: 'M', label: 'M', ...column('varchar', { maxLength: 20 }) }, 'pt-BR'),
    ).toBe('v1.2');
  });
});

describe('a default copied from a column of another type', () => {
  const metric = (type: ColumnType) => ({ field: 'M', label: 'M', ...type });
  it('is preset as the metric column keeps it where no digit changes, so it saves unchanged', () => {
    // "6.00" from a decimal task sheet column into a whole-number metric was refused on save.
    expect(formatValue('6.00', metric(column('int')), 'en')).toBe('6');
    expect(typed(column('int'), formatValue('6.00', metric(column('int')), 'pt-BR'), 'pt-BR')).toEqual({
      ok: true,
      value: 6,
    });
    expect(formatValue('1.2500', metric(column('decimal')), 'pt-BR')).toBe('1,25');
    expect(formatValue('7.000', metric(column('decimal', { precision: 5, scale: 0 })), 'en')).toBe('7');
  });

  it('is left as it came where the metric column cannot hold it exactly', () => {
    expect(formatValue('6.50', metric(column('int')), 'en')).toBe('6.50');
    expect(formatValue('1.2550', metric(column('decimal')), 'en')).toBe('1.2550');
    expect(typed(column('int'), '6.50', 'en')).toEqual({ ok: false, problem: 'notWhole' });
  });
});

describe('a double JSON writes with an exponent', () => {
  const double = column('double', { precision: null, scale: null });
  const metric = { field: 'M', label: 'M', ...double };

  // A default or a copied 5e-7 was shown "5e-7" and refused as "Enter a number" on save, on a field
  // the person never touched (a row without an entry checks every field).
  it.each([['en'], ['pt-BR']])('is shown in plain digits and saved as shown, in %s', (lang) => {
    for (const value of [5e-7, 1.5e-7, 2e21, -1.234e-7, 0.1, 12]) {
      const shown = formatValue(value, metric, lang);
      expect(shown, `${value}`).toMatch(/^-?\d+([.,]\d+)?$/);
      expect(typed(double, shown, lang), `${value} shown as "${shown}"`).toEqual({ ok: true, value });
    }
    expect(formatValue(5e-7, metric, 'en')).toBe('0.0000005');
    expect(formatValue(1.5e-7, metric, 'pt-BR')).toBe('0,00000015');
    expect(formatValue(2e21, metric, 'pt-BR')).toBe('2000000000000000000000');
  });

  it('is read with an exponent as a spreadsheet writes it, the digits as the language writes them', () => {
    expect(typed(double, '1.5E-07', 'en')).toEqual({ ok: true, value: 1.5e-7 });
    expect(typed(double, '1,5E-07', 'pt-BR')).toEqual({ ok: true, value: 1.5e-7 });
    expect(typed(double, '2e+21', 'pt-BR')).toEqual({ ok: true, value: 2e21 });
    expect(typed(column('float', { precision: null, scale: null }), '-3E2', 'en')).toEqual({
      ok: true,
      value: -300,
    });
    // The language's own rules still hold for the digits before the exponent.
    expect(typed(double, '1.5E-07', 'pt-BR')).toEqual({ ok: false, problem: 'ambiguousPoint' });
    // Past a double's range, either way: not saved as Infinity or 0.
    expect(typed(double, '1e999', 'en')).toEqual({ ok: false, problem: 'notNumber' });
    expect(typed(double, '1e-999', 'en')).toEqual({ ok: false, problem: 'notNumber' });
  });

  it('is still refused in a decimal or a whole-number column, as the server refuses it', () => {
    expect(typed(column('decimal'), '1e3', 'en')).toEqual({ ok: false, problem: 'notNumber' });
    expect(typed(column('int'), '1e3', 'en')).toEqual({ ok: false, problem: 'notWhole' });
  });
});

describe('a value the column would keep otherwise than typed, refused at its field', () => {
  // A pt-BR spreadsheet's "12.500" pasted on an English page was stored as 12.50 ("1.234" beside it
  // was refused); "1,000" on a Portuguese page as 1. Found by review.
  it.each([
    ['12.500', 'en', column('decimal')],
    ['5.000', 'en', column('decimal')],
    ['-1.250', 'en', column('decimal', { precision: 5, scale: 0 })],
    ['12.500', 'en', column('float', { precision: null, scale: null })],
    ['1.200', 'en', column('double', { precision: 10, scale: 2 })],
    ['1,000', 'pt-BR', column('decimal')],
    ['1,000', 'pt-BR', column('decimal', { precision: 5, scale: 0 })],
    ['2,500', 'pt-BR', column('float', { precision: null, scale: null })],
  ])('refuses %s on a page in %s as thousands or decimals, never as a thousandth', (text, lang, type) => {
    expect(typed(type, text, lang)).toEqual({ ok: false, problem: 'ambiguousThousands' });
  });

  it('reads three places as decimals where the column keeps them, or where no zero is dropped', () => {
    expect(typed(column('decimal', { precision: 10, scale: 3 }), '12.500', 'en')).toEqual({
      ok: true,
      value: '12.500',
    });
    expect(typed(column('decimal', { precision: 10, scale: 3 }), '1,000', 'pt-BR')).toEqual({
      ok: true,
      value: '1.000',
    });
    // A FLOAT's saved 1.125 is shown so, and saved again as shown.
    expect(typed(column('float', { precision: null, scale: null }), '1.125', 'en')).toEqual({
      ok: true,
      value: 1.125,
    });
    expect(typed(column('decimal'), '1.234', 'en')).toMatchObject({ ok: false, problem: 'tooManyDecimals' });
    expect(typed(column('decimal'), '1.500,00', 'pt-BR')).toEqual({ ok: true, value: '1500.00' });
    expect(labelsFor('en').ambiguousThousands).toMatch(/without a point \(1500\)/);
    expect(labelsFor('pt-BR').ambiguousThousands).toMatch(/sem vírgula \(1500\)/);
  });

  // 16777217 was stored 16777216, 1234.5678 as 1234.5677, and shown as saved. Found by review.
  it('refuses what a FLOAT would round, and digits a DOUBLE would drop, in both languages', () => {
    const float = column('float', { precision: null, scale: null });
    const double = column('double', { precision: null, scale: null });
    expect(typed(float, '16777217', 'en')).toEqual({ ok: false, problem: 'floatDigits' });
    expect(typed(float, '1234,5678', 'pt-BR')).toEqual({ ok: false, problem: 'floatDigits' });
    for (const kept of ['0.1', '1234.5', '1234.567', '16777216', '1.5E-07', '3.4028234E38']) {
      expect(typed(float, kept, 'en'), kept).toMatchObject({ ok: true });
    }
    expect(typed(float, '4E38', 'pt-BR')).toEqual({
      ok: false,
      problem: 'outOfRange',
      params: { min: '-3,4028234E38', max: '3,4028234E38' },
    });
    expect(typed(double, '9007199254740993', 'en')).toEqual({ ok: false, problem: 'doubleDigits' });
    expect(typed(double, '0,1000000000000000055511151231257827', 'pt-BR')).toEqual({
      ok: false,
      problem: 'doubleDigits',
    });
    expect(typed(double, '0.30000000000000004', 'en')).toEqual({ ok: true, value: 0.30000000000000004 });
    expect(labelsFor('en').floatDigits).toBe(
      'This field keeps about 7 significant digits: enter fewer digits.',
    );
    expect(labelsFor('pt-BR').floatDigits).toBe(
      'Este campo guarda cerca de 7 algarismos significativos: digite menos algarismos.',
    );
  });

  // A FLOAT(7,2)'s "2,345" was kept offline and refused hours later, in English: "entry 0: MEDIDA
  // value 2.345 has more than 2 decimal places (column is float(7,2))". Found by review.
  it('checks a FLOAT(M,D) or DOUBLE(M,D) for places and digits as a decimal is checked', () => {
    const fixed = column('float', { precision: 7, scale: 2 });
    expect(typed(fixed, '2,345', 'pt-BR')).toEqual({
      ok: false,
      problem: 'tooManyDecimals',
      params: { scale: 2 },
    });
    expect(typed(fixed, '123456', 'en')).toEqual({
      ok: false,
      problem: 'tooManyDigits',
      params: { digits: 5 },
    });
    expect(typed(fixed, '12345,67', 'pt-BR')).toEqual({ ok: true, value: 12345.67 });
    expect(typed(column('double', { precision: 4, scale: 1 }), '7.25', 'en')).toEqual({
      ok: false,
      problem: 'tooManyDecimalsOne',
      params: { scale: 1 },
    });
    expect(typed(fixed, '1.5E-07', 'en')).toMatchObject({ ok: false, problem: 'tooManyDecimals' });
  });
});
