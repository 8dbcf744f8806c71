import { describe, expect, it } from 'vitest';
import { fitRow } from '../../src/installer/fit-row.js';
import { parseIdentifier } from '../../src/model/identifier.js';
import type { HostColumn, HostTable } from '../../src/store/host-table.js';

function table(columns: HostColumn[]): HostTable {
  const byName = new Map(columns.map((column) => [column.name.toUpperCase(), column]));
  return {
    name: parseIdentifier('sys_core_menu', 'table'),
    columns,
    column: (name) => byName.get(name.toUpperCase()),
  };
}
const column = (name: string, nullable: boolean, fillsItself: boolean): HostColumn => ({
  name,
  columnType: 'int(11)',
  dataType: 'int',
  unsigned: false,
  precision: 10,
  scale: 0,
  maxLength: null,
  octetLength: null,
  collation: null,
  nullable,
  fillsItself,
});

describe('fitRow', () => {
  it("keeps the columns the host has, in the host's spelling, and leaves out the others as info", () => {
    const host = table([
      column('SEQ_DB', false, true),
      column('Descricao', false, false),
      column('EXTRA', true, false),
    ]);
    expect(fitRow(host, { DESCRICAO: 'x', ICON: 'fa' })).toEqual({
      values: { Descricao: 'x' },
      findings: [
        {
          level: 'info',
          code: 'HOST_COLUMN_MISSING',
          path: 'sys_core_menu.ICON',
          message: "sys_core_menu has no column ICON: the installer's rows there are written without it",
        },
      ],
    });
  });

  it('reports a NOT NULL column without a default it does not fill, unless another part of the row fills it', () => {
    const host = table([column('APP_ID', false, true), column('CRIADO_POR', false, false)]);
    expect(fitRow(host, {}).findings).toEqual([
      expect.objectContaining({
        level: 'error',
        code: 'HOST_COLUMN_REQUIRED',
        path: 'sys_core_menu.CRIADO_POR',
      }),
    ]);
    expect(fitRow(host, {}, ['criado_por']).findings).toEqual([]);
  });
});
