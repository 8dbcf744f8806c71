import type { Identifier } from '../model/identifier.js';
import { FIELD_TABLE, linkFieldRow } from '../model/link-field.js';
import { MENU_TABLE, menuRowIdentity, menuRows } from '../model/menu.js';
import {
  type NewParameterRow,
  overrideParameterRows,
  PARAMETERS_TABLE,
  treeViewParameterRow,
} from '../model/parameters.js';
import { LOGICAL_TABLES, OVERRIDE_PARAMETERS } from '../model/table-names.js';
import type { RowValues } from './fit-row.js';
import type { InstallFile } from './install-file.js';

/** A host row the installation needs, and how the installer treats it once it exists. */
export interface DesiredRow {
  /** The ledger key, stable across runs: `menu:activities`, `link-field`, `parameter:TREE_VIEW`. */
  readonly key: string;
  readonly table: Identifier;
  /** Values reconciled on every apply: the row is ours and must say exactly this. */
  readonly owned: RowValues;
  /** Values written when the row is created, then left to administrators unless `--force`. */
  readonly initial: RowValues;
  /**
   * Columns that identify the row whoever made it: one made by hand is reported and left alone (not
   * duplicated, still verified), and ours is touched only while it still has them.
   */
  readonly naturalKey: RowValues;
  /** Shared by every installation of the database (the table has no scope columns). */
  readonly shared: boolean;
  /** For messages: `menu "Activities"`. */
  readonly what: string;
  /**
   * Where in the install file each value comes from, by column (`DESCRICAO`: `menus.activities.label`):
   * a value that does not fit its column is refused there. A column not listed holds the package's own.
   */
  readonly sources: Readonly<Record<string, string>>;
}

/** The install file's scope, where the scope columns' values come from. */
const SCOPE_SOURCES = { EMPRESA: 'scope.EMPRESA', FILIAL: 'scope.FILIAL', LOCAL: 'scope.LOCAL' };

/**
 * Every host row the install file asks for (menu, link field, parameters), in the order they are
 * written, built by the config models' builders. Menu rows are ours (reconciled to the install file);
 * the link field is ours except its label, set by the first installation that creates it (the row is
 * shared by all installations of the database); parameter rows are the administrators' once created.
 */
export function desiredRows(file: InstallFile, mobileFlagColumn: string): DesiredRow[] {
  const { scope, menus } = file;
  const menu = menuRows({ scope, menus }).map(({ key, row }): DesiredRow => {
    // Both task sheet entries are placed by `menus.taskSheet`.
    const at = `menus.${key === 'taskSheetReport' || key === 'activities' ? key : 'taskSheet'}`;
    return {
      key: `menu:${key}`,
      table: MENU_TABLE,
      owned: row,
      initial: {},
      naturalKey: menuRowIdentity(row),
      shared: false,
      what: `menu "${row.DESCRICAO}"`,
      sources: {
        ...SCOPE_SOURCES,
        DESCRICAO: `${at}.label`,
        ICON: `${at}.icon`,
        FATHER: `${at}.father`,
        MENUORDER: `${at}.order`,
      },
    };
  });
  const { DESCRICAO, DESCRICAO_RESUMIDA, ...field } = linkFieldRow({
    label: file.linkField.label,
    mobileFlagColumn,
  });
  const linkField: DesiredRow = {
    key: 'link-field',
    table: FIELD_TABLE,
    owned: field,
    initial: { DESCRICAO, DESCRICAO_RESUMIDA },
    naturalKey: { TABELA_NOME: field.TABELA_NOME, NOME: field.NOME },
    shared: true,
    what: `the link field ${field.TABELA_NOME}.${field.NOME}`,
    sources: { DESCRICAO: 'linkField.label', DESCRICAO_RESUMIDA: 'linkField.label' },
  };
  const parameter = ({ TIPO, CONTEUDO, ...key }: NewParameterRow): DesiredRow => ({
    key: `parameter:${key.NOME}`,
    table: PARAMETERS_TABLE,
    owned: key,
    initial: { TIPO, CONTEUDO },
    naturalKey: key,
    shared: false,
    what: `parameter ${key.NOME}`,
    sources: { ...SCOPE_SOURCES, CONTEUDO: contentSource(key.NOME) },
  });
  const parameters = [
    ...overrideParameterRows(scope, file.tableNames ?? {}),
    ...(file.treeView === undefined ? [] : [treeViewParameterRow(scope, file.treeView)]),
  ].map(parameter);
  return [...menu, linkField, ...parameters];
}

/** Where a parameter's CONTEUDO comes from: `tableNames.OPER` for its override, `treeView` for the TREE_VIEW. */
function contentSource(nome: string): string {
  const logical = LOGICAL_TABLES.find((candidate) => OVERRIDE_PARAMETERS[candidate] === nome);
  return logical === undefined ? 'treeView' : `tableNames.${logical}`;
}
