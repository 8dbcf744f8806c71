import { type TableNames, tableNames } from '../model/table-names.js';
import { operTable } from './oper.js';
import { operGrupoTable } from './oper-grupo.js';
import { operGrupoMetricaTable } from './oper-grupo-metrica.js';
import { operNOperGrupoTable } from './oper-n-oper-grupo.js';

/**
 * The four tables of one installation, keyed by logical name, in the order they can be created
 * (each table's foreign keys point only at host tables, itself, or tables before it).
 *
 * @example const { OPER } = createTables(tableNames({ OPER: 'MO_OPER' })); // OPER is table MO_OPER
 */
export function createTables(names: TableNames = tableNames()) {
  return {
    OPER: operTable(names),
    OPER_GRUPO: operGrupoTable(names),
    OPER_GRUPO_METRICA: operGrupoMetricaTable(names),
    OPER_OPER_GRUPO: operNOperGrupoTable(names),
  };
}

export type Tables = ReturnType<typeof createTables>;

export type OperRow = Tables['OPER']['$inferSelect'];
export type NewOperRow = Tables['OPER']['$inferInsert'];
export type OperGrupoRow = Tables['OPER_GRUPO']['$inferSelect'];
export type NewOperGrupoRow = Tables['OPER_GRUPO']['$inferInsert'];
export type OperGrupoMetricaRow = Tables['OPER_GRUPO_METRICA']['$inferSelect'];
export type NewOperGrupoMetricaRow = Tables['OPER_GRUPO_METRICA']['$inferInsert'];
export type OperOperGrupoRow = Tables['OPER_OPER_GRUPO']['$inferSelect'];
export type NewOperOperGrupoRow = Tables['OPER_OPER_GRUPO']['$inferInsert'];
