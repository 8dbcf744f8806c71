import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import mysql from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { runSqlFile } from '../../src/store/script.js';
import { databaseState, EXAMPLE_INSTALL_FILE } from '../installer/support.js';
import { captureIo } from '../support/cli.js';
import { freshDatabase, useScratchDatabase } from '../support/database.js';

const scratch = useScratchDatabase('cli_plan', { hostSchema: true });
const INSTALL = fileURLToPath(EXAMPLE_INSTALL_FILE);

describe('task-association plan', () => {
  it('prints every change with its SQL as one JSON document, and writes nothing', async () => {
    const { db, url } = scratch();
    const before = await databaseState(db);
    const io = captureIo();
    expect(await runCli(['plan', '--install', INSTALL, '--database-url', url, '--json'], io)).toBe(0);
    const { changes } = JSON.parse(io.out());
    expect(changes).toHaveLength(21);
    // The ledger, the four tables and the three shared ones, then the rows.
    expect(changes.slice(0, 8).map((change: { table: string }) => change.table)).toEqual([
      'task_association_ledger',
      'MO_OPER',
      'MO_OPER_GRUPO',
      'MO_OPER_GRUPO_METRICA',
      'MO_OPER_MO_OPER_GRUPO',
      'task_association_history',
      'task_association_request',
      'task_association_lock',
    ]);
    expect(changes[8]).toEqual({
      kind: 'insert',
      table: 'sys_core_menu',
      key: 'menu:taskSheetWithMetrics',
      sql: 'INSERT INTO `sys_core_menu` (`EMPRESA`, `FILIAL`, `LOCAL`, `DESCRICAO`, `TYPE`, `ATIVO`, `FATHER`, `MENUORDER`, `URL`, `FILTER`, `ICON`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      params: [
        1,
        1,
        1,
        'Folha de tarefa',
        'CRUD',
        1,
        null,
        10,
        null,
        '{"allowed":["FOLHA_TAREFA","OPER_GRUPO_METRICA"]}',
        'fa fa-list-alt',
      ],
      message: 'insert menu "Folha de tarefa"',
    });
    expect(io.err()).toContain('reading the host tables');
    expect(io.err()).toContain('insert       insert the link field FOLHA_TAREFA.LINK_ATIVIDADE_METRICAS');
    expect(await databaseState(db)).toEqual(before);
  });

  it('takes the database from $DATABASE_URL', async () => {
    const io = captureIo({ env: { DATABASE_URL: scratch().url } });
    expect(await runCli(['plan', '--install', INSTALL], io)).toBe(0);
    expect(io.err()).toContain("create the installer's ledger");
  });

  it('exits 2 on bad flags or an unreadable install file, 1 on an unreachable database', async () => {
    const { url } = scratch();
    const cases: [string[], number, string][] = [
      [['plan', '--database-url', url], 2, '--install <file> is required'],
      [['plan', '--install', INSTALL, '--yes'], 2, 'unknown option --yes'],
      [['plan', '--install', INSTALL, 'extra'], 2, 'unexpected argument "extra"'],
      [
        ['plan', '--install', INSTALL, '--install', '/other.json', '--database-url', url],
        2,
        '--install is given twice: give it once',
      ],
      [
        ['plan', '--install', '/nonexistent.json', '--database-url', url],
        2,
        'install file /nonexistent.json does not exist',
      ],
      [
        ['plan', '--install', INSTALL, '--database-url', 'mysql://root@127.0.0.1:1/x'],
        1,
        'cannot reach the database',
      ],
    ];
    for (const [argv, code, message] of cases) {
      const io = captureIo();
      expect({ argv, code: await runCli(argv, io) }).toEqual({ argv, code });
      expect(io.err()).toContain(message);
      expect(io.out()).toBe('');
    }
  });

  it('shows a DDL statement whole in its human output: every clause of an ALTER', async () => {
    const fresh = await freshDatabase('cli_plan_alter', { hostSchema: true });
    try {
      const install = ['--install', INSTALL, '--database-url', fresh.url];
      expect(await runCli(['apply', ...install, '--yes'], captureIo())).toBe(0);
      await fresh.db.execute('ALTER TABLE `MO_OPER` DROP COLUMN `CODIGO`, DROP COLUMN `DESCRICAO`');
      const io = captureIo();
      expect(await runCli(['plan', ...install], io)).toBe(0);
      expect(io.err()).toMatch(
        /ALTER TABLE `MO_OPER`\n\s+ADD COLUMN `CODIGO` [^\n]*,\n\s+ADD COLUMN `DESCRICAO` /,
      );
    } finally {
      await fresh.drop();
    }
  });

  it('--json carries why apply would refuse, with every finding (exit 1)', async () => {
    const { url } = scratch();
    const example = JSON.parse(await readFile(INSTALL, 'utf8'));
    const menus = { ...example.menus, activities: { father: 987654, order: 1 } };
    await withInstallFile({ ...example, menus }, async (file) => {
      const io = captureIo();
      expect(await runCli(['plan', '--install', file, '--database-url', url, '--json'], io)).toBe(1);
      const document = JSON.parse(io.out());
      expect(document.refused).toEqual({
        code: 'MENU_PARENT_MISSING',
        path: 'menus.activities.father',
        message: expect.stringMatching(
          /^nothing was written: menus\.activities\.father: .*no row with SEQ_DB 987654/,
        ),
      });
      expect(document.findings).toContainEqual(
        expect.objectContaining({ level: 'error', code: 'MENU_PARENT_MISSING' }),
      );
      expect(Array.isArray(document.changes)).toBe(true);
    });
  });

  it("refuses a host's table named as one of ours, in plan and apply alike, and writes nothing", async () => {
    const fresh = await freshDatabase('cli_plan_not_ours', { hostSchema: true });
    try {
      await fresh.db.execute(
        'CREATE TABLE app_pedido (EMPRESA int NOT NULL, FILIAL int NOT NULL, LOCAL int NOT NULL, ID int unsigned NOT NULL, NUMERO varchar(20), PRIMARY KEY (EMPRESA, FILIAL, LOCAL, ID))',
      );
      await fresh.db.execute("INSERT INTO app_pedido VALUES (1, 1, 1, 1, 'P-1')");
      const before = await databaseState(fresh.db);
      const example = JSON.parse(await readFile(INSTALL, 'utf8'));
      const tableNames = { ...example.tableNames, OPER: 'app_pedido' };
      await withInstallFile({ ...example, tableNames }, async (file) => {
        const install = ['--install', file, '--database-url', fresh.url, '--json'];
        const plan = captureIo();
        expect(await runCli(['plan', ...install], plan)).toBe(1);
        const document = JSON.parse(plan.out());
        expect(document.refused).toMatchObject({
          code: 'SCHEMA_NOT_OUR_TABLE',
          path: 'app_pedido',
          message: expect.stringContaining(
            'app_pedido exists and is not a task-association table (it has no SEQ_DB, INS_DH,',
          ),
        });
        // No ALTER of the host's table is offered for review either.
        expect(JSON.stringify(document.changes)).not.toContain('ALTER TABLE `app_pedido`');
        const apply = captureIo();
        expect(await runCli(['apply', ...install, '--yes'], apply)).toBe(1);
        expect(JSON.parse(apply.out()).error).toMatchObject({ code: 'SCHEMA_NOT_OUR_TABLE' });
      });
      expect(await databaseState(fresh.db)).toEqual(before);
    } finally {
      await fresh.drop();
    }
  });

  it('--json on an invalid install file lists every problem as validate does', async () => {
    const { url } = scratch();
    const example = JSON.parse(await readFile(INSTALL, 'utf8'));
    const treeView = { layers: { '2': { table: 'MO_OPER', isTask: true } } };
    await withInstallFile({ ...example, treeView }, async (file) => {
      const io = captureIo();
      expect(await runCli(['plan', '--install', file, '--database-url', url, '--json'], io)).toBe(1);
      expect(JSON.parse(io.out())).toEqual({
        error: {
          code: 'INSTALL_FILE_INVALID',
          path: 'treeView.layers',
          message: expect.stringContaining(
            `install file ${file} is not a valid install file: treeView.layers:`,
          ),
          issues: [{ path: 'treeView.layers', code: 'LAYER_GAP', message: expect.any(String) }],
        },
      });
    });
  });

  it('--sql prints the script apply would run; run as is, it installs exactly what apply would', async () => {
    const scratch = await freshDatabase('cli_plan_sql', { hostSchema: true });
    const dir = await mkdtemp(join(tmpdir(), 'ta-plan-sql-'));
    try {
      const before = await databaseState(scratch.db);
      const io = captureIo();
      expect(await runCli(['plan', '--install', INSTALL, '--database-url', scratch.url, '--sql'], io)).toBe(
        0,
      );
      expect(await databaseState(scratch.db)).toEqual(before);
      const script = io.out();
      expect(script).toMatch(
        /^-- task-association \d+\.\d+\.\d+: what apply would run on database \w+ for scope 1\/1\/1\.\n/,
      );
      expect(script).toContain('START TRANSACTION;\nINSERT INTO `sys_core_menu`');
      expect(script).toContain(
        "VALUES (1, 1, 1, 'menu:taskSheetWithMetrics', 'sys_core_menu', LAST_INSERT_ID(), 1,",
      );
      expect(script).not.toContain('?');
      expect(script.trimEnd().endsWith('COMMIT;')).toBe(true);

      const file = join(dir, 'plan.sql');
      await writeFile(file, script);
      await runSqlFile(scratch.url, file);
      const again = captureIo();
      expect(
        await runCli(
          ['apply', '--install', INSTALL, '--database-url', scratch.url, '--yes', '--json'],
          again,
        ),
      ).toBe(0);
      expect(JSON.parse(again.out())).toEqual({ changes: [] });
      expect(await runCli(['verify', '--install', INSTALL, '--database-url', scratch.url], captureIo())).toBe(
        0,
      );
      const empty = captureIo();
      expect(
        await runCli(['plan', '--install', INSTALL, '--database-url', scratch.url, '--sql'], empty),
      ).toBe(0);
      expect(empty.out()).toContain('-- Nothing to do: the installation is up to date.');
    } finally {
      await rm(dir, { recursive: true, force: true });
      await scratch.drop();
    }
  });

  // Found by a review: the script did not set the connection's character set, so a client whose
  // default is latin1 stored "Parte diÃ¡ria", and one on utf8mb3 stopped at an emoji after the DDL.
  it('--sql sets the character set itself: run by a latin1 or utf8mb3 client, it stores the texts as written', async () => {
    const example = JSON.parse(await readFile(INSTALL, 'utf8'));
    const withEmoji = { ...example, linkField: { ...example.linkField, label: 'Atividades e métricas 📋' } };
    for (const [charset, document] of [
      ['latin1', example],
      ['utf8mb3', withEmoji],
    ] as const) {
      const fresh = await freshDatabase('cli_plan_sql_charset', { hostSchema: true });
      try {
        await withInstallFile(document, async (file) => {
          const io = captureIo();
          const install = ['--install', file, '--database-url', fresh.url];
          expect(await runCli(['plan', ...install, '--sql'], io)).toBe(0);
          await runAsClient(fresh.url, Buffer.from(io.out(), 'utf8'), charset);
          const again = captureIo();
          expect(await runCli(['apply', ...install, '--yes', '--json'], again)).toBe(0);
          expect(JSON.parse(again.out())).toEqual({ changes: [] });
          expect(await runCli(['verify', ...install], captureIo())).toBe(0);
        });
        const texts = await fresh.db.query<{ DESCRICAO: string }>(
          "SELECT DESCRICAO FROM sys_core_menu WHERE DESCRICAO LIKE 'Parte%' UNION ALL SELECT DESCRICAO FROM sys_core_ds_tabela_campo WHERE NOME = 'LINK_ATIVIDADE_METRICAS'",
        );
        expect(texts.map((row) => row.DESCRICAO)).toEqual(['Parte diária', document.linkField.label]);
      } finally {
        await fresh.drop();
      }
    }
  });

  it('refuses --sql with --json (exit 2), before opening the database', async () => {
    const io = captureIo();
    expect(
      await runCli(['plan', '--install', INSTALL, '--database-url', scratch().url, '--sql', '--json'], io),
    ).toBe(2);
    expect(io.err()).toContain('give --json or --sql, not both');
    // Said before the database is opened: a server that does not answer is never reached.
    const unreachable = captureIo();
    expect(
      await runCli(
        ['plan', '--install', INSTALL, '--database-url', 'mysql://root@127.0.0.1:1/x', '--sql', '--json'],
        unreachable,
      ),
    ).toBe(2);
    expect(JSON.parse(unreachable.out())).toMatchObject({
      error: { code: 'USAGE', message: 'give --json or --sql, not both' },
    });
  });
});

/** Writes `document` as an install file in a temporary folder for `run`, removed afterwards. */
async function withInstallFile(document: unknown, run: (file: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'ta-plan-'));
  try {
    const file = join(dir, 'install.json');
    await writeFile(file, JSON.stringify(document));
    await run(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('plan --force', () => {
  it('lists what apply --force would reset, where plan alone says nothing is to do', async () => {
    const { db, url } = scratch();
    expect(await runCli(['apply', '--install', INSTALL, '--database-url', url, '--yes'], captureIo())).toBe(
      0,
    );
    // An administrator changed a row the installer leaves alone unless forced.
    await db.execute(
      "UPDATE sys_core_par_parametros SET CONTEUDO = 'MO_OPER2' WHERE NOME = 'ASSOCIATION_TASK_OPER'",
    );
    const plain = captureIo();
    expect(await runCli(['plan', '--install', INSTALL, '--database-url', url, '--json'], plain)).toBe(0);
    expect(JSON.parse(plain.out()).changes).toEqual([]);
    const forced = captureIo();
    expect(
      await runCli(['plan', '--install', INSTALL, '--database-url', url, '--json', '--force'], forced),
    ).toBe(0);
    const planned = JSON.parse(forced.out()).changes;
    expect(planned.map((change: { key: string }) => change.key)).toContain('parameter:ASSOCIATION_TASK_OPER');
    const applied = captureIo();
    expect(
      await runCli(
        ['apply', '--install', INSTALL, '--database-url', url, '--yes', '--json', '--force'],
        applied,
      ),
    ).toBe(0);
    // The plan listed exactly what the forced apply then did.
    expect(JSON.parse(applied.out()).changes).toEqual(planned);
  });
});

/**
 * Runs a script's bytes as the mysql command-line client does with `--default-character-set`
 * latin1 or utf8mb3: the file's bytes sent as they are (UTF-8), the server told they are in that
 * character set, every statement of the script over one connection.
 */
async function runAsClient(url: string, bytes: Buffer, charset: 'latin1' | 'utf8mb3') {
  // mysql2 writes a latin1 connection's text one byte per character, so the bytes read so go as they
  // are. It writes a utf8mb3 connection's text as CESU-8 (an emoji as two 3-byte halves), which no
  // client does: that one is opened on utf8mb4 and told utf8mb3 after, unknown to mysql2 (which
  // follows the server's reports of SET NAMES, turned off here).
  const connection = await mysql.createConnection({
    uri: url,
    charset: charset === 'latin1' ? 'LATIN1_SWEDISH_CI' : 'UTF8MB4_GENERAL_CI',
    multipleStatements: true,
  });
  try {
    if (charset === 'utf8mb3') {
      await connection.query("SET SESSION session_track_system_variables = ''");
      await connection.query('SET NAMES utf8mb3');
    }
    await connection.query(bytes.toString(charset === 'latin1' ? 'latin1' : 'utf8'));
  } finally {
    await connection.end();
  }
}
