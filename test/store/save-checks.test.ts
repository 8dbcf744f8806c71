import { describe, expect, it } from 'vitest';
import { checkParts, IN_LIST_CHUNK, isIn, UNCUT_AGGREGATES } from '../../src/store/save-checks.js';
import { sql } from '../../src/store/sql.js';
import { DEFAULT_PLAN, THREE_LEVEL_PLAN } from '../tree/fixture.js';

const scope = { EMPRESA: 1, FILIAL: 2, LOCAL: 3 };
const defaultPlan = DEFAULT_PLAN;
const threeLevels = THREE_LEVEL_PLAN;
const keys = [{ activity: 7, group: 1 }];
const everyColumn = new Set(['SEQ_DB', 'EMPRESA', 'FILIAL', 'LOCAL', 'DELETED', 'ATIVO']);
const placeholders = (sql: string) => sql.split('?').length - 1;

describe('checkParts', () => {
  it('carries as many parameters as its text has placeholders, on the default tree and on a TREE_VIEW', () => {
    for (const plan of [defaultPlan, threeLevels]) {
      const parts = checkParts(plan, scope, 42, everyColumn, keys, [1]);
      const whole = sql`${parts.with ?? sql.empty}${parts.columns}`;
      expect(placeholders(whole.sql)).toBe(whole.params.length);
    }
  });

  it('checks the task sheet by the scope and flag columns the host table has, and by no other', () => {
    const parts = checkParts(defaultPlan, scope, 42, new Set(['SEQ_DB', 'FILIAL', 'ATIVO']), keys, [1]);
    const sheet = /\(SELECT 1 FROM `app_folha_tarefa` t WHERE (.*?) LIMIT 1\) AS sheet_ok/.exec(
      parts.columns.sql,
    );
    expect(sheet?.[1]).toBe('t.SEQ_DB = ? AND t.FILIAL = ? AND IFNULL(t.ATIVO, 1) = 1');
    expect(parts.columns.params.slice(0, 2)).toEqual([42, 2]);
  });

  it('gathers only the batch’s own (activity, node) links, found by activity, and raises MariaDB’s aggregate limit for the statement', () => {
    const parts = checkParts(
      defaultPlan,
      scope,
      42,
      everyColumn,
      [
        { activity: 7, group: 1 },
        { activity: 8, group: 2 },
      ],
      [1, 2],
    );
    expect(parts.columns.sql).toContain(
      "a.`OPER_SEQ_DB` IN (?, ?) AND CONCAT(a.`OPER_SEQ_DB`, ':', a.`OPER_GRUPO_SEQ_DB`) IN (?, ?)) END AS linked",
    );
    expect(parts.columns.params).toEqual(expect.arrayContaining(['7:1', '8:2']));
    expect(parts.prefix).toBe(UNCUT_AGGREGATES);
    // An executable comment: MariaDB runs it, MySQL (whose JSON_ARRAYAGG has no such limit) skips it.
    expect(parts.prefix.sql).toBe('/*M! SET STATEMENT group_concat_max_len = 4294967295 FOR */ ');
  });

  it('walks up from the batch nodes only: no walk without nodes, one link level per TREE_VIEW level', () => {
    expect(checkParts(defaultPlan, scope, 42, everyColumn, keys, []).with).toBeUndefined();
    const walk = checkParts(threeLevels, scope, 42, everyColumn, keys, [1, 2, 3]);
    expect(walk.with?.sql).toMatch(/^l1 \(c, p\) AS \(SELECT STRAIGHT_JOIN .* IN \(\?, \?, \?, \?\)\)/);
    // The batch's three nodes as constants, padded to four with the last.
    expect(walk.with?.params.slice(-4)).toEqual([1, 2, 3, 3]);
    expect(walk.with?.sql).toContain('s0 (id) AS (SELECT DISTINCT p FROM l1)');
    expect(walk.columns.sql).toContain(' AS w1');
    expect(walk.columns.sql).toContain(' AS w0');
  });
});

describe('isIn', () => {
  it('pads the list to the next power of two with its last id, so that its text takes few forms', () => {
    expect(isIn(sql.raw('a.X'), [5])).toEqual({ sql: 'a.X IN (?)', params: [5] });
    expect(isIn(sql.raw('a.X'), [5, 6, 7])).toEqual({ sql: 'a.X IN (?, ?, ?, ?)', params: [5, 6, 7, 7] });
    expect(isIn(sql.raw('a.X'), [1, 2, 3, 4]).params).toEqual([1, 2, 3, 4]);
  });

  it(`cuts more than ${IN_LIST_CHUNK} ids into lists of ${IN_LIST_CHUNK} joined by OR, none long enough for MariaDB to make a subquery of`, () => {
    const ids = Array.from({ length: 1000 }, (_, index) => index + 1);
    const { sql: text, params } = isIn(sql.raw('a.X'), ids);
    const lists = text.match(/a\.X IN \(([?, ]+)\)/g) ?? [];
    expect(lists).toHaveLength(2);
    for (const list of lists) expect(list.split('?').length - 1).toBe(IN_LIST_CHUNK);
    expect(text).toMatch(/^\(a\.X IN \(.*\) OR a\.X IN \(.*\)\)$/);
    // Every id once, the second list padded with its last.
    expect(params.slice(0, 1000)).toEqual(ids);
    expect(new Set(params.slice(1000))).toEqual(new Set([1000]));
  });
});
