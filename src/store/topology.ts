import type { SqlExecutor } from './driver.js';
import { query, sql } from './sql.js';

/** What kind of server a pool talks to, as far as the package's locking cares. */
export interface Topology {
  /**
   * A Galera cluster node (`wsrep_on`, MariaDB Galera or Percona XtraDB Cluster): writes may go to any
   * node, `GET_LOCK` is one node's alone, and conflicting transactions are told apart at commit.
   */
  readonly galera: boolean;
}

/** Whether the server replicates through Galera: one row `ON` on a cluster node; `OFF` or no row elsewhere (MySQL 8 has no such variable). */
export const WSREP_ON = sql`SHOW GLOBAL VARIABLES LIKE 'wsrep_on'`;

/** Per pool (the Database object a caller hands us): a pool's server does not change kind while it runs. */
const known = new WeakMap<object, Promise<Topology>>();

/** The topology of `db`'s server, read once per pool (a failed read is not kept). */
export function readTopology(db: SqlExecutor): Promise<Topology> {
  const cached = known.get(db);
  if (cached !== undefined) return cached;
  const reading = query<{ Value?: unknown }>(db, WSREP_ON).then((rows) => ({
    galera: rows.some((row) => String(row.Value ?? '').toUpperCase() === 'ON'),
  }));
  known.set(db, reading);
  reading.catch(() => known.delete(db));
  return reading;
}
