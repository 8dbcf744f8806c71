import { describe, expect, it } from 'vitest';
import { type Identifier, parseIdentifier } from '../../src/model/identifier.js';
import { inScope, liveInScope, savedInScope, sql } from '../../src/store/sql.js';

const scope = { EMPRESA: 1, FILIAL: 2, LOCAL: 3 };

describe('the sql template', () => {
  it('turns each value into one placeholder and keeps the values in the order of their placeholders', () => {
    const statement = sql`SELECT * FROM t WHERE a = ${'x'} AND b IN (${sql.list([1, 2, 3])}) AND c = ${null}`;
    expect(statement.sql).toBe('SELECT * FROM t WHERE a = ? AND b IN (?, ?, ?) AND c = ?');
    expect(statement.params).toEqual(['x', 1, 2, 3, null]);
  });

  it('embeds a piece with its own parameters where it stands, however deep', () => {
    const inner = sql`x = ${1}`;
    const middle = sql`(${inner} OR y = ${2})`;
    const statement = sql`SELECT ${3} WHERE ${middle} AND z = ${4}`;
    expect(statement.sql).toBe('SELECT ? WHERE (x = ? OR y = ?) AND z = ?');
    expect(statement.params).toEqual([3, 1, 2, 4]);
  });

  it('quotes identifiers and never makes them parameters', () => {
    const statement = sql`SELECT ${sql.identifier(parseIdentifier('NOME', 'column'))} FROM ${sql.identifier(parseIdentifier('MO_OPER', 'table'))}`;
    expect(statement).toEqual({ sql: 'SELECT `NOME` FROM `MO_OPER`', params: [] });
  });

  it('refuses a name that is not an identifier before any text is built', () => {
    expect(() => sql.identifier('x`; DROP TABLE y' as Identifier)).toThrow(/identifier/i);
  });

  it('joins pieces with a separator, their parameters in order, and leaves nothing for empty', () => {
    const joined = sql.join([sql`a = ${1}`, sql`b = ${2}`, sql.raw('c IS NULL')], ' AND ');
    expect(joined).toEqual({ sql: 'a = ? AND b = ? AND c IS NULL', params: [1, 2] });
    expect(sql`SELECT 1${sql.empty}`).toEqual({ sql: 'SELECT 1', params: [] });
    expect(sql.list([9])).toEqual({ sql: '?', params: [9] });
  });

  it('filters by scope, live or saved, on one of our aliases', () => {
    expect(liveInScope('a', scope)).toEqual({
      sql: 'a.EMPRESA = ? AND a.FILIAL = ? AND a.LOCAL = ? AND IFNULL(a.DELETED, 0) = 0 AND IFNULL(a.ATIVO, 1) = 1',
      params: [1, 2, 3],
    });
    expect(savedInScope('m', scope)).toEqual({
      sql: 'm.EMPRESA = ? AND m.FILIAL = ? AND m.LOCAL = ? AND IFNULL(m.DELETED, 0) = 0',
      params: [1, 2, 3],
    });
    expect(inScope('m', scope)).toEqual({
      sql: 'm.EMPRESA = ? AND m.FILIAL = ? AND m.LOCAL = ?',
      params: [1, 2, 3],
    });
  });
});
