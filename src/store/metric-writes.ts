import type { Identifier } from '../model/identifier.js';
import type { MetricValue } from '../model/metrics.js';
import { formatScope, type Scope } from '../model/scope.js';
import { LOCKS, requestLookup } from './history.js';
import type { CheckParts } from './save-checks.js';
import { inScope, type Sql, sql } from './sql.js';

/*
 * The SQL of a save's transaction, decided without touching the database: which rows to lock, which
 * to update, which to insert. Each builder returns one statement with `?` placeholders; names are
 * checked identifiers, values travel as parameters, each beside its own placeholder.
 */

/** One metric row's identity on a task sheet: the activity and the parent node it was reached through. */
export interface MetricKey {
  readonly activity: number;
  readonly group: number | null;
}

/** A checked entry: its key and the values to write, by metric column. */
export interface MetricWrite extends MetricKey {
  readonly values: ReadonlyMap<Identifier, MetricValue>;
}

/**
 * The batch's keys as a table `k (n, o, g)`: n numbers them from 1, o is the activity, g the parent
 * node (NULL on a one-level tree). One JSON parameter, whatever the batch's size: a derived table of
 * one SELECT per key costs the server a parse of each (a 1000-key batch measured several ms).
 */
function keyTable(keys: readonly MetricKey[]): Sql {
  return sql`JSON_TABLE(${JSON.stringify(keys.map((key) => [key.activity, key.group]))}, '$[*]' COLUMNS (n FOR ORDINALITY, o BIGINT PATH '$[0]', g BIGINT PATH '$[1]')) k`;
}

/**
 * The name of the lock that serialises the writers of one (database, metric table, scope), as an SQL
 * expression. It is hashed on the server: MySQL refuses lock names longer than 64 characters.
 */
export function scopeLockName(table: Identifier, scope: Scope): Sql {
  return sql`CONCAT('task_association:', SHA1(CONCAT(DATABASE(), '.', ${table}, ':', ${formatScope(scope)})))`;
}

/**
 * Takes the scope's lock row on a Galera cluster: a write, so that two saves of one scope through two
 * nodes conflict at certification (the later one fails at commit and is retried), while on one node
 * the row lock makes the next writer wait until the commit. The row is found by LOCK_NAME alone (the
 * table's unique key), so the name carries the scope, hashed with the database and metric table as
 * the named lock's is: saves of other scopes take other rows and neither wait nor conflict (rows
 * named before the scope was in the name, one per metric table, are left as they are, unused).
 * Waits one second at most for a writer on the same node, as a save waits for `GET_LOCK`, then is
 * retried: MariaDB's `SET STATEMENT`, in an
 * executable comment (`/*M! *\/`) that MySQL reads as a comment, since MySQL 8 (Percona XtraDB
 * Cluster) has no such statement and its `SET_VAR` hint does not take InnoDB's variables. There the
 * wait is the server's `innodb_lock_wait_timeout`.
 */
export function scopeLockRowStatement(table: Identifier, scope: Scope): Sql {
  return sql`/*M! SET STATEMENT innodb_lock_wait_timeout = 1 FOR */ INSERT INTO ${LOCKS} (EMPRESA, FILIAL, LOCAL, LOCK_NAME, N) VALUES (${scope.EMPRESA}, ${scope.FILIAL}, ${scope.LOCAL}, CONCAT('save:', SHA1(CONCAT(DATABASE(), '.', ${table}, ':', ${formatScope(scope)}))), 1) ON DUPLICATE KEY UPDATE N = N + 1`;
}

/** The scope's named lock and how long to wait for it. */
export interface ScopeLock {
  readonly name: Sql;
  readonly timeoutSeconds: number;
}

/**
 * Takes the scope's named lock, waiting `timeoutSeconds` at most: `locked` is 1 once it is taken. A
 * statement of its own, the first of the save's transaction: it reads no table, so the transaction's
 * snapshot is taken by the reads after it, once the lock is held. (Taken inside the locking read, the
 * lock was waited for after that statement's subqueries had taken the snapshot: a request record, a
 * task sheet or a link committed during the wait went unseen.)
 *
 * @example takeLockStatement({ name: scopeLockName(parseIdentifier('app_oper_grupo_metrica', 'metric table'), scope), timeoutSeconds: 1 }).sql
 * // SELECT GET_LOCK(CONCAT('task_association:', SHA1(CONCAT(DATABASE(), '.', ?, ':', ?))), ?) AS locked
 */
export function takeLockStatement(lock: ScopeLock): Sql {
  return sql`SELECT GET_LOCK(${lock.name}, ${lock.timeoutSeconds}) AS locked`;
}

/**
 * Locks and reads the task sheet's rows of exactly `keys` (DELETED rows excepted: they are history,
 * never the key's row), in one statement, which also carries the save's `checks` (see `checkParts`)
 * and its request record. Run once the scope's lock is held (`takeLockStatement`, or the lock row on
 * a cluster). Every row says which key it is for (`n`, from 1); a key without a row comes back once
 * with a NULL ID.
 *
 * One index lookup per key: the keys drive the join and, when the table has it, the metric key index
 * is forced, since the optimizer may otherwise walk an index of one column (the activity's, say) and
 * lock that activity's rows on every task sheet. `<=>` matches a NULL group (a one-level tree) as a
 * value.
 *
 * @example lockKeysStatement(parseIdentifier('app_oper_grupo_metrica', 'metric table'), scope, 42, [{ activity: 3, group: 1 }], parseIdentifier(METRIC_KEY_INDEX, 'index')).sql
 * // SELECT STRAIGHT_JOIN k.n, m.ID, ... FROM JSON_TABLE(?, ...) k
 * //   LEFT JOIN `app_oper_grupo_metrica` m FORCE INDEX (`ix_metric_key`) ON m.EMPRESA = ? AND ... FOR UPDATE
 */
export function lockKeysStatement(
  table: Identifier,
  scope: Scope,
  taskSheet: number,
  keys: readonly MetricKey[],
  keyIndex: Identifier | undefined,
  checks?: CheckParts,
  read: LockedRead = { metrics: [], replay: undefined },
): Sql {
  const hint = keyIndex === undefined ? sql.empty : sql` FORCE INDEX (${sql.identifier(keyIndex)})`;
  const prefix = checks?.prefix ?? sql.empty;
  const withChecks = checks?.with === undefined ? sql.empty : sql`WITH RECURSIVE ${checks.with} `;
  const checkColumns = checks === undefined ? sql.empty : sql`, ${checks.columns}`;
  // Stored values come under names of ours (v0, v1, ...): a metric column could share a name with
  // one of the statement's own (n, locked).
  const metricColumns = sql.join(
    read.metrics.map((column, index) => sql`, m.${sql.identifier(column)} AS ${sql.raw(`v${index}`)}`),
    '',
  );
  // The request record is read with a lock of its own (a subquery's rows are otherwise read from the
  // snapshot): a save of the same id that let go of the scope's lock has written its record but may
  // not have committed it yet, and the read waits for its commit rather than miss it.
  const replay =
    read.replay === undefined
      ? sql.empty
      : sql`, CASE WHEN k.n = 1 THEN (${requestLookup(scope, read.replay.requestId, read.replay.retentionSeconds)}) END AS replay`;
  const audit =
    read.metrics.length === 0
      ? sql.empty
      : sql`, NOW() AS server_now, m.SEQ_DB, m.INS_USUARIO_SEQ_DB, m.INS_DH, m.UPD_USUARIO_SEQ_DB, m.UPD_DH${metricColumns}`;
  return sql`${prefix}${withChecks}SELECT STRAIGHT_JOIN k.n, m.ID, m.RO, m.ATIVO, k.o AS OPER_SEQ_DB, k.g AS OPER_GRUPO_SEQ_DB${audit}${replay}${checkColumns}
       FROM ${keyTable(keys)}
       LEFT JOIN ${sql.identifier(table)} m${hint} ON ${inScope('m', scope)}
        AND m.FOLHA_TAREFA_SEQ_DB = ${taskSheet} AND m.OPER_SEQ_DB = k.o AND m.OPER_GRUPO_SEQ_DB <=> k.g AND IFNULL(m.DELETED, 0) = 0
     FOR UPDATE`;
}

/** What a save's locking read reads besides the keys' rows: their metric columns, and an earlier answer. */
export interface LockedRead {
  /** The metric columns read of each row (as `v0`, `v1`, ...), with the row's SEQ_DB, audit columns and the server's time. */
  readonly metrics: readonly Identifier[];
  /** The request id whose recorded answer comes back as `replay`, read with a lock: [hash, answer, 1 when younger than the retention, else 0]. */
  readonly replay: { readonly requestId: string; readonly retentionSeconds: number } | undefined;
}

/** Releases the scope's named lock. */
export function releaseStatement(lock: ScopeLock): Sql {
  return sql`SELECT RELEASE_LOCK(${lock.name})`;
}

/** An update: the rows (by ID) of entries that write the same columns. */
export interface RowUpdate {
  readonly ids: readonly number[];
  readonly values: ReadonlyMap<Identifier, MetricValue>;
}

/**
 * Rows of values as a table `v`: one JSON parameter, whatever the batch's size, so the statement's
 * text depends only on the columns written (and is prepared once per connection). Values travel as
 * text, converted by the column they are written to, as a bound string parameter is; JSON null is
 * NULL. LONGTEXT whatever the column: declared as the column's type (TINYTEXT), MariaDB cuts a longer
 * value silently instead of refusing it, so lengths are checked before (`checkValue`), not here.
 */
function valueTable(
  keys: readonly ('id' | 'o' | 'g')[],
  values: number,
  rows: readonly (readonly unknown[])[],
): Sql {
  const columns = [
    // Rows to insert are numbered, for their IDs.
    ...(keys.includes('o') ? ['n FOR ORDINALITY'] : []),
    ...keys.map((name, index) => `${name} BIGINT PATH '$[${index}]'`),
    ...Array.from({ length: values }, (_, index) => `v${index} LONGTEXT PATH '$[${keys.length + index}]'`),
  ];
  return sql`JSON_TABLE(${JSON.stringify(rows)}, '$[*]' COLUMNS (${sql.raw(columns.join(', '))})) v`;
}

/** JSON text of a checked value: numbers as they are (JSON keeps a safe integer exact), text as text. */
function jsonValue(value: MetricValue | undefined): unknown {
  return value ?? null;
}

/**
 * Writes grouped by the set of columns each writes (its values' columns, in order), the groups in
 * the order first met: one statement per group, for updates and inserts alike.
 */
function byColumnSet<Write extends { readonly values: ReadonlyMap<Identifier, MetricValue> }>(
  writes: readonly Write[],
): { columns: Identifier[]; items: Write[] }[] {
  const groups = new Map<string, { columns: Identifier[]; items: Write[] }>();
  for (const write of writes) {
    const columns = [...write.values.keys()];
    const set = columns.join(',');
    const group = groups.get(set) ?? { columns, items: [] };
    groups.set(set, group);
    group.items.push(write);
  }
  return [...groups.values()];
}

/**
 * Updates rows by primary key, one statement per set of columns written (a batch usually writes one
 * set), the rows' IDs and values joined from a JSON table.
 *
 * With `release`, the last statement also releases the scope's named lock, from a one-row derived
 * table read before any row is written. Only for a batch that inserts nothing: its rows are already
 * locked by the locking read, so the next writer that takes the named lock waits on them until this
 * transaction commits, and the one round trip a release costs is saved.
 */
export function updateStatements(
  table: Identifier,
  scope: Scope,
  user: number,
  updates: readonly RowUpdate[],
  release?: ScopeLock,
  source?: string,
): Sql[] {
  const sets = byColumnSet(updates).map(({ columns, items }) => ({
    columns,
    rows: items.flatMap((update) =>
      update.ids.map((id) => [id, ...[...update.values.values()].map(jsonValue)]),
    ),
  }));
  return sets.map(({ columns, rows }, setIndex) => {
    const releasing =
      release !== undefined && setIndex === sets.length - 1
        ? sql`(SELECT RELEASE_LOCK(${release.name}) AS released LIMIT 1) r JOIN `
        : sql.empty;
    const assignments = sql.join(
      columns.map((column, index) => sql`m.${sql.identifier(column)} = ${sql.raw(`v.v${index}`)}`),
      ', ',
    );
    const sourceSet = source === undefined ? sql.empty : sql`, m.SOURCE = ${source}`;
    return sql`UPDATE ${releasing}${valueTable(['id'], columns.length, rows)} JOIN ${sql.identifier(table)} m ON ${inScope('m', scope)} AND m.ID = v.id SET ${assignments}, m.UPD_USUARIO_SEQ_DB = ${user}${sourceSet}`;
  });
}

/**
 * The INSERTs of the new rows, one per set of columns written (as {@link updateStatements} groups
 * its rows; see {@link insertStatement}). An entry's statement names only the columns it sends, so
 * every column it leaves out takes the column's own default (NULL where it has none), never a NULL
 * written for it because another entry of the batch sent that column.
 */
export function insertStatements(
  table: Identifier,
  scope: Scope,
  user: number,
  taskSheet: number,
  inserts: readonly MetricWrite[],
  source?: string,
): Sql[] {
  return byColumnSet(inserts).map(({ items }) =>
    insertStatement(table, scope, user, taskSheet, items, source),
  );
}

/**
 * One INSERT of new rows that all write the same columns, with consecutive IDs after the scope's
 * highest. The highest ID is read in the same statement, backwards through the primary key: an
 * INSERT ... SELECT share-locks the rows it reads, so it reads the latest row (a previous statement's
 * own, or a writer's that has not committed yet, waited for rather than missed), and a host writer
 * cannot take those IDs meanwhile. Our own writers are serialised by the scope's named lock, held
 * across it. Entries that write other columns go in statements of their own ({@link insertStatements}).
 */
export function insertStatement(
  table: Identifier,
  scope: Scope,
  user: number,
  taskSheet: number,
  inserts: readonly MetricWrite[],
  source?: string,
): Sql {
  const metricColumns = [...(inserts[0]?.values.keys() ?? [])];
  const set = metricColumns.join(',');
  if (inserts.some((entry) => [...entry.values.keys()].join(',') !== set)) {
    // A column named for an entry that does not send it would be written NULL over its default.
    throw new Error('insertStatement: every entry must write the same columns (see insertStatements)');
  }
  const quoted = sql.identifier(table);
  const columns = sql.join(
    metricColumns.map((column) => sql`, ${sql.identifier(column)}`),
    '',
  );
  const values = sql.raw(metricColumns.map((_, index) => `, v.v${index}`).join(''));
  const rows = valueTable(
    ['o', 'g'],
    metricColumns.length,
    inserts.map((entry) => [
      entry.activity,
      entry.group,
      ...metricColumns.map((column) => jsonValue(entry.values.get(column))),
    ]),
  );
  const sourceColumn = source === undefined ? sql.empty : sql`, SOURCE`;
  const sourceValue = source === undefined ? sql.empty : sql`, ${source}`;
  return sql`INSERT INTO ${quoted} (EMPRESA, FILIAL, LOCAL, ID, INS_USUARIO_SEQ_DB, FOLHA_TAREFA_SEQ_DB, OPER_SEQ_DB, OPER_GRUPO_SEQ_DB${sourceColumn}${columns}) SELECT ${scope.EMPRESA}, ${scope.FILIAL}, ${scope.LOCAL}, IFNULL(last.ID, 0) + v.n, ${user}, ${taskSheet}, v.o, v.g${sourceValue}${values} FROM ${rows} LEFT JOIN (SELECT ID FROM ${quoted} WHERE EMPRESA = ${scope.EMPRESA} AND FILIAL = ${scope.FILIAL} AND LOCAL = ${scope.LOCAL} ORDER BY ID DESC LIMIT 1) last ON TRUE`;
}

/**
 * Reads back `columns` of the live rows of `keys` on one task sheet, in the save's transaction (the
 * rows it has just inserted, so they are its own): what a column's default put there, which the
 * answer gives as stored. Each row says which key it is (`n`, from 1), the values as `v0`, `v1`, ...
 */
export function readBackStatement(
  table: Identifier,
  scope: Scope,
  taskSheet: number,
  keys: readonly MetricKey[],
  columns: readonly Identifier[],
): Sql {
  const values = sql.join(
    columns.map((column, index) => sql`, m.${sql.identifier(column)} AS ${sql.raw(`v${index}`)}`),
    '',
  );
  return sql`SELECT k.n${values} FROM ${keyTable(keys)} JOIN ${sql.identifier(table)} m ON ${inScope('m', scope)} AND m.FOLHA_TAREFA_SEQ_DB = ${taskSheet} AND m.OPER_SEQ_DB = k.o AND m.OPER_GRUPO_SEQ_DB <=> k.g AND IFNULL(m.DELETED, 0) = 0 ORDER BY k.n, m.ID`;
}
