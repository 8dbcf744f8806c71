import { describe, expect, it } from 'vitest';
import { parseIdentifier } from '../../src/model/identifier.js';
import {
  forgetRequestStatement,
  historyRows,
  historyStatement,
  latestChanges,
  purgeRequestsStatement,
  requestRecordStatement,
} from '../../src/store/history.js';
import {
  lockKeysStatement,
  scopeLockName,
  scopeLockRowStatement,
  updateStatements,
} from '../../src/store/metric-writes.js';

const table = parseIdentifier('app_oper_grupo_metrica', 'table');
const scope = { EMPRESA: 1, FILIAL: 2, LOCAL: 3 };
const flat = (sql: string) => sql.replace(/\s+/g, ' ');
const lock = { name: scopeLockName(table, scope), timeoutSeconds: 1 };
const lockName = "CONCAT('task_association:', SHA1(CONCAT(DATABASE(), '.', ?, ':', ?)))";
const at = new Date('2026-11-26T12:00:00Z');

describe('historyStatement', () => {
  it('inserts every change of a save from one JSON table, a new row found by its live key, and lets go of the lock first', () => {
    const statement = historyStatement(
      { metricTable: table, scope, taskSheet: 42, user: 7, source: 'screen', requestId: 'r-1', at },
      [
        {
          row: 10,
          activity: 3,
          group: 1,
          field: parseIdentifier('METRICA1', 'f'),
          action: 'update',
          old: '1.00',
          new: '2.00',
          deviceAt: null,
        },
        {
          row: null,
          activity: 4,
          group: null,
          field: parseIdentifier('METRICA2', 'f'),
          action: 'insert',
          old: null,
          new: '5',
          deviceAt: 1_795_685_400,
        },
      ],
      lock,
    );
    expect(flat(statement.sql)).toBe(
      'INSERT INTO `task_association_history` (EMPRESA, FILIAL, LOCAL, METRIC_TABLE, ROW_SEQ_DB, FOLHA_TAREFA_SEQ_DB, OPER_SEQ_DB, OPER_GRUPO_SEQ_DB, FIELD, ACTION, OLD_VALUE, NEW_VALUE, USUARIO_SEQ_DB, CHANGED_DH, SOURCE, REQUEST_ID, DEVICE_DH) ' +
        'SELECT ?, ?, ?, ?, IFNULL(c.s, m.SEQ_DB), ?, c.o, c.g, c.f, c.a, c.ov, c.nv, ?, ?, ?, ?, FROM_UNIXTIME(c.d) ' +
        `FROM (SELECT RELEASE_LOCK(${lockName}) AS released LIMIT 1) r JOIN ` +
        "JSON_TABLE(?, '$[*]' COLUMNS (s BIGINT PATH '$[0]', o BIGINT PATH '$[1]', g BIGINT PATH '$[2]', f VARCHAR(64) PATH '$[3]', a VARCHAR(10) PATH '$[4]', ov LONGTEXT PATH '$[5]', nv LONGTEXT PATH '$[6]', d BIGINT PATH '$[7]')) c " +
        'LEFT JOIN `app_oper_grupo_metrica` m ON c.s IS NULL AND m.EMPRESA = ? AND m.FILIAL = ? AND m.LOCAL = ? AND m.FOLHA_TAREFA_SEQ_DB = ? ' +
        'AND m.OPER_SEQ_DB = c.o AND m.OPER_GRUPO_SEQ_DB <=> c.g AND IFNULL(m.DELETED, 0) = 0',
    );
    expect(statement.params).toEqual([
      1,
      2,
      3,
      'app_oper_grupo_metrica',
      42,
      7,
      // Sent as our pools send a date, whatever pool runs it (see sql.ts).
      '2026-11-26 12:00:00.000',
      'screen',
      'r-1',
      'app_oper_grupo_metrica',
      '1/2/3',
      '[[10,3,1,"METRICA1","update","1.00","2.00",null],[null,4,null,"METRICA2","insert",null,"5",1795685400]]',
      1,
      2,
      3,
      42,
    ]);
  });

  it('keeps the lock without a release, and records no request id as NULL', () => {
    const statement = historyStatement(
      { metricTable: table, scope, taskSheet: 42, user: 7, source: 'api', requestId: undefined, at },
      [],
    );
    expect(statement.sql).not.toContain('RELEASE_LOCK');
    expect(statement.params.slice(5, 9)).toEqual([7, '2026-11-26 12:00:00.000', 'api', null]);
  });
});

describe('the request record', () => {
  it('records an id with its hash and answer, a plain INSERT that never lets go of the scope lock: a racing twin fails on the unique key and is retried', () => {
    expect(requestRecordStatement(scope, 'r-1', 'ab', '{}', 7)).toEqual({
      sql:
        'INSERT INTO `task_association_request` (EMPRESA, FILIAL, LOCAL, REQUEST_ID, BODY_HASH, ANSWER, USUARIO_SEQ_DB) ' +
        'VALUES (?, ?, ?, ?, ?, ?, ?)',
      params: [1, 2, 3, 'r-1', 'ab', '{}', 7],
    });
  });

  it('forgets one id of the scope past the retention, before it is recorded anew', () => {
    expect(forgetRequestStatement(scope, 'r-1')).toEqual({
      sql: 'DELETE FROM `task_association_request` WHERE EMPRESA = ? AND FILIAL = ? AND LOCAL = ? AND REQUEST_ID = ?',
      params: [1, 2, 3, 'r-1'],
    });
  });

  it('purges expired ids a bounded number at a time', () => {
    expect(purgeRequestsStatement(604800, 1000)).toEqual({
      sql: 'DELETE FROM `task_association_request` WHERE INS_DH < NOW() - INTERVAL ? SECOND LIMIT 1000',
      params: [604800],
    });
  });
});

describe('the readers', () => {
  it('reads one key’s history of one task sheet, scope and metric table, newest first', () => {
    const statement = historyRows(scope, table, 42, { activity: 3, group: null }, 100);
    expect(flat(statement.sql)).toBe(
      'SELECT h.SEQ_DB, h.ROW_SEQ_DB, h.OPER_SEQ_DB, h.OPER_GRUPO_SEQ_DB, h.FIELD, h.ACTION, h.OLD_VALUE, h.NEW_VALUE, h.USUARIO_SEQ_DB, h.CHANGED_DH, h.SOURCE, h.REQUEST_ID, h.DEVICE_DH ' +
        'FROM `task_association_history` h WHERE h.EMPRESA = ? AND h.FILIAL = ? AND h.LOCAL = ? AND h.FOLHA_TAREFA_SEQ_DB = ? AND h.METRIC_TABLE = ? ' +
        'AND h.OPER_SEQ_DB = ? AND h.OPER_GRUPO_SEQ_DB <=> ? ORDER BY h.SEQ_DB DESC LIMIT 100',
    );
    expect(statement.params).toEqual([1, 2, 3, 42, 'app_oper_grupo_metrica', 3, null]);
    expect(historyRows(scope, table, 42, undefined, 5).sql).not.toContain('OPER_SEQ_DB = ?');
  });

  it('reads the latest change of each conflicting field (of the live row, when given), locked: the latest committed, not the snapshot', () => {
    const statement = latestChanges(scope, table, 42, [[3, 1, 'METRICA1', 88]]);
    expect(flat(statement.sql)).toBe(
      'SELECT c.o, c.g, c.f, (SELECT JSON_ARRAY(h.USUARIO_SEQ_DB, h.CHANGED_DH) FROM `task_association_history` h WHERE h.EMPRESA = ? AND h.FILIAL = ? AND h.LOCAL = ? ' +
        'AND h.FOLHA_TAREFA_SEQ_DB = ? AND h.OPER_SEQ_DB = c.o AND h.OPER_GRUPO_SEQ_DB <=> c.g AND h.METRIC_TABLE = ? AND (c.f IS NULL OR h.FIELD = c.f) AND (c.r IS NULL OR h.ROW_SEQ_DB = c.r) ORDER BY h.SEQ_DB DESC LIMIT 1 LOCK IN SHARE MODE) AS latest ' +
        "FROM JSON_TABLE(?, '$[*]' COLUMNS (o BIGINT PATH '$[0]', g BIGINT PATH '$[1]', f VARCHAR(64) PATH '$[2]', r BIGINT PATH '$[3]')) c",
    );
    expect(statement.params).toEqual([1, 2, 3, 42, 'app_oper_grupo_metrica', '[[3,1,"METRICA1",88]]']);
  });
});

describe('the save’s locking read and writes, with bases and sources', () => {
  it('reads the keys’ metric columns under names of ours, their audit columns, the server’s time and an earlier answer, locked', () => {
    const statement = lockKeysStatement(table, scope, 42, [{ activity: 7, group: 1 }], undefined, undefined, {
      metrics: [parseIdentifier('METRICA1', 'f'), parseIdentifier('n', 'f')],
      replay: { requestId: 'r-1', retentionSeconds: 60 },
    });
    expect(flat(statement.sql)).toBe(
      'SELECT STRAIGHT_JOIN k.n, m.ID, m.RO, m.ATIVO, k.o AS OPER_SEQ_DB, k.g AS OPER_GRUPO_SEQ_DB, ' +
        'NOW() AS server_now, m.SEQ_DB, m.INS_USUARIO_SEQ_DB, m.INS_DH, m.UPD_USUARIO_SEQ_DB, m.UPD_DH, m.`METRICA1` AS v0, m.`n` AS v1, ' +
        'CASE WHEN k.n = 1 THEN (SELECT JSON_ARRAY(r.BODY_HASH, r.ANSWER, r.INS_DH > NOW() - INTERVAL ? SECOND) AS replay FROM `task_association_request` r WHERE r.EMPRESA = ? AND r.FILIAL = ? AND r.LOCAL = ? AND r.REQUEST_ID = ? LIMIT 1 FOR UPDATE) END AS replay ' +
        "FROM JSON_TABLE(?, '$[*]' COLUMNS (n FOR ORDINALITY, o BIGINT PATH '$[0]', g BIGINT PATH '$[1]')) k " +
        'LEFT JOIN `app_oper_grupo_metrica` m ON m.EMPRESA = ? AND m.FILIAL = ? AND m.LOCAL = ? AND m.FOLHA_TAREFA_SEQ_DB = ? ' +
        'AND m.OPER_SEQ_DB = k.o AND m.OPER_GRUPO_SEQ_DB <=> k.g AND IFNULL(m.DELETED, 0) = 0 FOR UPDATE',
    );
    expect(statement.params.slice(0, 5)).toEqual([60, 1, 2, 3, 'r-1']);
  });

  it('writes the source with the fields an update changes, and a remove as DELETED = 1', () => {
    const [update, remove] = updateStatements(
      table,
      scope,
      7,
      [
        { ids: [10], values: new Map([[parseIdentifier('METRICA1', 'f'), '2.00']]) },
        { ids: [11], values: new Map([[parseIdentifier('DELETED', 'f'), 1]]) },
      ],
      undefined,
      'screen',
    );
    expect(flat(update?.sql ?? '')).toContain(
      'SET m.`METRICA1` = v.v0, m.UPD_USUARIO_SEQ_DB = ?, m.SOURCE = ?',
    );
    expect(flat(remove?.sql ?? '')).toContain(
      'SET m.`DELETED` = v.v0, m.UPD_USUARIO_SEQ_DB = ?, m.SOURCE = ?',
    );
    expect(remove?.params.slice(-2)).toEqual([7, 'screen']);
  });
});

describe('the save’s lock on a Galera cluster', () => {
  it('writes the scope’s lock row, named by database, metric table and scope, waiting a second at most for a writer on the same node', () => {
    expect(scopeLockRowStatement(table, scope)).toEqual({
      sql:
        '/*M! SET STATEMENT innodb_lock_wait_timeout = 1 FOR */ INSERT INTO `task_association_lock` (EMPRESA, FILIAL, LOCAL, LOCK_NAME, N) ' +
        "VALUES (?, ?, ?, CONCAT('save:', SHA1(CONCAT(DATABASE(), '.', ?, ':', ?))), 1) ON DUPLICATE KEY UPDATE N = N + 1",
      params: [1, 2, 3, 'app_oper_grupo_metrica', '1/2/3'],
    });
  });
});
