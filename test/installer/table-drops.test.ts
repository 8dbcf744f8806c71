import { describe, expect, it } from 'vitest';
import type { TableState } from '../../src/installer/state.js';
import { planTableDrops } from '../../src/installer/table-drops.js';
import type { Finding } from '../../src/model/findings.js';

// Which of its tables an uninstall drops, decided over what was read of them: no database here.
const scope = { EMPRESA: 1, FILIAL: 1, LOCAL: 1 };
const file = { scope, actingUser: 7 };
const created = (logical: string, table: string) => ({
  scope,
  key: `table:${logical}`,
  hostTable: table,
  rowSeqDb: null,
});
const mine = [
  created('OPER_GRUPO_METRICA', 'app_oper_grupo_metrica'),
  created('OPER_OPER_GRUPO', 'app_oper_n_oper_grupo'),
  created('OPER', 'app_oper'),
  created('OPER_GRUPO', 'app_oper_grupo'),
];
/** A server that keeps `MO_OPER` and `mo_oper` apart, without and with --force. */
const keepsCase = { force: false, foldsNames: false };
const keepsCaseForced = { force: true, foldsNames: false };
const state = (changes: Partial<TableState> = {}): TableState => ({
  exists: true,
  referencedBy: [],
  hasRows: false,
  ...changes,
});

describe('planTableDrops', () => {
  it('drops children before parents, keeps a table holding rows unless forced, forgets one that is gone', () => {
    const states = new Map([
      ['app_oper_grupo_metrica', state({ hasRows: true })],
      ['app_oper_n_oper_grupo', state({ exists: false })],
      // Pointed at by the link table and the metric table only: both go first.
      [
        'app_oper',
        state({
          referencedBy: [{ table: 'app_oper_grupo_metrica', constraint: 'fk_m_oper', foldsNames: false }],
        }),
      ],
      ['app_oper_grupo', state()],
    ]);
    const findings: Finding[] = [];
    const kept = planTableDrops(file, mine, mine, states, keepsCase, findings);
    // The metric table stays for its rows, so app_oper, which it points at, stays too.
    expect(kept.map((change) => `${change.kind} ${change.table}`)).toEqual([
      'forget task_association_ledger',
      'drop-table app_oper_grupo',
    ]);
    expect(findings.map((finding) => `${finding.code} ${finding.path}`)).toEqual([
      'TABLE_NOT_EMPTY app_oper_grupo_metrica',
      'TABLE_REFERENCED app_oper',
    ]);
    const forced = planTableDrops(file, mine, mine, states, keepsCaseForced, []);
    expect(forced.filter((change) => change.kind === 'drop-table').map((change) => change.table)).toEqual([
      'app_oper_grupo_metrica',
      'app_oper',
      'app_oper_grupo',
    ]);
  });

  it('hands a table another installation uses over to it, even when forced', () => {
    const other = {
      scope: { ...scope, EMPRESA: 2 },
      key: 'uses:OPER',
      hostTable: 'app_oper',
      rowSeqDb: null,
    };
    const states = new Map(mine.map((entry) => [entry.hostTable, state()]));
    const changes = planTableDrops(file, mine, [...mine, other], states, keepsCaseForced, []);
    const oper = changes.filter((change) => change.key === 'table:OPER');
    expect(oper.map((change) => change.kind)).toEqual(['forget']);
    expect(oper[0]?.message).toContain('installation 2/1/1 uses it');
  });

  it("tells a host's table apart from ours by case where the server does, and not where it folds names", () => {
    // A host table app_OPER_GRUPO_METRICA points at app_oper; ours, app_oper_grupo_metrica, goes first.
    const states = (foldsNames: boolean) =>
      new Map(
        mine.map((entry) => [
          entry.hostTable,
          state(
            entry.hostTable === 'app_oper'
              ? { referencedBy: [{ table: 'app_OPER_GRUPO_METRICA', constraint: 'fk_host', foldsNames }] }
              : {},
          ),
        ]),
      );
    const findings: Finding[] = [];
    const apart = planTableDrops(file, mine, mine, states(false), keepsCase, findings);
    expect(
      apart.filter((change) => change.kind === 'drop-table').map((change) => change.table),
    ).not.toContain('app_oper');
    expect(findings).toEqual([expect.objectContaining({ code: 'TABLE_REFERENCED', path: 'app_oper' })]);
    // Where the server folds names, that key is our metric table's own, dropped just before.
    const folded = planTableDrops(file, mine, mine, states(true), { force: false, foldsNames: true }, []);
    expect(folded.filter((change) => change.kind === 'drop-table').map((change) => change.table)).toContain(
      'app_oper',
    );
  });

  it('keeps a table another installation names in other case where the server folds names, even when forced, and hands it over under that name', () => {
    // Scope 2 uses our app_oper as APP_OPER: on a lower_case_table_names server, one table.
    const other = {
      scope: { ...scope, EMPRESA: 2 },
      key: 'uses:OPER',
      hostTable: 'APP_OPER',
      rowSeqDb: null,
    };
    const states = new Map(mine.map((entry) => [entry.hostTable, state({ hasRows: true })]));
    const folded = planTableDrops(
      file,
      mine,
      [...mine, other],
      states,
      { force: true, foldsNames: true },
      [],
    );
    const oper = folded.filter((change) => change.key === 'table:OPER');
    expect(oper.map((change) => change.kind)).toEqual(['forget']);
    // The heir records the table as it names it, so its own uninstall drops it.
    expect(oper[0]?.statements[0]?.params).toEqual([
      2,
      1,
      1,
      'table:OPER',
      'APP_OPER',
      null,
      7,
      expect.any(String),
    ]);
    expect(
      folded.filter((change) => change.kind === 'drop-table').map((change) => change.table),
    ).not.toContain('app_oper');
    // Where the server keeps them apart, APP_OPER is another table: ours goes.
    const apartDrops = planTableDrops(file, mine, [...mine, other], states, keepsCaseForced, []);
    expect(
      apartDrops.filter((change) => change.kind === 'drop-table').map((change) => change.table),
    ).toContain('app_oper');
  });
});
