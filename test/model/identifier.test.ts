import { describe, expect, it } from 'vitest';
import { IdentifierError } from '../../src/model/errors.js';
import { parseIdentifier, quoteIdentifier } from '../../src/model/identifier.js';

describe('parseIdentifier', () => {
  it.each(['app_oper', 'MO_OPER', 'MO_OPER_MO_OPER_GRUPO', '_x', 'a'.repeat(64)])('accepts %s', (name) => {
    expect(parseIdentifier(name, 'table name')).toBe(name);
    expect(quoteIdentifier(parseIdentifier(name, 'table name'))).toBe(`\`${name}\``);
  });

  it.each([
    ['app_oper; DROP TABLE x', '"app_oper; DROP TABLE x"'],
    ['app`oper', '"app`oper"'],
    ['', '""'],
    ['1app', '"1app"'],
    ['app-oper', '"app-oper"'],
    ['app oper', '"app oper"'],
    ['ação', '"ação"'],
  ])('refuses %j', (name, shown) => {
    expect(() => parseIdentifier(name, 'table name for OPER')).toThrowError(
      `table name for OPER ${shown} is not an SQL identifier: use 1 to 64 ASCII letters, digits and underscores, not starting with a digit`,
    );
  });

  it('says how long a name of 65 characters is', () => {
    const error = catchError(() => parseIdentifier('a'.repeat(65), 'table name for OPER', 'tableNames.OPER'));
    expect(error).toBeInstanceOf(IdentifierError);
    expect(error).toMatchObject({ code: 'INVALID_IDENTIFIER', path: 'tableNames.OPER' });
    expect((error as Error).message).toContain('(65 characters, at most 64)');
  });

  it('refuses values that are not strings', () => {
    expect(() => parseIdentifier(null, 'table name')).toThrowError(
      'table name a null is not an SQL identifier',
    );
    expect(() => parseIdentifier(42, 'table name')).toThrowError(
      'table name a number is not an SQL identifier',
    );
  });
});

function catchError(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}
