import { describe, expect, it } from 'vitest';
import {
  HISTORY_TABLE_NAME,
  LOCK_TABLE_NAME,
  REQUEST_TABLE_NAME,
  type TableNames,
  tableNames,
} from '../../src/model/table-names.js';
import type { SqlExecutor } from '../../src/store/driver.js';
import { openDatabase } from '../../src/store/mysql.js';
import { planSchemaSync } from '../../src/sync/plan.js';
import { syncSchema } from '../../src/sync/sync.js';
import { SchemaSyncError } from '../../src/sync/sync-errors.js';
import { freshDatabase, useScratchDatabase } from '../support/database.js';
import { COMMON_COLUMNS_SQL } from './common-columns-sql.js';
import { snapshotHostTables } from './host-snapshot.js';
import { asMySql8 as inMySql8Words } from './mysql8.js';

const scratch = useScratchDatabase('sync', { hostSchema: true });

/** A name set of its own per test, so tests share one scratch database without meeting. */
const prefixed = (prefix: string): TableNames =>
  tableNames({
    OPER: `${prefix}_OPER`,
    OPER_GRUPO: `${prefix}_OPER_GRUPO`,
    OPER_GRUPO_METRICA: `${prefix}_OPER_GRUPO_METRICA`,
    OPER_OPER_GRUPO: `${prefix}_OPER_MO_OPER_GRUPO`,
  });

async function existing(names: TableNames): Promise<string[]> {
  const rows = await scratch().db.query<{ name: string }>(
    'SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN (?, ?, ?, ?) ORDER BY 1',
    Object.values(names),
  );
  return rows.map((row) => row.name);
}

const SHARED = [HISTORY_TABLE_NAME, REQUEST_TABLE_NAME, LOCK_TABLE_NAME];

describe('syncSchema', () => {
  // The cases share one scratch database: the first creates the shared tables, the second finds them.
  it.each([
    ['default names', tableNames(), SHARED],
    ['overridden names', prefixed('MO'), []],
  ])(
    'with %s: creates the four tables (and the shared ones once per database), leaves host tables and rows alone, and a second run does nothing',
    async (_label, names, shared) => {
      const { db } = scratch();
      const ours = [...Object.values(names), ...SHARED];
      const before = await snapshotHostTables(db, ours);
      expect(Object.keys(before)).toContain('app_cliente');

      const first = await syncSchema(db, names);
      expect(first.applied).toBe(true);
      expect(first.statements.map((sql) => sql.split(' (')[0])).toEqual(
        [...Object.values(names), ...shared].map((name) => `CREATE TABLE \`${name}\``),
      );
      expect(await existing(names)).toEqual(Object.values(names).sort());
      expect(await snapshotHostTables(db, ours)).toEqual(before);

      expect(await planSchemaSync(db, names)).toEqual({
        statements: [],
        statementTables: [],
        differences: [],
      });
      expect(await syncSchema(db, names)).toEqual({ statements: [], applied: false });
    },
  );

  it('--dry-run lists the statements and creates nothing', async () => {
    const names = prefixed('DRY');
    const result = await syncSchema(scratch().db, names, { dryRun: true });
    expect(result.applied).toBe(false);
    // The four tables only: the shared ones exist since the first test.
    expect(result.statements).toHaveLength(4);
    expect(await existing(names)).toEqual([]);
  });

  it('accepts tables written the way the host writes them (display widths, implicit rules) as up to date', async () => {
    const { db } = scratch();
    await db.execute(`CREATE TABLE HOSTLIKE_OPER (
      SEQ_DB bigint(20) unsigned NOT NULL AUTO_INCREMENT, EMPRESA int(11) NOT NULL, FILIAL int(11) NOT NULL,
      LOCAL int(11) NOT NULL, INS_DH timestamp NULL DEFAULT current_timestamp(),
      INS_USUARIO_SEQ_DB bigint(20) unsigned NOT NULL, UPD_DH timestamp NULL DEFAULT NULL ON UPDATE current_timestamp(),
      UPD_USUARIO_SEQ_DB bigint(20) unsigned DEFAULT NULL, SOURCE varchar(50) DEFAULT NULL,
      ATIVO tinyint(1) DEFAULT 1, DELETED tinyint(1) DEFAULT 0, RO tinyint(1) DEFAULT 0, ID int(10) unsigned NOT NULL,
      CODIGO varchar(50) DEFAULT NULL, DESCRICAO varchar(250) DEFAULT NULL, UNIDADE_MEDIDA_SEQ_DB bigint(20) unsigned DEFAULT NULL,
      QIG_DISPLAY tinyint(3) unsigned DEFAULT 1, REVISAO_DH timestamp NULL DEFAULT NULL, MO_APT_FKL bigint(20) unsigned DEFAULT NULL,
      MO_APT_FKL_DH timestamp NULL DEFAULT NULL, MO_APT_PRODUCAO_FKL bigint(20) unsigned DEFAULT NULL,
      MO_APT_PRODUCAO_FKL_DH timestamp NULL DEFAULT NULL, INDICE decimal(11,2) DEFAULT NULL,
      PRIMARY KEY (EMPRESA, FILIAL, LOCAL, ID), UNIQUE KEY SEQ_DB (SEQ_DB), KEY idx_um (UNIDADE_MEDIDA_SEQ_DB),
      CONSTRAINT host_made_fk FOREIGN KEY (UNIDADE_MEDIDA_SEQ_DB) REFERENCES app_unidade_medida (SEQ_DB)
    ) ENGINE=InnoDB`);
    const plan = await planSchemaSync(db, prefixed('HOSTLIKE'));
    expect(plan.differences.filter((difference) => difference.table === 'HOSTLIKE_OPER')).toEqual([]);
  });

  it('adds a missing column, key and foreign key to an existing table, then has nothing left to do', async () => {
    const { db } = scratch();
    const names = prefixed('PART');
    await syncSchema(db, names);
    await db.execute('ALTER TABLE PART_OPER DROP FOREIGN KEY fk_PART_OPER_UNIDADE_MEDIDA_SEQ_DB');
    await db.execute('ALTER TABLE PART_OPER DROP COLUMN INDICE, DROP COLUMN UNIDADE_MEDIDA_SEQ_DB');
    const plan = await planSchemaSync(db, names);
    expect(plan.differences.map((difference) => [difference.kind, difference.column])).toEqual([
      ['missing-column', 'UNIDADE_MEDIDA_SEQ_DB'],
      ['missing-column', 'INDICE'],
      ['missing-foreign-key', 'UNIDADE_MEDIDA_SEQ_DB'],
    ]);
    expect(plan.differences.every((difference) => !difference.destructive)).toBe(true);
    expect((await syncSchema(db, names)).statements).toHaveLength(2);
    expect(await planSchemaSync(db, names)).toEqual({ statements: [], statementTables: [], differences: [] });
  });

  it("adds the metric table's key index to an installation made without it, and refuses another index of that name", async () => {
    const { db } = scratch();
    const names = prefixed('IDX');
    await syncSchema(db, names);
    await db.execute('ALTER TABLE IDX_OPER_GRUPO_METRICA DROP INDEX ix_metric_key');
    const plan = await planSchemaSync(db, names);
    expect(plan.differences).toMatchObject([
      {
        kind: 'missing-key',
        table: 'IDX_OPER_GRUPO_METRICA',
        expected:
          'KEY ix_metric_key (EMPRESA, FILIAL, LOCAL, FOLHA_TAREFA_SEQ_DB, OPER_SEQ_DB, OPER_GRUPO_SEQ_DB)',
        destructive: false,
      },
    ]);
    expect(plan.statements).toEqual([
      'ALTER TABLE `IDX_OPER_GRUPO_METRICA`\n  ADD KEY `ix_metric_key` (`EMPRESA`, `FILIAL`, `LOCAL`, `FOLHA_TAREFA_SEQ_DB`, `OPER_SEQ_DB`, `OPER_GRUPO_SEQ_DB`)',
    ]);
    await syncSchema(db, names);
    expect(await planSchemaSync(db, names)).toEqual({ statements: [], statementTables: [], differences: [] });

    await db.execute(
      'ALTER TABLE IDX_OPER_GRUPO_METRICA DROP INDEX ix_metric_key, ADD KEY ix_metric_key (OPER_SEQ_DB)',
    );
    const conflict = await planSchemaSync(db, names);
    expect(conflict.statements).toEqual([]);
    expect(conflict.differences).toMatchObject([
      { kind: 'conflicting-key', found: 'KEY ix_metric_key (OPER_SEQ_DB)', destructive: true },
    ]);
  });

  // MySQL 8 has functional key parts, whose COLUMN_NAME in information_schema.STATISTICS is NULL;
  // MariaDB has none, so the real server's answer is edited on its way back: the index is real, its
  // first part reads as MySQL 8 would report an expression.
  it('reads a MySQL 8 functional key part as an expression: a host index of one is no difference, one named as ours is a conflict', async () => {
    const { db } = scratch();
    const names = prefixed('FN');
    await syncSchema(db, names);
    await db.execute('ALTER TABLE FN_OPER_GRUPO_METRICA ADD KEY ix_host_expr (OPER_SEQ_DB)');
    const asMySql8 = (expressionIndexes: readonly string[]): SqlExecutor => ({
      execute: (sql, params, options) => db.execute(sql, params, options),
      query: async <Row extends object>(sql: string, params?: readonly unknown[]) => {
        const rows = await db.query<Record<string, unknown>>(sql, params);
        if (!sql.includes('information_schema.STATISTICS')) return rows as Row[];
        return rows.map((row) =>
          expressionIndexes.includes(String(row.name)) ? { ...row, column: null } : row,
        ) as Row[];
      },
    });
    expect(await planSchemaSync(asMySql8(['ix_host_expr']), names)).toEqual({
      statements: [],
      statementTables: [],
      differences: [],
    });
    const conflict = await planSchemaSync(asMySql8(['ix_metric_key']), names);
    expect(conflict.statements).toEqual([]);
    expect(conflict.differences).toMatchObject([
      {
        kind: 'conflicting-key',
        found:
          'KEY ix_metric_key ((expression), (expression), (expression), (expression), (expression), (expression))',
        destructive: true,
      },
    ]);
  });

  it('refuses a column of another type, saying what it found and expected, and runs nothing', async () => {
    const { db } = scratch();
    const names = prefixed('TYPED');
    await db.execute(`CREATE TABLE TYPED_OPER (${COMMON_COLUMNS_SQL}, CODIGO int) ENGINE=InnoDB`);
    const error = await syncSchema(db, names).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SchemaSyncError);
    expect(error).toMatchObject({
      code: 'DESTRUCTIVE_DIFFERENCE',
      path: 'TYPED_OPER.CODIGO',
      differences: [
        {
          kind: 'column-type',
          table: 'TYPED_OPER',
          column: 'CODIGO',
          found: 'int',
          expected: 'varchar(50)',
          destructive: true,
        },
      ],
    });
    expect((error as Error).message).toContain('found int; expected varchar(50)');
    // The same differences in the shape every other problem has.
    expect((error as SchemaSyncError).issues).toEqual([
      {
        code: 'COLUMN_TYPE',
        path: 'TYPED_OPER.CODIGO',
        message: expect.stringContaining('is int, expected varchar(50)'),
      },
    ]);
    expect(await existing(names)).toEqual(['TYPED_OPER']);
    const columns = await db.query(
      'SELECT COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?',
      ['TYPED_OPER'],
    );
    expect(columns).toHaveLength(14);
  });

  it('refuses an extra unique key in the way, and a nullable column the tables want NOT NULL', async () => {
    const { db } = scratch();
    const names = prefixed('UNIQ');
    await syncSchema(db, names);
    await db.execute(
      'ALTER TABLE UNIQ_OPER ADD UNIQUE KEY uq_codigo (CODIGO), MODIFY COLUMN INS_USUARIO_SEQ_DB bigint unsigned NULL',
    );
    const plan = await planSchemaSync(db, names);
    expect(plan.differences).toEqual([
      expect.objectContaining({
        kind: 'column-nullability',
        column: 'INS_USUARIO_SEQ_DB',
        found: 'NULL',
        expected: 'NOT NULL',
        destructive: true,
      }),
      expect.objectContaining({
        kind: 'conflicting-key',
        found: 'UNIQUE KEY uq_codigo (CODIGO)',
        destructive: true,
      }),
    ]);
    await expect(syncSchema(db, names)).rejects.toMatchObject({ code: 'DESTRUCTIVE_DIFFERENCE' });
  });

  it('refuses when a host table it references is missing or its SEQ_DB unusable, creating nothing', async () => {
    const bare = await freshDatabase('sync-no-host');
    try {
      await bare.db.execute('CREATE TABLE app_unidade_medida (SEQ_DB int NOT NULL PRIMARY KEY)');
      const error = await syncSchema(bare.db, tableNames()).catch((caught: unknown) => caught);
      expect(error).toMatchObject({
        code: 'MISSING_HOST_TABLE',
        differences: [
          expect.objectContaining({
            kind: 'host-column-type',
            table: 'app_unidade_medida',
            found: 'int',
            expected: 'bigint unsigned',
          }),
          expect.objectContaining({ kind: 'missing-host-table', table: 'app_etapa' }),
          expect.objectContaining({ kind: 'missing-host-table', table: 'app_folha_tarefa' }),
        ],
      });
      expect(
        await bare.db.query(
          'SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()',
        ),
      ).toEqual([{ name: 'app_unidade_medida' }]);
    } finally {
      await bare.drop();
    }
  });

  it('lets a unique key that contains an existing key stand: it refuses nothing more', async () => {
    const { db } = scratch();
    const names = prefixed('WIDE');
    await syncSchema(db, names);
    await db.execute('ALTER TABLE WIDE_OPER ADD UNIQUE KEY uq_seq_codigo (SEQ_DB, CODIGO)');
    expect(await planSchemaSync(db, names)).toEqual({ statements: [], statementTables: [], differences: [] });
  });

  it('reports a statement the server refuses as one clear error saying how far it got', async () => {
    const { db } = scratch();
    const names = prefixed('ORPHAN');
    await syncSchema(db, names);
    await db.execute('ALTER TABLE ORPHAN_OPER DROP FOREIGN KEY fk_ORPHAN_OPER_UNIDADE_MEDIDA_SEQ_DB');
    await db.execute(
      'INSERT INTO ORPHAN_OPER (EMPRESA, FILIAL, LOCAL, ID, INS_USUARIO_SEQ_DB, UNIDADE_MEDIDA_SEQ_DB) VALUES (1, 1, 1, 1, 1, 999999)',
    );
    await expect(syncSchema(db, names)).rejects.toMatchObject({
      code: 'STATEMENT_FAILED',
      path: 'ORPHAN_OPER',
      message: expect.stringMatching(
        /^statement 1 of 1 failed \(.*foreign key constraint fails.*\); the 0 before it were applied/,
      ),
    });
  });

  it('waits at most 2 s for a table another transaction holds (its writers never queue longer behind the change), says so, and gives the connection its own wait back', async () => {
    const { db, url } = scratch();
    const names = prefixed('BUSY');
    await syncSchema(db, names);
    await db.execute('ALTER TABLE BUSY_OPER DROP COLUMN INDICE');
    // A statement bound shorter than the metadata lock wait: the change is not cut at it.
    const bounded = await openDatabase(url, { connectionLimit: 1, timeoutMs: 1_000 });
    const holder = await openDatabase(url, { connectionLimit: 1 });
    try {
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let reading = () => {};
      const read = new Promise<void>((resolve) => {
        reading = resolve;
      });
      // A host's long transaction that has read the table holds its metadata lock until it ends.
      const holding = holder.transaction(async (tx) => {
        await tx.query('SELECT COUNT(*) FROM BUSY_OPER');
        reading();
        await released;
      });
      await read;
      await expect(syncSchema(bounded, names)).rejects.toMatchObject({
        code: 'STATEMENT_FAILED',
        path: 'BUSY_OPER',
        message: expect.stringContaining(
          'its table was in use by another transaction for more than 2 s; a schema change waits no longer',
        ),
      });
      // No change is left waiting on the server: a write to the table goes through while the
      // transaction still holds it (a waiting ALTER would queue it until the transaction ended).
      await bounded.execute(
        'INSERT INTO BUSY_OPER (EMPRESA, FILIAL, LOCAL, ID, INS_USUARIO_SEQ_DB) VALUES (1, 1, 1, 1, 1)',
      );
      const [session] = await bounded.query<{ wait: number; global: number }>(
        'SELECT @@SESSION.lock_wait_timeout AS wait, @@GLOBAL.lock_wait_timeout AS global',
      );
      expect(session?.wait).toBe(session?.global);
      release();
      await holding;
      expect((await syncSchema(bounded, names)).applied).toBe(true);
      expect(await planSchemaSync(db, names)).toEqual({
        statements: [],
        statementTables: [],
        differences: [],
      });
    } finally {
      await bounded.close();
      await holder.close();
    }
  });

  it('restores a changed default and lets a NOT NULL column allow NULL again (widening, never narrowing)', async () => {
    const { db } = scratch();
    const names = prefixed('WIDEN');
    await syncSchema(db, names);
    await db.execute(
      'ALTER TABLE WIDEN_OPER MODIFY COLUMN ATIVO tinyint(1) NULL DEFAULT 0, MODIFY COLUMN SOURCE varchar(50) NOT NULL',
    );
    const plan = await planSchemaSync(db, names);
    expect(plan.differences).toEqual([
      expect.objectContaining({
        kind: 'column-nullability',
        column: 'SOURCE',
        found: 'NOT NULL',
        expected: 'NULL',
        destructive: false,
      }),
      expect.objectContaining({
        kind: 'column-default',
        column: 'ATIVO',
        found: '0',
        expected: '1',
        destructive: false,
      }),
    ]);
    expect(plan.statements).toEqual([
      expect.stringMatching(
        /^ALTER TABLE `WIDEN_OPER`\n {2}MODIFY COLUMN `SOURCE` varchar\(50\) COLLATE `utf8mb4_\w+` NULL DEFAULT NULL,\n {2}MODIFY COLUMN `ATIVO` tinyint\(1\) NULL DEFAULT 1$/,
      ),
    ]);
    await syncSchema(db, names);
    expect(await planSchemaSync(db, names)).toEqual({ statements: [], statementTables: [], differences: [] });
  });

  it('keeps what the host set on a column the model says nothing of: its default, collation and comment', async () => {
    const { db } = scratch();
    const names = prefixed('KEEP');
    await syncSchema(db, names);
    await db.execute(
      "ALTER TABLE KEEP_OPER MODIFY COLUMN EMPRESA int NOT NULL DEFAULT 1, MODIFY COLUMN SOURCE varchar(50) COLLATE utf8mb4_bin NOT NULL DEFAULT '' COMMENT 'the host''s note'",
    );
    // EMPRESA: a default the model does not name is the host's, and stays (its inserts rely on it).
    const plan = await planSchemaSync(db, names);
    expect(plan.differences.map((difference) => `${difference.kind} ${difference.column}`)).toEqual([
      'column-nullability SOURCE',
    ]);
    await syncSchema(db, names);
    const [source] = await db.query<{ d: string | null; c: string; n: string; m: string }>(
      "SELECT COLUMN_DEFAULT AS d, COLLATION_NAME AS c, IS_NULLABLE AS n, COLUMN_COMMENT AS m FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'KEEP_OPER' AND COLUMN_NAME = 'SOURCE'",
    );
    // Widened to NULL as the model wants, the rest as the host left it.
    expect(source).toEqual({ d: "''", c: 'utf8mb4_bin', n: 'YES', m: "the host's note" });
    const [empresa] = await db.query<{ d: string | null }>(
      "SELECT COLUMN_DEFAULT AS d FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'KEEP_OPER' AND COLUMN_NAME = 'EMPRESA'",
    );
    expect(empresa).toEqual({ d: '1' });
    expect(await planSchemaSync(db, names)).toEqual({ statements: [], statementTables: [], differences: [] });
  });

  it("keeps a host's expression default as an expression when it restates the column, not as text", async () => {
    const { db } = scratch();
    const names = prefixed('EXPR');
    await syncSchema(db, names);
    // The host computes SOURCE and a number of its own; the sync must widen SOURCE to NULL.
    await db.execute(
      "ALTER TABLE EXPR_OPER MODIFY COLUMN SOURCE varchar(50) NOT NULL DEFAULT (concat('host', '-', 'made')), MODIFY COLUMN INDICE decimal(11,2) NULL DEFAULT (1 + 1)",
    );
    const restated = [
      expect.stringContaining(
        "MODIFY COLUMN `SOURCE` varchar(50) COLLATE `utf8mb4_general_ci` NULL DEFAULT (concat('host','-','made'))",
      ),
    ];
    expect((await planSchemaSync(db, names)).statements).toEqual(restated);
    // MySQL 8's words for the same (DEFAULT_GENERATED, the quotes escaped) restate it the same way.
    expect((await planSchemaSync(inMySql8Words(db), names)).statements).toEqual(restated);
    await syncSchema(db, names);
    await db.execute(
      'INSERT INTO EXPR_OPER (EMPRESA, FILIAL, LOCAL, ID, INS_USUARIO_SEQ_DB) VALUES (1, 1, 1, 1, 1)',
    );
    // Computed as the host wrote it, not the text of the expression.
    expect(await db.query('SELECT SOURCE, INDICE FROM EXPR_OPER')).toEqual([
      { SOURCE: 'host-made', INDICE: '2.00' },
    ]);
    expect(await planSchemaSync(db, names)).toEqual({ statements: [], statementTables: [], differences: [] });
  });
});
