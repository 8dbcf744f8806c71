import { FIELD_TABLE, MENU_TABLE } from '../config/index.js';
import type { SqlExecutor } from '../db/driver.js';
import { quoteIdentifier } from '../identifier.js';
import { HOST_ROW_TABLES } from './desired-rows.js';
import type { Finding } from './findings.js';
import { type HostTable, readHostTable } from './host-table.js';
import type { InstallFile } from './install-file.js';
import { findMobileFlagColumn } from './mobile-flag.js';

/** What the installer learnt about the host before planning anything. */
export interface HostContext {
  readonly tables: ReadonlyMap<string, HostTable>;
  readonly mobileFlagColumn: string | undefined;
  readonly findings: Finding[];
}

/**
 * Reads the three host tables the rows go to and checks what must hold before any write: they exist
 * and have SEQ_DB, the mobile flag column is known, and every menu parent is an existing menu row.
 */
export async function readHostContext(db: SqlExecutor, file: InstallFile): Promise<HostContext> {
  const tables = new Map<string, HostTable>();
  const findings: Finding[] = [];
  for (const name of HOST_ROW_TABLES) {
    const table = await readHostTable(db, name);
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
  if (tables.has(MENU_TABLE)) findings.push(...(await checkMenuParents(db, file)));
  return { tables, mobileFlagColumn, findings };
}

async function checkMenuParents(db: SqlExecutor, file: InstallFile): Promise<Finding[]> {
  const parents = Object.entries(file.menus).flatMap(([name, placement]) =>
    placement.father === null ? [] : [{ name, parent: placement.father }],
  );
  if (parents.length === 0) return [];
  const rows = await db.query<{ SEQ_DB: number }>(
    `SELECT SEQ_DB FROM ${quoteIdentifier(MENU_TABLE)} WHERE SEQ_DB IN (${parents.map(() => '?').join(', ')})`,
    parents.map(({ parent }) => parent),
  );
  const existing = new Set(rows.map((row) => Number(row.SEQ_DB)));
  return parents
    .filter(({ parent }) => !existing.has(parent))
    .map(({ name, parent }) => ({
      level: 'error' as const,
      code: 'MENU_PARENT_MISSING',
      path: `menus.${name}.father`,
      message: `menus.${name}.father is ${parent}, but ${MENU_TABLE} has no row with SEQ_DB ${parent}: use an existing menu's SEQ_DB, or null for the top level`,
    }));
}
