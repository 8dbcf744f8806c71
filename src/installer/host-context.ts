import type { Finding } from '../model/findings.js';
import { FIELD_TABLE } from '../model/link-field.js';
import { MENU_TABLE } from '../model/menu.js';
import { formatScope, sameScope } from '../model/scope.js';
import { type HostTable, hostTableOf } from '../store/host-table.js';
import { columnOf } from '../store/information-schema.js';
import type { InstallFile } from './install-file.js';
import { HOST_ROW_TABLES } from './install-file.js';
import { findMobileFlagColumn } from './mobile-flag.js';
import { SCOPE_COLUMNS } from './row-identity.js';
import { type InstallerState, tableIn } from './state.js';

/** What the installer learnt about the host before planning anything. */
export interface HostContext {
  readonly tables: ReadonlyMap<string, HostTable>;
  readonly mobileFlagColumn: string | undefined;
  readonly findings: Finding[];
}

/**
 * The three host tables the rows go to, as read, and what must hold before any write: they exist
 * and have an AUTO_INCREMENT SEQ_DB, the mobile flag column is known, and every menu parent is an existing menu row.
 */
export function hostContext(
  file: InstallFile,
  state: Pick<InstallerState, 'tables' | 'menuParents'>,
): HostContext {
  const tables = new Map<string, HostTable>();
  const findings: Finding[] = [];
  for (const name of HOST_ROW_TABLES) {
    const found = tableIn(state, name);
    const table = found && hostTableOf(name, found);
    if (table === undefined) {
      findings.push({
        level: 'error',
        code: 'HOST_TABLE_MISSING',
        path: name,
        message: `host table ${name} does not exist in database: is this the host application's database?`,
      });
    } else if (table.column('SEQ_DB') === undefined) {
      findings.push({
        level: 'error',
        code: 'HOST_TABLE_WITHOUT_SEQ_DB',
        path: `${name}.SEQ_DB`,
        message: `host table ${name} has no SEQ_DB column: the installer identifies rows by it`,
      });
    } else if (found !== undefined && columnOf(found, 'SEQ_DB')?.autoIncrement !== true) {
      // The ledger records an inserted row by LAST_INSERT_ID(), which only an AUTO_INCREMENT sets:
      // without it the entry would point at some other row, which a later run would update or delete.
      findings.push({
        level: 'error',
        code: 'HOST_SEQ_DB_NOT_AUTO_INCREMENT',
        path: `${name}.SEQ_DB`,
        message: `host table ${name}'s SEQ_DB is not AUTO_INCREMENT: the installer records the rows it inserts by the SEQ_DB the server gives them; make it AUTO_INCREMENT as the host's other tables have it, then run again`,
      });
    } else {
      tables.set(name, table);
    }
  }
  let mobileFlagColumn: string | undefined;
  const fieldTable = tables.get(FIELD_TABLE);
  if (fieldTable !== undefined) {
    const found = findMobileFlagColumn(fieldTable, file.linkField.mobileFlagColumn);
    mobileFlagColumn = found.column;
    findings.push(...found.findings);
  }
  const menuTable = tables.get(MENU_TABLE);
  if (menuTable !== undefined) findings.push(...checkMenuParents(file, menuTable, state.menuParents));
  return { tables, mobileFlagColumn, findings };
}

/**
 * Every menu parent must be a menu row of the installation's own scope: a SEQ_DB of another
 * company's menu would put our entries where this scope's users never see them.
 */
function checkMenuParents(
  file: InstallFile,
  menuTable: HostTable,
  rows: InstallerState['menuParents'],
): Finding[] {
  const scoped = SCOPE_COLUMNS.every((column) => menuTable.column(column) !== undefined);
  const found = new Map(rows.map((row) => [Number(row.SEQ_DB), row]));
  return Object.entries(file.menus).flatMap(([name, placement]): Finding[] => {
    const parent = placement.father;
    if (parent === null) return [];
    const path = `menus.${name}.father`;
    const row = found.get(parent);
    if (row === undefined)
      return [
        {
          level: 'error',
          code: 'MENU_PARENT_MISSING',
          path,
          message: `menus.${name}.father is ${parent}, but ${MENU_TABLE} has no row with SEQ_DB ${parent}: use an existing menu's SEQ_DB, or null for the top level`,
        },
      ];
    const scope = { EMPRESA: Number(row.EMPRESA), FILIAL: Number(row.FILIAL), LOCAL: Number(row.LOCAL) };
    if (!scoped || sameScope(scope, file.scope)) return [];
    return [
      {
        level: 'error',
        code: 'MENU_PARENT_OTHER_SCOPE',
        path,
        message: `menus.${name}.father is ${parent}, a menu of scope ${formatScope(scope)}, not of the installation's scope ${formatScope(file.scope)}: use a menu of its own scope, or null for the top level`,
      },
    ];
  });
}
