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
  ): Promise<Row[]>;
  /** Runs a statement that changes something. */
  execute(sql: string, params?: readonly unknown[]): Promise<ExecuteResult>;
}

export interface ExecuteResult {
  readonly affectedRows: number;
  /** The AUTO_INCREMENT value of an INSERT, 0 when none was generated. */
  readonly insertId: number;
}

export interface Database extends SqlExecutor {
  /** Runs `work` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /** The database (schema) this connection works in. */
  readonly schemaName: string;
  close(): Promise<void>;
}
