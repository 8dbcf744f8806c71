import { checkValue, isMetricType } from '../model/column-values.js';
import type { Finding } from '../model/findings.js';
import { valueTypeOf } from '../store/column-types.js';
import type { HostTable } from '../store/host-table.js';
import type { RowValues } from './fit-row.js';

/** The most characters of a value a message shows (a TREE_VIEW is a whole JSON document). */
const SHOWN_CHARACTERS = 60;

/**
 * The values of a row about to be written to `table` that its columns cannot hold: too long, out of
 * range, too many decimals, text for a number, a character the column's character set lacks, NULL
 * for a NOT NULL column. Each is an error at the install file's key it comes from (`sources`, by
 * column: `hostColumns.sys_core_menu.MODULO`, `menus.activities.label`), or at the column for a
 * value of the package's own, so the command refuses before writing anything: the server would
 * refuse the row in the middle of apply, after the tables were made, naming neither. Columns of a
 * type no check here knows (a date, an enum, JSON) are left to the server.
 */
export function unfitValues(
  table: HostTable,
  values: RowValues,
  sources: Readonly<Record<string, string>>,
): Finding[] {
  const findings: Finding[] = [];
  for (const [name, value] of Object.entries(values)) {
    const column = table.column(name);
    if (column === undefined || !isMetricType(column.dataType)) continue;
    if (value !== null && typeof value !== 'string' && typeof value !== 'number') continue;
    const checked = checkValue(valueTypeOf(column), value);
    if (checked.ok) continue;
    const source = Object.entries(sources).find(([named]) => named.toUpperCase() === name.toUpperCase())?.[1];
    const where = `${table.name}.${column.name} (${column.columnType})`;
    findings.push({
      level: 'error',
      code: 'HOST_VALUE_UNFIT',
      path: source ?? `${table.name}.${column.name}`,
      message:
        source === undefined
          ? `${where} cannot hold ${shown(value)}, which the installer writes there: the value ${checked.problem}; widen the column to hold it, then run again`
          : `${where} cannot hold ${shown(value)}, given at ${source}: the value ${checked.problem}; give a value that fits (or widen the column), then run again`,
    });
  }
  return findings;
}

function shown(value: string | number | null): string {
  const text = JSON.stringify(value);
  return [...text].length <= SHOWN_CHARACTERS ? text : `${[...text].slice(0, SHOWN_CHARACTERS).join('')}…`;
}
