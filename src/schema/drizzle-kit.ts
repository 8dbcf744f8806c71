import { env } from 'node:process';
import { pushSharedTablesFromEnv, tableNamesFromEnv } from './env-table-names.js';
import { historyTable, requestTable } from './history.js';
import { createTables } from './tables.js';

// The schema module drizzle.config.ts hands to drizzle-kit: our four tables, the two every
// installation of a database shares (saveMetrics writes them, so a database whose tables came from
// `drizzle-kit push` instead of `db sync` needs them too) unless TASK_ASSOCIATION_PUSH_SHARED_TABLES
// is `no` (they exist already: drizzle-kit cannot push an existing table again), and nothing else.
// Host tables are only referenced by the foreign keys; exporting one would make drizzle-kit try to
// create it. The installer's ledger is left to `apply`, which alone writes it.
const tables = createTables(tableNamesFromEnv(env));
const shared = pushSharedTablesFromEnv(env);

export const oper = tables.OPER;
export const operGrupo = tables.OPER_GRUPO;
export const operGrupoMetrica = tables.OPER_GRUPO_METRICA;
export const operOperGrupo = tables.OPER_OPER_GRUPO;
// drizzle-kit takes every export that is a table and passes over the rest.
export const history = shared ? historyTable : undefined;
export const request = shared ? requestTable : undefined;
