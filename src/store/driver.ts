/**
 * The few things this package needs from a MySQL/MariaDB driver, as our own small interface
 * (after kysely's DatabaseConnection): the core never imports the driver's types, so a host can hand
 * us its own pool through an adapter, and tests can count round trips.
 *
 * SQL uses `?` placeholders; identifiers are never passed as parameters but quoted with
 * `quoteIdentifier` after being checked.
 */
export interface SqlExecutor {
  /** Runs a statement that returns rows. */
  query<Row extends object = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
    options?: QueryOptions,
  ): Promise<Row[]>;
  /** Runs a statement that changes something. */
  execute(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<ExecuteResult>;
}

/** How a statement is best sent; an executor may ignore it and run the statement as text. */
export interface QueryOptions {
  /**
   * The statement's text is one of a few fixed ones (its values all travel as parameters) and runs
   * often: prepared once per connection, the server skips parsing it again, which for a long
   * statement is most of its cost. Never for text that varies with its input: each prepared text
   * holds a slot on the server, whose total is capped for every client.
   */
  readonly prepare?: boolean;
  /**
   * Hands the rows of a large result to `onRow` one by one as they arrive, so the caller builds from
   * the first rows while the last are still on their way; the promise then resolves with no rows. An
   * executor that does not stream may ignore it and resolve with every row: a caller passes the
   * rows it gets back to the same function. If `onRow` throws, the remaining rows are read and
   * dropped and the promise rejects with that error. The time `onRow` takes counts towards the
   * executor's bound on an answer, as the rows arrive while it runs. Not combined with `prepare`.
   */
  readonly onRow?: (row: Record<string, unknown>) => void;
  /**
   * The statement changes a table's definition (CREATE, ALTER, DROP). It waits at most
   * `SCHEMA_LOCK_WAIT_SECONDS` (timeout.ts) for the table's metadata lock: while a DDL waits for it, every
   * later read and write of the table queues behind it, so a host's long transaction on the table
   * would hold every save up for as long as the DDL waited. Once it has the table, its answer is
   * awaited up to `SCHEMA_CHANGE_TIMEOUT_MS`: a rebuild sends nothing until it is done, and
   * cutting it at the usual bound would report it failed while the server goes on running it.
   */
  readonly schemaChange?: boolean;
}

export interface ExecuteResult {
  readonly affectedRows: number;
  /** The AUTO_INCREMENT value of an INSERT, 0 when none was generated. */
  readonly insertId: number;
  /**
   * How many warnings and notes the statement left (the server's count in its answer, mysql2's
   * `warningStatus`): a save takes any as a value the server changed as it wrote it (a decimal
   * rounded). An adapter that cannot tell leaves it out.
   */
  readonly warningStatus?: number;
}

/** How a transaction starts. */
export interface TransactionOptions {
  /**
   * On a Galera cluster node, the transaction starts once the node has applied every write the
   * cluster had committed when it was asked (a causal wait, `wsrep_sync_wait` on its `START
   * TRANSACTION`; inside a transaction the server waits for no statement). A node lags a commit made
   * through another by a moment: without it, a read right after a write acknowledged through another
   * node may see the value before it. Elsewhere nothing changes.
   */
  readonly causal?: boolean;
}

export interface Database extends SqlExecutor {
  /** Runs `work` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * Runs `work` on one connection of its own, outside any transaction (each statement commits by
   * itself), then hands the connection back: for what belongs to a connection, such as a named lock.
   */
  connection<T>(work: (connection: SqlExecutor) => Promise<T>): Promise<T>;
  /** The database (schema) this connection works in. */
  readonly schemaName: string;
  /**
   * Ends the pool's connections; a second call resolves as the first did. A call made after it fails
   * with `DatabaseConnectionError` (`DATABASE_CLOSED`).
   */
  close(): Promise<void>;
}
