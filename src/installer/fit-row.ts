import type { Finding } from '../model/findings.js';
import type { HostTable } from '../store/host-table.js';

/** A row's values keyed by column name, before or after fitting it to the host's columns. */
export type RowValues = Readonly<Record<string, unknown>>;

/**
 * Fits `values` to the columns the host table really has (the customer warns that "columns can differ
 * per installation"): a column we would fill but the host lacks is left out and reported as info; a
 * host column that is NOT NULL, has no default and that we do not fill is an error, reported before any
 * write; every other host column is left to its default.
 */
export function fitRow(
  table: HostTable,
  values: RowValues,
  filledByInstaller: readonly string[] = [],
): { values: Record<string, unknown>; findings: Finding[] } {
  const fitted: Record<string, unknown> = {};
  const findings: Finding[] = [];
  for (const [name, value] of Object.entries(values)) {
    const column = table.column(name);
    if (column === undefined) {
      findings.push({
        level: 'info',
        code: 'HOST_COLUMN_MISSING',
        path: `${table.name}.${name}`,
        message: `${table.name} has no column ${name}: the installer's rows there are written without it`,
      });
      continue;
    }
    fitted[column.name] = value;
  }
  const filled = new Set([...Object.keys(fitted), ...filledByInstaller].map((name) => name.toUpperCase()));
  for (const column of table.columns) {
    if (column.nullable || column.fillsItself || filled.has(column.name.toUpperCase())) continue;
    findings.push({
      level: 'error',
      code: 'HOST_COLUMN_REQUIRED',
      path: `${table.name}.${column.name}`,
      message: `${table.name}.${column.name} (${column.columnType}) is NOT NULL without a default and the installer has no value for it: give it a value in the install file (hostColumns.${table.name}.${column.name}), or a default in the database, then run again`,
    });
  }
  return { values: fitted, findings };
}
