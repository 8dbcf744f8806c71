import { type ColumnType, columnNamed } from '../model/column-values.js';
import { TASK_SHEET_TABLE } from '../model/table-names.js';
import type { TreePlan } from '../model/tree-plan.js';
import { columnTypesOf } from '../store/column-types.js';
import type { SqlExecutor } from '../store/driver.js';
import { readTables, tableOf } from '../store/information-schema.js';
import { SHAPE_TTL_MS } from '../store/metric-table.js';

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

/**
 * Per pool (the executor a caller hands us), per set of tables and the metrics read from them: the
 * types and until when they hold.
 */
const cache = new WeakMap<object, Map<string, { types: Promise<ValueTypes>; until: number }>>();

/**
 * The types of {@link ValueTypes} of a plan, in one information_schema read, reused for
 * `SHAPE_TTL_MS` as the save reuses a table's shape: the tree and every branch read would otherwise
 * ask information_schema each time. Types only say how a value is written out; a column changed
 * meanwhile costs at most one refused base (a conflict shown), never a wrong write.
 */
export function readValueTypes(db: SqlExecutor, plan: TreePlan): Promise<ValueTypes> {
  const copies = (type: 'field' | 'taskSheet') =>
    plan.metrics.some((metric) => metric.default?.type === type);
  const task = plan.levels.find((level) => level.isTask)?.table;
  const activity = task !== undefined && copies('field') ? task : undefined;
  const taskSheet = copies('taskSheet') ? TASK_SHEET_TABLE : undefined;
  // The metrics and what their defaults copy are in the key: a host adds a metric column, then names
  // it in TREE_VIEW; the new list reads the types anew, where the tables' key alone kept the old ones
  // (without the new column) until they expired, and gave its values and defaults unconverted.
  const metrics = plan.metrics.map(
    (metric) => `${metric.field}:${metric.default?.type === 'value' ? '' : (metric.default?.name ?? '')}`,
  );
  const key = [plan.metricTable, activity ?? '', taskSheet ?? '', ...metrics].join('\u0000');
  const entries = cache.get(db) ?? new Map<string, { types: Promise<ValueTypes>; until: number }>();
  cache.set(db, entries);
  const cached = entries.get(key);
  if (cached !== undefined && cached.until > Date.now()) return cached.types;
  const types = read(db, plan.metricTable, activity, taskSheet);
  entries.set(key, { types, until: Date.now() + SHAPE_TTL_MS });
  // A failed read is not kept: the next reader asks again.
  types.catch(() => {
    if (entries.get(key)?.types === types) entries.delete(key);
  });
  return types;
}

async function read(
  db: SqlExecutor,
  metricTable: string,
  activity: string | undefined,
  taskSheet: string | undefined,
): Promise<ValueTypes> {
  const tables = [metricTable, activity, taskSheet].filter((table) => table !== undefined);
  const found = await readTables(db, [...new Set(tables)]);
  const typesOf = (table: string) => columnTypesOf(tableOf(found, table));
  return {
    metric: typesOf(metricTable),
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
