import { describe, expect, it } from 'vitest';
import { foreignKeyName } from '../../src/schema/constraint-names.js';

describe('foreignKeyName', () => {
  it('is fk_<table>_<column> when that fits in 64 characters', () => {
    expect(foreignKeyName('MO_OPER_MO_OPER_GRUPO', 'OPER_GRUPO_SEQ_DB')).toBe(
      'fk_MO_OPER_MO_OPER_GRUPO_OPER_GRUPO_SEQ_DB',
    );
  });

  it('cuts a long name to 64 characters ending in a hash, stable from run to run', () => {
    const table = `T${'x'.repeat(63)}`;
    const name = foreignKeyName(table, 'OPER_GRUPO_SEQ_DB');
    expect(name).toHaveLength(64);
    expect(name).toMatch(/^fk_Tx+_[0-9a-f]{10}$/);
    expect(foreignKeyName(table, 'OPER_GRUPO_SEQ_DB')).toBe(name);
  });

  it('gives two long tables that differ only at the end different names (FK names are per database)', () => {
    const stem = 'a'.repeat(60);
    expect(foreignKeyName(`${stem}_one`, 'OPER_SEQ_DB')).not.toBe(
      foreignKeyName(`${stem}_two`, 'OPER_SEQ_DB'),
    );
    expect(foreignKeyName(`${stem}_one`, 'OPER_SEQ_DB')).not.toBe(
      foreignKeyName(`${stem}_one`, 'OPER_GRUPO_SEQ_DB'),
    );
  });
});
