import { type Identifier, parseIdentifier } from '../identifier.js';
import { LOGICAL_TABLES, OVERRIDE_PARAMETERS } from '../table-names.js';
import type { RowValues } from './fit-row.js';
import type { InstallFile } from './install-file.js';

export const MENU_TABLE = parseIdentifier('sys_core_menu', 'host table');
export const FIELD_TABLE = parseIdentifier('sys_core_ds_tabela_campo', 'host table');
export const PARAMETER_TABLE = parseIdentifier('sys_core_par_parametros', 'host table');
export const HOST_ROW_TABLES = [MENU_TABLE, FIELD_TABLE, PARAMETER_TABLE] as const;

/** A host row the installation needs, and how the installer treats it once it exists. */
export interface DesiredRow {
  /** The ledger key, stable across runs: `menu:activities`, `link-field`, `parameter:TREE_VIEW`. */
  readonly key: string;
  readonly table: Identifier;
  /** Values reconciled on every apply: the row is ours and must say exactly this. */
  readonly owned: RowValues;
  /** Values written when the row is created, then left to administrators unless `--force`. */
  readonly initial: RowValues;
  /** Columns that identify a row of the same meaning made by hand: reported and left alone. */
  readonly naturalKey?: RowValues;
  /** Shared by every installation of the database (the table has no scope columns). */
  readonly shared: boolean;
  /** For messages: `menu "Activities"`. */
  readonly what: string;
}

// Interim copies of the seed values until src/config's builders are merged (issue 3).
const LINK_FIELD_OPCOES = 'type:GET_URL;url:associationtask;p1:taskSheet;v1:SEQ_DB;icon:fa fa-link';
const REPORT_URL = 'reports/parte_diaria/filters';

/** Every row of seed 2.6 to 2.9 the install file asks for, in the order they are written. */
export function desiredRows(file: InstallFile, mobileFlagColumn: string): DesiredRow[] {
  const { scope } = file;
  const menu = (
    key: string,
    placement: InstallFile['menus']['report'],
    fixed: { DESCRICAO: string; TYPE: string; URL: string | null; FILTER: string | null },
  ): DesiredRow => ({
    key: `menu:${key}`,
    table: MENU_TABLE,
    owned: {
      ...scope,
      DESCRICAO: placement.label ?? fixed.DESCRICAO,
      TYPE: fixed.TYPE,
      ATIVO: 1,
      FATHER: placement.parent,
      MENUORDER: placement.order,
      URL: fixed.URL,
      FILTER: fixed.FILTER,
      ICON: placement.icon ?? null,
    },
    initial: {},
    shared: false,
    what: `menu "${placement.label ?? fixed.DESCRICAO}"`,
  });
  const { taskSheet, report, activities } = file.menus;
  const rows: DesiredRow[] = [
    menu(taskSheet.withMetrics ? 'taskSheetWithMetrics' : 'taskSheetWithoutMetrics', taskSheet, {
      DESCRICAO: 'Folha de tarefa',
      TYPE: 'CRUD',
      URL: null,
      FILTER: JSON.stringify({
        allowed: taskSheet.withMetrics ? ['FOLHA_TAREFA', 'OPER_GRUPO_METRICA'] : ['FOLHA_TAREFA'],
      }),
    }),
    menu('taskSheetReport', report, {
      DESCRICAO: 'Parte diária',
      TYPE: 'LINK',
      URL: REPORT_URL,
      FILTER: null,
    }),
    menu('activities', activities, {
      DESCRICAO: 'Atividades',
      TYPE: 'CRUD',
      URL: null,
      FILTER: JSON.stringify({
        allowed: ['OPER', 'UNIDADE_MEDIDA', 'OPER_GRUPO', 'OPER_OPER_GRUPO', 'ETAPA'],
      }),
    }),
    {
      key: 'link-field',
      table: FIELD_TABLE,
      owned: {
        TABELA_NOME: 'FOLHA_TAREFA',
        NOME: 'LINK_ATIVIDADE_METRICAS',
        SEQ: 11,
        SYS: 0,
        [mobileFlagColumn]: 1,
        GRID: 0,
        GRID_MOBILE: 1,
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
        OPCOES: LINK_FIELD_OPCOES,
        VALOR_DEFAULT: null,
        VALIDACAO_VIEW: null,
        FILTRO_VIEW: null,
        TOOLTIP_MESSAGE: null,
        PROPERTIES: null,
      },
      // Shared by every installation of the database, so its label is the first one's.
      initial: { DESCRICAO: file.linkField.label, DESCRICAO_RESUMIDA: file.linkField.label },
      naturalKey: { TABELA_NOME: 'FOLHA_TAREFA', NOME: 'LINK_ATIVIDADE_METRICAS' },
      shared: true,
      what: 'the link field FOLHA_TAREFA.LINK_ATIVIDADE_METRICAS',
    },
  ];
  const parameter = (nome: string, tipo: number, conteudo: string): DesiredRow => ({
    key: `parameter:${nome}`,
    table: PARAMETER_TABLE,
    owned: { ...scope, NOME: nome },
    initial: { TIPO: tipo, CONTEUDO: conteudo },
    naturalKey: { ...scope, NOME: nome },
    shared: false,
    what: `parameter ${nome}`,
  });
  for (const logical of LOGICAL_TABLES) {
    const name = file.tableNames?.[logical];
    if (name !== undefined) rows.push(parameter(OVERRIDE_PARAMETERS[logical], 0, name));
  }
  if (file.treeView !== undefined) rows.push(parameter('TREE_VIEW', 1, JSON.stringify(file.treeView)));
  return rows;
}
