import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { applyInstallation } from '../../src/installer/installer.js';
import { uninstallInstallation } from '../../src/installer/uninstall.js';
import { verifyInstallation } from '../../src/installer/verify.js';
import type { SqlExecutor } from '../../src/store/driver.js';
import { installerLockName } from '../../src/store/lock.js';
import { openDatabase } from '../../src/store/mysql.js';
import type { ScratchDatabase } from '../../src/store/scratch.js';
import { LEDGER_DDL } from '../../src/sync/ledger.js';
import { captureIo } from '../support/cli.js';
import { freshDatabase, useScratchDatabase } from '../support/database.js';
import { countRows, databaseState, EXAMPLE_INSTALL_FILE, exampleInstallFile, recording } from './support.js';

const scratch = useScratchDatabase('installer_safety', { hostSchema: true });
const file = exampleInstallFile();
const RUN_CLI = fileURLToPath(new URL('../support/run-cli.ts', import.meta.url));

// Slower than 100 ms on purpose: InnoDB refreshes information_schema.INNODB_TRX only when nobody has
// read it for 100 ms, so faster polling would keep reading the same stale snapshot forever.
async function until(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 250));
}

/**
 * Inserts a ledger entry for scope 1/1/1 in a transaction left open, so an installer that writes the
 * same entry blocks right there; `release()` rolls it back.
 */
async function holdLedgerEntry(db: ScratchDatabase['db'], entryKey: string) {
  const connection = await db.pool.getConnection();
  await connection.beginTransaction();
  await connection.query(
    "INSERT INTO task_association_ledger (EMPRESA, FILIAL, LOCAL, ENTRY_KEY, HOST_TABLE, INS_USUARIO_SEQ_DB) VALUES (1, 1, 1, ?, 'x', 1)",
    [entryKey],
  );
  return {
    async release() {
      await connection.rollback();
      connection.release();
    },
  };
}

/** `apply --yes` of the example in a child process, to be killed with SIGKILL or interrupted. */
function startApply(url: string, stdio: 'ignore' | 'pipe' = 'ignore') {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      RUN_CLI,
      'apply',
      '--install',
      fileURLToPath(EXAMPLE_INSTALL_FILE),
      '--database-url',
      url,
      '--yes',
    ],
    { stdio },
  );
  return { child, exited: new Promise((resolve) => child.on('exit', resolve)) };
}

/** Until the server has noticed the killed installer: its lock is free and its transaction gone. */
async function untilInstallerGone(db: SqlExecutor, name: string): Promise<void> {
  await until(async () => {
    const [free] = await db.query<{ free: number }>('SELECT IS_FREE_LOCK(?) AS free', [
      installerLockName(name),
    ]);
    const open = await db.query(
      `SELECT 1 FROM information_schema.INNODB_TRX t JOIN information_schema.PROCESSLIST p ON p.ID = t.trx_mysql_thread_id WHERE p.DB = ?`,
      [name],
    );
    return free?.free === 1 && open.length === 0;
  });
}

/** Threads of database `name` waiting in `state` (as information_schema.PROCESSLIST names it). */
async function waiting(db: SqlExecutor, name: string, state: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM information_schema.PROCESSLIST WHERE DB = ? AND STATE = ?', [
    name,
    state,
  ]);
  return rows.length > 0;
}

describe('one installer at a time', () => {
  it('refuses a second installer with a clear message while the lock is held, and writes nothing', async () => {
    const { db, url, name } = scratch();
    const holder = await openDatabase(url, { connectionLimit: 1 });
    try {
      expect(await holder.query('SELECT GET_LOCK(?, 0) AS got', [installerLockName(name)])).toEqual([
        { got: 1 },
      ]);
      const before = await databaseState(db);
      await expect(applyInstallation(db, file, {})).rejects.toMatchObject({ code: 'INSTALLER_LOCKED' });
      const io = captureIo();
      const code = await runCli(
        ['apply', '--install', fileURLToPath(EXAMPLE_INSTALL_FILE), '--database-url', url, '--yes'],
        io,
      );
      expect(code).toBe(1);
      expect(io.err()).toContain(`another installer is working on database "${name}"`);
      expect(await databaseState(db)).toEqual(before);
    } finally {
      // Released explicitly: the server may notice a closed connection only after the next test starts.
      await holder.query('SELECT RELEASE_LOCK(?)', [installerLockName(name)]);
      await holder.close();
    }
  });

  it('stops before writing when its lock was lost while the operator was asked', async () => {
    const { db, name } = scratch();
    const before = await databaseState(db);
    await expect(
      applyInstallation(db, file, {
        // The lock's connection is closed while the question waits (an idle timeout, a proxy).
        confirm: async () => {
          const [row] = await db.query<{ id: number | null }>('SELECT IS_USED_LOCK(?) AS id', [
            installerLockName(name),
          ]);
          await db.execute(`KILL CONNECTION ${Number(row?.id)}`);
          return true;
        },
      }),
    ).rejects.toMatchObject({
      code: 'INSTALLER_LOCK_LOST',
      message: expect.stringContaining('nothing more was written: run again'),
    });
    expect(await databaseState(db)).toEqual(before);
  });

  it('lets two installers started together end with one installation, never a duplicate', async () => {
    const { url } = scratch();
    const [a, b] = [await openDatabase(url), await openDatabase(url)];
    try {
      const results = await Promise.allSettled([
        applyInstallation(a, file, {}),
        applyInstallation(b, file, {}),
      ]);
      for (const result of results) {
        if (result.status === 'rejected') expect(result.reason).toMatchObject({ code: 'INSTALLER_LOCKED' });
      }
      expect(results.some((result) => result.status === 'fulfilled')).toBe(true);
      await applyInstallation(a, file, {});
      expect(await countRows(a, 'sys_core_menu')).toBe(3);
      expect(await countRows(a, 'sys_core_ds_tabela_campo')).toBe(1);
      expect(await countRows(a, 'sys_core_par_parametros')).toBe(5);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

// Each test starts a child installer (tsx startup): on a loaded machine that alone takes seconds.
describe('the lock during a run', () => {
  it('is made sure of before each schema change of apply and uninstall, and before the rows', async () => {
    const fresh = await freshDatabase('installer_steps', { hostSchema: true });
    onTestFinished(() => fresh.drop());
    const statements: { sql: string; params: readonly unknown[] }[] = [];
    const db = recording(fresh.db, statements);
    await applyInstallation(db, file, {});
    await uninstallInstallation(db, file, { force: true });
    const sent = statements.map((statement) => statement.sql);
    const checked = (index: number) => /IS_USED_LOCK/.test(sent[index - 1] ?? '');
    const schemaChanges = sent.flatMap((sql, index) => (/^(CREATE|ALTER|DROP) /.test(sql) ? [index] : []));
    // The ledger, seven tables of the sync; then seven tables and the ledger dropped.
    expect(schemaChanges).toHaveLength(16);
    for (const index of schemaChanges) expect(checked(index), sent[index]).toBe(true);
    // Between the last check and the first row written (a menu), only reads: the rows decided again.
    const firstRow = sent.findIndex((sql) => sql.startsWith('INSERT INTO `sys_core_menu`'));
    const lastCheck = sent.slice(0, firstRow).findLastIndex((sql) => /IS_USED_LOCK/.test(sql));
    expect(lastCheck).toBeGreaterThan(schemaChanges[7] ?? Number.POSITIVE_INFINITY);
    expect(sent.slice(lastCheck + 1, firstRow).filter((sql) => !sql.startsWith('SELECT '))).toEqual([]);
  });

  it('is not taken by a dry run of uninstall, which reads only', async () => {
    const { db, url, name } = scratch();
    await applyInstallation(db, file, {});
    const holder = await openDatabase(url, { connectionLimit: 1 });
    try {
      // Another installer holds the lock: a dry run still answers.
      expect(await holder.query('SELECT GET_LOCK(?, 0) AS got', [installerLockName(name)])).toEqual([
        { got: 1 },
      ]);
      const before = await databaseState(db);
      const dry = await uninstallInstallation(db, file, { dryRun: true });
      expect(dry.applied).toBe(false);
      expect(dry.changes.length).toBeGreaterThan(0);
      expect(await databaseState(db)).toEqual(before);
    } finally {
      await holder.query('SELECT RELEASE_LOCK(?)', [installerLockName(name)]);
      await holder.close();
    }
  });
});

describe('an installer killed in the middle', { timeout: 120_000 }, () => {
  it('leaves no row behind, and the next apply completes without duplicates', async () => {
    const fresh = await freshDatabase('installer_kill', { hostSchema: true });
    onTestFinished(() => fresh.drop());
    const { db, url, name } = fresh;
    await db.execute(LEDGER_DDL.sql);
    // The test holds an uncommitted ledger entry for the installer's LAST row, so the installer
    // blocks inside its row transaction after writing every other row.
    const blocker = await holdLedgerEntry(db, 'parameter:TREE_VIEW');
    const { child, exited } = startApply(url);
    try {
      const waiting = () =>
        db.query<{ rows: number }>(
          `SELECT t.trx_rows_modified AS \`rows\` FROM information_schema.INNODB_TRX t
             JOIN information_schema.PROCESSLIST p ON p.ID = t.trx_mysql_thread_id
            WHERE p.DB = ? AND t.trx_state = 'LOCK WAIT'`,
          [name],
        );
      await until(async () => (await waiting()).length > 0);
      const [stuck] = await waiting();
      // Menus, link field and four overrides, each with its ledger entry, are written but not committed.
      expect(Number(stuck?.rows)).toBeGreaterThanOrEqual(16);
      child.kill('SIGKILL');
      expect(await exited).toBe(null);
    } finally {
      await blocker.release();
    }
    await untilInstallerGone(db, name);
    expect(await countRows(db, 'sys_core_menu')).toBe(0);
    expect(await countRows(db, 'sys_core_par_parametros')).toBe(0);
    // Only the tables it created before the row transaction are recorded, so uninstall can drop them.
    expect(await countRows(db, 'task_association_ledger')).toBe(4);
    expect(await countRows(db, 'task_association_ledger', "ENTRY_KEY LIKE 'table:%'")).toBe(4);

    await applyInstallation(db, file, {});
    expect(await countRows(db, 'sys_core_menu')).toBe(3);
    expect(await countRows(db, 'sys_core_ds_tabela_campo')).toBe(1);
    expect(await countRows(db, 'sys_core_par_parametros')).toBe(5);
    // 9 rows, 4 tables created, 4 tables used.
    expect(await countRows(db, 'task_association_ledger')).toBe(17);
    expect((await applyInstallation(db, file, {})).changes).toEqual([]);
  });

  it('interrupted by Ctrl-C in its row transaction: it stops at once (exit 130), writes no row, and the next apply completes', async () => {
    const fresh = await freshDatabase('installer_sigint', { hostSchema: true });
    onTestFinished(() => fresh.drop());
    const { db, url, name } = fresh;
    await db.execute(LEDGER_DDL.sql);
    // The installer's last row waits on the test's uncommitted entry, its other rows written.
    const blocker = await holdLedgerEntry(db, 'parameter:TREE_VIEW');
    const { child, exited } = startApply(url, 'pipe');
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    try {
      await until(
        async () =>
          (
            await db.query(
              `SELECT 1 FROM information_schema.INNODB_TRX t JOIN information_schema.PROCESSLIST p ON p.ID = t.trx_mysql_thread_id
              WHERE p.DB = ? AND t.trx_state = 'LOCK WAIT'`,
              [name],
            )
          ).length > 0,
      );
      const sent = Date.now();
      child.kill('SIGINT');
      expect(await exited).toBe(130);
      // At once, not after the statement's bound ($DATABASE_TIMEOUT, 5 s).
      expect(Date.now() - sent).toBeLessThan(2_000);
      expect(stderr).toContain('task-association apply: interrupted (SIGINT): stopped before it finished');
    } finally {
      await blocker.release();
    }
    await untilInstallerGone(db, name);
    expect(await countRows(db, 'sys_core_menu')).toBe(0);
    expect(await countRows(db, 'sys_core_par_parametros')).toBe(0);
    await applyInstallation(db, file, {});
    expect(await countRows(db, 'sys_core_menu')).toBe(3);
    expect((await verifyInstallation(db, file)).problems).toEqual([]);
  });

  it('killed after recording the tables it creates and before the DDL: the next apply completes', async () => {
    const fresh = await freshDatabase('installer_kill_ddl', { hostSchema: true });
    onTestFinished(() => fresh.drop());
    const { db, url, name } = fresh;
    await db.execute(LEDGER_DDL.sql);
    // An uncommitted entry for the LAST table stops the installer after it recorded the first three.
    const blocker = await holdLedgerEntry(db, 'table:OPER_OPER_GRUPO');
    const { child, exited } = startApply(url);
    try {
      await until(() => waiting(db, name, 'Update'));
      child.kill('SIGKILL');
      expect(await exited).toBe(null);
    } finally {
      await blocker.release();
    }
    await untilInstallerGone(db, name);
    // The blocked entry may still be written once the blocker lets go (the server notices the dead
    // client only later), so three or four tables are recorded; none of them was created.
    expect([3, 4]).toContain(await countRows(db, 'task_association_ledger', "ENTRY_KEY LIKE 'table:%'"));
    expect(await db.query("SHOW TABLES LIKE 'MO_%'")).toEqual([]);

    await applyInstallation(db, file, {});
    expect(await countRows(db, 'sys_core_menu')).toBe(3);
    expect(await countRows(db, 'task_association_ledger')).toBe(17);
    expect((await verifyInstallation(db, file)).problems).toEqual([]);
    expect((await applyInstallation(db, file, {})).changes).toEqual([]);
  });

  it('killed while its DDL waits for a metadata lock: the next apply completes', async () => {
    const fresh = await freshDatabase('installer_kill_mdl', { hostSchema: true });
    onTestFinished(() => fresh.drop());
    const { db, url, name } = fresh;
    await applyInstallation(db, file, {});
    // Drift the schema sync repairs: one table gone (CREATE), one column gone (ALTER).
    await db.execute('DROP TABLE MO_OPER_GRUPO_METRICA');
    await db.execute('ALTER TABLE MO_OPER DROP COLUMN CODIGO');
    // A transaction that read MO_OPER holds a metadata lock on it until it ends: the ALTER waits.
    const reader = await db.pool.getConnection();
    await reader.beginTransaction();
    await reader.query('SELECT * FROM MO_OPER LIMIT 1');
    const { child, exited } = startApply(url);
    try {
      await until(() => waiting(db, name, 'Waiting for table metadata lock'));
      child.kill('SIGKILL');
      expect(await exited).toBe(null);
    } finally {
      await reader.rollback();
      reader.release();
    }
    await untilInstallerGone(db, name);

    await applyInstallation(db, file, {});
    expect(await countRows(db, 'sys_core_menu')).toBe(3);
    expect(await countRows(db, 'sys_core_par_parametros')).toBe(5);
    expect(await countRows(db, 'task_association_ledger')).toBe(17);
    expect((await verifyInstallation(db, file)).problems).toEqual([]);
    expect((await applyInstallation(db, file, {})).changes).toEqual([]);
  });
});
