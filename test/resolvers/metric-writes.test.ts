import { describe, expect, it } from 'vitest';
import { parseIdentifier } from '../../src/identifier.js';
import {
  insertStatement,
  lastIdStatement,
  lockKeysStatement,
  releaseStatement,
  scopeLockName,
  updateStatements,
} from '../../src/resolvers/metric-writes.js';

const table = parseIdentifier('app_oper_grupo_metrica', 'table');
const scope = { EMPRESA: 1, FILIAL: 2, LOCAL: 3 };
const column = (name: string) => parseIdentifier(name, 'column');
const flat = (sql: string) => sql.replace(/\s+/g, ' ');

const lock = { name: scopeLockName(table, scope), timeoutSeconds: 10 };
const lockName = "CONCAT('task_association:', SHA1(CONCAT(DATABASE(), '.', ?, ':', ?)))";

describe('lockKeysStatement', () => {
  it('takes the scope lock, then looks up exactly the keys, through the key index when there is one, NULL groups included', () => {
    const statement = lockKeysStatement(
      table,
      scope,
      42,
      [
        { activity: 7, group: 1 },
        { activity: 8, group: null },
      ],
      parseIdentifier('ix_metric_key', 'index'),
      lock,
    );
    expect(flat(statement.sql)).toBe(
      'SELECT STRAIGHT_JOIN l.locked, k.n, m.ID, m.RO, m.ATIVO, k.o AS OPER_SEQ_DB, k.g AS OPER_GRUPO_SEQ_DB ' +
        `FROM (SELECT GET_LOCK(${lockName}, ?) AS locked LIMIT 1) l JOIN JSON_TABLE(?, '$[*]' COLUMNS (n FOR ORDINALITY, o BIGINT PATH '$[0]', g BIGINT PATH '$[1]')) k ` +
        'LEFT JOIN `app_oper_grupo_metrica` m FORCE INDEX (`ix_metric_key`) ON l.locked = 1 AND m.EMPRESA = ? AND m.FILIAL = ? AND m.LOCAL = ? ' +
        'AND m.FOLHA_TAREFA_SEQ_DB = ? AND m.OPER_SEQ_DB = k.o AND m.OPER_GRUPO_SEQ_DB <=> k.g AND IFNULL(m.DELETED, 0) = 0 FOR UPDATE',
    );
    expect(statement.params).toEqual([
      'app_oper_grupo_metrica',
      '1/2/3',
      10,
      '[[7,1],[8,null]]',
      1,
      2,
      3,
      42,
    ]);
  });

  it('names no index when the table has none', () => {
    expect(
      lockKeysStatement(table, scope, 42, [{ activity: 7, group: 1 }], undefined, lock).sql,
    ).not.toContain('FORCE');
  });

  it('releases the same lock', () => {
    expect(releaseStatement(lock)).toEqual({
      sql: `SELECT RELEASE_LOCK(${lockName})`,
      params: ['app_oper_grupo_metrica', '1/2/3'],
    });
  });
});

describe('updateStatements', () => {
  it('updates one row by its key, and several rows writing the same columns in one joined statement', () => {
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
        sql: 'UPDATE `app_oper_grupo_metrica` SET `METRICA1` = ?, UPD_USUARIO_SEQ_DB = ? WHERE EMPRESA = ? AND FILIAL = ? AND LOCAL = ? AND ID = ?',
        params: ['1.50', 9, 1, 2, 3, 10],
      },
      {
        sql:
          'UPDATE (SELECT ? AS id, ? AS v0, ? AS v1 UNION ALL SELECT ?, ?, ? UNION ALL SELECT ?, ?, ?) v ' +
          'JOIN `app_oper_grupo_metrica` m ON m.EMPRESA = ? AND m.FILIAL = ? AND m.LOCAL = ? AND m.ID = v.id SET m.`METRICA1` = v.v0, m.`METRICA2` = v.v1, m.UPD_USUARIO_SEQ_DB = ?',
        params: [11, '2.50', 4, 12, '2.50', 4, 13, 5, 5, 1, 2, 3, 9],
      },
    ]);
  });

  it('releases the scope lock in the last statement when asked, from a derived table read before any row', () => {
    const one = new Map([[column('METRICA1'), '1.50']]);
    const statements = updateStatements(table, scope, 9, [{ ids: [10], values: one }], lock);
    expect(statements.map((statement) => ({ ...statement, sql: flat(statement.sql) }))).toEqual([
      {
        sql:
          `UPDATE (SELECT RELEASE_LOCK(${lockName}) AS released LIMIT 1) r JOIN (SELECT ? AS id, ? AS v0) v ` +
          'JOIN `app_oper_grupo_metrica` m ON m.EMPRESA = ? AND m.FILIAL = ? AND m.LOCAL = ? AND m.ID = v.id SET m.`METRICA1` = v.v0, m.UPD_USUARIO_SEQ_DB = ?',
        params: ['app_oper_grupo_metrica', '1/2/3', 10, '1.50', 1, 2, 3, 9],
      },
    ]);
  });

  it('plans nothing for no updates', () => {
    expect(updateStatements(table, scope, 9, [])).toEqual([]);
  });
});

describe('insertStatement and lastIdStatement', () => {
  it('inserts consecutive IDs, a column an entry leaves out as NULL', () => {
    const statement = insertStatement(table, scope, 9, 42, 100, [
      { activity: 7, group: 1, values: new Map([[column('METRICA1'), '1.00']]) },
      { activity: 8, group: 1, values: new Map([[column('METRICA2'), 3]]) },
    ]);
    expect(statement.sql).toBe(
      'INSERT INTO `app_oper_grupo_metrica` (EMPRESA, FILIAL, LOCAL, ID, INS_USUARIO_SEQ_DB, FOLHA_TAREFA_SEQ_DB, OPER_SEQ_DB, OPER_GRUPO_SEQ_DB, `METRICA1`, `METRICA2`) ' +
        'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    expect(statement.params).toEqual([
      1,
      2,
      3,
      100,
      9,
      42,
      7,
      1,
      '1.00',
      null,
      1,
      2,
      3,
      101,
      9,
      42,
      8,
      1,
      null,
      3,
    ]);
  });

  it('reads the scope’s last ID backwards through the primary key, locked', () => {
    expect(lastIdStatement(table, scope)).toEqual({
      sql: 'SELECT ID FROM `app_oper_grupo_metrica` WHERE EMPRESA = ? AND FILIAL = ? AND LOCAL = ? ORDER BY ID DESC LIMIT 1 FOR UPDATE',
      params: [1, 2, 3],
    });
  });
});
