import { describe, expect, it } from 'vitest';
import { hasIdentity, identityIn } from '../../src/installer/row-identity.js';

// How a row is recognised on a host whose table lacks some of the columns it is recognised by.
const identity = { EMPRESA: 1, FILIAL: 1, LOCAL: 1, TYPE: 'CRUD', FILTER: '{"allowed":["OPER"]}' };

describe('identityIn', () => {
  it('leaves out the scope columns a table lacks, and names any other it lacks', () => {
    const without =
      (...lacking: string[]) =>
      (column: string) =>
        !lacking.includes(column);
    expect(identityIn(identity, without())).toEqual({ values: identity, missing: [] });
    expect(identityIn(identity, without('LOCAL'))).toEqual({
      values: { EMPRESA: 1, FILIAL: 1, TYPE: 'CRUD', FILTER: '{"allowed":["OPER"]}' },
      missing: [],
    });
    expect(identityIn(identity, without('LOCAL', 'FILTER'))).toEqual({
      values: { EMPRESA: 1, FILIAL: 1, TYPE: 'CRUD' },
      missing: ['FILTER'],
    });
  });
});

describe('hasIdentity', () => {
  it("compares the columns the row's table has, in the host's spelling", () => {
    expect(
      hasIdentity({ SEQ_DB: 3, empresa: 1, Filial: 1, TYPE: 'CRUD', FILTER: identity.FILTER }, identity),
    ).toBe(true);
    expect(
      hasIdentity({ SEQ_DB: 3, EMPRESA: 2, FILIAL: 1, TYPE: 'CRUD', FILTER: identity.FILTER }, identity),
    ).toBe(false);
    // Without FILTER the row cannot be told from another menu of its TYPE.
    expect(hasIdentity({ SEQ_DB: 3, EMPRESA: 1, FILIAL: 1, LOCAL: 1, TYPE: 'CRUD' }, identity)).toBe(false);
  });
});
