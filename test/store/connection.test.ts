import { type AddressInfo, createConnection, createServer } from 'node:net';
import { createPool as createCallbackPool } from 'mysql2';
import mysql from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import {
  DatabaseConnectionError,
  DatabaseTimeoutError,
  TaskAssociationError,
} from '../../src/model/errors.js';
import { openDatabase, wrapPool } from '../../src/store/mysql.js';
import { query, sql } from '../../src/store/sql.js';
import { parseDatabaseUrl, redactUrl, resolveDatabaseUrl, withDatabase } from '../../src/store/url.js';
import { loadTaskTree, saveMetrics } from '../../src/tree.js';
import { SERVER_URL, useScratchDatabase } from '../support/database.js';

describe('database URLs', () => {
  it('resolves the flag, then $DATABASE_URL, then the default', () => {
    expect(resolveDatabaseUrl('mysql://a@h/x', { DATABASE_URL: 'mysql://b@h/y' })).toBe('mysql://a@h/x');
    expect(resolveDatabaseUrl(undefined, { DATABASE_URL: 'mysql://b@h/y' })).toBe('mysql://b@h/y');
    expect(resolveDatabaseUrl(undefined, {})).toBe('mysql://root@127.0.0.1:3306/test');
    // An empty variable means unset.
    expect(resolveDatabaseUrl(undefined, { DATABASE_URL: '' })).toBe('mysql://root@127.0.0.1:3306/test');
  });

  it('parses every part and redacts the password', () => {
    expect(parseDatabaseUrl('mysql://app:s%40cret@db.local:3307/erp')).toEqual({
      host: 'db.local',
      port: 3307,
      user: 'app',
      password: 's@cret',
      database: 'erp',
    });
    expect(redactUrl('mysql://app:secret@db.local:3307/erp')).toBe('mysql://app:***@db.local:3307/erp');
    expect(withDatabase('mysql://root@127.0.0.1:3306/test', 'other')).toBe(
      'mysql://root@127.0.0.1:3306/other',
    );
  });

  it.each([
    ['not a url', 'database URL "not a url" is not a URL'],
    ['postgres://u@h/db', 'must start with mysql:// or mariadb://'],
    ['mysql://root@127.0.0.1:3306', 'must name one database'],
  ])('refuses %s', (url, message) => {
    expect(() => parseDatabaseUrl(url)).toThrowError(message);
    expect(() => parseDatabaseUrl(url)).toThrowError(TaskAssociationError);
  });

  it.each([
    ['mysql://root:pa%ss@127.0.0.1:3306/test', 'password', 'its password is badly percent-encoded'],
    ['mysql://ro%zzot@127.0.0.1:3306/test', 'user', 'its user name is badly percent-encoded'],
    ['mysql://root@127.0.0.1:3306/te%zzst', 'database', 'its database name is badly percent-encoded'],
  ])('names the badly percent-encoded part of %s, never showing the password', (url, path, message) => {
    const error = (() => {
      try {
        return parseDatabaseUrl(url);
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error).toBeInstanceOf(TaskAssociationError);
    expect(error).toMatchObject({
      code: 'INVALID_DATABASE_URL',
      path,
      message: expect.stringContaining(message),
    });
    expect((error as Error).message).not.toContain('pa%ss');
  });
  // Found by a review: `?ssl=true` was ignored without a word (plain text where TLS was asked for).
  it('refuses query parameters, which it does not honour, naming them and never their values', () => {
    const refusal = (url: string) => {
      try {
        return parseDatabaseUrl(url);
      } catch (thrown) {
        return thrown;
      }
    };
    expect(refusal('mysql://app:secret@db.local:3306/erp?ssl=true')).toMatchObject({
      code: 'INVALID_DATABASE_URL',
      path: 'query',
      message:
        'database URL mysql://app:***@db.local:3306/erp has query parameters (ssl), which the package does not honour: it would connect without them. Remove them; TLS is not offered through the URL (reach the server over a network you trust or an SSH tunnel, or, from code, give wrapPool a mysql2 pool of your own with its ssl option)',
    });
    const two = refusal('mysql://root@h/erp?sslmode=REQUIRED&password=hunter2&ssl=1');
    expect(two).toBeInstanceOf(TaskAssociationError);
    expect((two as Error).message).toContain('has query parameters (sslmode, password, ssl)');
    expect((two as Error).message).not.toContain('hunter2');
  });

  // Found by a review: the host kept its brackets, which no resolver takes.
  it('gives an IPv6 host without its brackets', () => {
    expect(parseDatabaseUrl('mysql://root@[::1]:3306/x')).toMatchObject({ host: '::1', port: 3306 });
    expect(parseDatabaseUrl('mysql://root@[fd00::2]/x').host).toBe('fd00::2');
  });
});

describe('openDatabase', () => {
  const scratch = useScratchDatabase('connection');

  it('runs queries and transactions on the real server', async () => {
    const { db } = scratch();
    await db.execute('CREATE TABLE t (id int PRIMARY KEY, amount decimal(10,2))');
    await db.transaction(async (tx) => {
      await tx.execute('INSERT INTO t VALUES (?, ?)', [1, '12.50']);
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.execute('INSERT INTO t VALUES (?, ?)', [2, '1.00']);
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    // Decimals come back as exact strings; the aborted transaction left nothing.
    expect(await db.query('SELECT id, amount FROM t ORDER BY id')).toEqual([{ id: 1, amount: '12.50' }]);
  });

  it('runs work on one connection of its own, outside a transaction, and hands it back', async () => {
    const { db } = scratch();
    await db.execute('CREATE TABLE c (id int PRIMARY KEY)');
    const [ids, inTransaction] = await db.connection(async (connection) => {
      await connection.execute('INSERT INTO c VALUES (1)');
      // A failure does not undo what came before it: each statement committed by itself.
      await expect(connection.execute('INSERT INTO c VALUES (1)')).rejects.toMatchObject({
        code: 'ER_DUP_ENTRY',
      });
      const [first] = await connection.query<{ id: number }>('SELECT CONNECTION_ID() AS id');
      const [second] = await connection.query<{ id: number }>('SELECT CONNECTION_ID() AS id');
      const [state] = await connection.query<{ open: number }>(
        'SELECT COUNT(*) AS open FROM information_schema.INNODB_TRX WHERE trx_mysql_thread_id = CONNECTION_ID()',
      );
      return [[first?.id, second?.id], Number(state?.open)];
    });
    expect(ids[0]).toBe(ids[1]);
    expect(inTransaction).toBe(0);
    expect(await db.query('SELECT id FROM c')).toEqual([{ id: 1 }]);
    await expect(db.connection(async () => Promise.reject(new Error('stop')))).rejects.toThrow('stop');
    // The connection went back to the pool both times: the pool still answers.
    expect(await db.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });

  it('answers a prepared statement as it answers the same text, values and types alike', async () => {
    const { db } = scratch();
    await db.execute('CREATE TABLE p (id bigint PRIMARY KEY, amount decimal(10,2), label varchar(10))');
    await db.execute('INSERT INTO p VALUES (?, ?, ?), (?, ?, ?)', [1, '2.50', 'a', 2, '3.75', null]);
    const sql = 'SELECT id, amount, label FROM p WHERE id >= ? AND label <=> ? ORDER BY id';
    for (const label of ['a', null]) {
      const text = await db.query(sql, [1, label]);
      await db.transaction(async (tx) => {
        // Twice on one connection: the second run reuses the statement the first prepared.
        expect(await tx.query(sql, [1, label], { prepare: true })).toEqual(text);
        expect(await tx.query(sql, [1, label], { prepare: true })).toEqual(text);
      });
      expect(text).toHaveLength(1);
    }
  });

  it('hands rows to onRow as they arrive, in order, and answers no rows then', async () => {
    const { db } = scratch();
    const seen: unknown[] = [];
    const rows = await db.query('SELECT seq AS n, ? AS label FROM seq_1_to_5 ORDER BY seq', ['x'], {
      onRow: (row) => seen.push(row),
    });
    expect(rows).toEqual([]);
    expect(seen).toEqual([1, 2, 3, 4, 5].map((n) => ({ n, label: 'x' })));
  });

  it('rejects with the error onRow throws, drops the rows after it and keeps the connection usable', async () => {
    const db = await openDatabase(scratch().url, { connectionLimit: 1 });
    try {
      const seen: number[] = [];
      const reading = db.query('SELECT seq AS n FROM seq_1_to_100 ORDER BY seq', [], {
        onRow: (row) => {
          seen.push(Number(row.n));
          if (row.n === 3) throw new Error('no fourth row');
        },
      });
      await expect(reading).rejects.toThrow('no fourth row');
      expect(seen).toEqual([1, 2, 3]);
      // One connection: it read the result to its end and answers the next statement.
      expect(await db.query('SELECT 2 AS two')).toEqual([{ two: 2 }]);
      // A bad statement rejects as it does without onRow.
      await expect(
        db.query('SELECT * FROM no_such_table_ta', [], { onRow: () => undefined }),
      ).rejects.toThrow(/no_such_table_ta/);
    } finally {
      await db.close();
    }
  });

  it('fails a streamed read at once with its cause when the connection is lost, not at the bound', async () => {
    const db = await openDatabase(scratch().url, { connectionLimit: 1 });
    const killer = await openDatabase(scratch().url, { connectionLimit: 1 });
    try {
      const [row] = await db.query<{ id: number }>('SELECT CONNECTION_ID() AS id');
      const reading = db.query('SELECT SLEEP(30) AS slept', [], { onRow: () => undefined });
      const failed = reading.catch((error: unknown) => error);
      // The read is under way on the pool's one connection once the server lists it as sleeping.
      for (let look = 0; look < 50; look++) {
        const [listed] = await killer.query<{ state: string | null }>(
          'SELECT STATE AS state FROM information_schema.PROCESSLIST WHERE ID = ?',
          [row?.id],
        );
        if (listed?.state === 'User sleep') break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await killer.execute(`KILL CONNECTION ${Number(row?.id)}`);
      const error = await failed;
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(DatabaseTimeoutError);
      expect(await db.query('SELECT 3 AS three')).toEqual([{ three: 3 }]);
    } finally {
      await db.close();
      await killer.close();
    }
  });

  it('connects to an IPv6 host given in brackets, and never connects with a query parameter', async () => {
    // The server listens on IPv4 here: a forwarder on ::1 stands for a server reached over IPv6.
    const server = parseDatabaseUrl(SERVER_URL);
    const forwarder = createServer((client) => {
      const upstream = createConnection({ host: server.host, port: server.port });
      client.pipe(upstream).pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    });
    await new Promise<void>((resolve) => forwarder.listen(0, '::1', resolve));
    try {
      const url = new URL(scratch().url);
      url.host = `[::1]:${(forwarder.address() as AddressInfo).port}`;
      const db = await openDatabase(url.toString());
      try {
        expect(await db.query('SELECT DATABASE() AS name')).toEqual([{ name: scratch().name }]);
      } finally {
        await db.close();
      }
      await expect(openDatabase(`${scratch().url}?ssl=true`)).rejects.toMatchObject({
        code: 'INVALID_DATABASE_URL',
        path: 'query',
      });
    } finally {
      await new Promise((resolve) => forwarder.close(resolve));
    }
  });

  it('gives one clear line when the server is unreachable', async () => {
    const error = await openDatabase('mysql://root@127.0.0.1:1/test').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseConnectionError);
    expect((error as Error).message).toBe(
      'cannot reach the database at 127.0.0.1:1 (connection refused): is the server running? (mysql://root@127.0.0.1:1/test)',
    );
  });

  it('writes an IPv6 host in brackets in that line, so its port does not read as part of it', async () => {
    // A port on ::1 that nothing listens on (a server's own, closed at once).
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '::1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const error = await openDatabase(`mysql://root@[::1]:${port}/test`).catch((e: unknown) => e);
    expect((error as Error).message).toBe(
      `cannot reach the database at [::1]:${port} (connection refused): is the server running? (mysql://root@[::1]:${port}/test)`,
    );
  });

  it('gives one clear line for wrong credentials, without the password', async () => {
    const url = new URL(SERVER_URL);
    url.username = 'no_such_user_ta';
    url.password = 'wrong';
    const error = await openDatabase(url.toString()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseConnectionError);
    expect((error as Error).message).toMatch(/refused user "no_such_user_ta": wrong user or password/);
    expect((error as Error).message).not.toContain('wrong@');
    expect((error as Error).message).not.toContain('\n');
  });

  it('says when the database does not exist', async () => {
    const error = await openDatabase(withDatabase(SERVER_URL, 'ta_no_such_database')).catch(
      (e: unknown) => e,
    );
    expect((error as Error).message).toMatch(/^database "ta_no_such_database" does not exist on /);
  });
});

describe('wrapPool and the options of both', () => {
  const scratch = useScratchDatabase('connection_wrap');
  const url = () => scratch().url;
  const settings = () => {
    const { host, port, user, database } = parseDatabaseUrl(url());
    return { host, port, user, database };
  };

  // A host's pool, as most are made: mysql2's defaults, dates in the process's local time zone.
  it("reads a host pool's rows as its own pools do: dates in UTC, decimals exact, a callback pool too", async () => {
    const hostPool = mysql.createPool({ ...settings(), timezone: '-03:00' });
    const callbackPool = createCallbackPool(settings());
    try {
      await scratch().db.execute('CREATE TABLE d (day date, at datetime, amount decimal(10,2))');
      await scratch().db.execute("INSERT INTO d VALUES ('2026-11-21', '2026-11-21 00:30:00', '12.50')");
      const expected = [
        { day: new Date('2026-11-21T00:00:00Z'), at: new Date('2026-11-21T00:30:00Z'), amount: '12.50' },
      ];
      for (const pool of [hostPool, callbackPool as unknown as mysql.Pool]) {
        const db = wrapPool(pool, settings().database);
        expect(await db.query('SELECT day, at, amount FROM d')).toEqual(expected);
        expect(await db.query('SELECT day, at, amount FROM d', [], { prepare: true })).toEqual(expected);
      }
    } finally {
      await hostPool.end();
      await new Promise((resolve) => callbackPool.end(resolve));
    }
  });

  // A date read on such a pool and sent back (a task sheet's date, the time of a save) must name
  // the same day and time: sent as a Date, mysql2 formats it in the pool's own time zone.
  it('sends dates back as its own pools do on a host pool in another time zone, so a date read names the same row', async () => {
    const hostPool = mysql.createPool({ ...settings(), timezone: '-03:00' });
    try {
      await scratch().db.execute('CREATE TABLE sent (day date, at datetime(3))');
      await scratch().db.execute("INSERT INTO sent VALUES ('2026-11-21', '2026-11-21 00:30:00.250')");
      const db = wrapPool(hostPool, settings().database);
      const [row] = await query<{ day: Date; at: Date }>(db, sql`SELECT day, at FROM sent`);
      expect(row).toEqual({
        day: new Date('2026-11-21T00:00:00Z'),
        at: new Date('2026-11-21T00:30:00.250Z'),
      });
      const same = sql`SELECT COUNT(*) AS n FROM sent WHERE day = ${row?.day} AND at = ${row?.at}`;
      expect(await query(db, same)).toEqual([{ n: 1 }]);
      expect(await query(db, same, { prepare: true })).toEqual([{ n: 1 }]);
      expect(
        await query(db, sql`SELECT COUNT(*) AS n FROM sent WHERE day IN (${sql.list([row?.day])})`),
      ).toEqual([{ n: 1 }]);
    } finally {
      await hostPool.end();
    }
  });

  // Hosts' pools often read values their own way; each of our statements reads them as ours do.
  it('reads values as its own pools do on a pool with decimalNumbers, bigNumberStrings, dateStrings or its own typeCast', async () => {
    await scratch().db.execute(
      'CREATE TABLE mixed (amount decimal(30,10), big bigint unsigned, small bigint, day date, at datetime)',
    );
    await scratch().db.execute(
      "INSERT INTO mixed VALUES ('12345678901234567890.1234567891', 18446744073709551615, 42, '2026-11-21', '2026-11-21 00:30:00')",
    );
    const expected = [
      {
        amount: '12345678901234567890.1234567891',
        big: '18446744073709551615',
        small: 42,
        day: new Date('2026-11-21T00:00:00Z'),
        at: new Date('2026-11-21T00:30:00Z'),
      },
    ];
    const { host, port, user, database } = settings();
    const pools = [
      mysql.createPool({ ...settings(), decimalNumbers: true }),
      mysql.createPool({ ...settings(), bigNumberStrings: true, supportBigNumbers: true }),
      mysql.createPool({ ...settings(), dateStrings: true }),
      // As a URI gives them: the string "1", which mysql2 takes as on.
      mysql.createPool({ uri: `mysql://${user}@${host}:${port}/${database}?decimalNumbers=1&dateStrings=1` }),
      // A host's own cast, DECIMAL to a (lossy) number: replaced for our statements.
      mysql.createPool({
        ...settings(),
        typeCast: (field, next) => (field.type === 'NEWDECIMAL' ? Number(field.string()) : next()),
      }),
    ];
    try {
      for (const pool of pools) {
        const db = wrapPool(pool, database);
        expect(await db.query('SELECT * FROM mixed')).toEqual(expected);
        expect(await db.query('SELECT * FROM mixed', [], { prepare: true })).toEqual(expected);
        const streamed: unknown[] = [];
        await db.query('SELECT * FROM mixed', [], { onRow: (row) => streamed.push(row) });
        expect(streamed).toEqual(expected);
      }
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
    expect(() => wrapPool({} as mysql.Pool, 'x')).toThrowError(/needs a mysql2 pool/);
  });

  // Found by a review: after close() the calls failed with mysql2's plain "Pool is closed." (a 500
  // in the handler), and a second close() threw "Can't add new command when connection is in closed state".
  it("says the handle was closed to every call after close() or the pool's end(), and closes twice quietly", async () => {
    const closed = {
      code: 'DATABASE_CLOSED',
      message: expect.stringMatching(/^the database handle was closed: /),
    };
    const scope = { EMPRESA: 1, FILIAL: 1, LOCAL: 1 };
    const opened = await openDatabase(url());
    await opened.close();
    await expect(opened.close()).resolves.toBeUndefined();
    const hostPool = mysql.createPool(settings());
    const wrapped = wrapPool(hostPool, settings().database);
    await wrapped.query('SELECT 1');
    await hostPool.end();
    await expect(wrapped.close()).resolves.toBeUndefined();
    for (const db of [opened, wrapped]) {
      for (const call of [
        db.query('SELECT 1'),
        db.transaction(async () => undefined),
        loadTaskTree(db, { scope, taskSheet: 1 }),
        saveMetrics(db, {
          scope,
          user: 1,
          taskSheet: 1,
          entries: [{ activity: 1, group: 1, values: { METRICA1: 1 } }],
        }),
      ]) {
        const error = await call.then(
          () => undefined,
          (thrown: unknown) => thrown,
        );
        expect(error).toBeInstanceOf(DatabaseConnectionError);
        expect(error).toMatchObject(closed);
      }
    }
  });

  it('refuses a misspelt or impossible option, naming it', async () => {
    await expect(openDatabase(url(), { timeout: 3000 } as never)).rejects.toMatchObject({
      code: 'INVALID_OPTION',
      path: 'timeout',
      message:
        'openDatabase option timeout: is not an option (its options: connectionLimit, multipleStatements, timeoutMs)',
    });
    await expect(openDatabase(url(), { timeoutMs: -1 })).rejects.toMatchObject({ path: 'timeoutMs' });
    await expect(openDatabase(url(), { connectionLimit: 0 })).rejects.toMatchObject({
      path: 'connectionLimit',
    });
    await expect(openDatabase(url(), null as never)).rejects.toMatchObject({
      code: 'INVALID_OPTION',
      message:
        'openDatabase takes its options as an object (its options: connectionLimit, multipleStatements, timeoutMs)',
    });
    const pool = mysql.createPool(settings());
    try {
      expect(() => wrapPool(pool, 'x', { timeoutMs: Number.NaN })).toThrowError(
        expect.objectContaining({ code: 'INVALID_OPTION', path: 'timeoutMs' }),
      );
    } finally {
      await pool.end();
    }
  });
});
