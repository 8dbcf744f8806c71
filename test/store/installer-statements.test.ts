import { describe, expect, it } from 'vitest';
import { parseIdentifier } from '../../src/model/identifier.js';
import {
  columnsStatement,
  foreignKeysStatement,
  indexesStatement,
  referencingKeysStatement,
  tableExistsStatement,
} from '../../src/store/information-schema.js';
import {
  LAST_INSERT_ID,
  LEDGER_ENTRIES,
  ledgerDeleteStatement,
  ledgerStatusStatement,
  ledgerWriteStatement,
} from '../../src/store/ledger.js';
import { holdsLock, installerLockName, lockedDatabase, releaseLock, takeLock } from '../../src/store/lock.js';
import { parameterRows } from '../../src/store/parameters.js';
import {
  anyRow,
  deleteStatement,
  dropTable,
  insertStatement,
  menuRowsBySeqDb,
  rowCount,
  rowsByScope,
  selectBySeqDb,
  selectWhere,
  TRANSACTION_END,
  TRANSACTION_START,
  updateStatement,
} from '../../src/store/row-statements.js';
import { createDatabaseStatement, dropDatabaseStatement } from '../../src/store/scratch.js';
import { liveTaskSheets } from '../../src/store/tree-reads.js';

// The exact text and parameters of every statement the installer, the schema reader, the parameter
// reader and the scratch databases send, built without a database. Names are quoted identifiers,
// values parameters, each beside its placeholder.

const scope = { EMPRESA: 1, FILIAL: 2, LOCAL: 3 };
const shape = (statement: { sql: string; params: readonly unknown[] }) => ({
  sql: statement.sql.replace(/\s+/g, ' '),
  params: statement.params,
});

describe('the information_schema reader', () => {
  it('reads columns, indexes and foreign keys of the tables asked for, by parameter', () => {
    expect(shape(columnsStatement(['app_oper', 'MO_OPER']))).toMatchInlineSnapshot(`
      {
        "params": [
          "app_oper",
          "MO_OPER",
        ],
        "sql": "SELECT TABLE_NAME AS tableName, COLUMN_NAME AS name, COLUMN_TYPE AS columnType, DATA_TYPE AS dataType, IS_NULLABLE AS nullable, COLUMN_DEFAULT AS columnDefault, EXTRA AS extra, NUMERIC_PRECISION AS numericPrecision, NUMERIC_SCALE AS numericScale, CHARACTER_MAXIMUM_LENGTH AS maxLength, CHARACTER_OCTET_LENGTH AS octetLength, COLLATION_NAME AS collation, COLUMN_COMMENT AS comment, @@lower_case_table_names AS foldsNames, @@version LIKE '%MariaDB%' AS mariaDb FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN (?, ?) ORDER BY TABLE_NAME, ORDINAL_POSITION",
      }
    `);
    expect(shape(indexesStatement(['app_oper']))).toMatchInlineSnapshot(`
      {
        "params": [
          "app_oper",
        ],
        "sql": "SELECT TABLE_NAME AS tableName, INDEX_NAME AS name, NON_UNIQUE AS nonUnique, COLUMN_NAME AS \`column\` FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN (?) ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX",
      }
    `);
    expect(shape(foreignKeysStatement(['app_oper']))).toMatchInlineSnapshot(`
      {
        "params": [
          "app_oper",
        ],
        "sql": "SELECT k.TABLE_NAME AS tableName, k.CONSTRAINT_NAME AS name, k.COLUMN_NAME AS \`column\`, k.REFERENCED_TABLE_NAME AS referencedTable, k.REFERENCED_COLUMN_NAME AS referencedColumn, r.DELETE_RULE AS onDelete, r.UPDATE_RULE AS onUpdate FROM information_schema.KEY_COLUMN_USAGE k JOIN information_schema.REFERENTIAL_CONSTRAINTS r ON r.CONSTRAINT_SCHEMA = k.CONSTRAINT_SCHEMA AND r.CONSTRAINT_NAME = k.CONSTRAINT_NAME AND r.TABLE_NAME = k.TABLE_NAME WHERE k.TABLE_SCHEMA = DATABASE() AND k.TABLE_NAME IN (?) AND k.REFERENCED_TABLE_NAME IS NOT NULL ORDER BY k.TABLE_NAME, k.CONSTRAINT_NAME, k.ORDINAL_POSITION",
      }
    `);
    expect(shape(referencingKeysStatement('app_oper'))).toMatchInlineSnapshot(`
      {
        "params": [
          "app_oper",
        ],
        "sql": "SELECT DISTINCT TABLE_NAME AS t, CONSTRAINT_NAME AS c, REFERENCED_TABLE_NAME AS r, @@lower_case_table_names AS folds FROM information_schema.KEY_COLUMN_USAGE WHERE REFERENCED_TABLE_SCHEMA = DATABASE() AND REFERENCED_TABLE_NAME = ? ORDER BY t, c",
      }
    `);
    expect(shape(tableExistsStatement('app_oper'))).toMatchInlineSnapshot(`
      {
        "params": [
          "app_oper",
        ],
        "sql": "SELECT 1 FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?",
      }
    `);
  });
});

describe("the installer's row statements", () => {
  it('inserts, updates, deletes and finds host rows by SEQ_DB or by their values', () => {
    expect(shape(insertStatement('sys_core_menu', { NOME: 'Tarefas', ORDEM: 3 }))).toMatchInlineSnapshot(`
      {
        "params": [
          "Tarefas",
          3,
        ],
        "sql": "INSERT INTO \`sys_core_menu\` (\`NOME\`, \`ORDEM\`) VALUES (?, ?)",
      }
    `);
    expect(shape(updateStatement('sys_core_menu', 9, { NOME: 'Tarefas', ATIVO: 1 }))).toMatchInlineSnapshot(`
      {
        "params": [
          "Tarefas",
          1,
          9,
        ],
        "sql": "UPDATE \`sys_core_menu\` SET \`NOME\` = ?, \`ATIVO\` = ? WHERE SEQ_DB = ?",
      }
    `);
    expect(shape(deleteStatement('sys_core_menu', 9))).toMatchInlineSnapshot(`
      {
        "params": [
          9,
        ],
        "sql": "DELETE FROM \`sys_core_menu\` WHERE SEQ_DB = ?",
      }
    `);
    expect(shape(selectBySeqDb('sys_core_menu', [9, 10]))).toMatchInlineSnapshot(`
      {
        "params": [
          9,
          10,
        ],
        "sql": "SELECT * FROM \`sys_core_menu\` WHERE SEQ_DB IN (?, ?)",
      }
    `);
    expect(shape(selectWhere('sys_core_menu', { URL: 'parte_diaria', EMPRESA: 1 }))).toMatchInlineSnapshot(`
      {
        "params": [
          "parte_diaria",
          1,
        ],
        "sql": "SELECT * FROM \`sys_core_menu\` WHERE \`URL\` = ? AND \`EMPRESA\` = ? ORDER BY SEQ_DB",
      }
    `);
    expect(shape(menuRowsBySeqDb([4], true))).toMatchInlineSnapshot(`
      {
        "params": [
          4,
        ],
        "sql": "SELECT SEQ_DB, EMPRESA, FILIAL, LOCAL FROM \`sys_core_menu\` WHERE SEQ_DB IN (?)",
      }
    `);
    expect(shape(menuRowsBySeqDb([4, 5], false))).toMatchInlineSnapshot(`
      {
        "params": [
          4,
          5,
        ],
        "sql": "SELECT SEQ_DB FROM \`sys_core_menu\` WHERE SEQ_DB IN (?, ?)",
      }
    `);
    expect([TRANSACTION_START, TRANSACTION_END].map(shape)).toMatchInlineSnapshot(`
      [
        {
          "params": [],
          "sql": "START TRANSACTION",
        },
        {
          "params": [],
          "sql": "COMMIT",
        },
      ]
    `);
  });

  it('checks and drops one of our tables', () => {
    expect(shape(anyRow('MO_OPER'))).toMatchInlineSnapshot(`
      {
        "params": [],
        "sql": "SELECT 1 FROM \`MO_OPER\` LIMIT 1",
      }
    `);
    expect(shape(dropTable('MO_OPER'))).toMatchInlineSnapshot(`
      {
        "params": [],
        "sql": "DROP TABLE \`MO_OPER\`",
      }
    `);
  });

  it("counts a shared table's rows, per scope or in all, for status", () => {
    expect(shape(rowsByScope('task_association_history'))).toMatchInlineSnapshot(`
      {
        "params": [],
        "sql": "SELECT EMPRESA, FILIAL, LOCAL, COUNT(*) AS n FROM \`task_association_history\` GROUP BY EMPRESA, FILIAL, LOCAL ORDER BY EMPRESA, FILIAL, LOCAL",
      }
    `);
    expect(shape(rowCount('task_association_history'))).toMatchInlineSnapshot(`
      {
        "params": [],
        "sql": "SELECT COUNT(*) AS n FROM \`task_association_history\`",
      }
    `);
    expect(() => rowsByScope('a`b')).toThrow(/not an SQL identifier/);
  });

  it('refuses a table or column name that is not an identifier, before any text is built', () => {
    expect(() => insertStatement('sys_core_menu', { 'NOME; DROP TABLE x': 1 })).toThrow(
      /not an SQL identifier/,
    );
    expect(() => dropTable('a`b')).toThrow(/not an SQL identifier/);
  });
});

describe('the ledger', () => {
  it('is created, upgraded, written, read and emptied with these statements', () => {
    expect(shape(LEDGER_ENTRIES)).toMatchInlineSnapshot(`
      {
        "params": [],
        "sql": "SELECT EMPRESA, FILIAL, LOCAL, ENTRY_KEY, HOST_TABLE, ROW_SEQ_DB FROM \`task_association_ledger\` ORDER BY SEQ_DB",
      }
    `);
    const entry = { scope, key: 'menu:activities', hostTable: 'sys_core_menu' };
    expect(shape(ledgerWriteStatement({ ...entry, rowSeqDb: 12 }, 77)).params).toEqual([
      1,
      2,
      3,
      'menu:activities',
      'sys_core_menu',
      12,
      77,
      expect.any(String),
    ]);
    const afterInsert = shape(ledgerWriteStatement({ ...entry, rowSeqDb: LAST_INSERT_ID }, 77));
    expect(afterInsert.sql).toMatchInlineSnapshot(
      `"INSERT INTO \`task_association_ledger\` (EMPRESA, FILIAL, LOCAL, ENTRY_KEY, HOST_TABLE, ROW_SEQ_DB, INS_USUARIO_SEQ_DB, PACKAGE_VERSION) VALUES (?, ?, ?, ?, ?, LAST_INSERT_ID(), ?, ?) ON DUPLICATE KEY UPDATE HOST_TABLE = VALUES(HOST_TABLE), ROW_SEQ_DB = VALUES(ROW_SEQ_DB), PACKAGE_VERSION = VALUES(PACKAGE_VERSION)"`,
    );
    expect(afterInsert.params.slice(0, -1)).toEqual([1, 2, 3, 'menu:activities', 'sys_core_menu', 77]);
    expect(shape(ledgerDeleteStatement(scope, 'menu:activities'))).toMatchInlineSnapshot(`
      {
        "params": [
          1,
          2,
          3,
          "menu:activities",
        ],
        "sql": "DELETE FROM \`task_association_ledger\` WHERE EMPRESA = ? AND FILIAL = ? AND LOCAL = ? AND ENTRY_KEY = ?",
      }
    `);
    expect(shape(ledgerStatusStatement(['UPD_DH', 'PACKAGE_VERSION']))).toMatchInlineSnapshot(`
      {
        "params": [],
        "sql": "SELECT EMPRESA, FILIAL, LOCAL, ENTRY_KEY, HOST_TABLE, ROW_SEQ_DB, INS_DH, UPD_DH, PACKAGE_VERSION FROM \`task_association_ledger\` ORDER BY EMPRESA, FILIAL, LOCAL, SEQ_DB",
      }
    `);
    expect(shape(ledgerStatusStatement([])).sql).not.toContain('UPD_DH');
  });
});

describe('locks, parameters and scratch databases', () => {
  it("names the installer lock after the server's name for the database, in lower case where it folds names", () => {
    expect(installerLockName(lockedDatabase('ERP', 1))).toBe(installerLockName(lockedDatabase('erp', 1)));
    expect(installerLockName(lockedDatabase('ERP', 2))).toBe('task_association_installer:erp');
    // Where the server keeps ERP and erp apart, they are two databases with a lock each.
    expect(lockedDatabase('ERP', 0)).toBe('ERP');
  });

  it('takes, checks and releases the installer lock by its name as a parameter', () => {
    expect(
      [takeLock('ta_lock'), holdsLock('ta_lock'), releaseLock('ta_lock')].map(shape),
    ).toMatchInlineSnapshot(`
      [
        {
          "params": [
            "ta_lock",
          ],
          "sql": "SELECT GET_LOCK(?, 0) AS acquired",
        },
        {
          "params": [
            "ta_lock",
          ],
          "sql": "SELECT IS_USED_LOCK(?) = CONNECTION_ID() AS mine",
        },
        {
          "params": [
            "ta_lock",
          ],
          "sql": "SELECT RELEASE_LOCK(?)",
        },
      ]
    `);
  });

  it("reads the scope's parameter rows of the names asked for", () => {
    expect(shape(parameterRows(scope, ['TREE_VIEW', 'ASSOCIATION_TASK_OPER']))).toMatchInlineSnapshot(`
      {
        "params": [
          1,
          2,
          3,
          "TREE_VIEW",
          "ASSOCIATION_TASK_OPER",
        ],
        "sql": "SELECT SEQ_DB, NOME, TIPO, CONTEUDO FROM \`sys_core_par_parametros\` WHERE EMPRESA = ? AND FILIAL = ? AND LOCAL = ? AND NOME IN (?, ?) ORDER BY SEQ_DB",
      }
    `);
  });

  it('creates and drops a scratch database, and lists the live task sheets of a scope', () => {
    const name = parseIdentifier('ta_scratch_1', 'database');
    expect([createDatabaseStatement(name), dropDatabaseStatement(name)].map(shape)).toMatchInlineSnapshot(`
      [
        {
          "params": [],
          "sql": "CREATE DATABASE \`ta_scratch_1\` CHARACTER SET utf8mb4",
        },
        {
          "params": [],
          "sql": "DROP DATABASE IF EXISTS \`ta_scratch_1\`",
        },
      ]
    `);
    expect(shape(liveTaskSheets(scope))).toMatchInlineSnapshot(`
      {
        "params": [
          1,
          2,
          3,
        ],
        "sql": "SELECT t.* FROM \`app_folha_tarefa\` t WHERE t.EMPRESA = ? AND t.FILIAL = ? AND t.LOCAL = ? AND IFNULL(t.DELETED, 0) = 0 AND IFNULL(t.ATIVO, 1) = 1 ORDER BY t.SEQ_DB",
      }
    `);
  });
});
