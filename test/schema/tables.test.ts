import { describe, expect, it } from 'vitest';
import { type TableNames, tableNames } from '../../src/model/table-names.js';
import { createTables } from '../../src/schema.js';
import {
  hasAutoIncrement,
  hasOnUpdateCurrentTimestamp,
  normalizeColumnDefault,
  normalizeColumnType,
} from '../../src/store/normalize.js';
import { createTableStatement } from '../../src/sync/ddl.js';
import { expectedModel } from '../../src/sync/expected-model.js';
import { useScratchDatabase } from '../support/database.js';

// The customer's column lists as data: [column, type, nullable, default, extra]. This is the specification;
// the DDL under test is derived from the Drizzle tables.
type SeedColumn = [string, string, 'YES' | 'NO', string | null, '' | 'auto_increment' | 'on update'];
const COMMON: SeedColumn[] = [
  ['SEQ_DB', 'bigint unsigned', 'NO', null, 'auto_increment'],
  ['EMPRESA', 'int', 'NO', null, ''],
  ['FILIAL', 'int', 'NO', null, ''],
  ['LOCAL', 'int', 'NO', null, ''],
  ['INS_DH', 'timestamp', 'YES', 'CURRENT_TIMESTAMP', ''],
  ['INS_USUARIO_SEQ_DB', 'bigint unsigned', 'NO', null, ''],
  ['UPD_DH', 'timestamp', 'YES', null, 'on update'],
  ['UPD_USUARIO_SEQ_DB', 'bigint unsigned', 'YES', null, ''],
  ['SOURCE', 'varchar(50)', 'YES', null, ''],
  ['ATIVO', 'tinyint(1)', 'YES', '1', ''],
  ['DELETED', 'tinyint(1)', 'YES', '0', ''],
  ['RO', 'tinyint(1)', 'YES', '0', ''],
  ['ID', 'int unsigned', 'NO', null, ''],
];
const APT: SeedColumn[] = [
  ['MO_APT_FKL', 'bigint unsigned', 'YES', null, ''],
  ['MO_APT_FKL_DH', 'timestamp', 'YES', null, ''],
  ['MO_APT_PRODUCAO_FKL', 'bigint unsigned', 'YES', null, ''],
  ['MO_APT_PRODUCAO_FKL_DH', 'timestamp', 'YES', null, ''],
];
const COLUMNS: Record<keyof TableNames, SeedColumn[]> = {
  OPER: [
    ...COMMON,
    ['CODIGO', 'varchar(50)', 'YES', null, ''],
    ['DESCRICAO', 'varchar(250)', 'YES', null, ''],
    ['UNIDADE_MEDIDA_SEQ_DB', 'bigint unsigned', 'YES', null, ''],
    ['QIG_DISPLAY', 'tinyint unsigned', 'YES', '1', ''],
    ['REVISAO_DH', 'timestamp', 'YES', null, ''],
    ...APT,
    ['INDICE', 'decimal(11,2)', 'YES', null, ''],
  ],
  OPER_GRUPO: [
    ...COMMON,
    ['CODIGO', 'varchar(100)', 'YES', null, ''],
    ['DESCRICAO', 'varchar(250)', 'YES', null, ''],
    ['TIPO', 'char(1)', 'YES', "''", ''],
    ['OPER_GRUPO_SEQ_DB', 'bigint unsigned', 'YES', null, ''],
    ['REVISAO_DH', 'timestamp', 'YES', null, ''],
    ['ETAPA_SEQ_DB', 'bigint unsigned', 'YES', null, ''],
    ...APT,
  ],
  OPER_GRUPO_METRICA: [
    ...COMMON,
    ['OPER_SEQ_DB', 'bigint unsigned', 'YES', null, ''],
    ['OPER_GRUPO_SEQ_DB', 'bigint unsigned', 'YES', null, ''],
    ['FOLHA_TAREFA_SEQ_DB', 'bigint unsigned', 'YES', null, ''],
    ['METRICA1', 'decimal(10,2)', 'YES', null, ''],
    ['METRICA2', 'int', 'YES', null, ''],
  ],
  OPER_OPER_GRUPO: [
    ...COMMON,
    ['OPER_GRUPO_SEQ_DB', 'bigint unsigned', 'YES', null, ''],
    ['OPER_SEQ_DB', 'bigint unsigned', 'YES', null, ''],
    ['DESCRICAO', 'varchar(250)', 'YES', null, ''],
    ['REVISAO_DH', 'timestamp', 'YES', null, ''],
  ],
};

/** [column, referenced table, ON DELETE]: RESTRICT where the customer asks for it, else the SQL default. */
function seedForeignKeys(n: TableNames): Record<keyof TableNames, [string, string, string][]> {
  return {
    OPER: [['UNIDADE_MEDIDA_SEQ_DB', 'app_unidade_medida', 'NO ACTION']],
    OPER_GRUPO: [
      ['ETAPA_SEQ_DB', 'app_etapa', 'RESTRICT'],
      ['OPER_GRUPO_SEQ_DB', n.OPER_GRUPO, 'RESTRICT'],
    ],
    OPER_GRUPO_METRICA: [
      ['FOLHA_TAREFA_SEQ_DB', 'app_folha_tarefa', 'NO ACTION'],
      ['OPER_GRUPO_SEQ_DB', n.OPER_GRUPO, 'NO ACTION'],
      ['OPER_SEQ_DB', n.OPER, 'NO ACTION'],
    ],
    OPER_OPER_GRUPO: [
      ['OPER_GRUPO_SEQ_DB', n.OPER_GRUPO, 'NO ACTION'],
      ['OPER_SEQ_DB', n.OPER, 'NO ACTION'],
    ],
  };
}

const scratch = useScratchDatabase('schema-tables', { hostSchema: true });

async function createFromDefinitions(names: TableNames): Promise<void> {
  for (const table of expectedModel(createTables(names)))
    await scratch().db.execute(createTableStatement(table));
}

async function readColumns(table: string): Promise<SeedColumn[]> {
  const rows = await scratch().db.query<{
    name: string;
    columnType: string;
    dataType: string;
    nullable: 'YES' | 'NO';
    columnDefault: string | null;
    extra: string;
  }>(
    `SELECT COLUMN_NAME AS name, COLUMN_TYPE AS columnType, DATA_TYPE AS dataType, IS_NULLABLE AS nullable,
            COLUMN_DEFAULT AS columnDefault, EXTRA AS extra
       FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?`,
    [table],
  );
  return rows.map((row) => [
    row.name,
    normalizeColumnType(row.columnType),
    row.nullable,
    normalizeColumnDefault(row.columnDefault, row.dataType),
    hasAutoIncrement(row.extra)
      ? 'auto_increment'
      : hasOnUpdateCurrentTimestamp(row.extra)
        ? 'on update'
        : '',
  ]);
}

async function readUniqueKeys(table: string) {
  const rows = await scratch().db.query<{ name: string; columns: string }>(
    `SELECT INDEX_NAME AS name, GROUP_CONCAT(COLUMN_NAME ORDER BY SEQ_IN_INDEX) AS columns
       FROM information_schema.STATISTICS
      WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND NON_UNIQUE = 0
      GROUP BY INDEX_NAME ORDER BY INDEX_NAME`,
    [table],
  );
  return rows.map((row) => [row.name, row.columns]);
}

async function readForeignKeys(table: string) {
  return scratch().db.query<{
    name: string;
    column: string;
    refTable: string;
    refColumn: string;
    onDelete: string;
  }>(
    `SELECT k.CONSTRAINT_NAME AS name, k.COLUMN_NAME AS \`column\`, k.REFERENCED_TABLE_NAME AS refTable,
            k.REFERENCED_COLUMN_NAME AS refColumn, r.DELETE_RULE AS onDelete
       FROM information_schema.KEY_COLUMN_USAGE k
       JOIN information_schema.REFERENTIAL_CONSTRAINTS r
         ON r.CONSTRAINT_SCHEMA = k.CONSTRAINT_SCHEMA AND r.CONSTRAINT_NAME = k.CONSTRAINT_NAME
      WHERE k.TABLE_SCHEMA = DATABASE() AND k.TABLE_NAME = ? AND k.REFERENCED_TABLE_NAME IS NOT NULL
      ORDER BY k.COLUMN_NAME`,
    [table],
  );
}

const byName = (a: SeedColumn, b: SeedColumn) => a[0].localeCompare(b[0]);

describe.each([
  ['default names', tableNames()],
  [
    'overridden names',
    tableNames({
      OPER: 'MO_OPER',
      OPER_GRUPO: 'MO_OPER_GRUPO',
      OPER_GRUPO_METRICA: 'MO_OPER_GRUPO_METRICA',
      OPER_OPER_GRUPO: 'MO_OPER_MO_OPER_GRUPO',
    }),
  ],
])('the DDL derived from the tables, with %s, read back from information_schema', (_label, names) => {
  it('creates the four tables', async () => {
    await createFromDefinitions(names);
    const rows = await scratch().db.query<{ name: string }>(
      'SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN (?, ?, ?, ?)',
      Object.values(names),
    );
    expect(rows.map((row) => row.name).sort()).toEqual(Object.values(names).sort());
  });

  it.each(Object.keys(COLUMNS) as (keyof TableNames)[])(
    "%s: every column as the customer's layout says",
    async (logical) => {
      expect((await readColumns(names[logical])).sort(byName)).toEqual([...COLUMNS[logical]].sort(byName));
    },
  );

  it.each(Object.keys(COLUMNS) as (keyof TableNames)[])(
    '%s: primary key (EMPRESA, FILIAL, LOCAL, ID) and a unique key on SEQ_DB, nothing else unique',
    async (logical) => {
      expect(await readUniqueKeys(names[logical])).toEqual([
        ['PRIMARY', 'EMPRESA,FILIAL,LOCAL,ID'],
        ['uq_seq_db', 'SEQ_DB'],
      ]);
    },
  );

  it.each(Object.keys(COLUMNS) as (keyof TableNames)[])(
    "%s: the customer's foreign keys, named after the actual table",
    async (logical) => {
      const table = names[logical];
      expect(await readForeignKeys(table)).toEqual(
        seedForeignKeys(names)[logical].map(([column, refTable, onDelete]) => ({
          name: `fk_${table}_${column}`,
          column,
          refTable,
          refColumn: 'SEQ_DB',
          onDelete,
        })),
      );
    },
  );

  it('ON DELETE RESTRICT refuses deleting a parent group that a child group references', async () => {
    const { db } = scratch();
    const group = names.OPER_GRUPO;
    const insert = `INSERT INTO \`${group}\` (EMPRESA, FILIAL, LOCAL, ID, INS_USUARIO_SEQ_DB, OPER_GRUPO_SEQ_DB) VALUES (1, 1, 1, ?, 7, ?)`;
    const parent = await db.execute(insert, [1, null]);
    await db.execute(insert, [2, parent.insertId]);
    await expect(db.execute(`DELETE FROM \`${group}\` WHERE SEQ_DB = ?`, [parent.insertId])).rejects.toThrow(
      /foreign key constraint fails/,
    );
    const rows = await db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM \`${group}\``);
    expect(rows[0]?.n).toBe(2);
  });
});
