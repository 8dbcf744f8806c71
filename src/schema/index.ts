// Public API of src/schema: re-exports only.
export { aptColumns } from './apt-columns.js';
export { commonColumns, commonConstraints } from './common-columns.js';
export { foreignKeyName, METRIC_KEY_INDEX, PRIMARY_KEY_NAME, SEQ_DB_UNIQUE_KEY } from './constraint-names.js';
export { TABLE_NAME_VARIABLES, tableNamesFromEnv } from './env-table-names.js';
export { flag } from './flag-column.js';
export { hostTables } from './host.js';
export { operTable } from './oper.js';
export { operGrupoTable } from './oper-grupo.js';
export { operGrupoMetricaTable } from './oper-grupo-metrica.js';
export { operNOperGrupoTable } from './oper-n-oper-grupo.js';
export { type DeleteRule, seqDbForeignKey, seqDbReference } from './seq-db-reference.js';
export {
  createTables,
  type NewOperGrupoMetricaRow,
  type NewOperGrupoRow,
  type NewOperOperGrupoRow,
  type NewOperRow,
  type OperGrupoMetricaRow,
  type OperGrupoRow,
  type OperOperGrupoRow,
  type OperRow,
  type Tables,
} from './tables.js';
