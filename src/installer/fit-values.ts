import { checkValue, isMetricType } from '../model/column-values.js';
import type { Finding } from '../model/findings.js';
import { valueTypeOf } from '../store/column-types.js';
import type { HostColumn, HostTable } from '../store/host-table.js';
import type { RowValues } from './fit-row.js';

/** The most characters of a value a message shows (a TREE_VIEW is a whole JSON document). */
const SHOWN_CHARACTERS = 60;

/**
 * The values of a row about to be written to `table` that its columns cannot hold: too long, out of
 * range, too many decimals, text for a number, a character the column's character set lacks, NULL
 * for a NOT NULL column (of any type). Each is an error at the install file's key it comes from (`sources`, by
 * column: `hostColumns.sys_core_menu.MODULO`, `menus.activities.label`), or at the column for a
 * value of the package's own, so the command refuses before writing anything: the server would
 * refuse the row in the middle of apply, after the tables were made, naming neither. Other values for
 * columns of a type no check here knows (a date, an enum, JSON) are left to the server.
 */
export function unfitValues(
  table: HostTable,
  values: RowValues,
  sources: Readonly<Record<string, string>>,
): Finding[] {
  const findings: Finding[] = [];
  for (const [name, value] of Object.entries(values)) {
    const column = table.column(name);
    if (column === undefined) continue;
    const problem = problemOf(column, value);
    if (problem === undefined) continue;
    const source = Object.entries(sources).find(([named]) => named.toUpperCase() === name.toUpperCase())?.[1];
    const where = `${table.name}.${column.name} (${column.columnType})`;
    findings.push({
      level: 'error',
      code: 'HOST_VALUE_UNFIT',
      path: source ?? `${table.name}.${column.name}`,
      message:
        source === undefined
          ? `${where} cannot hold ${shown(value)}, which the installer writes there: the value ${problem}; widen the column to hold it, then run again`
          : `${where} cannot hold ${shown(value)}, given at ${source}: the value ${problem}; give a value that fits (or widen the column), then run again`,
    });
  }
  return findings;
}

/** Why `column` cannot hold `value`, or undefined when it can (or when no check here knows its type). */
function problemOf(column: HostColumn, value: unknown): string | undefined {
  // Whatever the column's type: a date, an enum or a JSON column refuses NULL as well.
  if (value === null) return column.nullable ? undefined : 'is null, and the column is NOT NULL';
  if (!isMetricType(column.dataType) || (typeof value !== 'string' && typeof value !== 'number'))
    return undefined;
  const checked = checkValue(valueTypeOf(column), value);
  return checked.ok ? undefined : checked.problem;
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return [...text].length <= SHOWN_CHARACTERS ? text : `${[...text].slice(0, SHOWN_CHARACTERS).join('')}…`;
}
