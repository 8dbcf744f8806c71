import { FIELD_TABLE, LINK_FIELD_COLUMNS } from '../model/link-field.js';
import { buildLink } from '../model/opcoes.js';
import type { Scope } from '../model/scope.js';
import type { SqlExecutor } from '../store/driver.js';
import { selectWhere } from '../store/row-statements.js';
import { query } from '../store/sql.js';
import { liveTaskSheets } from '../store/tree-reads.js';

/** One task sheet on the demo's home page, with the link its link field opens. */
export interface TaskSheetLink {
  readonly id: number;
  /** The task sheet's date and plot, as the home page lists it. */
  readonly date: string | null;
  readonly plot: string | null;
  /** The link field's label (its DESCRICAO). */
  readonly label: string;
  /** Built from the installed link field's OPCOES and the task sheet's row, as the host's ERP builds it. */
  readonly href: string;
}

/**
 * The task sheets of `scope` with their links, built the way the host's record screen builds them:
 * from the link field row the installer wrote into sys_core_ds_tabela_campo (its OPCOES), never from
 * a URL written here. No installed link field is an error: the demo shows nothing it did not install.
 */
export async function readTaskSheetLinks(db: SqlExecutor, scope: Scope): Promise<TaskSheetLink[]> {
  const [field] = await query<{ OPCOES: string; DESCRICAO: string }>(
    db,
    selectWhere(FIELD_TABLE, { TABELA_NOME: LINK_FIELD_COLUMNS.TABELA_NOME, NOME: LINK_FIELD_COLUMNS.NOME }),
  );
  if (field === undefined) {
    throw new Error(
      `the link field ${LINK_FIELD_COLUMNS.TABELA_NOME}.${LINK_FIELD_COLUMNS.NOME} is not installed: run apply first`,
    );
  }
  const rows = await query(db, liveTaskSheets(scope));
  return rows.map((row) => ({
    id: Number(row.SEQ_DB),
    // Our connections read a DATE as its day's UTC midnight: the UTC day is its calendar day.
    date:
      row.DATA instanceof Date
        ? row.DATA.toISOString().slice(0, 10)
        : row.DATA == null
          ? null
          : String(row.DATA),
    plot: row.TALHAO == null ? null : String(row.TALHAO),
    label: field.DESCRICAO,
    // The ERP's routes are relative to its root: the link field's url is a route name.
    href: `/${buildLink(field.OPCOES, row)}`,
  }));
}
