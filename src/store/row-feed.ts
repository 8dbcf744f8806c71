import type { SqlExecutor } from './driver.js';
import { query, type Sql } from './sql.js';

type Row = Record<string, unknown>;

/**
 * A read whose rows are handled as they arrive, once the caller is ready for them: rows that come
 * before {@link RowFeed.consume} wait in order, and every later one goes straight to its handler.
 * A large level of the tree is read before the levels above it are built; with a feed, its nodes
 * are made while the rest of it is still on the wire, instead of after its last row.
 */
export class RowFeed {
  private waiting: Row[] | undefined = [];
  private handler: ((row: Row) => void) | undefined;
  /** Resolves once every row has been handed over; rejects with the read's or the handler's error. */
  readonly done: Promise<void>;

  constructor(db: SqlExecutor, statement: Sql) {
    const take = (row: Row) => {
      if (this.handler === undefined) this.waiting?.push(row);
      else this.handler(row);
    };
    // An executor that does not stream answers with every row at the end: they are taken the same way.
    this.done = query(db, statement, { onRow: take }).then((rows) => {
      for (const row of rows) take(row);
    });
    // Marked handled now, in case the caller fails elsewhere first and never awaits it; awaiting
    // `done` still throws its error.
    this.done.catch(() => undefined);
  }

  /**
   * Hands the rows so far to `handler`, in order, then every row that arrives after; once only. Once
   * `handler` has thrown, it gets no more rows: what it was building is abandoned.
   */
  consume(handler: (row: Row) => void): Promise<void> {
    const waiting = this.waiting ?? [];
    this.waiting = undefined;
    let failed = false;
    this.handler = (row) => {
      if (failed) return;
      try {
        handler(row);
      } catch (error) {
        failed = true;
        throw error;
      }
    };
    for (const row of waiting) this.handler(row);
    return this.done;
  }
}
