import { describe, expect, it } from 'vitest';
import { parseIdentifier } from '../../src/model/identifier.js';
import {
  insertStatement,
  insertStatements,
  lockKeysStatement,
  readBackStatement,
  releaseStatement,
  scopeLockName,
  takeLockStatement,
  updateStatements,
} from '../../src/store/metric-writes.js';

const table = parseIdentifier('app_oper_grupo_metrica', 'table');
const scope = { EMPRESA: 1, FILIAL: 2, LOCAL: 3 };
const column = (name: string) => parseIdentifier(name, 'column');
const flat = (sql: string) => sql.replace(/\s+/g, ' ');

const lock = { name: scopeLockName(table, scope), timeoutSeconds: 10 };
const lockName = "CONCAT('task_association:', SHA1(CONCAT(DATABASE(), '.', ?, ':', ?)))";

describe('lockKeysStatement', () => {
  it('looks up exactly the keys, through the key index when there is one, NULL groups included', () => {
    const statement = lockKeysStatement(
      table,
      scope,
      42,
      [
        { activity: 7, group: 1 },
        { activity: 8, group: null },
      ],
      parseIdentifier('ix_metric_key', 'index'),
    );
    expect(flat(statement.sql)).toBe(
      'SELECT STRAIGHT_JOIN k.n, m.ID, m.RO, m.ATIVO, k.o AS OPER_SEQ_DB, k.g AS OPER_GRUPO_SEQ_DB ' +
        "FROM JSON_TABLE(?, '$[*]' COLUMNS (n FOR ORDINALITY, o BIGINT PATH '$[0]', g BIGINT PATH '$[1]')) k " +
        'LEFT JOIN `app_oper_grupo_metrica` m FORCE INDEX (`ix_metric_key`) ON m.EMPRESA = ? AND m.FILIAL = ? AND m.LOCAL = ? ' +
        'AND m.FOLHA_TAREFA_SEQ_DB = ? AND m.OPER_SEQ_DB = k.o AND m.OPER_GRUPO_SEQ_DB <=> k.g AND IFNULL(m.DELETED, 0) = 0 FOR UPDATE',
    );
    expect(statement.params).toEqual(['[[7,1],[8,null]]', 1, 2, 3, 42]);
    // The scope's lock is taken before, in a statement of its own (takeLockStatement).
    expect(statement.sql).not.toContain('GET_LOCK');
  });

  it('names no index when the table has none', () => {
    expect(lockKeysStatement(table, scope, 42, [{ activity: 7, group: 1 }], undefined).sql).not.toContain(
      'FORCE',
    );
  });

  it('takes the scope lock in a statement that reads no table, and releases the same lock', () => {
    expect(takeLockStatement(lock)).toEqual({
      sql: `SELECT GET_LOCK(${lockName}, ?) AS locked`,
      params: ['app_oper_grupo_metrica', '1/2/3', 10],
    });
    expect(releaseStatement(lock)).toEqual({
      sql: `SELECT RELEASE_LOCK(${lockName})`,
      params: ['app_oper_grupo_metrica', '1/2/3'],
    });
  });
});

describe('updateStatements', () => {
  it('updates rows by primary key, one statement per set of columns, their values in one JSON table', () => {
    const one = new Map([[column('METRICA1'), '1.50']]);
    const both = new Map<ReturnType<typeof column>, string | number>([
      [column('METRICA1'), '2.50'],
      [column('METRICA2'), 4],
    ]);
    const statements = updateStatements(table, scope, 9, [
      { ids: [10], values: one },
      { ids: [11, 12], values: both },
      {
        ids: [13],
        values: new Map<ReturnType<typeof column>, string | number>([...both].map(([k]) => [k, 5])),
      },
    ]);
    expect(statements.map((statement) => ({ ...statement, sql: flat(statement.sql) }))).toEqual([
      {
        sql:
          "UPDATE JSON_TABLE(?, '$[*]' COLUMNS (id BIGINT PATH '$[0]', v0 LONGTEXT PATH '$[1]')) v " +
          'JOIN `app_oper_grupo_metrica` m ON m.EMPRESA = ? AND m.FILIAL = ? AND m.LOCAL = ? AND m.ID = v.id SET m.`METRICA1` = v.v0, m.UPD_USUARIO_SEQ_DB = ?',
        params: ['[[10,"1.50"]]', 1, 2, 3, 9],
      },
      {
        sql:
          "UPDATE JSON_TABLE(?, '$[*]' COLUMNS (id BIGINT PATH '$[0]', v0 LONGTEXT PATH '$[1]', v1 LONGTEXT PATH '$[2]')) v " +
          'JOIN `app_oper_grupo_metrica` m ON m.EMPRESA = ? AND m.FILIAL = ? AND m.LOCAL = ? AND m.ID = v.id SET m.`METRICA1` = v.v0, m.`METRICA2` = v.v1, m.UPD_USUARIO_SEQ_DB = ?',
        params: ['[[11,"2.50",4],[12,"2.50",4],[13,5,5]]', 1, 2, 3, 9],
      },
    ]);
  });

  it('releases the scope lock in the last statement when asked, from a derived table read before any row', () => {
    const one = new Map([[column('METRICA1'), '1.50']]);
    const statements = updateStatements(table, scope, 9, [{ ids: [10], values: one }], lock);
    expect(statements.map((statement) => ({ ...statement, sql: flat(statement.sql) }))).toEqual([
      {
        sql:
          `UPDATE (SELECT RELEASE_LOCK(${lockName}) AS released LIMIT 1) r JOIN JSON_TABLE(?, '$[*]' COLUMNS (id BIGINT PATH '$[0]', v0 LONGTEXT PATH '$[1]')) v ` +
          'JOIN `app_oper_grupo_metrica` m ON m.EMPRESA = ? AND m.FILIAL = ? AND m.LOCAL = ? AND m.ID = v.id SET m.`METRICA1` = v.v0, m.UPD_USUARIO_SEQ_DB = ?',
        params: ['app_oper_grupo_metrica', '1/2/3', '[[10,"1.50"]]', 1, 2, 3, 9],
      },
    ]);
  });

  it('plans nothing for no updates', () => {
    expect(updateStatements(table, scope, 9, [])).toEqual([]);
  });
});

describe('insertStatements', () => {
  it('inserts numbered rows after the scope’s highest ID, read backwards in the same statement', () => {
    const [statement, ...more] = insertStatements(table, scope, 9, 42, [
      { activity: 7, group: 1, values: new Map([[column('METRICA1'), '1.00']]) },
      { activity: 8, group: null, values: new Map([[column('METRICA1'), null]]) },
    ]);
    expect(more).toEqual([]);
    expect(flat(statement?.sql ?? '')).toBe(
      'INSERT INTO `app_oper_grupo_metrica` (EMPRESA, FILIAL, LOCAL, ID, INS_USUARIO_SEQ_DB, FOLHA_TAREFA_SEQ_DB, OPER_SEQ_DB, OPER_GRUPO_SEQ_DB, `METRICA1`) ' +
        'SELECT ?, ?, ?, IFNULL(last.ID, 0) + v.n, ?, ?, v.o, v.g, v.v0 ' +
        "FROM JSON_TABLE(?, '$[*]' COLUMNS (n FOR ORDINALITY, o BIGINT PATH '$[0]', g BIGINT PATH '$[1]', v0 LONGTEXT PATH '$[2]')) v " +
        'LEFT JOIN (SELECT ID FROM `app_oper_grupo_metrica` WHERE EMPRESA = ? AND FILIAL = ? AND LOCAL = ? ORDER BY ID DESC LIMIT 1) last ON TRUE',
    );
    expect(statement?.params).toEqual([1, 2, 3, 9, 42, '[[7,1,"1.00"],[8,null,null]]', 1, 2, 3]);
  });

  it('names in each INSERT only the columns its entries send: a column an entry leaves out takes its default, never NULL', () => {
    const statements = insertStatements(table, scope, 9, 42, [
      { activity: 7, group: 1, values: new Map([[column('METRICA1'), '1.00']]) },
      { activity: 8, group: null, values: new Map([[column('METRICA2'), 3]]) },
      { activity: 9, group: 1, values: new Map([[column('METRICA1'), '2.00']]) },
    ]);
    expect(statements.map((statement) => /\(EMPRESA.*?\)/.exec(statement.sql)?.[0])).toEqual([
      '(EMPRESA, FILIAL, LOCAL, ID, INS_USUARIO_SEQ_DB, FOLHA_TAREFA_SEQ_DB, OPER_SEQ_DB, OPER_GRUPO_SEQ_DB, `METRICA1`)',
      '(EMPRESA, FILIAL, LOCAL, ID, INS_USUARIO_SEQ_DB, FOLHA_TAREFA_SEQ_DB, OPER_SEQ_DB, OPER_GRUPO_SEQ_DB, `METRICA2`)',
    ]);
    expect(statements.map((statement) => statement.params[5])).toEqual([
      '[[7,1,"1.00"],[9,1,"2.00"]]',
      '[[8,null,3]]',
    ]);
  });

  it('refuses, as a programming error, one INSERT of entries that write different columns', () => {
    expect(() =>
      insertStatement(table, scope, 9, 42, [
        { activity: 7, group: 1, values: new Map([[column('METRICA1'), '1.00']]) },
        { activity: 8, group: null, values: new Map([[column('METRICA2'), 3]]) },
      ]),
    ).toThrow(/same columns/);
  });
});

describe('readBackStatement', () => {
  it('reads the named columns of the keys’ live rows, numbered as the keys', () => {
    const statement = readBackStatement(
      table,
      scope,
      42,
      [{ activity: 7, group: null }],
      [column('METRICA2')],
    );
    expect(flat(statement.sql)).toBe(
      "SELECT k.n, m.`METRICA2` AS v0 FROM JSON_TABLE(?, '$[*]' COLUMNS (n FOR ORDINALITY, o BIGINT PATH '$[0]', g BIGINT PATH '$[1]')) k " +
        'JOIN `app_oper_grupo_metrica` m ON m.EMPRESA = ? AND m.FILIAL = ? AND m.LOCAL = ? AND m.FOLHA_TAREFA_SEQ_DB = ? AND m.OPER_SEQ_DB = k.o AND m.OPER_GRUPO_SEQ_DB <=> k.g AND IFNULL(m.DELETED, 0) = 0 ORDER BY k.n, m.ID',
    );
    expect(statement.params).toEqual(['[[7,null]]', 1, 2, 3, 42]);
  });
});
