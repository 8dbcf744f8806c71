import type { Identifier } from '../model/identifier.js';
import { parseIdentifier } from '../model/identifier.js';
import type { Scope } from '../model/scope.js';
import { HISTORY_TABLE_NAME, LOCK_TABLE_NAME, REQUEST_TABLE_NAME } from '../model/table-names.js';
import { inScope, type Sql, sql } from './sql.js';

/*
 * The statements of the metric history and of the saves' request ids (schema/history.ts): what a
 * save writes beside its rows, in its transaction, and what readers ask of them.
 */

export const HISTORY_TABLE = parseIdentifier(HISTORY_TABLE_NAME, 'history table');
export const REQUEST_TABLE = parseIdentifier(REQUEST_TABLE_NAME, 'request table');
const HISTORY = sql.identifier(HISTORY_TABLE);
export const REQUESTS = sql.identifier(REQUEST_TABLE);
export const LOCK_TABLE = parseIdentifier(LOCK_TABLE_NAME, 'lock table');
export const LOCKS = sql.identifier(LOCK_TABLE);

/** The scope's named lock, to let go of in a statement (see `ScopeLock` in metric-writes.ts). */
interface Release {
  readonly name: Sql;
}

/** One field of one metric row changed by a save, as the history records it. */
export interface HistoryChange {
  /** The row's SEQ_DB; null for a row this save inserts (found by its key once inserted). */
  readonly row: number | null;
  readonly activity: number;
  readonly group: number | null;
  readonly field: Identifier;
  readonly action: 'insert' | 'update' | 'clear' | 'remove';
  /** Values as text, as the history keeps them; null for empty. */
  readonly old: string | null;
  readonly new: string | null;
  /**
   * The device's time of entry (DEVICE_DH) in whole seconds since the epoch; null when the client
   * sent none. Written with FROM_UNIXTIME, the session's local time of that instant: the frame of
   * CHANGED_DH (the session's NOW()), so the two read back alike whatever the session's time zone.
   */
  readonly deviceAt: number | null;
}

/** What every history row of one save shares. */
export interface HistoryWrite {
  readonly metricTable: Identifier;
  readonly scope: Scope;
  readonly taskSheet: number;
  readonly user: number;
  readonly source: string;
  readonly requestId: string | undefined;
  /** The server's time, read in the save's locking read: the rows' CHANGED_DH, as the answer says it. */
  readonly at: Date;
}

/**
 * One INSERT of every change of a save, the changes as one JSON table. A row this save inserted is
 * found by its key (the one live row of the key: the save's lock and locking read made sure there was
 * none before); its SEQ_DB comes from there. With `release`, the scope's named lock is let go first,
 * from a one-row derived table: every row of the save is written and locked by then.
 */
export function historyStatement(
  write: HistoryWrite,
  changes: readonly HistoryChange[],
  release?: Release,
): Sql {
  const { scope } = write;
  const rows = JSON.stringify(
    changes.map((change) => [
      change.row,
      change.activity,
      change.group,
      change.field,
      change.action,
      change.old,
      change.new,
      change.deviceAt,
    ]),
  );
  const releasing =
    release === undefined
      ? sql.empty
      : sql`(SELECT RELEASE_LOCK(${release.name}) AS released LIMIT 1) r JOIN `;
  // Rows this save inserted are found by their key; a save that inserted none needs no join.
  const inserted = changes.some((change) => change.row === null);
  const found = inserted
    ? sql` LEFT JOIN ${sql.identifier(write.metricTable)} m ON c.s IS NULL AND ${inScope('m', scope)} AND m.FOLHA_TAREFA_SEQ_DB = ${write.taskSheet} AND m.OPER_SEQ_DB = c.o AND m.OPER_GRUPO_SEQ_DB <=> c.g AND IFNULL(m.DELETED, 0) = 0`
    : sql.empty;
  const rowSeqDb = inserted ? sql`IFNULL(c.s, m.SEQ_DB)` : sql`c.s`;
  return sql`INSERT INTO ${HISTORY} (EMPRESA, FILIAL, LOCAL, METRIC_TABLE, ROW_SEQ_DB, FOLHA_TAREFA_SEQ_DB, OPER_SEQ_DB, OPER_GRUPO_SEQ_DB, FIELD, ACTION, OLD_VALUE, NEW_VALUE, USUARIO_SEQ_DB, CHANGED_DH, SOURCE, REQUEST_ID, DEVICE_DH) SELECT ${scope.EMPRESA}, ${scope.FILIAL}, ${scope.LOCAL}, ${write.metricTable}, ${rowSeqDb}, ${write.taskSheet}, c.o, c.g, c.f, c.a, c.ov, c.nv, ${write.user}, ${write.at}, ${write.source}, ${write.requestId ?? null}, FROM_UNIXTIME(c.d) FROM ${releasing}JSON_TABLE(${rows}, '$[*]' COLUMNS (s BIGINT PATH '$[0]', o BIGINT PATH '$[1]', g BIGINT PATH '$[2]', f VARCHAR(64) PATH '$[3]', a VARCHAR(10) PATH '$[4]', ov LONGTEXT PATH '$[5]', nv LONGTEXT PATH '$[6]', d BIGINT PATH '$[7]')) c${found}`;
}

/**
 * Records a save's request id with its answer, while the save still holds the scope's lock (never in
 * the statement that lets go of it): the next save of the same id, whose locking read of the record
 * comes after it took the lock, then finds the record and waits for its commit. A plain INSERT: a
 * second save of the same id that got past the lookup anyway (a host's writer, a lock lost with its
 * connection) fails on the unique key, is retried, and then finds this row and its answer.
 */
export function requestRecordStatement(
  scope: Scope,
  requestId: string,
  bodyHash: string,
  answer: string,
  user: number,
): Sql {
  return sql`INSERT INTO ${REQUESTS} (EMPRESA, FILIAL, LOCAL, REQUEST_ID, BODY_HASH, ANSWER, USUARIO_SEQ_DB) VALUES (${scope.EMPRESA}, ${scope.FILIAL}, ${scope.LOCAL}, ${requestKey(requestId)}, ${bodyHash}, ${answer}, ${user})`;
}

/**
 * A request id as the table keeps it: in lower case. Ids that differ only in case are one id, as
 * UUIDs are; kept so, they are one whatever the column's collation (the default one of MySQL 8 and
 * MariaDB ignores case, a database's own may not), and the unique key agrees with every look-up.
 */
function requestKey(requestId: string): string {
  return requestId.toLowerCase();
}

/**
 * A request id's record in the scope, read with a lock (FOR UPDATE: the latest committed row, and a
 * wait for one written but not committed yet), as `replay`: [hash, answer, 1 when younger than
 * `retentionSeconds`, else 0]; no row when the id is new. Read once the save holds the scope's lock.
 */
export function requestLookup(scope: Scope, requestId: string, retentionSeconds: number): Sql {
  return sql`SELECT JSON_ARRAY(r.BODY_HASH, r.ANSWER, r.INS_DH > NOW() - INTERVAL ${retentionSeconds} SECOND) AS replay FROM ${REQUESTS} r WHERE ${inScope('r', scope)} AND r.REQUEST_ID = ${requestKey(requestId)} LIMIT 1 FOR UPDATE`;
}

/** Forgets one request id of the scope: its row is past the retention, and the id is being used anew. */
export function forgetRequestStatement(scope: Scope, requestId: string): Sql {
  return sql`DELETE FROM ${REQUESTS} WHERE EMPRESA = ${scope.EMPRESA} AND FILIAL = ${scope.FILIAL} AND LOCAL = ${scope.LOCAL} AND REQUEST_ID = ${requestKey(requestId)}`;
}

/** Removes request ids older than the retention, a bounded number at a time. */
export function purgeRequestsStatement(retentionSeconds: number, limit: number): Sql {
  return sql`DELETE FROM ${REQUESTS} WHERE INS_DH < NOW() - INTERVAL ${retentionSeconds} SECOND LIMIT ${sql.raw(String(limit))}`;
}

/** The history of one task sheet's metric rows, newest first: of one key, or of every key. */
export function historyRows(
  scope: Scope,
  metricTable: Identifier,
  taskSheet: number,
  key: { readonly activity: number; readonly group: number | null } | undefined,
  limit: number,
): Sql {
  const ofKey =
    key === undefined
      ? sql.empty
      : sql` AND h.OPER_SEQ_DB = ${key.activity} AND h.OPER_GRUPO_SEQ_DB <=> ${key.group}`;
  return sql`SELECT h.SEQ_DB, h.ROW_SEQ_DB, h.OPER_SEQ_DB, h.OPER_GRUPO_SEQ_DB, h.FIELD, h.ACTION, h.OLD_VALUE, h.NEW_VALUE, h.USUARIO_SEQ_DB, h.CHANGED_DH, h.SOURCE, h.REQUEST_ID, h.DEVICE_DH FROM ${HISTORY} h WHERE ${inScope('h', scope)} AND h.FOLHA_TAREFA_SEQ_DB = ${taskSheet} AND h.METRIC_TABLE = ${metricTable}${ofKey} ORDER BY h.SEQ_DB DESC LIMIT ${sql.raw(String(limit))}`;
}

/**
 * The latest change of each of `fields` of the given keys of one task sheet (who and when, for a
 * conflict): `[activity, group, field, row]` as one JSON table, a field of null standing for any
 * field of the key (its latest change, a remove's of a key without a live row), a row (its SEQ_DB)
 * keeping to the changes of that row. Each is a locking read (`LOCK IN
 * SHARE MODE`, in MySQL 8 and MariaDB alike), which reads the latest committed row where a plain read
 * gives the transaction's snapshot: the save that made the conflict may have committed after the
 * snapshot was taken (it lets go of the scope's lock a moment before its commit), and the conflict
 * would name the change before it. The share locks last until the refused save rolls back.
 */
export function latestChanges(
  scope: Scope,
  metricTable: Identifier,
  taskSheet: number,
  fields: readonly (readonly [number, number | null, string | null, number | null])[],
): Sql {
  return sql`SELECT c.o, c.g, c.f, (SELECT JSON_ARRAY(h.USUARIO_SEQ_DB, h.CHANGED_DH) FROM ${HISTORY} h WHERE ${inScope('h', scope)} AND h.FOLHA_TAREFA_SEQ_DB = ${taskSheet} AND h.OPER_SEQ_DB = c.o AND h.OPER_GRUPO_SEQ_DB <=> c.g AND h.METRIC_TABLE = ${metricTable} AND (c.f IS NULL OR h.FIELD = c.f) AND (c.r IS NULL OR h.ROW_SEQ_DB = c.r) ORDER BY h.SEQ_DB DESC LIMIT 1 LOCK IN SHARE MODE) AS latest FROM JSON_TABLE(${JSON.stringify(fields)}, '$[*]' COLUMNS (o BIGINT PATH '$[0]', g BIGINT PATH '$[1]', f VARCHAR(64) PATH '$[2]', r BIGINT PATH '$[3]')) c`;
}
