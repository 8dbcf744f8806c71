import type { Finding } from '../model/findings.js';
import type { HostTable } from '../store/host-table.js';

/**
 * Finds the send-to-mobile flag column of sys_core_ds_tabela_campo, whose name differs per
 * installation. Named in the install file: it must exist. Otherwise the one column whose name contains
 * MOBILE, GRID_MOBILE excepted (that is the grid flag, a different column).
 */
export function findMobileFlagColumn(
  table: HostTable,
  named: string | undefined,
): { column: string; findings: [] } | { column: undefined; findings: Finding[] } {
  const path = 'linkField.mobileFlagColumn';
  if (named !== undefined) {
    const column = table.column(named);
    if (column !== undefined) return { column: column.name, findings: [] };
    return failure(
      path,
      'MOBILE_FLAG_COLUMN_MISSING',
      `${table.name} has no column ${named} (named as the send-to-mobile flag in the install file)`,
    );
  }
  const candidates = table.columns
    .map((column) => column.name)
    .filter((name) => /MOBILE/i.test(name) && name.toUpperCase() !== 'GRID_MOBILE');
  const [only] = candidates;
  if (candidates.length === 1 && only !== undefined) return { column: only, findings: [] };
  if (candidates.length === 0) {
    return failure(
      path,
      'MOBILE_FLAG_COLUMN_NOT_FOUND',
      `${table.name} has no send-to-mobile flag column (a name containing MOBILE, other than GRID_MOBILE): name it in the install file as linkField.mobileFlagColumn`,
    );
  }
  return failure(
    path,
    'MOBILE_FLAG_COLUMN_AMBIGUOUS',
    `${table.name} has several candidates for the send-to-mobile flag column (${candidates.join(', ')}): name the right one in the install file as linkField.mobileFlagColumn`,
  );
}

function failure(path: string, code: string, message: string): { column: undefined; findings: Finding[] } {
  return { column: undefined, findings: [{ level: 'error', code, path, message }] };
}
