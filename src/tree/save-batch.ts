import { createHash } from 'node:crypto';
import { type ColumnType, checkValue, columnNamed, isMetricType } from '../model/column-values.js';
import { abbreviated } from '../model/errors.js';
import type { Identifier } from '../model/identifier.js';
import { ConfigurationError } from '../model/issues.js';
import { deviceTimeProblem, type MetricEntry, type SaveSource } from '../model/metric-batch.js';
import { isReservedMetricColumn, type MetricValue } from '../model/metrics.js';
import { InvalidRequestError } from '../model/request-errors.js';
import type { Scope } from '../model/scope.js';
import type { TreePlan } from '../model/tree-plan.js';
import { missingIdentityColumns } from '../store/metric-table.js';
import { metricKey } from './load-task-tree.js';
import type { CheckedEntry } from './save-decision.js';

/** A checked batch, ready to write into the metric table. */
export interface CheckedBatch {
  readonly table: Identifier;
  readonly keyIndex: Identifier | undefined;
  readonly scope: Scope;
  readonly user: number;
  readonly taskSheet: number;
  readonly entries: readonly CheckedEntry[];
  readonly plan: TreePlan;
  /** The host's task sheet table's columns: its scope and flags are checked by those it has. */
  readonly sheetColumns: ReadonlySet<string>;
  /** The configured metric columns the table has: read in the locking read, answered, compared. */
  readonly metricColumns: ReadonlyMap<Identifier, ColumnType>;
  readonly source: SaveSource;
  /** The request id and what it stands for, when the save has one. */
  readonly request: SaveRequest | undefined;
  /** The server is a Galera cluster node: the scope's lock row, not `GET_LOCK` (see `readTopology`). */
  readonly galera: boolean;
}

/**
 * Each entry of a save checked against the metric table's columns, before any SQL: no key twice, only
 * configured metrics, each value and base of its column's type. Throws the first problem, with its path.
 */
export function checkEntries(
  entries: readonly MetricEntry[],
  plan: TreePlan,
  columns: ReadonlyMap<string, ColumnType>,
): CheckedEntry[] {
  const missing = missingIdentityColumns(columns);
  if (missing.length > 0) {
    throw new ConfigurationError(
      'METRIC_TABLE_UNUSABLE',
      columns.size === 0
        ? `metric table ${plan.metricTable} does not exist in this database: create it (db sync) or fix metricAssociationTable`
        : `metric table ${plan.metricTable} lacks ${missing.join(', ')}: a metric table needs the common columns and OPER_SEQ_DB, OPER_GRUPO_SEQ_DB, FOLHA_TAREFA_SEQ_DB`,
      { path: 'metricAssociationTable' },
    );
  }
  // The TREE_VIEW model refuses these already; a library caller can still hand over a TreeView it
  // built by hand, and a metric on a key or flag column would let a save rewrite scope, RO or DELETED.
  plan.metrics.forEach((metric, index) => {
    if (isReservedMetricColumn(metric.field)) {
      throw new ConfigurationError(
        'RESERVED_METRIC_FIELD',
        `metric ${metric.field} names a column the package manages (scope, key, audit or flags): metrics may only name metric columns such as METRICA1`,
        { path: `metrics.${index}.field` },
      );
    }
  });
  const fields = new Map<string, Identifier>(plan.metrics.map((metric) => [metric.field, metric.field]));
  const seen = new Map<string, number>();
  return entries.map((entry, index) => {
    const key = metricKey(entry.activity, entry.group);
    const first = seen.get(key);
    if (first !== undefined) {
      throw new InvalidRequestError(
        'DUPLICATE_ENTRY',
        `entry ${index} saves activity ${entry.activity} under node ${entry.group} again (already entry ${first}): send each one once`,
        { path: `entries.${index}` },
      );
    }
    seen.set(key, index);
    // Each field checked against its column: what to write, and what the client started from.
    const checkedFields = (given: Record<string, MetricValue> | undefined, part: 'values' | 'base') => {
      const checked = new Map<Identifier, MetricValue>();
      for (const [name, value] of Object.entries(given ?? {})) {
        const path = `entries.${index}.${part}.${abbreviated(name)}`;
        const field = fields.get(name);
        if (field === undefined) {
          throw new InvalidRequestError(
            'UNKNOWN_METRIC',
            `entry ${index}: "${abbreviated(name)}" is not a metric column of this installation (metrics: ${[...fields.keys()].join(', ')})`,
            { path },
          );
        }
        // The server matches column names without case: a TREE_VIEW may write `metrica1`.
        const column = columnNamed(columns, field);
        if (column === undefined) {
          throw new ConfigurationError(
            'METRIC_COLUMN_MISSING',
            `metric ${field} is configured, but table ${plan.metricTable} has no column ${field}: add the column or remove the metric`,
            { path },
          );
        }
        // A column no metric can be (a DATE, a BLOB) is the installation's mistake, not the value's.
        if (!isMetricType(column.dataType)) {
          throw new ConfigurationError(
            // The code `verify` and `validate --scope` give the same mistake.
            'TREE_VIEW_METRIC_TYPE',
            `metric ${field}: column ${plan.metricTable}.${column.name} is ${column.dataType}, which no metric can be: use a number or text column, or remove the metric`,
            { path },
          );
        }
        // A base is a value the column held: null is one whatever the column says (no row held it).
        const result =
          part === 'base' && value === null ? { ok: true as const, value } : checkValue(column, value);
        if (!result.ok) {
          throw new InvalidRequestError(
            part === 'values' ? 'INVALID_METRIC_VALUE' : 'INVALID_BASE',
            `entry ${index}: ${field} ${part === 'values' ? 'value' : 'base'} ${abbreviated(JSON.stringify(value))} ${result.problem}`,
            { path },
          );
        }
        checked.set(field, result.value);
      }
      return checked;
    };
    // Checked here, not by the body's model: a request id seen before is answered before this
    // (save-metrics.ts), so a retry of a save stored while its entry was younger is not refused.
    const deviceAt = entry.enteredAt === undefined ? undefined : Date.parse(entry.enteredAt);
    const deviceProblem = deviceAt === undefined ? undefined : deviceTimeProblem(deviceAt, Date.now());
    if (deviceProblem !== undefined) {
      throw new InvalidRequestError('INVALID_REQUEST', `entry ${index}: ${deviceProblem}`, {
        path: `entries.${index}.enteredAt`,
      });
    }
    return {
      index,
      activity: entry.activity,
      group: entry.group,
      key,
      values: checkedFields(entry.values, 'values'),
      base: checkedFields(entry.base, 'base'),
      remove: entry.remove === true,
      row: entry.row,
      // The instant, not a wall clock: the history writes it in the session's frame, as CHANGED_DH.
      deviceAt: deviceAt === undefined ? null : Math.floor(deviceAt / 1000),
    };
  });
}

/** The configured metrics the table has, with their types, in the TREE_VIEW's order. */
export function metricColumnsOf(
  plan: TreePlan,
  columns: ReadonlyMap<string, ColumnType>,
): Map<Identifier, ColumnType> {
  const found = new Map<Identifier, ColumnType>();
  for (const metric of plan.metrics) {
    const column = columnNamed(columns, metric.field);
    if (column !== undefined && !isReservedMetricColumn(metric.field)) found.set(metric.field, column);
  }
  return found;
}

/** What a request id stands for, as {@link requestOf} makes it. */
export interface SaveRequest {
  readonly id: string;
  /** The hash of the task sheet and the entries, each entry's fields in the order of their names. */
  readonly hash: string;
  /**
   * The hash of the same, the fields in the order they were sent: what the records of a server
   * before the fields were ordered hold (a retry across the upgrade; a record is kept 7 days).
   */
  readonly sentHash: string;
}

/**
 * What a request id stands for: the task sheet and the entries as given, each entry's `values` and
 * `base` in the order of their field names (a client that builds the body anew may list them in
 * another order: the same save). The same id with another body is refused (REQUEST_ID_REUSED)
 * rather than answered with an answer to another question.
 */
export function requestOf(id: string, taskSheet: number, entries: readonly MetricEntry[]): SaveRequest {
  const ordered = entries.map((entry) => ({
    ...entry,
    ...(entry.values === undefined ? {} : { values: byName(entry.values) }),
    ...(entry.base === undefined ? {} : { base: byName(entry.base) }),
  }));
  return { id, hash: hashOf([taskSheet, ordered]), sentHash: hashOf([taskSheet, entries]) };
}

const byName = (fields: Record<string, MetricValue>) =>
  Object.fromEntries(Object.entries(fields).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

const hashOf = (body: unknown) => createHash('sha256').update(JSON.stringify(body)).digest('hex');
