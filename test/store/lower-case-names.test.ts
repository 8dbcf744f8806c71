import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyInstallation, planInstallation } from '../../src/installer/installer.js';
import { installationTableNames } from '../../src/installer/state.js';
import { uninstallInstallation } from '../../src/installer/uninstall.js';
import { verifyInstallation } from '../../src/installer/verify.js';
import type { Database } from '../../src/store/driver.js';
import { openDatabase } from '../../src/store/mysql.js';
import { createScratchDatabase, type ScratchDatabase } from '../../src/store/scratch.js';
import { runSqlFile } from '../../src/store/script.js';
import { withDatabase } from '../../src/store/url.js';
import { planSchemaSync } from '../../src/sync/plan.js';
import { loadTaskTree, saveMetrics } from '../../src/tree.js';
import { exampleInstallFile, plainInstallFile } from '../installer/support.js';
import { HOST_SCHEMA_FILE } from '../support/database.js';
import { freePort } from '../support/ports.js';

// MySQL on Windows and macOS runs with lower_case_table_names set by default: table names are kept
// in lower case, so information_schema answers mo_oper where an installation wrote MO_OPER. Such a
// server is started here, a real MariaDB of this test's own (its own data folder, port and socket),
// and an installation with the MO_ names of the example install file goes through it end to end.

const run = promisify(execFile);
let server: ChildProcess | undefined;
let folder = '';
let scratch: ScratchDatabase | undefined;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'ta-lower-case-'));
  const data = join(folder, 'data');
  // Its temporary files go to a folder of its own: a server deletes the leftover `#sql` files it finds
  // in its tmpdir when it starts, and in a shared /tmp those are the running test server's, which then
  // fails its next temporary table (or crashes on it).
  await run(
    'mariadb-install-db',
    [
      '--no-defaults',
      `--datadir=${data}`,
      '--user=root',
      '--auth-root-authentication-method=normal',
      '--skip-test-db',
      '--lower-case-table-names=1',
    ],
    { env: { ...process.env, TMPDIR: folder } },
  );
  const port = await freePort();
  server = spawn(
    '/usr/sbin/mariadbd',
    [
      '--no-defaults',
      `--datadir=${data}`,
      `--tmpdir=${folder}`,
      '--user=root',
      `--port=${port}`,
      '--bind-address=127.0.0.1',
      `--socket=${join(folder, 'mariadb.sock')}`,
      `--pid-file=${join(folder, 'mariadb.pid')}`,
      '--lower-case-table-names=1',
      '--skip-log-bin',
      '--innodb-buffer-pool-size=32M',
      `--log-error=${join(folder, 'error.log')}`,
    ],
    { stdio: 'ignore' },
  );
  const url = `mysql://root@127.0.0.1:${port}/mysql`;
  for (let attempt = 0; ; attempt++) {
    try {
      const probe = await openDatabase(url, { connectionLimit: 1, timeoutMs: 1000 });
      await probe.close();
      break;
    } catch (error) {
      if (attempt >= 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  scratch = await createScratchDatabase(url, 'lower_case');
  await runSqlFile(scratch.url, HOST_SCHEMA_FILE);
}, 60_000);

afterAll(async () => {
  await scratch?.db.close();
  server?.kill('SIGTERM');
  if (server !== undefined && server.exitCode === null) await once(server, 'exit');
  await rm(folder, { recursive: true, force: true });
}, 30_000);

const db = (): Database => {
  if (scratch === undefined) throw new Error('the server did not start');
  return scratch.db;
};

describe('a server with lower_case_table_names=1', () => {
  const file = exampleInstallFile();
  const names = installationTableNames(file);

  it('keeps table names in lower case, as Windows and macOS servers do', async () => {
    expect(await db().query('SELECT @@lower_case_table_names AS lc')).toEqual([{ lc: 1 }]);
  });

  it('installs with MO_ names, then finds nothing left to do and nothing wrong', async () => {
    expect((await applyInstallation(db(), file, {})).applied).toBe(true);
    const tables = await db().query<{ name: string }>(
      'SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME LIKE ? ORDER BY 1',
      ['mo\\_%'],
    );
    expect(tables.map((table) => table.name)).toEqual(
      Object.values(names)
        .map((name) => name.toLowerCase())
        .sort(),
    );
    expect(await planSchemaSync(db(), names)).toEqual({
      statements: [],
      statementTables: [],
      differences: [],
    });
    expect((await planInstallation(db(), file, {})).changes).toEqual([]);
    expect(await verifyInstallation(db(), file)).toEqual({ ok: true, problems: [] });
  });

  it('saves and loads metrics through the MO_ names', async () => {
    const scope = file.scope;
    const live = { ...scope, ATIVO: 1, DELETED: 0, INS_USUARIO_SEQ_DB: 1 };
    const insert = async (table: string, row: Record<string, unknown>) => {
      const [next] = await db().query<{ id: number }>(
        `SELECT IFNULL(MAX(ID), 0) + 1 AS id FROM ${table} WHERE EMPRESA = ? AND FILIAL = ? AND LOCAL = ?`,
        [scope.EMPRESA, scope.FILIAL, scope.LOCAL],
      );
      const values = { ...live, ID: next?.id, ...row };
      const result = await db().execute(
        `INSERT INTO ${table} (${Object.keys(values).join(', ')}) VALUES (${Object.keys(values)
          .map(() => '?')
          .join(', ')})`,
        Object.values(values),
      );
      return result.insertId;
    };
    const group = await insert(names.OPER_GRUPO, { CODIGO: 'G' });
    const activity = await insert(names.OPER, { CODIGO: 'O', INDICE: '1.50' });
    await insert(names.OPER_OPER_GRUPO, { OPER_GRUPO_SEQ_DB: group, OPER_SEQ_DB: activity });
    const sheet = (
      await db().execute(
        'INSERT INTO app_folha_tarefa (EMPRESA, FILIAL, LOCAL, DELETED) VALUES (?, ?, ?, 0)',
        [scope.EMPRESA, scope.FILIAL, scope.LOCAL],
      )
    ).insertId;
    const entries = [{ activity, group, values: { METRICA1: '2.50' } }];
    expect(await saveMetrics(db(), { scope, user: 1, taskSheet: sheet, entries })).toMatchObject({
      inserted: 1,
      updated: 0,
    });
    const tree = await loadTaskTree(db(), { scope, taskSheet: sheet });
    const [root] = tree.roots;
    const task = root?.kind === 'branch' ? root.children[0] : undefined;
    expect(task?.kind === 'task' && task.metrics.METRICA1).toEqual({ value: '2.50', source: 'saved' });
  });

  it('uninstalls: a table a host foreign key refers to stays, then the four tables are gone', async () => {
    await db().execute(`DELETE FROM ${names.OPER_GRUPO_METRICA}`);
    await db().execute(`DELETE FROM ${names.OPER_OPER_GRUPO}`);
    await db().execute(`DELETE FROM ${names.OPER}`);
    await db().execute(`DELETE FROM ${names.OPER_GRUPO}`);
    // information_schema names the referenced table mo_oper: still the installation's MO_OPER.
    await db().execute(
      'CREATE TABLE host_task_note (ID int PRIMARY KEY, OPER_SEQ_DB bigint unsigned, CONSTRAINT fk_note_oper FOREIGN KEY (OPER_SEQ_DB) REFERENCES MO_OPER (SEQ_DB))',
    );
    const kept = await uninstallInstallation(db(), file, { force: true });
    expect(kept.findings).toContainEqual(
      expect.objectContaining({ code: 'TABLE_REFERENCED', path: names.OPER }),
    );
    expect(
      await db().query(
        'SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME LIKE ?',
        ['mo\\_%'],
      ),
    ).toEqual([{ name: names.OPER.toLowerCase() }]);
    await db().execute('DROP TABLE host_task_note');
    const result = await uninstallInstallation(db(), file);
    expect(result.applied).toBe(true);
    const left = await db().query(
      'SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME LIKE ?',
      ['mo\\_%'],
    );
    expect(left).toEqual([]);
  });

  it('keeps, even with --force, the tables another scope uses under lower-case names, and hands them over to it', async () => {
    const lower = Object.fromEntries(
      Object.entries(names).map(([logical, name]) => [logical, name.toLowerCase()]),
    );
    const second = { ...plainInstallFile({ EMPRESA: 2, FILIAL: 1, LOCAL: 1 }), tableNames: lower };
    expect((await applyInstallation(db(), file, {})).applied).toBe(true);
    expect((await applyInstallation(db(), second, {})).applied).toBe(true);
    await db().execute(
      "INSERT INTO mo_oper (EMPRESA, FILIAL, LOCAL, ID, INS_USUARIO_SEQ_DB, DESCRICAO) VALUES (2, 1, 1, 1, 1, 'scope 2 activity')",
    );
    const ours = () =>
      db().query<{ name: string }>(
        'SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME LIKE ? ORDER BY 1',
        ['mo\\_%'],
      );
    const four = Object.values(lower).sort();
    await uninstallInstallation(db(), file, { force: true });
    expect((await ours()).map((table) => table.name)).toEqual(four);
    expect(await db().query('SELECT DESCRICAO FROM mo_oper')).toEqual([{ DESCRICAO: 'scope 2 activity' }]);
    // Scope 2 now owns them under its own names, and takes them with it.
    await uninstallInstallation(db(), second, { force: true });
    expect(await ours()).toEqual([]);
  });

  it('holds one installer lock for the database however the URL spells its name', async () => {
    if (scratch === undefined) throw new Error('the server did not start');
    const shouting = await openDatabase(withDatabase(scratch.url, scratch.name.toUpperCase()), {
      connectionLimit: 3,
    });
    let answer: (yes: boolean) => void = () => undefined;
    let asked: () => void = () => undefined;
    const question = new Promise<void>((resolve) => (asked = resolve));
    try {
      // The first installer holds the lock while it waits for the operator's answer.
      const first = applyInstallation(db(), file, {
        confirm: () => {
          asked();
          return new Promise<boolean>((resolve) => (answer = resolve));
        },
      });
      await question;
      await expect(applyInstallation(shouting, file, {})).rejects.toMatchObject({ code: 'INSTALLER_LOCKED' });
      answer(false);
      expect((await first).applied).toBe(false);
    } finally {
      await shouting.close();
    }
  });
});
