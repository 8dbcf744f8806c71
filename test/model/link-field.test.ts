import { describe, expect, it } from 'vitest';
import { buildLink, ConfigError, LINK_FIELD_OPCOES, linkFieldRow } from '../../src/model.js';

describe('linkFieldRow', () => {
  it("builds the link field's whole row in the customer's column order", () => {
    const row = linkFieldRow({ label: 'Atividades e métricas', mobileFlagColumn: 'ENVIA_MOBILE' });
    expect(row).toStrictEqual({
      TABELA_NOME: 'FOLHA_TAREFA',
      NOME: 'LINK_ATIVIDADE_METRICAS',
      SEQ: 11,
      SYS: 0,
      ENVIA_MOBILE: 1,
      GRID: 0,
      GRID_MOBILE: 1,
      DESCRICAO: 'Atividades e métricas',
      DESCRICAO_RESUMIDA: 'Atividades e métricas',
      TIPO: 'LINK',
      OBRIGATORIO: null,
      TAMANHO: null,
      TAMANHO_DECIMAL: null,
      MASCARA: null,
      INSERT_UPDATE: 'IU',
      DISABLED: '0',
      HINT: null,
      LINK: 'FOLHA_TAREFA',
      VALIDACAO: '',
      OPCOES: 'type:GET_URL;url:associationtask;p1:taskSheet;v1:SEQ_DB;icon:fa fa-link',
      VALOR_DEFAULT: null,
      VALIDACAO_VIEW: null,
      FILTRO_VIEW: null,
      TOOLTIP_MESSAGE: null,
      PROPERTIES: null,
    });
    expect(Object.keys(row)).toEqual([
      'TABELA_NOME',
      'NOME',
      'SEQ',
      'SYS',
      'ENVIA_MOBILE',
      'GRID',
      'GRID_MOBILE',
      'DESCRICAO',
      'DESCRICAO_RESUMIDA',
      'TIPO',
      'OBRIGATORIO',
      'TAMANHO',
      'TAMANHO_DECIMAL',
      'MASCARA',
      'INSERT_UPDATE',
      'DISABLED',
      'HINT',
      'LINK',
      'VALIDACAO',
      'OPCOES',
      'VALOR_DEFAULT',
      'VALIDACAO_VIEW',
      'FILTRO_VIEW',
      'TOOLTIP_MESSAGE',
      'PROPERTIES',
    ]);
  });

  it('opens associationtask for the task sheet', () => {
    expect(buildLink(LINK_FIELD_OPCOES, { SEQ_DB: 42 })).toBe('associationtask?taskSheet=42');
  });

  it.each([
    [
      { label: '', mobileFlagColumn: 'ENVIA_MOBILE' },
      'label: the text is empty: write something or leave the key out',
    ],
    [
      { label: 'x', mobileFlagColumn: 'ENVIA MOBILE' },
      'mobileFlagColumn: "ENVIA MOBILE" is not an SQL identifier',
    ],
    [
      { label: 'x', mobileFlagColumn: 'GRID' },
      "mobileFlagColumn: the send-to-mobile flag column must not be one of the row's other columns",
    ],
    [{ label: 'x' }, 'mobileFlagColumn: "mobileFlagColumn" is required'],
  ])('refuses %j', (input, message) => {
    expect(() => linkFieldRow(input as never)).toThrowError(ConfigError);
    expect(() => linkFieldRow(input as never)).toThrowError(message);
  });
});
