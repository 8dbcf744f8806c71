import { z } from 'zod';
import { HostText } from './host-text.js';
import { Identifier, parseIdentifier } from './identifier.js';
import { parseOrThrow } from './parse-or-throw.js';
import { HOST_SYSTEM_TABLES } from './table-names.js';

/** The OPCOES of the task-sheet link field, byte for byte, as the host's link field needs them. */
export const LINK_FIELD_OPCOES = 'type:GET_URL;url:associationtask;p1:taskSheet;v1:SEQ_DB;icon:fa fa-link';

/** The host table holding record-definition fields, where the link field is added. */
export const FIELD_TABLE = parseIdentifier(HOST_SYSTEM_TABLES.FIELDS, 'host table');

/** The columns of the link field's row that are the same in every installation (the customer fixed them). */
export const LINK_FIELD_COLUMNS = {
  TABELA_NOME: 'FOLHA_TAREFA',
  NOME: 'LINK_ATIVIDADE_METRICAS',
  SEQ: 11,
  SYS: 0,
  GRID: 0,
  GRID_MOBILE: 1,
  TIPO: 'LINK',
  OBRIGATORIO: null,
  TAMANHO: null,
  TAMANHO_DECIMAL: null,
  MASCARA: null,
  INSERT_UPDATE: 'IU',
  // A string: the host's column is text and compares DISABLED with '0'.
  DISABLED: '0',
  HINT: null,
  LINK: 'FOLHA_TAREFA',
  VALIDACAO: '',
  OPCOES: LINK_FIELD_OPCOES,
  VALOR_DEFAULT: null,
  VALIDACAO_VIEW: null,
  FILTRO_VIEW: null,
  TOOLTIP_MESSAGE: null,
  PROPERTIES: null,
} as const;

/** What varies per installation: the label shown, and the name of its send-to-mobile flag column. */
export const LinkFieldInput = z.strictObject({
  label: HostText.trim().min(1).max(100),
  mobileFlagColumn: Identifier.refine(
    (name) =>
      !['DESCRICAO', 'DESCRICAO_RESUMIDA', ...Object.keys(LINK_FIELD_COLUMNS)].includes(name.toUpperCase()),
    { message: "the send-to-mobile flag column must not be one of the row's other columns" },
  ),
});
export type LinkFieldInput = z.input<typeof LinkFieldInput>;

/** The whole sys_core_ds_tabela_campo row, keyed by column name. */
export type LinkFieldRow = typeof LINK_FIELD_COLUMNS & {
  readonly DESCRICAO: string;
  readonly DESCRICAO_RESUMIDA: string;
} & Readonly<Record<string, string | number | null>>;

/**
 * The task-sheet link field's row: label in DESCRICAO and DESCRICAO_RESUMIDA, 1 in the installation's
 * send-to-mobile flag column, nulls where the customer's row has null.
 *
 * @example linkFieldRow({ label: 'Activities', mobileFlagColumn: 'ENVIA_MOBILE' }).OPCOES // LINK_FIELD_OPCOES
 */
export function linkFieldRow(input: LinkFieldInput): LinkFieldRow {
  const { label, mobileFlagColumn } = parseOrThrow(
    LinkFieldInput,
    input,
    'INVALID_LINK_FIELD_INPUT',
    'cannot build the link field row',
  );
  const { TABELA_NOME, NOME, SEQ, SYS, GRID, GRID_MOBILE, ...rest } = LINK_FIELD_COLUMNS;
  // Built in the customer's column order, so a printed row reads like the customer's own listing.
  return {
    TABELA_NOME,
    NOME,
    SEQ,
    SYS,
    [mobileFlagColumn]: 1,
    GRID,
    GRID_MOBILE,
    DESCRICAO: label,
    DESCRICAO_RESUMIDA: label,
    ...rest,
  };
}
