import { describe, expect, it } from 'vitest';
import { type ColumnType, checkValue } from '../../src/resolvers/index.js';
// The browser module, imported in Node: it registers its element only where customElements exists.
import { checkTyped } from '../../web/association-screen.js';

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
];

describe('the modal checks what is typed as the server checks what is saved', () => {
  it('accepts and refuses the same values for every column type', () => {
    const disagreements: string[] = [];
    for (const type of COLUMNS) {
      for (const typed of TYPED) {
        const browser = checkTyped({ field: 'M', label: 'M', ...type }, typed, 'en');
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
      problem: 'notNumber',
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
