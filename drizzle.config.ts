import { env } from 'node:process';
import { defineConfig } from 'drizzle-kit';
import { tablesFilterFromEnv } from './src/schema/env-table-names.js';
import { resolveDatabaseUrl } from './src/store/url.js';

// `npx drizzle-kit push` against an installation's database. Table names come from
// TASK_ASSOCIATION_TABLE_OPER, _OPER_GRUPO, _OPER_GRUPO_METRICA and _OPER_OPER_GRUPO; the database from
// DATABASE_URL (default mysql://root@127.0.0.1:3306/test). The shared history and request tables
// are pushed beside the four.

export default defineConfig({
  dialect: 'mysql',
  schema: './src/schema/drizzle-kit.ts',
  // drizzle-kit introspects the whole database: without this filter it plans to drop every host table.
  tablesFilter: tablesFilterFromEnv(env),
  dbCredentials: { url: resolveDatabaseUrl(undefined, env) },
  strict: false,
  verbose: false,
});
