import { describe, expect, it } from 'vitest';
import { DEFAULT_TABLE_NAMES, tableNames } from '../../src/model/table-names.js';

describe('tableNames', () => {
  it('uses the defaults where nothing is overridden', () => {
    expect(tableNames()).toEqual(DEFAULT_TABLE_NAMES);
  });

  it('applies each override on its own', () => {
    expect(tableNames({ OPER: 'MO_OPER', OPER_OPER_GRUPO: 'MO_OPER_MO_OPER_GRUPO' })).toEqual({
      OPER: 'MO_OPER',
      OPER_GRUPO: 'app_oper_grupo',
      OPER_GRUPO_METRICA: 'app_oper_grupo_metrica',
      OPER_OPER_GRUPO: 'MO_OPER_MO_OPER_GRUPO',
    });
  });

  it('refuses a name that is not an identifier, naming the logical table', () => {
    expect(() => tableNames({ OPER_GRUPO: 'app_oper; DROP TABLE x' })).toThrowError(
      'table name for OPER_GRUPO "app_oper; DROP TABLE x" is not an SQL identifier',
    );
  });

  it('refuses an unknown logical name', () => {
    expect(() => tableNames({ OPERS: 'x' })).toThrowError(
      '"OPERS" is not a logical table name: use one of OPER, OPER_GRUPO, OPER_GRUPO_METRICA, OPER_OPER_GRUPO',
    );
  });

  it('refuses two logical tables sharing one name, whatever the case', () => {
    expect(() => tableNames({ OPER: 'MO_X', OPER_GRUPO: 'mo_x' })).toThrowError(
      'OPER and OPER_GRUPO would both use table "mo_x": each logical table needs its own name',
    );
  });

  // Sync would try to re-key a host table, uninstall would drop it or the ledger of every installation.
  it.each([
    ['app_folha_tarefa', 'a host table'],
    ['SYS_CORE_MENU', 'a host table'],
    ['sys_core_par_parametros', 'a host table'],
    ['task_association_ledger', "the installer's ledger, shared by every installation"],
  ])('refuses %s, which is not a table of its own', (name, what) => {
    let thrown: unknown;
    try {
      tableNames({ OPER_GRUPO: name });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({
      code: 'HOST_TABLE',
      path: 'tableNames.OPER_GRUPO',
      message: `"${name}" is ${what}: OPER_GRUPO must be a table of this package's own, such as app_oper_grupo`,
    });
  });
});
