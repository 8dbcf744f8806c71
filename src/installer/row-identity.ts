import { FIELD_TABLE, LINK_FIELD_COLUMNS } from '../model/link-field.js';
import { MENU_ENTRIES, MENU_TABLE, menuRowIdentity } from '../model/menu.js';
import { PARAMETERS_TABLE } from '../model/parameters.js';
import type { LedgerEntry } from '../store/ledger.js';
import type { RowValues } from './fit-row.js';
import { sameValue } from './same-value.js';

/**
 * What a ledger entry of a host row must point at: the table its key says (`menu:` entries in
 * sys_core_menu, `link-field` in sys_core_ds_tabela_campo, `parameter:` in sys_core_par_parametros)
 * and the columns that identify the row (scope, TYPE and FILTER or URL; TABELA_NOME and NOME; scope
 * and NOME). `undefined` for anything else: a stale or edited entry must never lead to a write in
 * another table, so such an entry is reported and nothing is changed through it.
 */
export function ledgerRowIdentity(entry: LedgerEntry): { table: string; values: RowValues } | undefined {
  const colon = entry.key.indexOf(':');
  const [kind, name] = colon < 0 ? [entry.key, ''] : [entry.key.slice(0, colon), entry.key.slice(colon + 1)];
  const found = identity(kind, name, entry);
  return found?.table === entry.hostTable ? found : undefined;
}

function identity(
  kind: string,
  name: string,
  entry: LedgerEntry,
): { table: string; values: RowValues } | undefined {
  switch (kind) {
    case 'menu': {
      if (!Object.hasOwn(MENU_ENTRIES, name)) return undefined;
      const { TYPE, URL, FILTER } = MENU_ENTRIES[name as keyof typeof MENU_ENTRIES];
      return { table: MENU_TABLE, values: menuRowIdentity({ ...entry.scope, TYPE, URL, FILTER }) };
    }
    case 'link-field':
      return {
        table: FIELD_TABLE,
        values: { TABELA_NOME: LINK_FIELD_COLUMNS.TABELA_NOME, NOME: LINK_FIELD_COLUMNS.NOME },
      };
    case 'parameter':
      return name === '' ? undefined : { table: PARAMETERS_TABLE, values: { ...entry.scope, NOME: name } };
    default:
      return undefined;
  }
}

/** Whether `row` still has every value of `identity` (compared as {@link sameValue} does). */
export function hasIdentity(row: Readonly<Record<string, unknown>>, identity: RowValues): boolean {
  return Object.entries(identity).every(([column, value]) => sameValue(row[column], value));
}
