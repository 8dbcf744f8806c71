// Public API of src/schema: re-exports only.
export { aptColumns } from './schema/apt-columns.js';
export { commonColumns, commonConstraints } from './schema/common-columns.js';
export {
  foreignKeyName,
  METRIC_KEY_INDEX,
  PRIMARY_KEY_NAME,
  SEQ_DB_UNIQUE_KEY,
} from './schema/constraint-names.js';
export {
  PUSH_SHARED_TABLES_VARIABLE,
  pushSharedTablesFromEnv,
  TABLE_NAME_VARIABLES,
  tableNamesFromEnv,
  tablesFilterFromEnv,
} from './schema/env-table-names.js';
export { flag } from './schema/flag-column.js';
export { hostTables } from './schema/host.js';
export { operTable } from './schema/oper.js';
export { operGrupoTable } from './schema/oper-grupo.js';
export { operGrupoMetricaTable } from './schema/oper-grupo-metrica.js';
export { operNOperGrupoTable } from './schema/oper-n-oper-grupo.js';
export { type DeleteRule, seqDbForeignKey, seqDbReference } from './schema/seq-db-reference.js';
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
} from './schema/tables.js';
