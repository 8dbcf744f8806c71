import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyInstallation } from '../../src/installer/installer.js';
import { uninstallInstallation } from '../../src/installer/uninstall.js';
import { verifyInstallation } from '../../src/installer/verify.js';
import type { Database } from '../../src/store/driver.js';
import { SCHEMA_CHANGE_LEASE_SECONDS } from '../../src/store/lease.js';
import { openDatabase } from '../../src/store/mysql.js';
import { runSqlFile } from '../../src/store/script.js';
import { exampleInstallFile, recording } from '../installer/support.js';
import { HOST_SCHEMA_FILE } from '../support/database.js';
import {
  type ClusterScratchDatabase,
  createClusterScratchDatabase,
  useGaleraCluster,
} from '../support/galera.js';

// The installer on a real 3-node Galera cluster (#26): `apply` and `uninstall` started through two
// nodes at once. GET_LOCK is one node's alone, so both used to take it and race their DDL (a raw
// "Table 'MO_OPER_GRUPO' already exists"); the lease row every node sees lets one run and refuses the other.

const cluster = useGaleraCluster();
let scratch: ClusterScratchDatabase;
let dbs: Database[] = [];

beforeAll(async () => {
  scratch = await createClusterScratchDatabase(cluster(), 'cluster_installer');
  const [first] = scratch.urls;
  if (first === undefined) throw new Error('no node');
  await runSqlFile(first, HOST_SCHEMA_FILE);
  dbs = await Promise.all(scratch.urls.map((url) => openDatabase(url, { connectionLimit: 4 })));
}, 120_000);

afterAll(async () => {
  await Promise.all(dbs.map((db) => db.close().catch(() => undefined)));
  await scratch?.drop();
});

function node(index: number): Database {
  const db = dbs[index];
  if (db === undefined) throw new Error(`no node ${index + 1}`);
  return db;
}

/** Runs `work` on nodes 1 and 2 at the same moment; each outcome is `done` or the refusal's code. */
async function race(work: (db: Database) => Promise<unknown>): Promise<string[]> {
  return Promise.all(
    [node(0), node(1)].map((db) =>
      work(db).then(
        () => 'done',
        (error: unknown) => (error instanceof Error && 'code' in error ? String(error.code) : String(error)),
      ),
    ),
  );
}

async function menuRows(db: Database): Promise<number> {
  const [row] = await db.transaction(async (tx) => {
    await tx.query('SET SESSION wsrep_sync_wait = 1');
    return tx.query<{ n: number }>('SELECT COUNT(*) AS n FROM sys_core_menu');
  });
  return Number(row?.n);
}

describe('the installer on a Galera cluster', () => {
  it('runs one of two applies started through two nodes at once and refuses the other; verify is clean on every node', async () => {
    const file = exampleInstallFile();
    const before = await menuRows(node(0));
    for (let round = 0; round < 3; round++) {
      const outcomes = await race((db) => applyInstallation(db, file, {}));
      // The first round installs; a refused apply may run again and find nothing to do.
      expect(
        outcomes.filter((outcome) => outcome === 'done').length,
        outcomes.join(', '),
      ).toBeGreaterThanOrEqual(1);
      for (const outcome of outcomes) expect(['done', 'INSTALLER_LOCKED']).toContain(outcome);
    }
    for (const db of dbs)
      expect(await verifyInstallation(db, file)).toMatchObject({ ok: true, problems: [] });
    // Three menu rows, once: nothing was doubled by the race.
    expect(await menuRows(node(2))).toBe(before + 3);
  });

  it('runs one of two uninstalls started through two nodes at once and refuses the other', async () => {
    const file = exampleInstallFile();
    const outcomes = await race((db) => uninstallInstallation(db, file, {}));
    expect(
      outcomes.filter((outcome) => outcome === 'done').length,
      outcomes.join(', '),
    ).toBeGreaterThanOrEqual(1);
    for (const outcome of outcomes) expect(['done', 'INSTALLER_LOCKED']).toContain(outcome);
    expect((await uninstallInstallation(node(2), file, { dryRun: true })).changes).toEqual([]);
  });

  it('renews its lease before each schema change for as long as one may run; a dry run writes nothing', async () => {
    const file = exampleInstallFile();
    const lockTable = () =>
      node(0).query(
        "SELECT 1 FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'task_association_lock'",
      );
    // The last uninstall kept the lock table for its lease row; gone, a dry run does not make it again.
    await node(0).execute('DROP TABLE task_association_lock');
    expect((await uninstallInstallation(node(1), file, { dryRun: true })).changes).toEqual([]);
    expect(await lockTable()).toEqual([]);

    const sent: { sql: string; params: readonly unknown[] }[] = [];
    await applyInstallation(recording(node(0), sent), file, {});
    const taken = sent.findIndex(({ sql }) => sql.startsWith('UPDATE `task_association_lock` SET HOLDER'));
    const schemaChanges = sent.flatMap(({ sql }, index) =>
      index > taken && /^(CREATE|ALTER|DROP) /.test(sql) ? [index] : [],
    );
    expect(schemaChanges.length).toBeGreaterThanOrEqual(5);
    for (const index of schemaChanges) {
      const before = sent[index - 1];
      expect(before?.sql, sent[index]?.sql).toMatch(/^UPDATE `task_association_lock` SET EXPIRES_DH/);
      expect(before?.params[0]).toBe(SCHEMA_CHANGE_LEASE_SECONDS);
    }

    const lease = () =>
      node(0).query("SELECT N, HOLDER, EXPIRES_DH FROM task_association_lock WHERE LOCK_NAME = 'installer'");
    const before = await lease();
    expect((await uninstallInstallation(node(1), file, { dryRun: true })).changes.length).toBeGreaterThan(0);
    expect(await lease()).toEqual(before);
  });
});
