import { describe, expect, it } from 'vitest';
// The browser module, imported in Node: it registers its element only where customElements exists.
import { checkTyped, sameValue } from '../../web/association-screen.js';

const column = (dataType: string | null, scale: number | null = null) => ({
  field: 'M',
  label: 'M',
  dataType,
  unsigned: false,
  nullable: true,
  precision: dataType === 'decimal' ? 10 : null,
  scale,
  maxLength: dataType === 'varchar' ? 20 : null,
});

describe('sameValue: whether a typed value changes what the form was preset with (#25)', () => {
  it('compares decimals by value, never through a float', () => {
    const decimal = column('decimal', 2);
    expect(sameValue(decimal, '20', '20.00')).toBe(true);
    expect(sameValue(decimal, '020.5', '20.50')).toBe(true);
    expect(sameValue(decimal, '-0.00', '0')).toBe(true);
    expect(sameValue(decimal, '20.01', '20.00')).toBe(false);
    expect(sameValue(decimal, '-1', '1')).toBe(false);
    // Beyond a double's digits: text, not numbers, decide.
    expect(sameValue(column('decimal', 0), '12345678901234567891', '12345678901234567890')).toBe(false);
  });

  it('compares whole numbers with the text a default copied from a decimal column', () => {
    expect(sameValue(column('int'), 6, '6.00')).toBe(true);
    expect(sameValue(column('int'), 6, 7)).toBe(false);
  });

  it('takes empty as a value of its own: cleared is a change, empty stays empty', () => {
    expect(sameValue(column('decimal', 2), null, null)).toBe(true);
    expect(sameValue(column('decimal', 2), null, '0.00')).toBe(false);
    expect(sameValue(column('varchar'), '', null)).toBe(false);
    expect(sameValue(column('varchar'), null, undefined)).toBe(true);
  });

  it('compares text as typed, trimmed, case kept', () => {
    expect(sameValue(column('varchar'), 'v1.2', 'v1.2 ')).toBe(true);
    expect(sameValue(column('varchar'), 'V1.2', 'v1.2')).toBe(false);
    expect(sameValue(column('varchar'), '1.0', '1.00')).toBe(false);
  });

  it('agrees with checkTyped: a preset shown in pt-BR and saved unchanged is no change', () => {
    const decimal = column('decimal', 2);
    const typed = checkTyped(decimal, '1.500,25', 'pt-BR');
    expect(typed).toEqual({ ok: true, value: '1500.25' });
    expect(typed.ok && sameValue(decimal, typed.value, '1500.25')).toBe(true);
  });
});
