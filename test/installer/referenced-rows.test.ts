import mysql from 'mysql2/promise';
import { afterEach, describe, expect, it } from 'vitest';
import { applyInstallation } from '../../src/installer/installer.js';
import { uninstallInstallation } from '../../src/installer/uninstall.js';
import type { Database } from '../../src/store/driver.js';
import type { ScratchDatabase } from '../../src/store/scratch.js';
import { freshDatabase } from '../support/database.js';
import { countRows, exampleInstallFile } from './support.js';

/*
 * A row of the installer's that a row of the host refers to (a host menu placed under one of ours,
 * a host table's foreign key) is never deleted: the host's row would go with it (ON DELETE CASCADE),
 * be changed (SET NULL) or point at nothing. It stays, with its ledger entry, until nothing refers to it.
 */

let scratch: ScratchDatabase | undefined;
afterEach(async () => {
  await scratch?.drop();
  scratch = undefined;
});

async function host(fatherKey?: string) {
  scratch = await freshDatabase('scr_inst_referenced', { hostSchema: true });
  if (fatherKey !== undefined)
    await scratch.db.execute(
      `ALTER TABLE sys_core_menu ADD CONSTRAINT fk_menu_father FOREIGN KEY (FATHER) REFERENCES sys_core_menu (SEQ_DB) ${fatherKey}`,
    );
  return scratch.db;
}

const file = exampleInstallFile();

/** The SEQ_DB of the installer's menu row `key` (as its ledger records it). */
async function menuSeqDb(db: Database, key: string): Promise<number> {
  const [row] = await db.query<{ ROW_SEQ_DB: number }>(
    'SELECT ROW_SEQ_DB FROM task_association_ledger WHERE ENTRY_KEY = ?',
    [`menu:${key}`],
  );
  if (row === undefined) throw new Error(`no ledger entry menu:${key}`);
  return Number(row.ROW_SEQ_DB);
}

async function addHostMenu(db: Database, father: number): Promise<void> {
  await db.execute(
    "INSERT INTO sys_core_menu (EMPRESA, FILIAL, LOCAL, DESCRICAO, TYPE, FATHER, URL) VALUES (1, 1, 1, 'Host report', 'url', ?, '/host/report')",
    [father],
  );
}

const hostMenu = (db: Database) =>
  db.query("SELECT DESCRICAO, FATHER FROM sys_core_menu WHERE DESCRICAO = 'Host report'");

describe('uninstall keeps a row of ours that a host row refers to', () => {
  for (const [what, fatherKey] of [
    ['ON DELETE CASCADE on FATHER', 'ON DELETE CASCADE'],
    ['ON DELETE SET NULL on FATHER', 'ON DELETE SET NULL'],
    ['no foreign key on FATHER', undefined],
  ] as const) {
    it(`a host menu under one of ours (${what}): ours stays with its entry, the others go, a later uninstall removes it`, async () => {
      const db = await host(fatherKey);
      await applyInstallation(db, file, {});
      const parent = await menuSeqDb(db, 'activities');
      await addHostMenu(db, parent);

      for (const force of [false, true]) {
        const result = await uninstallInstallation(db, file, { force });
        expect(result.findings).toContainEqual({
          level: 'info',
          code: 'ROW_REFERENCED',
          path: `sys_core_menu.SEQ_DB=${parent}`,
          message: `menu:activities (sys_core_menu SEQ_DB ${parent}) is no longer needed, but 1 row(s) of sys_core_menu refer to it (${fatherKey === undefined ? 'FATHER' : 'foreign key fk_menu_father'}) and stay: kept, with its ledger entry, since deleting it would delete, change or orphan them; point them elsewhere or remove them, then run again to remove it`,
        });
        expect(await hostMenu(db)).toEqual([{ DESCRICAO: 'Host report', FATHER: parent }]);
        // Our other menus went; ours under the host's stays, and so does the ledger recording it.
        expect(
          await db.query<{ SEQ_DB: number }>(
            "SELECT SEQ_DB FROM sys_core_menu WHERE DESCRICAO <> 'Host report'",
          ),
        ).toEqual([{ SEQ_DB: parent }]);
        expect(
          await db.query('SELECT ENTRY_KEY FROM task_association_ledger WHERE ROW_SEQ_DB IS NOT NULL'),
        ).toEqual([{ ENTRY_KEY: 'menu:activities' }]);
      }

      await db.execute("DELETE FROM sys_core_menu WHERE DESCRICAO = 'Host report'");
      const rest = await uninstallInstallation(db, file, {});
      expect(rest.findings).toEqual([]);
      expect(await countRows(db, 'sys_core_menu')).toBe(0);
      expect(await db.query("SHOW TABLES LIKE 'task_association_ledger'")).toEqual([]);
    });
  }

  it('a row of a host table whose foreign key points at one of our menus: kept, the table and count named', async () => {
    const db = await host();
    await applyInstallation(db, file, {});
    const menu = await menuSeqDb(db, 'taskSheetReport');
    await db.execute(
      'CREATE TABLE host_favorite (ID int PRIMARY KEY, MENU_SEQ_DB bigint unsigned, CONSTRAINT fk_favorite_menu FOREIGN KEY (MENU_SEQ_DB) REFERENCES sys_core_menu (SEQ_DB) ON DELETE CASCADE)',
    );
    await db.execute('INSERT INTO host_favorite VALUES (1, ?), (2, ?)', [menu, menu]);
    const result = await uninstallInstallation(db, file, {});
    expect(result.findings).toContainEqual(
      expect.objectContaining({
        code: 'ROW_REFERENCED',
        path: `sys_core_menu.SEQ_DB=${menu}`,
        message: expect.stringContaining(
          'but 2 row(s) of host_favorite refer to it (foreign key fk_favorite_menu) and stay',
        ),
      }),
    );
    expect(await countRows(db, 'host_favorite')).toBe(2);
    expect(await countRows(db, 'sys_core_menu')).toBe(1);
  });

  it('deletes a menu of ours placed under another of ours first, so a foreign key without CASCADE lets both go', async () => {
    const db = await host('ON DELETE RESTRICT');
    await applyInstallation(db, file, {});
    const parent = await menuSeqDb(db, 'taskSheetWithMetrics');
    const under = { ...file.menus, activities: { ...file.menus.activities, father: parent } };
    await applyInstallation(db, exampleInstallFile({ menus: under }), {});
    const result = await uninstallInstallation(db, file, {});
    expect(result.findings).toEqual([]);
    const deletes = result.changes.filter((change) => change.kind === 'delete').map((change) => change.key);
    expect(deletes.indexOf('menu:activities')).toBeLessThan(deletes.indexOf('menu:taskSheetWithMetrics'));
    expect(await countRows(db, 'sys_core_menu')).toBe(0);
  });
});

describe('a host menu put under one of ours while the uninstall runs', () => {
  it('is seen by the uninstall, which waits for it: ours is kept, the host’s never deleted by the cascade', async () => {
    const db = await host('ON DELETE CASCADE');
    await applyInstallation(db, file, {});
    const parent = await menuSeqDb(db, 'activities');
    const before = await countRows(db, 'sys_core_menu');
    // The host's own transaction puts a menu under ours and has not committed yet: its foreign key
    // holds a lock on our row.
    const other = await mysql.createConnection(scratch?.url ?? '');
    // Its own connection: the uninstall may hold every connection of the pool while it waits.
    const watcher = await mysql.createConnection(scratch?.url ?? '');
    try {
      await other.query('START TRANSACTION');
      await other.query(
        "INSERT INTO sys_core_menu (EMPRESA, FILIAL, LOCAL, DESCRICAO, TYPE, FATHER, URL) VALUES (1, 1, 1, 'Host report', 'url', ?, '/host/report')",
        [parent],
      );
      const uninstall = uninstallInstallation(db, file, {});
      // The uninstall waits for the host's transaction: its statement on the menu table that needs
      // the lock (the locking read of our rows; a DELETE, had it planned one without reading them).
      await expect
        .poll(
          async () => {
            const [rows] = await watcher.query(
              `SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST
                WHERE DB = DATABASE() AND COMMAND = 'Query' AND ID <> CONNECTION_ID()
                  AND (INFO LIKE 'SELECT * FROM \`sys_core_menu\`%FOR UPDATE' OR INFO LIKE 'DELETE FROM \`sys_core_menu\`%')`,
            );
            return Number((rows as { n: number }[])[0]?.n);
          },
          { timeout: 15_000, interval: 50 },
        )
        .toBe(1);
      await other.query('COMMIT');
      // Planned without it, the rows read again in the writing transaction have it: nothing written.
      await expect(uninstall).rejects.toMatchObject({ code: 'PLAN_CHANGED' });
    } finally {
      await other.end();
      await watcher.end();
    }
    expect(await hostMenu(db)).toEqual([{ DESCRICAO: 'Host report', FATHER: parent }]);
    expect(await countRows(db, 'sys_core_menu')).toBe(before + 1);
    // Run again: ours under the host's is kept, the others go.
    const again = await uninstallInstallation(db, file, {});
    expect(again.findings).toContainEqual(
      expect.objectContaining({ code: 'ROW_REFERENCED', path: `sys_core_menu.SEQ_DB=${parent}` }),
    );
    expect(await hostMenu(db)).toEqual([{ DESCRICAO: 'Host report', FATHER: parent }]);
  });
});

describe('apply keeps a menu it no longer needs while a host menu is under it', () => {
  it('withMetrics switched: the former task sheet menu stays for the host menu under it', async () => {
    const db = await host('ON DELETE CASCADE');
    await applyInstallation(db, file, {});
    const former = await menuSeqDb(db, 'taskSheetWithMetrics');
    await addHostMenu(db, former);
    const switched = exampleInstallFile({
      menus: { ...file.menus, taskSheet: { ...file.menus.taskSheet, withMetrics: false } },
    });
    const result = await applyInstallation(db, switched, {});
    expect(result.changes.filter((change) => change.kind === 'delete')).toEqual([]);
    expect(result.findings).toContainEqual(
      expect.objectContaining({ code: 'ROW_REFERENCED', path: `sys_core_menu.SEQ_DB=${former}` }),
    );
    expect(await hostMenu(db)).toEqual([{ DESCRICAO: 'Host report', FATHER: former }]);
    expect(await countRows(db, 'sys_core_menu', `SEQ_DB = ${former}`)).toBe(1);
  });
});
