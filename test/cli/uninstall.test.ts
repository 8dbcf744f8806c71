import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { countRows, databaseState, EXAMPLE_INSTALL_FILE } from '../installer/support.js';
import { captureIo } from '../support/cli.js';
import { useScratchDatabase } from '../support/database.js';

const scratch = useScratchDatabase('cli_uninstall', { hostSchema: true });
const INSTALL = fileURLToPath(EXAMPLE_INSTALL_FILE);

describe('task-association uninstall', () => {
  it('needs --yes unattended, then removes the installation and prints what it removed', async () => {
    const { db, url } = scratch();
    const pristine = await databaseState(db);
    expect(await runCli(['apply', '--install', INSTALL, '--database-url', url, '--yes'], captureIo())).toBe(
      0,
    );

    const refused = captureIo();
    expect(await runCli(['uninstall', '--install', INSTALL, '--database-url', url], refused)).toBe(2);
    expect(refused.err()).toContain('add --yes to run unattended');
    expect(await countRows(db, 'sys_core_menu')).toBe(3);

    // --dry-run needs no --yes: it lists what would be removed and changes nothing.
    const installed = await databaseState(db);
    const dry = captureIo();
    expect(
      await runCli(['uninstall', '--install', INSTALL, '--database-url', url, '--dry-run', '--json'], dry),
    ).toBe(0);
    expect(await databaseState(db)).toEqual(installed);
    expect(dry.err()).toContain('dry run: nothing was changed');
    expect(dry.err()).toContain('drop-table');

    const io = captureIo();
    expect(
      await runCli(['uninstall', '--install', INSTALL, '--database-url', url, '--yes', '--json'], io),
    ).toBe(0);
    const { changes } = JSON.parse(io.out());
    // The dry run listed exactly what the real run then did.
    expect(JSON.parse(dry.out()).changes).toEqual(changes);
    expect(changes.map((change: { kind: string }) => change.kind)).toEqual([
      ...Array(9).fill('delete'),
      ...Array(4).fill('forget'),
      // The four tables, the three shared ones (no installation is left), the ledger.
      ...Array(8).fill('drop-table'),
    ]);
    expect(await databaseState(db)).toEqual(pristine);

    const again = captureIo();
    expect(
      await runCli(['uninstall', '--install', INSTALL, '--database-url', url, '--yes', '--json'], again),
    ).toBe(0);
    expect(JSON.parse(again.out())).toEqual({ changes: [], kept: [] });
    expect(again.err()).toContain('nothing to remove');
  });

  it('--json carries what it kept and why, and still exits 0: what is kept is kept on purpose', async () => {
    const { db, url } = scratch();
    const install = ['--install', INSTALL, '--database-url', url];
    expect(await runCli(['apply', ...install, '--yes'], captureIo())).toBe(0);
    // A host menu placed under ours, and a host table with a foreign key to our MO_OPER.
    const [activities] = await db.query<{ SEQ_DB: number }>(
      "SELECT SEQ_DB FROM sys_core_menu WHERE DESCRICAO = 'Atividades'",
    );
    await db.execute(
      "INSERT INTO sys_core_menu (EMPRESA, FILIAL, LOCAL, DESCRICAO, TYPE, FATHER, URL) VALUES (1, 1, 1, 'Host report', 'url', ?, '/host/report')",
      [activities?.SEQ_DB],
    );
    await db.execute(
      'CREATE TABLE host_task_note (ID int PRIMARY KEY, OPER_SEQ_DB bigint unsigned, CONSTRAINT fk_note_oper FOREIGN KEY (OPER_SEQ_DB) REFERENCES MO_OPER (SEQ_DB))',
    );
    try {
      const dry = captureIo();
      expect(await runCli(['uninstall', ...install, '--dry-run', '--json'], dry)).toBe(0);
      const first = captureIo();
      expect(await runCli(['uninstall', ...install, '--yes', '--force', '--json'], first)).toBe(0);
      const document = JSON.parse(first.out());
      expect(document.kept).toEqual([
        {
          code: 'ROW_REFERENCED',
          path: `sys_core_menu.SEQ_DB=${activities?.SEQ_DB}`,
          message: expect.stringContaining('1 row(s) of sys_core_menu refer to it'),
        },
        { code: 'TABLE_REFERENCED', path: 'MO_OPER', message: expect.stringContaining('fk_note_oper') },
      ]);
      expect(JSON.parse(dry.out()).kept).toEqual(document.kept);
      expect(first.err()).toContain('kept 2 thing(s) of the installation');
      // Run again, nothing more to remove: still saying what stays, and why.
      const again = captureIo();
      expect(await runCli(['uninstall', ...install, '--yes', '--force', '--json'], again)).toBe(0);
      expect(JSON.parse(again.out())).toEqual({ changes: [], kept: document.kept });
    } finally {
      await db.execute("DELETE FROM sys_core_menu WHERE DESCRICAO = 'Host report'");
      await db.execute('DROP TABLE host_task_note');
    }
    expect(await runCli(['uninstall', ...install, '--yes', '--force'], captureIo())).toBe(0);
  });
});

describe('tables db sync made before apply', () => {
  it('are kept by uninstall, which says so in text and --json, with the DROP to run', async () => {
    const { db, url } = scratch();
    const pristine = await databaseState(db);
    const install = ['--install', INSTALL, '--database-url', url];
    const names = ['MO_OPER_GRUPO_METRICA', 'MO_OPER_MO_OPER_GRUPO', 'MO_OPER', 'MO_OPER_GRUPO'];
    const tableNames = ['OPER_GRUPO_METRICA', 'OPER_OPER_GRUPO', 'OPER', 'OPER_GRUPO'].flatMap(
      (logical, index) => ['--table-name', `${logical}=${names[index]}`],
    );
    // The guide's order: db sync, then apply, then (later) uninstall.
    expect(await runCli(['db', 'sync', '--database-url', url, ...tableNames], captureIo())).toBe(0);
    expect(await runCli(['apply', ...install, '--yes'], captureIo())).toBe(0);
    const dry = captureIo();
    expect(await runCli(['uninstall', ...install, '--dry-run'], dry)).toBe(0);
    expect(dry.err()).toContain(
      'note: table MO_OPER (OPER) was there before apply (made by db sync, drizzle-kit push or by hand), so apply never recorded creating it: kept, with its rows; drop it yourself once you no longer need it (DROP TABLE `MO_OPER`)',
    );
    const io = captureIo();
    expect(await runCli(['uninstall', ...install, '--yes', '--json'], io)).toBe(0);
    expect(JSON.parse(io.out()).kept).toEqual(
      names.map((table) => ({ code: 'TABLE_NOT_CREATED', path: table, message: expect.any(String) })),
    );
    expect(io.err()).toContain('kept 4 thing(s) of the installation');
    // Dropped by hand in the order given, the database is as it was.
    for (const table of names) await db.execute(`DROP TABLE \`${table}\``);
    expect(await databaseState(db)).toEqual(pristine);
  });
});

describe('a connection lost in the middle of a run', () => {
  it('is one line and, with --json, one document on stdout: no stack trace', async () => {
    const { db, url } = scratch();
    expect(await runCli(['apply', '--install', INSTALL, '--database-url', url, '--yes'], captureIo())).toBe(
      0,
    );
    // A host transaction holds the menu rows: uninstall waits on them, and its connection is killed.
    const holder = await db.pool.getConnection();
    try {
      await holder.query('START TRANSACTION');
      await holder.query('SELECT * FROM sys_core_menu FOR UPDATE');
      const io = captureIo();
      const run = runCli(['uninstall', '--install', INSTALL, '--database-url', url, '--yes', '--json'], io);
      let waiting: number | undefined;
      for (let tries = 0; waiting === undefined && tries < 200; tries++) {
        const [row] = await db.query<{ ID: number }>(
          "SELECT ID FROM information_schema.PROCESSLIST WHERE DB = DATABASE() AND INFO LIKE '%sys_core_menu%' AND ID <> ? AND COMMAND = 'Query' AND ID <> CONNECTION_ID()",
          [holder.threadId],
        );
        if (row === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
        else waiting = Number(row.ID);
      }
      expect(waiting).toBeDefined();
      await db.execute(`KILL CONNECTION ${Number(waiting)}`);
      expect(await run).toBe(1);
      expect(JSON.parse(io.out())).toEqual({
        error: {
          code: 'DATABASE_CONNECTION_LOST',
          message: expect.stringMatching(/^the connection to the database was lost/),
        },
      });
      expect(io.err()).toMatch(/^task-association uninstall: the connection to the database was lost/m);
      expect(io.err()).not.toMatch(/\n\s+at /);
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
    // Nothing of the interrupted transaction stayed: the installation is whole, and uninstall ends it.
    expect(await countRows(db, 'sys_core_menu')).toBe(3);
    expect(
      await runCli(['uninstall', '--install', INSTALL, '--database-url', url, '--yes'], captureIo()),
    ).toBe(0);
  });
});
