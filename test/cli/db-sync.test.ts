import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { applyInstallation } from '../../src/installer/installer.js';
import { tableNames } from '../../src/model/table-names.js';
import { syncSchema } from '../../src/sync/sync.js';
import { exampleInstallFile } from '../installer/support.js';
import { captureIo } from '../support/cli.js';
import { useScratchDatabase } from '../support/database.js';
import { COMMON_COLUMNS_SQL } from '../sync/common-columns-sql.js';
import { snapshotHostTables } from '../sync/host-snapshot.js';

const scratch = useScratchDatabase('cli-db-sync', { hostSchema: true });

async function tableCount(): Promise<number> {
  const rows = await scratch().db.query<{ n: number }>(
    'SELECT COUNT(*) AS n FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()',
  );
  return Number(rows[0]?.n);
}

const MO = [
  '--table-name',
  'OPER=MO_OPER',
  '--table-name',
  'OPER_GRUPO=MO_OPER_GRUPO',
  '--table-name',
  'OPER_GRUPO_METRICA=MO_OPER_GRUPO_METRICA',
  '--table-name',
  'OPER_OPER_GRUPO=MO_OPER_MO_OPER_GRUPO',
];

describe('task-association db sync', () => {
  it('--dry-run --json lists the statements as one JSON document and changes nothing', async () => {
    const before = await tableCount();
    const io = captureIo();
    expect(
      await runCli(['db', 'sync', '--database-url', scratch().url, ...MO, '--dry-run', '--json'], io),
    ).toBe(0);
    const result = JSON.parse(io.out());
    expect(result.applied).toBe(false);
    // The four tables, then the two every installation of the database shares.
    expect(result.statements).toHaveLength(7);
    expect(result.statements[0]).toMatch(/^CREATE TABLE `MO_OPER` \(/);
    expect(result.statements.slice(4).map((sql: string) => sql.split(' (')[0])).toEqual([
      'CREATE TABLE `task_association_history`',
      'CREATE TABLE `task_association_request`',
      'CREATE TABLE `task_association_lock`',
    ]);
    expect(await tableCount()).toBe(before);
  });

  it('creates the tables with overridden names, then a second run has nothing to do; host tables untouched', async () => {
    const { db, url } = scratch();
    const ours = [
      'MO_OPER',
      'MO_OPER_GRUPO',
      'MO_OPER_GRUPO_METRICA',
      'MO_OPER_MO_OPER_GRUPO',
      'task_association_history',
      'task_association_request',
      'task_association_lock',
    ];
    const before = await snapshotHostTables(db, ours);
    const first = captureIo();
    expect(await runCli(['db', 'sync', '--database-url', url, ...MO, '--json'], first)).toBe(0);
    expect(JSON.parse(first.out())).toMatchObject({ applied: true, statements: { length: 7 } });
    const second = captureIo();
    expect(await runCli(['db', 'sync', '--database-url', url, ...MO], second)).toBe(0);
    expect(second.out()).toBe('');
    expect(second.err()).toContain('up to date: nothing to do');
    expect(await snapshotHostTables(db, ours)).toEqual(before);
  });

  it.each([
    ['SQL in the name', 'OPER=app_oper; DROP TABLE x', 'is not an SQL identifier'],
    ['a backtick', 'OPER=app`oper', 'is not an SQL identifier'],
    ['65 characters', `OPER=${'a'.repeat(65)}`, '(65 characters, at most 64)'],
    ['an empty name', 'OPER=', 'is not an SQL identifier'],
    ['an unknown logical table', 'OPERS=MO_OPER', '"OPERS" is not a logical table name'],
  ])('refuses %s with one clear line (exit 1) before any SQL', async (_label, pair, message) => {
    const before = await tableCount();
    const io = captureIo();
    expect(await runCli(['db', 'sync', '--database-url', scratch().url, '--table-name', pair], io)).toBe(1);
    expect(io.err()).toContain(message);
    expect(io.err().trim().split('\n')).toHaveLength(1);
    expect(io.out()).toBe('');
    expect(await tableCount()).toBe(before);
  });

  it('checks table names before connecting: a bad name wins over an unreachable server', async () => {
    const io = captureIo();
    const code = await runCli(
      ['db', 'sync', '--database-url', 'mysql://root@127.0.0.1:1/none', '--table-name', 'OPER=a;b'],
      io,
    );
    expect(code).toBe(1);
    expect(io.err()).toContain('is not an SQL identifier');
  });

  it.each([
    ['not LOGICAL=NAME', ['--table-name', 'MO_OPER'], '--table-name "MO_OPER" must be LOGICAL=NAME'],
    [
      'a logical table given twice',
      ['--table-name', 'OPER=A', '--table-name', 'OPER=B'],
      'OPER is given twice',
    ],
    ['an unknown option', ['--drop'], 'unknown option --drop: see --help'],
    ['a misspelt option', ['--dry-rn'], 'unknown option --dry-rn (did you mean --dry-run?): see --help'],
    ['a flag given twice', ['--json', '--json'], '--json is given twice: give it once'],
  ])('treats %s as a usage error (exit 2)', async (_label, args, message) => {
    const io = captureIo();
    expect(await runCli(['db', 'sync', '--database-url', scratch().url, ...args], io)).toBe(2);
    expect(io.err()).toContain(message);
  });

  it('takes toString and __proto__ as the unknown logical names they are, not as names given twice', async () => {
    for (const name of ['toString', '__proto__']) {
      const io = captureIo();
      expect(
        await runCli(['db', 'sync', '--database-url', scratch().url, '--table-name', `${name}=X`], io),
      ).toBe(1);
      expect(io.err()).toContain(`"${name}" is not a logical table name`);
    }
  });

  it('an unreachable database gives one line, no stack trace', async () => {
    const io = captureIo();
    expect(await runCli(['db', 'sync', '--database-url', 'mysql://root@127.0.0.1:1/test'], io)).toBe(1);
    expect(io.err()).toMatch(/^task-association db sync: cannot reach the database at 127\.0\.0\.1:1/);
    expect(io.err().trim().split('\n')).toHaveLength(1);
  });

  it('wrong credentials give one line naming the user, password hidden', async () => {
    const io = captureIo();
    const code = await runCli(
      ['db', 'sync', '--database-url', 'mysql://nobody:s3cret@127.0.0.1:3306/test'],
      io,
    );
    expect(code).toBe(1);
    expect(io.err()).toContain('refused user "nobody": wrong user or password');
    expect(io.err()).not.toContain('s3cret');
    expect(io.err().trim().split('\n')).toHaveLength(1);
  });

  it('a destructive difference is refused (exit 1); --json lists it with found and expected', async () => {
    const { db, url } = scratch();
    await db.execute(`CREATE TABLE BAD_OPER (${COMMON_COLUMNS_SQL}, CODIGO int)`);
    const before = await tableCount();
    const io = captureIo();
    expect(
      await runCli(['db', 'sync', '--database-url', url, '--table-name', 'OPER=BAD_OPER', '--json'], io),
    ).toBe(1);
    expect(JSON.parse(io.out())).toMatchObject({
      statements: [],
      applied: false,
      differences: [{ kind: 'column-type', column: 'CODIGO', found: 'int', expected: 'varchar(50)' }],
    });
    expect(io.err()).toContain('refused, nothing was changed');
    expect(await tableCount()).toBe(before);
  });

  it("refuses a host's table named as one of ours, whatever its key (exit 1), and changes nothing", async () => {
    const { db, url } = scratch();
    // A host table with the scope columns and a key like ours, but none of the audit and flag columns.
    await db.execute(
      'CREATE TABLE app_pedido (EMPRESA int NOT NULL, FILIAL int NOT NULL, LOCAL int NOT NULL, ID int unsigned NOT NULL, SEQ_DB bigint unsigned NOT NULL AUTO_INCREMENT UNIQUE, NUMERO varchar(20), PRIMARY KEY (EMPRESA, FILIAL, LOCAL, ID))',
    );
    await db.execute(
      "INSERT INTO app_pedido (EMPRESA, FILIAL, LOCAL, ID, NUMERO) VALUES (1, 1, 1, 1, 'P-1')",
    );
    const before = await snapshotHostTables(db, []);
    const io = captureIo();
    expect(
      await runCli(['db', 'sync', '--database-url', url, '--table-name', 'OPER=app_pedido', '--json'], io),
    ).toBe(1);
    expect(JSON.parse(io.out())).toMatchObject({
      statements: [],
      applied: false,
      code: 'NOT_OUR_TABLE',
      differences: [{ kind: 'not-our-table', table: 'app_pedido' }],
    });
    expect(io.err()).toContain(
      'app_pedido exists and is not a task-association table (it has no INS_DH, INS_USUARIO_SEQ_DB, UPD_DH, UPD_USUARIO_SEQ_DB, SOURCE, ATIVO, DELETED, RO): name another table for OPER',
    );
    // app_cliente's key is (SEQ_DB): the refusal is the same, not "change its key yourself".
    const cliente = captureIo();
    expect(
      await runCli(['db', 'sync', '--database-url', url, '--table-name', 'OPER=app_cliente'], cliente),
    ).toBe(1);
    expect(cliente.err()).toContain('app_cliente exists and is not a task-association table');
    expect(cliente.err()).not.toContain('key');
    expect(await snapshotHostTables(db, [])).toEqual(before);
    await db.execute('DROP TABLE app_pedido');
  });

  it('refuses a name that gives a table an installation keeps as another of the four (exit 1), changing nothing', async () => {
    const { db, url } = scratch();
    await applyInstallation(db, exampleInstallFile(), {});
    const metricTable = exampleInstallFile().tableNames?.OPER_GRUPO_METRICA ?? '';
    const shapeOf = () =>
      db.query(
        'SELECT TABLE_NAME, COLUMN_NAME, COLUMN_TYPE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, ORDINAL_POSITION',
      );
    const before = await shapeOf();
    const io = captureIo();
    // A typo, or a stale script: the installation's metric table named as OPER.
    const crossed = ['--table-name', `OPER=${metricTable}`, '--table-name', 'OPER_GRUPO_METRICA=X_METRICA'];
    expect(await runCli(['db', 'sync', '--database-url', url, ...crossed, '--json'], io)).toBe(1);
    expect(JSON.parse(io.out())).toMatchObject({
      statements: [],
      applied: false,
      code: 'TABLE_OF_ANOTHER_KIND',
      differences: [{ kind: 'table-of-another-kind', table: metricTable, expected: 'OPER' }],
    });
    expect(io.err()).toContain(
      `table ${metricTable} is named for OPER, but the installer's ledger records it as OPER_GRUPO_METRICA`,
    );
    await expect(syncSchema(db, tableNames({ OPER: metricTable }))).rejects.toMatchObject({
      code: 'TABLE_OF_ANOTHER_KIND',
      path: 'tableNames.OPER',
    });
    expect(await shapeOf()).toEqual(before);
  });
});
