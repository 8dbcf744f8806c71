import type { Finding } from '../model/findings.js';
import { sameName } from '../model/identifier.js';
import { FIELD_TABLE, LINK_FIELD_COLUMNS } from '../model/link-field.js';
import { MENU_ENTRIES, MENU_TABLE, menuRowIdentity } from '../model/menu.js';
import { PARAMETERS_TABLE } from '../model/parameters.js';
import type { HostTable } from '../store/host-table.js';
import type { LedgerEntry } from '../store/ledger.js';
import type { DesiredRow } from './desired-rows.js';
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

/** The scope columns a host table may have: one that lacks them holds one company's rows. */
export const SCOPE_COLUMNS = ['EMPRESA', 'FILIAL', 'LOCAL'] as const;

/**
 * `identity` as far as a table whose columns `has` tells can hold it. A scope column it lacks is left
 * out: the host keeps one company (or one branch) there, and the installer writes its rows without
 * that column too. Any other column it lacks is `missing`: the row cannot be told from the host's
 * others without it (the task sheet and activities menus differ only by FILTER).
 */
export function identityIn(
  identity: RowValues,
  has: (column: string) => boolean,
): { values: RowValues; missing: string[] } {
  const scope: readonly string[] = SCOPE_COLUMNS;
  const kept = Object.entries(identity).filter(([column]) => has(column) || !scope.includes(column));
  return {
    values: Object.fromEntries(kept.filter(([column]) => has(column))),
    missing: kept.filter(([column]) => !has(column)).map(([column]) => column),
  };
}

/**
 * Whether `row` (as read, every column of its table, in the host's spelling) still has every value
 * of `identity` (compared as {@link sameValue} does), but the scope columns its table lacks.
 */
export function hasIdentity(row: Readonly<Record<string, unknown>>, identity: RowValues): boolean {
  const named = (column: string) => Object.keys(row).find((name) => sameName(name, column));
  const { values, missing } = identityIn(identity, (column) => named(column) !== undefined);
  return (
    missing.length === 0 &&
    Object.entries(values).every(([column, value]) => sameValue(row[named(column) ?? column], value))
  );
}

/**
 * The wanted rows with their natural keys fitted to the host's tables ({@link identityIn}), and an
 * error for each column a table lacks that a row needs to be recognised by: such a row is left
 * out, and the command refuses, naming the column (a row it could not recognise would be written
 * again on every run, and a lookup by a column that does not exist fails in the database).
 */
export function identifiableRows(
  rows: readonly DesiredRow[],
  tables: ReadonlyMap<string, HostTable>,
): { rows: DesiredRow[]; findings: Finding[] } {
  const findings: Finding[] = [];
  const identifiable = rows.flatMap((row): DesiredRow[] => {
    const table = tables.get(row.table);
    if (table === undefined) return [];
    const { values, missing } = identityIn(row.naturalKey, (column) => table.column(column) !== undefined);
    for (const column of missing) {
      const path = `${row.table}.${column}`;
      if (findings.some((finding) => finding.path === path)) continue;
      findings.push({
        level: 'error',
        code: 'HOST_COLUMN_MISSING',
        path,
        message: `${row.table} has no column ${column}, which tells ${row.what} from the host's other rows: the installer could not recognise its row again, and the row would not work without it; add the column as the host application defines it, then run again`,
      });
    }
    return missing.length > 0 ? [] : [{ ...row, naturalKey: values }];
  });
  return { rows: identifiable, findings };
}
