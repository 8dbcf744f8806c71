import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { applyInstallation, planInstallation } from '../../src/installer/installer.js';
import { formatSharedTable, sharedTableStatusOf, summarizeLedger } from '../../src/installer/status.js';
import { uninstallInstallation } from '../../src/installer/uninstall.js';
import { PACKAGE_VERSION } from '../../src/model/version.js';
import { LEDGER_TABLE } from '../../src/store/ledger.js';
import { EXAMPLE_INSTALL_FILE, plainInstallFile } from '../installer/support.js';
import { captureIo } from '../support/cli.js';
import { freshDatabase } from '../support/database.js';

const INSTALL = fileURLToPath(EXAMPLE_INSTALL_FILE);
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

async function status(url: string) {
  const io = captureIo();
  const code = await runCli(['status', '--database-url', url, '--json'], io);
  return { code, document: JSON.parse(io.out()), err: io.err() };
}

describe('task-association status', () => {
  it('lists the installations of the ledger: scope, tables, rows, when and by which version', async () => {
    const scratch = await freshDatabase('cli_status', { hostSchema: true });
    try {
      expect(await status(scratch.url)).toEqual({
        code: 0,
        document: {
          installations: [],
          sharedTables: [
            { table: 'task_association_history', exists: false, rows: 0, rowsByScope: [] },
            { table: 'task_association_request', exists: false, rows: 0, rowsByScope: [] },
            { table: 'task_association_lock', exists: false, rows: 0, rowsByScope: [] },
          ],
        },
        err: [
          `no installation in ${scratch.name} (no entries in ${LEDGER_TABLE})`,
          'shared table task_association_history: missing (db sync and apply create it; saving metrics needs it)',
          'shared table task_association_request: missing (db sync and apply create it; saving metrics needs it)',
          'shared table task_association_lock: missing (db sync and apply create it; saving metrics needs it)',
          '',
        ].join('\n'),
      });
      expect(
        await runCli(['apply', '--install', INSTALL, '--database-url', scratch.url, '--yes'], captureIo()),
      ).toBe(0);
      await applyInstallation(scratch.db, plainInstallFile({ EMPRESA: 2, FILIAL: 1, LOCAL: 1 }), {});
      for (const empresa of [2, 1, 2])
        await scratch.db.execute(
          `INSERT INTO task_association_history (EMPRESA, FILIAL, LOCAL, METRIC_TABLE, ROW_SEQ_DB, FOLHA_TAREFA_SEQ_DB, OPER_SEQ_DB, FIELD, ACTION, NEW_VALUE, USUARIO_SEQ_DB, SOURCE) VALUES (${empresa}, 1, 1, 'MO_OPER_GRUPO_METRICA', 1, 1, 1, 'METRICA1', 'insert', '1', 7, 'screen')`,
        );
      const { code, document, err } = await status(scratch.url);
      expect(code).toBe(0);
      expect(document.installations).toEqual([
        {
          scope: { EMPRESA: 1, FILIAL: 1, LOCAL: 1 },
          tables: {
            OPER: 'MO_OPER',
            OPER_GRUPO: 'MO_OPER_GRUPO',
            OPER_GRUPO_METRICA: 'MO_OPER_GRUPO_METRICA',
            OPER_OPER_GRUPO: 'MO_OPER_MO_OPER_GRUPO',
          },
          createdTables: ['MO_OPER', 'MO_OPER_GRUPO', 'MO_OPER_GRUPO_METRICA', 'MO_OPER_MO_OPER_GRUPO'],
          rows: 9,
          installedAt: expect.stringMatching(ISO),
          changedAt: expect.stringMatching(ISO),
          version: PACKAGE_VERSION,
        },
        {
          scope: { EMPRESA: 2, FILIAL: 1, LOCAL: 1 },
          tables: {
            OPER: 'app_oper',
            OPER_GRUPO: 'app_oper_grupo',
            OPER_GRUPO_METRICA: 'app_oper_grupo_metrica',
            OPER_OPER_GRUPO: 'app_oper_n_oper_grupo',
          },
          createdTables: expect.any(Array),
          rows: 4,
          installedAt: expect.stringMatching(ISO),
          changedAt: expect.stringMatching(ISO),
          version: PACKAGE_VERSION,
        },
      ]);
      expect(err).toContain(`scope 1/1/1: OPER=MO_OPER (created), OPER_GRUPO=MO_OPER_GRUPO (created)`);
      expect(err).toContain(`by version ${PACKAGE_VERSION}`);
      // The shared tables, after the installations: the history's rows per scope.
      expect(document.sharedTables).toEqual([
        {
          table: 'task_association_history',
          exists: true,
          rows: 3,
          rowsByScope: [
            { scope: { EMPRESA: 1, FILIAL: 1, LOCAL: 1 }, rows: 1 },
            { scope: { EMPRESA: 2, FILIAL: 1, LOCAL: 1 }, rows: 2 },
          ],
        },
        { table: 'task_association_request', exists: true, rows: 0, rowsByScope: [] },
        { table: 'task_association_lock', exists: true, rows: 0, rowsByScope: [] },
      ]);
      expect(err).toContain('shared table task_association_history: 3 row(s) (1/1/1: 1, 2/1/1: 2)\n');
      expect(err).toContain('shared table task_association_request: 0 row(s)\n');
    } finally {
      await scratch.drop();
    }
  });

  it('reads a ledger written before versions were recorded, and apply upgrades it first', async () => {
    const scratch = await freshDatabase('cli_status_old', { hostSchema: true });
    try {
      // The ledger as an older version created it: no UPD_DH, no PACKAGE_VERSION.
      await scratch.db.execute(`CREATE TABLE ${LEDGER_TABLE} (
        SEQ_DB bigint unsigned NOT NULL AUTO_INCREMENT, EMPRESA int NOT NULL, FILIAL int NOT NULL, LOCAL int NOT NULL,
        ENTRY_KEY varchar(100) NOT NULL, HOST_TABLE varchar(64) NOT NULL, ROW_SEQ_DB bigint unsigned DEFAULT NULL,
        INS_USUARIO_SEQ_DB bigint unsigned NOT NULL, INS_DH timestamp NULL DEFAULT CURRENT_TIMESTAMP,
        PRIMARY KEY (SEQ_DB), UNIQUE KEY task_association_ledger_entry (EMPRESA, FILIAL, LOCAL, ENTRY_KEY))`);
      await scratch.db.execute(
        `INSERT INTO ${LEDGER_TABLE} (EMPRESA, FILIAL, LOCAL, ENTRY_KEY, HOST_TABLE, INS_USUARIO_SEQ_DB) VALUES (3, 1, 1, 'uses:OPER', 'app_oper', 1)`,
      );
      const old = await status(scratch.url);
      expect(old.document.installations).toMatchObject([
        { scope: { EMPRESA: 3 }, tables: { OPER: 'app_oper' }, version: null },
      ]);
      const file = plainInstallFile({ EMPRESA: 1, FILIAL: 1, LOCAL: 1 });
      const plan = await planInstallation(scratch.db, file, {});
      expect(plan.changes.filter((change) => change.key === 'ledger').map((change) => change.sql)).toEqual([
        expect.stringContaining('ADD COLUMN `UPD_DH` timestamp NULL'),
        expect.stringContaining('ADD COLUMN `PACKAGE_VERSION` varchar(40) NULL'),
      ]);
      await applyInstallation(scratch.db, file, {});
      const upgraded = await status(scratch.url);
      expect(upgraded.document.installations.map((i: { version: string | null }) => i.version)).toEqual([
        PACKAGE_VERSION,
        null,
      ]);
    } finally {
      await scratch.drop();
    }
  });

  // Found by a review: it said "no tables recorded" while the ledger still recorded the table kept.
  it('lists the tables the ledger still records after an uninstall kept one (a host foreign key points at it)', async () => {
    const scratch = await freshDatabase('cli_status_kept', { hostSchema: true });
    try {
      const file = plainInstallFile({ EMPRESA: 1, FILIAL: 1, LOCAL: 1 });
      await applyInstallation(scratch.db, file, {});
      await scratch.db.execute(
        'CREATE TABLE host_task_note (ID int PRIMARY KEY, OPER_SEQ_DB bigint unsigned, CONSTRAINT fk_note_oper FOREIGN KEY (OPER_SEQ_DB) REFERENCES app_oper (SEQ_DB))',
      );
      await uninstallInstallation(scratch.db, file, {});
      const { code, document, err } = await status(scratch.url);
      expect(code).toBe(0);
      expect(document.installations).toMatchObject([
        { scope: { EMPRESA: 1, FILIAL: 1, LOCAL: 1 }, tables: {}, createdTables: ['app_oper'], rows: 0 },
      ]);
      expect(err).toContain(
        'scope 1/1/1: no table in use; still recorded: app_oper (created; uninstall drops it once nothing refers to it); 0 host row(s);',
      );
      expect(err).not.toContain('no tables recorded');
    } finally {
      await scratch.drop();
    }
  });

  it('summarises ledger rows without a database: the latest change names the version', () => {
    const row = (key: string, inserted: string, changed: string | null, version: string | null) => ({
      EMPRESA: 1,
      FILIAL: 1,
      LOCAL: 1,
      ENTRY_KEY: key,
      HOST_TABLE: key.startsWith('menu:') ? 'sys_core_menu' : 'app_oper',
      ROW_SEQ_DB: key.startsWith('menu:') ? 5 : null,
      INS_DH: new Date(inserted),
      UPD_DH: changed === null ? null : new Date(changed),
      PACKAGE_VERSION: version,
    });
    expect(
      summarizeLedger([
        row('uses:OPER', '2026-01-01T00:00:00Z', null, '0.1.0'),
        row('menu:activities', '2026-01-02T00:00:00Z', '2026-03-01T00:00:00Z', '0.2.0'),
      ]),
    ).toEqual([
      {
        scope: { EMPRESA: 1, FILIAL: 1, LOCAL: 1 },
        tables: { OPER: 'app_oper' },
        createdTables: [],
        rows: 1,
        installedAt: '2026-01-01T00:00:00.000Z',
        changedAt: '2026-03-01T00:00:00.000Z',
        version: '0.2.0',
      },
    ]);
  });
});

describe('the shared tables in status, without a database', () => {
  it('sums the rows per scope, says when a table is missing, and when it cannot count by scope', () => {
    const history = sharedTableStatusOf('task_association_history', {
      byScope: [
        { EMPRESA: 1, FILIAL: 1, LOCAL: 1, n: '4' },
        { EMPRESA: 1, FILIAL: 2, LOCAL: 1, n: 1 },
      ],
    });
    expect(history).toEqual({
      table: 'task_association_history',
      exists: true,
      rows: 5,
      rowsByScope: [
        { scope: { EMPRESA: 1, FILIAL: 1, LOCAL: 1 }, rows: 4 },
        { scope: { EMPRESA: 1, FILIAL: 2, LOCAL: 1 }, rows: 1 },
      ],
    });
    expect(formatSharedTable(history)).toBe(
      'shared table task_association_history: 5 row(s) (1/1/1: 4, 1/2/1: 1)',
    );
    const missing = sharedTableStatusOf('task_association_request', undefined);
    expect(missing).toEqual({ table: 'task_association_request', exists: false, rows: 0, rowsByScope: [] });
    // A table changed by hand that lost a scope column: its total, and a word on what to run.
    const unscoped = sharedTableStatusOf('task_association_request', { total: { n: '2' } });
    expect(unscoped).toEqual({ table: 'task_association_request', exists: true, rows: 2, rowsByScope: null });
    expect(formatSharedTable(unscoped)).toBe(
      'shared table task_association_request: 2 row(s) (no scope columns to count them by: run verify)',
    );
  });

  it('counts a shared table that lost a scope column in all, on the real server', async () => {
    const scratch = await freshDatabase('cli_status_unscoped', { hostSchema: true });
    try {
      await runCli(['db', 'sync', '--database-url', scratch.url], captureIo());
      await scratch.db.execute(
        "INSERT INTO task_association_request (EMPRESA, FILIAL, LOCAL, REQUEST_ID, BODY_HASH, ANSWER, USUARIO_SEQ_DB) VALUES (1, 1, 1, 'r', 'h', '{}', 7)",
      );
      await scratch.db.execute('ALTER TABLE task_association_request DROP INDEX task_association_request_id');
      await scratch.db.execute('ALTER TABLE task_association_request DROP COLUMN LOCAL');
      expect((await status(scratch.url)).document.sharedTables).toEqual([
        { table: 'task_association_history', exists: true, rows: 0, rowsByScope: [] },
        { table: 'task_association_request', exists: true, rows: 1, rowsByScope: null },
        { table: 'task_association_lock', exists: true, rows: 0, rowsByScope: [] },
      ]);
    } finally {
      await scratch.drop();
    }
  });
});

describe('a connection lost while status reads', () => {
  it('is one line and one --json document, not a stack trace', async () => {
    const scratch = await freshDatabase('cli_status_lost', { hostSchema: true });
    const holder = await scratch.db.pool.getConnection();
    try {
      expect(
        await runCli(['apply', '--install', INSTALL, '--database-url', scratch.url, '--yes'], captureIo()),
      ).toBe(0);
      // The ledger is locked by another session: status waits on it, and its connection is killed.
      await holder.query(`LOCK TABLES ${LEDGER_TABLE} WRITE`);
      const io = captureIo();
      const run = runCli(['status', '--database-url', scratch.url, '--json'], io);
      let waiting: number | undefined;
      for (let tries = 0; waiting === undefined && tries < 200; tries++) {
        const [row] = await scratch.db.query<{ ID: number }>(
          `SELECT ID FROM information_schema.PROCESSLIST WHERE DB = DATABASE() AND INFO LIKE '%${LEDGER_TABLE}%' AND COMMAND = 'Query' AND ID <> ? AND ID <> CONNECTION_ID()`,
          [holder.threadId],
        );
        if (row === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
        else waiting = Number(row.ID);
      }
      expect(waiting).toBeDefined();
      await scratch.db.execute(`KILL CONNECTION ${Number(waiting)}`);
      expect(await run).toBe(1);
      expect(JSON.parse(io.out())).toEqual({
        error: {
          code: 'DATABASE_CONNECTION_LOST',
          message: expect.stringMatching(
            /^the connection to the database was lost .*: the command stopped there/,
          ),
        },
      });
      expect(io.err()).not.toMatch(/\n\s+at /);
    } finally {
      await holder.query('UNLOCK TABLES');
      holder.release();
      await scratch.drop();
    }
  });
});
