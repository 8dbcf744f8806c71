import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { applyInstallation, planInstallation } from '../../src/installer/installer.js';
import { tableNames } from '../../src/model/table-names.js';
import type { ScratchDatabase } from '../../src/store/scratch.js';
import { syncSchema } from '../../src/sync/sync.js';
import { databaseState, exampleInstallFile } from '../installer/support.js';
import { captureIo } from '../support/cli.js';
import { freshDatabase } from '../support/database.js';

/*
 * A host table our foreign keys point at must be able to hold one: InnoDB, with an index starting
 * with SEQ_DB. One that cannot (a MyISAM app_etapa, common in older ERP databases) is refused by
 * `db sync`, `plan` and `apply` before anything runs, naming the host's table: the server refused our
 * MO_OPER_GRUPO's foreign key half way through (errno 150), leaving the tables made before it.
 */

let scratch: ScratchDatabase | undefined;
afterEach(async () => {
  await scratch?.drop();
  scratch = undefined;
});

async function host(...alter: string[]) {
  scratch = await freshDatabase('scr_sync_engine', { hostSchema: true });
  for (const statement of alter) await scratch.db.execute(statement);
  return scratch;
}

const MYISAM = 'ALTER TABLE app_etapa ENGINE=MyISAM';

describe('a host table a foreign key cannot point at', () => {
  it('db sync refuses a MyISAM host table before running anything, naming it', async () => {
    const { db, url } = await host(MYISAM);
    const before = await databaseState(db);
    await expect(syncSchema(db, tableNames())).rejects.toMatchObject({
      code: 'MISSING_HOST_TABLE',
      path: 'app_etapa',
      differences: [
        expect.objectContaining({
          kind: 'host-table-engine',
          table: 'app_etapa',
          found: 'MyISAM',
          expected: 'InnoDB',
        }),
      ],
    });
    const io = captureIo();
    expect(await runCli(['db', 'sync', '--database-url', url, '--json'], io)).toBe(1);
    expect(JSON.parse(io.out())).toMatchObject({
      statements: [],
      applied: false,
      code: 'MISSING_HOST_TABLE',
      differences: [{ kind: 'host-table-engine', table: 'app_etapa', found: 'MyISAM' }],
    });
    expect(io.err()).toContain('host table app_etapa is MyISAM, which cannot be the target of a foreign key');
    expect(await databaseState(db)).toEqual(before);
  });

  it('plan says so at the host table, and apply refuses, writing nothing', async () => {
    const { db } = await host(MYISAM);
    const before = await databaseState(db);
    const file = exampleInstallFile();
    const { findings } = await planInstallation(db, file, {});
    expect(findings).toContainEqual({
      level: 'error',
      code: 'SCHEMA_HOST_TABLE_ENGINE',
      path: 'app_etapa',
      message: expect.stringContaining('convert it to InnoDB (ALTER TABLE app_etapa ENGINE=InnoDB) first'),
    });
    await expect(applyInstallation(db, file, {})).rejects.toMatchObject({
      code: 'SCHEMA_HOST_TABLE_ENGINE',
      path: 'app_etapa',
    });
    expect(Object.keys(await databaseState(db))).toEqual(Object.keys(before));
    expect(await databaseState(db)).toEqual(before);
  });

  it('refuses a host table whose SEQ_DB leads no index, then installs once it is InnoDB with its key', async () => {
    const { db } = await host(
      'ALTER TABLE app_etapa MODIFY SEQ_DB bigint unsigned NOT NULL, DROP PRIMARY KEY',
    );
    const file = exampleInstallFile();
    expect((await planInstallation(db, file, {})).findings).toContainEqual(
      expect.objectContaining({ code: 'SCHEMA_HOST_COLUMN_UNINDEXED', path: 'app_etapa.SEQ_DB' }),
    );
    await db.execute('ALTER TABLE app_etapa ADD PRIMARY KEY (SEQ_DB)');
    await applyInstallation(db, file, {});
    expect((await planInstallation(db, file, {})).findings.filter((f) => f.level === 'error')).toEqual([]);
  });
});
