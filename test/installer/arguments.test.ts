import { describe, expect, it } from 'vitest';
import { applyInstallation, planInstallation } from '../../src/installer/installer.js';
import { uninstallInstallation } from '../../src/installer/uninstall.js';
import { verifyInstallation } from '../../src/installer/verify.js';
import { tableNames } from '../../src/model/table-names.js';
import type { Database } from '../../src/store/driver.js';
import { planSchemaSync, syncSchema } from '../../src/sync.js';
import { exampleInstallFile } from './support.js';

/** A database that fails the test if anything reaches it: these refusals come before any SQL. */
function untouchable(): Database & { reached: string[] } {
  const reached: string[] = [];
  const refuse = async (sql: string) => {
    reached.push(sql);
    throw new Error(`no SQL expected, got ${sql}`);
  };
  return {
    reached,
    schemaName: 'untouched',
    query: refuse,
    execute: refuse,
    transaction: async () => refuse('a transaction'),
    connection: async () => refuse('a connection'),
    close: async () => undefined,
  } as unknown as Database & { reached: string[] };
}

describe('the installer and schema sync check what a library caller hands them, before any SQL', () => {
  const bad = [
    ['a user SEQ_DB past 2^53 - 1', { actingUser: 2 ** 53 + 2 }, 'actingUser'],
    [
      'a table name carrying SQL',
      { tableNames: { OPER: 'app_oper`; DROP TABLE app_cliente; --' } },
      'tableNames.OPER',
    ],
    ['a scope of NaN', { scope: { EMPRESA: Number.NaN, FILIAL: 1, LOCAL: 1 } }, 'scope.EMPRESA'],
  ] as const;

  it.each(bad)('plan, apply, verify and uninstall refuse %s', async (_, change, path) => {
    const db = untouchable();
    const file = { ...exampleInstallFile(), ...change } as ReturnType<typeof exampleInstallFile>;
    for (const run of [
      () => planInstallation(db, file, {}),
      () => applyInstallation(db, file, {}),
      () => verifyInstallation(db, file),
      () => uninstallInstallation(db, file),
    ]) {
      await expect(run()).rejects.toMatchObject({ code: 'INSTALL_FILE_INVALID', path });
    }
    expect(db.reached).toEqual([]);
  });

  it('schema sync refuses table names that are not identifiers or collide', async () => {
    const db = untouchable();
    const names = { ...tableNames(), OPER: 'app_oper` (x int); DROP TABLE app_cliente; --' };
    // @ts-expect-error: a JavaScript caller can hand over any text.
    await expect(planSchemaSync(db, names)).rejects.toMatchObject({ code: 'INVALID_IDENTIFIER' });
    // @ts-expect-error: as above.
    await expect(syncSchema(db, names)).rejects.toMatchObject({ code: 'INVALID_IDENTIFIER' });
    const same = { ...tableNames(), OPER_GRUPO: tableNames().OPER };
    await expect(planSchemaSync(db, same)).rejects.toMatchObject({ code: 'DUPLICATE_TABLE_NAME' });
    expect(db.reached).toEqual([]);
  });
});
