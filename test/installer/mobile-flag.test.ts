import { describe, expect, it } from 'vitest';
import { findMobileFlagColumn } from '../../src/installer/mobile-flag.js';
import { parseIdentifier } from '../../src/model/identifier.js';
import type { HostTable } from '../../src/store/host-table.js';

const TINYINT = {
  dataType: 'tinyint',
  unsigned: false,
  precision: 3,
  scale: 0,
  maxLength: null,
  octetLength: null,
  collation: null,
};

function fieldTable(...names: string[]): HostTable {
  const columns = names.map((name) => ({
    name,
    columnType: 'tinyint(1)',
    ...TINYINT,
    nullable: false,
    fillsItself: true,
  }));
  return {
    name: parseIdentifier('sys_core_ds_tabela_campo', 'table'),
    columns,
    column: (name) => columns.find((column) => column.name.toUpperCase() === name.toUpperCase()),
  };
}

describe('findMobileFlagColumn', () => {
  it('finds the one column named like MOBILE, GRID_MOBILE aside', () => {
    expect(findMobileFlagColumn(fieldTable('GRID', 'GRID_MOBILE', 'ENVIA_MOBILE'), undefined)).toEqual({
      column: 'ENVIA_MOBILE',
      findings: [],
    });
    expect(findMobileFlagColumn(fieldTable('GRID_MOBILE', 'FlagMobile'), undefined).column).toBe(
      'FlagMobile',
    );
  });

  it("takes the named column, in the host's spelling", () => {
    expect(findMobileFlagColumn(fieldTable('ENVIA_MOBILE', 'MOBILE2'), 'mobile2').column).toBe('MOBILE2');
  });

  it('refuses ambiguity, absence and a named column that does not exist, saying what to do', () => {
    expect(findMobileFlagColumn(fieldTable('A_MOBILE', 'B_MOBILE'), undefined).findings).toEqual([
      {
        level: 'error',
        code: 'MOBILE_FLAG_COLUMN_AMBIGUOUS',
        path: 'linkField.mobileFlagColumn',
        message:
          'sys_core_ds_tabela_campo has several candidates for the send-to-mobile flag column (A_MOBILE, B_MOBILE): name the right one in the install file as linkField.mobileFlagColumn',
      },
    ]);
    expect(findMobileFlagColumn(fieldTable('GRID_MOBILE'), undefined).findings[0]?.code).toBe(
      'MOBILE_FLAG_COLUMN_NOT_FOUND',
    );
    expect(findMobileFlagColumn(fieldTable('ENVIA_MOBILE'), 'NOPE').findings[0]?.code).toBe(
      'MOBILE_FLAG_COLUMN_MISSING',
    );
  });
});
