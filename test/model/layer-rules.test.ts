import { describe, expect, it } from 'vitest';
import { conventionalColumn, layerRuleIssues } from '../../src/model/layer-rules.js';

describe('conventionalColumn', () => {
  it.each([
    ['app_oper_grupo', 'OPER_GRUPO_SEQ_DB'],
    ['app_oper', 'OPER_SEQ_DB'],
    ['MO_OPER', 'OPER_SEQ_DB'],
    ['mo_oper_grupo', 'OPER_GRUPO_SEQ_DB'],
    ['APP_etapa', 'ETAPA_SEQ_DB'],
    ['folha_app_x', 'FOLHA_APP_X_SEQ_DB'],
    ['app_app_oper', 'APP_OPER_SEQ_DB'],
  ])('%s → %s', (table, column) => {
    expect(conventionalColumn(table)).toBe(column);
  });
});

describe('layerRuleIssues', () => {
  it('leaves values that are not objects to the type check', () => {
    expect(layerRuleIssues([])).toStrictEqual([]);
    expect(layerRuleIssues(null)).toStrictEqual([]);
    expect(layerRuleIssues('1')).toStrictEqual([]);
  });

  it('gives paths relative to layers', () => {
    expect(layerRuleIssues({ '1': { table: 't' } })).toStrictEqual([
      {
        code: 'MISSING_TASK_LAYER',
        path: ['1', 'isTask'],
        message: 'the last layer (1) is the task level: give it "isTask": true',
      },
    ]);
  });
});
