import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tableNames } from '../../src/model/table-names.js';
import { TABLE_NAME_VARIABLES, tableNamesFromEnv } from '../../src/schema/env-table-names.js';
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

describe('npx drizzle-kit push with the root drizzle.config.ts', () => {
  it('creates the four tables with names from the environment and leaves every host table and row untouched', async () => {
    const { db, url } = scratch();
    const ours = Object.values(MO);
    const before = await snapshotHostTables(db, ours);
    const env = {
      ...process.env,
      DATABASE_URL: url,
      ...Object.fromEntries(
        Object.entries(TABLE_NAME_VARIABLES).map(([logical, variable]) => [
          variable,
          MO[logical as keyof typeof MO],
        ]),
      ),
    };
    await promisify(execFile)(
      `${root}node_modules/.bin/drizzle-kit`,
      ['push', '--config', 'drizzle.config.ts'],
      {
        cwd: root,
        env,
        timeout: 120_000,
      },
    );
    const tables = await db.query<{ name: string }>(
      'SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN (?, ?, ?, ?) ORDER BY 1',
      ours,
    );
    expect(tables.map((table) => table.name)).toEqual([...ours].sort());
    expect(await snapshotHostTables(db, ours)).toEqual(before);
    // What push created is exactly what sync expects: `db sync` afterwards has nothing to do.
    expect(await planSchemaSync(db, MO)).toEqual({ statements: [], statementTables: [], differences: [] });
  });
});
