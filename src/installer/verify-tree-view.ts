import type { SqlExecutor } from '../db/driver.js';
import { IDENTIFIER_PATTERN } from '../identifier.js';
import { tableExists } from './host-table.js';
import type { Problem } from './verify.js';

/**
 * Checks a TREE_VIEW row as it is stored: valid JSON of the seed 2.9 shape, and every table it
 * names exists.
 */
export async function checkTreeView(
  db: SqlExecutor,
  text: string | null,
  path: string,
  seqDb: number,
): Promise<Problem[]> {
  const invalid = (message: string): Problem[] => [
    { code: 'TREE_VIEW_INVALID', path, message: `TREE_VIEW (SEQ_DB ${seqDb}) ${message}` },
  ];
  let json: unknown;
  try {
    json = JSON.parse(text ?? '');
  } catch (error) {
    return invalid(`is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const layers = isRecord(json) ? json.layers : undefined;
  if (!isRecord(layers)) return invalid('has no "layers" object');
  const tables: { table: unknown; at: string }[] = [];
  for (const [key, layer] of Object.entries(layers)) {
    if (!isRecord(layer)) return invalid(`layer ${key} is not an object`);
    tables.push({ table: layer.table, at: `layers.${key}.table` });
    if (layer.associationTable !== undefined)
      tables.push({ table: layer.associationTable, at: `layers.${key}.associationTable` });
  }
  if (isRecord(json) && json.metricAssociationTable !== undefined)
    tables.push({ table: json.metricAssociationTable, at: 'metricAssociationTable' });
  const problems: Problem[] = [];
  for (const { table, at } of tables) {
    if (typeof table !== 'string' || !IDENTIFIER_PATTERN.test(table)) {
      problems.push(...invalid(`${at} is ${JSON.stringify(table)}, not a table name`));
    } else if (!(await tableExists(db, table))) {
      problems.push({
        code: 'TREE_VIEW_TABLE_MISSING',
        path: `${path}.${at}`,
        message: `TREE_VIEW (SEQ_DB ${seqDb}) ${at} names table ${table}, which does not exist`,
      });
    }
  }
  return problems;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
