import { DEFAULT_METRICS, parseTreeView, treeViewLevels } from '../config/index.js';
import type { SqlExecutor } from '../db/driver.js';
import { type Identifier, parseIdentifier } from '../identifier.js';
import { HOST_TABLES, type TableNames } from '../table-names.js';
import { readHostTable } from './host-table.js';
import type { Problem } from './verify.js';

/**
 * Checks a TREE_VIEW row as it is stored now (an administrator may have edited it): valid by the
 * config model, and every table and column it names exists: the layers' tables, the association
 * tables with their parent and child columns, the metric table with each metric's column, and the
 * columns `field` and `taskSheet` defaults copy from.
 */
export async function checkTreeView(
  db: SqlExecutor,
  text: string | null,
  where: { path: string; seqDb: number; names: TableNames },
): Promise<Problem[]> {
  const label = `TREE_VIEW (SEQ_DB ${where.seqDb})`;
  const parsed = parseTreeView(text ?? '');
  if (!parsed.success) {
    return parsed.issues.map((issue) => ({
      code: 'TREE_VIEW_INVALID',
      path: issue.path === '' ? where.path : `${where.path}.${issue.path}`,
      message: `${label} is invalid: ${issue.path === '' ? '' : `${issue.path}: `}${issue.message}`,
    }));
  }
  const problems: Problem[] = [];
  const columnsOf = new Map<string, Set<string> | undefined>();
  const missing = new Set<string>();
  const check = async (
    table: Identifier,
    at: string,
    columns: readonly { name: string; at: string }[] = [],
  ) => {
    if (!columnsOf.has(table)) {
      const found = await readHostTable(db, table);
      columnsOf.set(table, found && new Set(found.columns.map((column) => column.name.toUpperCase())));
    }
    const found = columnsOf.get(table);
    if (found === undefined) {
      // A table is named in several places (a layer, the defaults copied from it): say it once.
      if (missing.has(table)) return;
      missing.add(table);
      problems.push({
        code: 'TREE_VIEW_TABLE_MISSING',
        path: `${where.path}.${at}`,
        message: `${label} ${at} names table ${table}, which does not exist`,
      });
      return;
    }
    for (const column of columns) {
      if (found.has(column.name.toUpperCase())) continue;
      problems.push({
        code: 'TREE_VIEW_COLUMN_MISSING',
        path: `${where.path}.${column.at}`,
        message: `${label} ${column.at}: table ${table} has no column ${column.name}`,
      });
    }
  };
  const treeView = parsed.data;
  const levels = treeViewLevels(treeView);
  for (const level of levels) {
    await check(level.table, `layers.${level.level}.table`);
    if (level.association !== undefined) {
      const at = `layers.${level.level}`;
      await check(level.association.table, `${at}.associationTable`, [
        { name: level.association.parentColumn, at: `${at}.parentColumn` },
        { name: level.association.childColumn, at: `${at}.childColumn` },
      ]);
    }
  }
  const metrics = treeView.metrics ?? DEFAULT_METRICS;
  await check(
    treeView.metricAssociationTable ?? where.names.OPER_GRUPO_METRICA,
    'metricAssociationTable',
    metrics.map((metric, index) => ({ name: metric.field, at: `metrics.${index}.field` })),
  );
  const task = levels.at(-1);
  const copied = (type: 'field' | 'taskSheet') =>
    metrics.flatMap((metric, index) =>
      metric.default?.type === type
        ? [{ name: metric.default.name, at: `metrics.${index}.default.name` }]
        : [],
    );
  if (task !== undefined) await check(task.table, `layers.${task.level}.table`, copied('field'));
  await check(
    parseIdentifier(HOST_TABLES.FOLHA_TAREFA, 'task sheet table'),
    'task sheet table',
    copied('taskSheet'),
  );
  return problems;
}
