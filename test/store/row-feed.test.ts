import { describe, expect, it } from 'vitest';
import type { QueryOptions, SqlExecutor } from '../../src/store/driver.js';
import { RowFeed } from '../../src/store/row-feed.js';
import { sql } from '../../src/store/sql.js';
import { useScratchDatabase } from '../support/database.js';

const scratch = useScratchDatabase('row_feed');
const SQL = sql`SELECT seq AS n FROM seq_1_to_6 ORDER BY seq`;
const numbers = (rows: Record<string, unknown>[]) => rows.map((row) => Number(row.n));

describe('RowFeed', () => {
  it('keeps the rows that come before consume, in order, then hands over the rest as they come', async () => {
    const { db } = scratch();
    let handed = 0;
    // Counts the rows the executor hands over before the feed is consumed.
    const watching: SqlExecutor = {
      query: (sql, params, options?: QueryOptions) =>
        db.query(sql, params, {
          onRow: (row) => {
            handed++;
            options?.onRow?.(row);
          },
        }),
      execute: (sql, params) => db.execute(sql, params),
    };
    const feed = new RowFeed(watching, SQL);
    while (handed < 6) await new Promise((resolve) => setTimeout(resolve, 5));
    const seen: Record<string, unknown>[] = [];
    await feed.consume((row) => seen.push(row));
    expect(numbers(seen)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('takes every row from an executor that ignores onRow, once, in order', async () => {
    const { db } = scratch();
    const plain: SqlExecutor = {
      query: (sql, params) => db.query(sql, params),
      execute: (sql, params) => db.execute(sql, params),
    };
    const feed = new RowFeed(plain, SQL);
    const seen: Record<string, unknown>[] = [];
    const consumed = feed.consume((row) => seen.push(row));
    expect(seen).toEqual([]);
    await consumed;
    expect(numbers(seen)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('stops handing rows to a handler that threw, whether on a kept row or on a streamed one', async () => {
    const { db } = scratch();
    // On a kept row: the throw comes out of consume, and the rows after it never reach the handler.
    const kept = new RowFeed(db, SQL);
    await kept.done;
    const seenKept: number[] = [];
    expect(() =>
      kept.consume((row) => {
        seenKept.push(Number(row.n));
        if (row.n === 2) throw new Error('bad second row');
      }),
    ).toThrow('bad second row');
    expect(seenKept).toEqual([1, 2]);

    // On a streamed row: the read rejects with it, and no later row is handed over.
    const streamed = new RowFeed(db, SQL);
    const seenStreamed: number[] = [];
    await expect(
      streamed.consume((row) => {
        seenStreamed.push(Number(row.n));
        if (row.n === 4) throw new Error('bad fourth row');
      }),
    ).rejects.toThrow('bad fourth row');
    expect(seenStreamed).toEqual([1, 2, 3, 4]);
  });

  it('rejects with the read error, and a feed never consumed leaves no unhandled rejection', async () => {
    const { db } = scratch();
    new RowFeed(db, sql`SELECT * FROM no_such_table_ta`);
    const feed = new RowFeed(db, sql`SELECT * FROM no_such_table_ta`);
    await expect(feed.consume(() => undefined)).rejects.toThrow(/no_such_table_ta/);
  });
});
