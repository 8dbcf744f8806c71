import { type ColumnType, columnNamed } from '../model/column-values.js';
import { TASK_SHEET_TABLE } from '../model/table-names.js';
import type { TreePlan } from '../model/tree-plan.js';
import { columnTypesOf } from '../store/column-types.js';
import type { SqlExecutor } from '../store/driver.js';
import { readTables, tableOf } from '../store/information-schema.js';

/**
 * The column types a reader of metrics needs to give values as a save answers them: the metric
 * table's (a FLOAT as the shortest decimal of its single-precision number) and those of the columns
 * `field` and `taskSheet` defaults copy (a DATE as its day, a DATETIME as its wall time), by name.
 */
export interface ValueTypes {
  readonly metric?: ReadonlyMap<string, ColumnType>;
  readonly activity?: ReadonlyMap<string, ColumnType>;
  readonly taskSheet?: ReadonlyMap<string, ColumnType>;
}

/** The types of {@link ValueTypes} of a plan, in one information_schema read. */
export async function readValueTypes(db: SqlExecutor, plan: TreePlan): Promise<ValueTypes> {
  const copies = (type: 'field' | 'taskSheet') =>
    plan.metrics.some((metric) => metric.default?.type === type);
  const task = plan.levels.find((level) => level.isTask)?.table;
  const activity = task !== undefined && copies('field') ? task : undefined;
  const taskSheet = copies('taskSheet') ? TASK_SHEET_TABLE : undefined;
  const tables = [plan.metricTable, activity, taskSheet].filter((table) => table !== undefined);
  const found = await readTables(db, [...new Set(tables)]);
  const typesOf = (table: string) => columnTypesOf(tableOf(found, table));
  return {
    metric: typesOf(plan.metricTable),
    ...(activity === undefined ? {} : { activity: typesOf(activity) }),
    ...(taskSheet === undefined ? {} : { taskSheet: typesOf(taskSheet) }),
  };
}

/** Column `name` of `types`, as the server matches names; undefined without types or column. */
export function typeOf(
  types: ReadonlyMap<string, ColumnType> | undefined,
  name: string,
): ColumnType | undefined {
  return types === undefined ? undefined : columnNamed(types, name);
}
