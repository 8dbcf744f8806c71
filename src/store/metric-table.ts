import type { ColumnType } from '../model/column-values.js';
import { type Identifier, parseIdentifier, sameName } from '../model/identifier.js';
import { TASK_SHEET_TABLE } from '../model/table-names.js';
import { columnTypesOf } from './column-types.js';
import type { SqlExecutor } from './driver.js';
import { type FoundIndex, readTable } from './information-schema.js';

/** What a save needs to know of the metric table before it writes: its columns and its key index. */
export interface MetricTableShape {
  readonly columns: ReadonlyMap<string, ColumnType>;
  /** The index that starts with the key columns, when the table has one (ours is ix_metric_key). */
  readonly keyIndex: Identifier | undefined;
}

/** The columns a metric table must have for a row to be found, inserted and guarded. */
export const IDENTITY_COLUMNS = [
  'SEQ_DB',
  'EMPRESA',
  'FILIAL',
  'LOCAL',
  'ID',
  'INS_USUARIO_SEQ_DB',
  'INS_DH',
  'UPD_USUARIO_SEQ_DB',
  'UPD_DH',
  'SOURCE',
  'ATIVO',
  'DELETED',
  'RO',
  'FOLHA_TAREFA_SEQ_DB',
  'OPER_SEQ_DB',
  'OPER_GRUPO_SEQ_DB',
];

/**
 * How long a shape read from information_schema is reused. A metric table's columns change at a
 * deployment, not between two saves, and reading them on every save was two of a one-entry save's
 * statements. The server stays the judge: a write it refuses for a column reason, or lets through
 * with a warning or a note (a decimal rounded to fewer places), drops the shape at once (see
 * {@link forgetMetricTableShape}), so a stale shape costs one retry, never a wrong write.
 */
export const SHAPE_TTL_MS = 60_000;

interface Cached {
  readonly shape: Promise<MetricTableShape>;
  readonly until: number;
}

/** Per connection pool (the Database object a caller hands us), per table name. */
const cache = new WeakMap<object, Map<string, Cached>>();

/**
 * The metric table's shape, from this pool's cache when read less than {@link SHAPE_TTL_MS} ago.
 * Only a usable shape (every identity column present) is kept: a missing or incomplete table is read
 * again on the next save, so creating or fixing it takes effect at once.
 */
export function metricTableShape(db: SqlExecutor, table: Identifier): Promise<MetricTableShape> {
  return cachedShape(db, table, isUsable);
}

/**
 * The columns of the host's task sheet table, cached as the metric table's shape is: a save checks
 * the task sheet's scope and flags in its own locking read, by whichever of those columns the host's
 * table has. A table that does not exist (no columns) is read again on the next save.
 */
export async function taskSheetColumns(db: SqlExecutor): Promise<ReadonlySet<string>> {
  const shape = await cachedShape(db, TASK_SHEET_TABLE, (read) => read.columns.size > 0);
  return new Set(shape.columns.keys());
}

function cachedShape(
  db: SqlExecutor,
  table: Identifier,
  usable: (shape: MetricTableShape) => boolean,
): Promise<MetricTableShape> {
  const tables = cache.get(db) ?? new Map<string, Cached>();
  cache.set(db, tables);
  const cached = tables.get(table);
  if (cached !== undefined && cached.until > Date.now()) return cached.shape;
  const shape = readShape(db, table);
  tables.set(table, { shape, until: Date.now() + SHAPE_TTL_MS });
  // Dropped only if still the entry: a newer read may have replaced it meanwhile.
  const drop = () => {
    if (tables.get(table)?.shape === shape) tables.delete(table);
  };
  shape.then((read) => {
    if (!usable(read)) drop();
  }, drop);
  return shape;
}

/** Drops the cached shapes of `table` and of the task sheet table, so the next save reads them again. */
export function forgetMetricTableShape(db: SqlExecutor, table: Identifier): void {
  cache.get(db)?.delete(table);
  cache.get(db)?.delete(TASK_SHEET_TABLE);
}

/** The identity columns `columns` lacks. */
export function missingIdentityColumns(columns: ReadonlyMap<string, ColumnType>): string[] {
  return IDENTITY_COLUMNS.filter((column) => !columns.has(column));
}

function isUsable(shape: MetricTableShape): boolean {
  return missingIdentityColumns(shape.columns).length === 0;
}

async function readShape(db: SqlExecutor, table: Identifier): Promise<MetricTableShape> {
  const found = await readTable(db, table, { indexes: true });
  return { columns: columnTypesOf(found), keyIndex: keyIndexOf(found?.indexes ?? []) };
}

/**
 * The code of a save refused because the server changed a value as it wrote it (its write left a
 * warning or a note: a decimal rounded, a text cut in a non-strict session). Taken as a shape error:
 * the batch is checked again against the table as it is now, and refused with its path if a value no
 * longer fits; if the write warns again, the save is refused with this code.
 */
export const METRIC_WRITE_CHANGED = 'METRIC_WRITE_CHANGED';

/**
 * Server errors that say the table is not what the shape says (a column gone, a narrower type, the
 * index dropped): the shape is read again and the batch checked against it before any retry. The
 * last is ours: a save's write that left a warning or a note (a decimal given fewer places rounds
 * with a note only, which no error code says), see {@link METRIC_WRITE_CHANGED}.
 */
const SHAPE_ERRORS = new Set([
  'ER_BAD_FIELD_ERROR',
  'ER_NO_SUCH_TABLE',
  'ER_KEY_DOES_NOT_EXITS',
  'ER_DATA_TOO_LONG',
  'ER_WARN_DATA_OUT_OF_RANGE',
  'WARN_DATA_TRUNCATED',
  'ER_TRUNCATED_WRONG_VALUE_FOR_FIELD',
  'ER_BAD_NULL_ERROR',
  'ER_NO_DEFAULT_FOR_FIELD',
  METRIC_WRITE_CHANGED,
]);

export function isShapeError(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  return typeof code === 'string' && SHAPE_ERRORS.has(code);
}

/** The columns a save looks rows up by, in the order an index must start with to serve it. */
const KEY_COLUMNS = ['EMPRESA', 'FILIAL', 'LOCAL', 'FOLHA_TAREFA_SEQ_DB', 'OPER_SEQ_DB', 'OPER_GRUPO_SEQ_DB'];

/**
 * The metric table's index that starts with the key columns (ours is METRIC_KEY_INDEX; a host's own
 * metric table may have one under another name), or undefined when it has none: then the save still
 * writes only its keys, but the server may lock more rows than theirs to find them. A MySQL 8
 * functional key part counts as a part no lookup by column uses.
 */
function keyIndexOf(indexes: readonly FoundIndex[]): Identifier | undefined {
  const found = indexes.find((index) =>
    KEY_COLUMNS.every((column, position) => sameName(index.columns[position] ?? '', column)),
  );
  return found === undefined ? undefined : parseIdentifier(found.name, 'metric key index');
}
