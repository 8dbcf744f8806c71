import { env } from 'node:process';
import { tableNamesFromEnv } from './env-table-names.js';
import { createTables } from './tables.js';

// The schema module drizzle.config.ts hands to drizzle-kit: our four tables and nothing else. Host
// tables are only referenced by the foreign keys; exporting one would make drizzle-kit try to create it.
const tables = createTables(tableNamesFromEnv(env));

export const oper = tables.OPER;
export const operGrupo = tables.OPER_GRUPO;
export const operGrupoMetrica = tables.OPER_GRUPO_METRICA;
export const operOperGrupo = tables.OPER_OPER_GRUPO;
