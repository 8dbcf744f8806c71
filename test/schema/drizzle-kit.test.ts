import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  HISTORY_TABLE_NAME,
  LOCK_TABLE_NAME,
  REQUEST_TABLE_NAME,
  tableNames,
} from '../../src/model/table-names.js';
import {
  PUSH_SHARED_TABLES_VARIABLE,
  pushSharedTablesFromEnv,
  TABLE_NAME_VARIABLES,
  tableNamesFromEnv,
  tablesFilterFromEnv,
} from '../../src/schema/env-table-names.js';
import { planSchemaSync } from '../../src/sync/plan.js';
import { useScratchDatabase } from '../support/database.js';
import { snapshotHostTables } from '../sync/host-snapshot.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const scratch = useScratchDatabase('drizzle-kit', { hostSchema: true });

const MO = tableNames({
  OPER: 'MO_OPER',
  OPER_GRUPO: 'MO_OPER_GRUPO',
  OPER_GRUPO_METRICA: 'MO_OPER_GRUPO_METRICA',
  OPER_OPER_GRUPO: 'MO_OPER_MO_OPER_GRUPO',
});

describe('tableNamesFromEnv', () => {
  it('reads TASK_ASSOCIATION_TABLE_<LOGICAL>, keeping the default where unset or empty', () => {
    expect(
      tableNamesFromEnv({ TASK_ASSOCIATION_TABLE_OPER: 'MO_OPER', TASK_ASSOCIATION_TABLE_OPER_GRUPO: '' }),
    ).toEqual(tableNames({ OPER: 'MO_OPER' }));
  });

  it('refuses a variable that is not an identifier', () => {
    expect(() => tableNamesFromEnv({ TASK_ASSOCIATION_TABLE_OPER: 'x; DROP TABLE y' })).toThrowError(
      'is not an SQL identifier',
    );
  });
});

describe('tablesFilterFromEnv', () => {
  it('lets drizzle-kit see the four tables and the shared ones, or only the four when told they exist', () => {
    const four = Object.values(tableNames({ OPER: 'MO_OPER' }));
    const env = { TASK_ASSOCIATION_TABLE_OPER: 'MO_OPER' };
    expect(tablesFilterFromEnv(env)).toEqual([
      ...four,
      HISTORY_TABLE_NAME,
      REQUEST_TABLE_NAME,
      LOCK_TABLE_NAME,
    ]);
    expect(tablesFilterFromEnv({ ...env, [PUSH_SHARED_TABLES_VARIABLE]: 'yes' })).toEqual(
      tablesFilterFromEnv(env),
    );
    expect(tablesFilterFromEnv({ ...env, [PUSH_SHARED_TABLES_VARIABLE]: '' })).toEqual(
      tablesFilterFromEnv(env),
    );
    expect(tablesFilterFromEnv({ ...env, [PUSH_SHARED_TABLES_VARIABLE]: 'no' })).toEqual(four);
  });

  it.each(['NO', 'false', '0', ' no'])('refuses %j for TASK_ASSOCIATION_PUSH_SHARED_TABLES', (value) => {
    expect(() => pushSharedTablesFromEnv({ [PUSH_SHARED_TABLES_VARIABLE]: value })).toThrow(
      expect.objectContaining({
        code: 'INVALID_OPTION',
        path: PUSH_SHARED_TABLES_VARIABLE,
        message: `TASK_ASSOCIATION_PUSH_SHARED_TABLES is ${JSON.stringify(value)}: give yes (push the shared tables, the first push in a database) or no (they exist already)`,
      }),
    );
  });
});

/** The environment drizzle-kit runs in for the tables `names` of the scratch database. */
function pushEnv(url: string, names: typeof MO, more: Record<string, string> = {}) {
  return {
    ...process.env,
    DATABASE_URL: url,
    ...Object.fromEntries(
      Object.entries(TABLE_NAME_VARIABLES).map(([logical, variable]) => [
        variable,
        names[logical as keyof typeof names],
      ]),
    ),
    ...more,
  };
}

async function push(env: NodeJS.ProcessEnv) {
  return promisify(execFile)(
    `${root}node_modules/.bin/drizzle-kit`,
    ['push', '--config', 'drizzle.config.ts'],
    {
      cwd: root,
      env,
      timeout: 120_000,
    },
  );
}

const SHARED = [HISTORY_TABLE_NAME, REQUEST_TABLE_NAME, LOCK_TABLE_NAME];

describe('npx drizzle-kit push with the root drizzle.config.ts', () => {
  it('creates the four tables with names from the environment, and the shared ones, and leaves every host table and row untouched', async () => {
    const { db, url } = scratch();
    const ours = [...Object.values(MO), ...SHARED];
    const before = await snapshotHostTables(db, ours);
    await push(pushEnv(url, MO));
    const tables = await db.query<{ name: string }>(
      'SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN (?, ?, ?, ?, ?, ?, ?) ORDER BY 1',
      ours,
    );
    expect(tables.map((table) => table.name)).toEqual([...ours].sort());
    expect(await snapshotHostTables(db, ours)).toEqual(before);
    // What push created is exactly what sync expects: `db sync` afterwards has nothing to do.
    expect(await planSchemaSync(db, MO)).toEqual({ statements: [], statementTables: [], differences: [] });
  });

  // Runs after the test above, in the same database: the shared tables exist.
  it("pushes another installation's four tables beside the shared ones when told they exist, leaving those alone", async () => {
    const { db, url } = scratch();
    const other = tableNames({
      OPER: 'KIT_OPER',
      OPER_GRUPO: 'KIT_OPER_GRUPO',
      OPER_GRUPO_METRICA: 'KIT_OPER_GRUPO_METRICA',
      OPER_OPER_GRUPO: 'KIT_OPER_OPER_GRUPO',
    });
    await db.execute(
      `INSERT INTO ${REQUEST_TABLE_NAME} (EMPRESA, FILIAL, LOCAL, REQUEST_ID, BODY_HASH, ANSWER, USUARIO_SEQ_DB) VALUES (1, 1, 1, 'kept', 'h', '{}', 7)`,
    );
    const before = await snapshotHostTables(db, Object.values(other));
    await push(pushEnv(url, other, { [PUSH_SHARED_TABLES_VARIABLE]: 'no' }));
    // Every table that was there, the shared ones with their rows, is as it was.
    expect(await snapshotHostTables(db, Object.values(other))).toEqual(before);
    // The new four are whole (foreign keys and the metric key index too): sync has nothing to add.
    expect(await planSchemaSync(db, other)).toEqual({ statements: [], statementTables: [], differences: [] });
  });
});
