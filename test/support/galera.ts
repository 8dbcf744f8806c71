import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { access, mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll } from 'vitest';
import { createScratchDatabase } from '../../src/store/scratch.js';
import { withDatabase } from '../../src/store/url.js';
import { freePort } from './ports.js';

// A real MariaDB Galera cluster of the tests' own: three mariadbd processes of Debian's packages on
// the loopback interface, each with its own data folder, ports, socket and tmpdir under one fresh
// temporary folder, replicating through Debian's galera-4. The local MariaDB on 3306 is not touched.

const run = promisify(execFile);

export const MARIADBD = '/usr/sbin/mariadbd';
export const GALERA_PROVIDER = '/usr/lib/galera/libgalera_smm.so';

export interface GaleraNode {
  /** `node1`, `node2`, `node3`: its wsrep_node_name too. */
  readonly name: string;
  /** `mysql://root@127.0.0.1:<port>/mysql`: root without a password, over TCP. */
  readonly url: string;
  readonly port: number;
  /** The running mariadbd's process id; undefined while it is down. */
  readonly pid: number | undefined;
  /** Its error log (the server's and Galera's messages, and the state transfer scripts'). */
  readonly errorLog: string;
  /** Sends `signal` (default SIGKILL) to the server and waits until it has exited. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /**
   * Starts the server again on the same data folder and ports (after a kill): it joins the others
   * (IST when their cache still holds what it missed, else a full rsync SST). Resolves once it is
   * Synced with the whole cluster; with `wait: false` as soon as the process is spawned.
   */
  restart(options?: { wait?: boolean }): Promise<void>;
  /** What the node says of itself and the cluster (SHOW GLOBAL STATUS), or the error it answers with. */
  status(): Promise<NodeStatus>;
  /** Waits until the node is Synced in a cluster of every node (bounded; the error has its log's end). */
  waitSynced(timeoutMs?: number): Promise<void>;
  /** How the node got its data at its last start, as its error log tells. */
  joinedBy(): Promise<'bootstrap' | 'IST' | 'SST' | undefined>;
}

export type NodeStatus =
  | {
      readonly reachable: true;
      readonly clusterSize: number;
      readonly state: string;
      readonly ready: boolean;
    }
  | { readonly reachable: false; readonly error: string };

export interface GaleraCluster {
  readonly nodes: readonly GaleraNode[];
  /** Each node's URL, in node order. */
  readonly urls: readonly string[];
  /** The temporary folder holding every node's data, logs and sockets. */
  readonly folder: string;
  /** Waits until every node is up, Synced and sees a cluster of all of them. */
  waitSynced(timeoutMs?: number): Promise<void>;
  /** Kills every server (and its state transfer helpers) by process id and removes the folder. */
  stop(): Promise<void>;
}

export interface GaleraOptions {
  /** How many nodes (default 3). */
  readonly size?: number;
  /** Longest wait for the whole cluster to be Synced, in ms (default 90 s: CI machines are slow). */
  readonly timeoutMs?: number;
}

/**
 * Every server started by this process and not yet known to have exited, and the folders of the
 * clusters not yet stopped: when the process exits without stopping them (a crash, a worker torn
 * down), they are killed and removed then. A process killed outright leaves only its folder: the
 * servers die with it (setpriv's --pdeathsig, below), and the next start removes the folder.
 */
const live = new Set<ChildProcess>();
const folders = new Set<string>();
process.once('exit', () => {
  for (const child of live) killGroup(child, 'SIGKILL');
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/**
 * Starts a cluster: the first node bootstraps it (`--wsrep-new-cluster`), the others join by a full
 * state transfer (rsync) from it. Resolves once every node is Synced in a cluster of all of them;
 * on failure every server started is killed and the error names the node with its error log's end.
 *
 * @example const cluster = await startGaleraCluster(); // cluster.urls[0]: mysql://root@127.0.0.1:41234/mysql
 */
export async function startGaleraCluster(options: GaleraOptions = {}): Promise<GaleraCluster> {
  const size = options.size ?? 3;
  const timeoutMs = options.timeoutMs ?? 90_000;
  await requireInstalled();
  await removeAbandonedFolders();
  const folder = await mkdtemp(join(tmpdir(), 'ta-galera-'));
  folders.add(folder);
  const account = await serverAccount();
  const specs: NodeSpec[] = [];
  for (let index = 0; index < size; index++) {
    const name = `node${index + 1}`;
    specs.push({
      name,
      folder: join(folder, name),
      port: await freePort(),
      galeraPort: await freePort(),
      istPort: await freePort(),
      sstPort: await freePort(),
    });
  }
  const clusterName = `ta_test_${folder.slice(-6).replace(/[^A-Za-z0-9]/g, '_')}`;
  const clusterAddress = `gcomm://${specs.map((spec) => `127.0.0.1:${spec.galeraPort}`).join(',')}`;
  const nodes = specs.map((spec) => new Node(spec, { size, clusterName, clusterAddress, account }));
  const cluster: GaleraCluster = {
    nodes,
    urls: nodes.map((node) => node.url),
    folder,
    async waitSynced(wait = timeoutMs) {
      await Promise.all(nodes.map((node) => node.waitSynced(wait)));
    },
    async stop() {
      await Promise.all(nodes.map((node) => node.stopProcess()));
      await rm(folder, { recursive: true, force: true });
      folders.delete(folder);
    },
  };
  try {
    // Only the first node's data folder is filled here; the others start empty and get theirs from
    // it by the state transfer, as a new node of a real cluster does.
    for (const spec of specs) {
      await mkdir(join(spec.folder, 'data'), { recursive: true });
      await mkdir(join(spec.folder, 'tmp'));
    }
    if (account.uid !== undefined) await run('chown', ['-R', `${account.uid}:${account.gid}`, folder]);
    const firstFolder = specs[0]?.folder ?? folder;
    await run(
      'mariadb-install-db',
      [
        '--no-defaults',
        `--datadir=${join(firstFolder, 'data')}`,
        `--user=${account.user}`,
        '--auth-root-authentication-method=normal',
        '--skip-test-db',
        ...SMALL_SERVER,
      ],
      // Its bootstrap server's temporary files stay in our folder, never in the shared /tmp (f15ab5c).
      { env: { ...process.env, TMPDIR: join(firstFolder, 'tmp') } },
    );
    const [first, ...others] = nodes;
    if (first === undefined) throw new Error('a cluster needs at least one node');
    first.spawn({ bootstrap: true });
    await first.waitUntilSynced(1, timeoutMs);
    // One joiner at a time: a donor serves one rsync transfer at once, a second joiner would retry.
    for (const node of others) {
      node.spawn({ bootstrap: false });
      await node.waitUntilSynced(undefined, timeoutMs);
    }
    await cluster.waitSynced(timeoutMs);
  } catch (error) {
    // The error carries the end of the failing node's log; nothing is left behind.
    await cluster.stop();
    throw error;
  }
  return cluster;
}

/**
 * One cluster for the calling test file: started before its tests, stopped after them (also when a
 * hook or a test timed out).
 *
 * @example const cluster = useGaleraCluster();
 *          it('...', async () => { cluster().nodes[0]?.url; });
 */
export function useGaleraCluster(options: GaleraOptions = {}): () => GaleraCluster {
  let cluster: GaleraCluster | undefined;
  beforeAll(
    async () => {
      cluster = await startGaleraCluster(options);
    },
    (options.timeoutMs ?? 90_000) + 30_000,
  );
  afterAll(async () => {
    await cluster?.stop();
  }, 30_000);
  return () => {
    if (cluster === undefined) throw new Error('the Galera cluster exists only inside tests and hooks');
    return cluster;
  };
}

export interface ClusterScratchDatabase {
  readonly name: string;
  /** The scratch database's URL on each node, in node order. */
  readonly urls: readonly string[];
  /** Drops it (through the first node still up). */
  drop(): Promise<void>;
}

/**
 * A fresh database on the cluster: created through node 1 (Galera replicates the CREATE DATABASE),
 * reachable through every node's URL.
 */
export async function createClusterScratchDatabase(
  cluster: GaleraCluster,
  tag: string,
): Promise<ClusterScratchDatabase> {
  const [first] = cluster.urls;
  if (first === undefined) throw new Error('the cluster has no node');
  const scratch = await createScratchDatabase(first, tag);
  await scratch.db.close();
  // A DDL is applied on the other nodes a moment after it returns on the first (longer on a loaded
  // machine): a pool opened on them at once could find no such database.
  for (const node of cluster.nodes) {
    if (node.pid === undefined) continue;
    const connection = await connect(node.url);
    try {
      for (let waited = 0; ; waited += 50) {
        const [rows] = (await connection.query(
          'SELECT 1 FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?',
          [scratch.name],
        )) as unknown as [unknown[]];
        if (rows.length > 0) break;
        if (waited >= 10_000)
          throw new Error(`database ${scratch.name} did not reach ${node.url} within 10 s`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await connection.end();
    }
  }
  return {
    name: scratch.name,
    urls: cluster.urls.map((url) => withDatabase(url, scratch.name)),
    async drop() {
      for (const node of cluster.nodes) {
        if (node.pid === undefined) continue;
        const connection = await connect(node.url);
        try {
          await connection.query(`DROP DATABASE IF EXISTS \`${scratch.name}\``);
          return;
        } finally {
          await connection.end();
        }
      }
    },
  };
}

/** A plain mysql2 connection to `url`, as a client of the node sees it (errors untouched). */
export async function connect(url: string, options: { timeoutMs?: number } = {}): Promise<mysql.Connection> {
  const parsed = new URL(url);
  return mysql.createConnection({
    host: parsed.hostname,
    port: Number(parsed.port),
    user: decodeURIComponent(parsed.username),
    database: decodeURIComponent(parsed.pathname.slice(1)),
    connectTimeout: options.timeoutMs ?? 5_000,
  });
}

/**
 * The server's settings that only keep it small and quick (memory, files, start time), the same
 * for `mariadb-install-db` and every node: a 24 MB buffer pool and an 8 MB redo log instead of 128
 * and 96 MB.
 */
const SMALL_SERVER = ['--innodb-buffer-pool-size=24M', '--innodb-log-file-size=8M'] as const;

interface NodeSpec {
  readonly name: string;
  readonly folder: string;
  readonly port: number;
  /** Galera's group communication (gmcast) port: the nodes find each other on it. */
  readonly galeraPort: number;
  /** Where the node receives an incremental state transfer (the write sets it missed). */
  readonly istPort: number;
  /** Where the node's rsync daemon receives a full state transfer (the whole data folder). */
  readonly sstPort: number;
}

/** How a server is started: bootstrapping the cluster, joining it (where its data stood), or recovering. */
interface Start {
  readonly bootstrap: boolean;
  readonly position?: string;
  readonly recover?: boolean;
}

interface ClusterSettings {
  readonly size: number;
  readonly clusterName: string;
  readonly clusterAddress: string;
  readonly account: ServerAccount;
}

class Node implements GaleraNode {
  readonly name: string;
  readonly url: string;
  readonly port: number;
  readonly errorLog: string;
  readonly recoveryLog: string;
  #child: ChildProcess | undefined;
  #exited: Promise<void> = Promise.resolve();
  readonly #spec: NodeSpec;
  readonly #settings: ClusterSettings;

  constructor(spec: NodeSpec, settings: ClusterSettings) {
    this.name = spec.name;
    this.port = spec.port;
    this.url = `mysql://root@127.0.0.1:${spec.port}/mysql`;
    this.errorLog = join(spec.folder, 'error.log');
    this.recoveryLog = join(spec.folder, 'recovery.log');
    this.#spec = spec;
    this.#settings = settings;
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** The server's command line: each flag says what it is there for. */
  arguments(start: Start): string[] {
    const spec = this.#spec;
    const data = join(spec.folder, 'data');
    return [
      // Ignore /etc/mysql/my.cnf: that is the local server's configuration, not this node's.
      '--no-defaults',
      `--datadir=${data}`,
      // Temporary files in a folder of the node's own: a server deletes the `#sql` files it finds in
      // its tmpdir when it starts, in a shared /tmp the running test server's (f15ab5c).
      `--tmpdir=${join(spec.folder, 'tmp')}`,
      `--port=${spec.port}`,
      '--bind-address=127.0.0.1',
      `--socket=${join(spec.folder, 'mariadb.sock')}`,
      `--pid-file=${join(spec.folder, 'mariadb.pid')}`,
      `--log-error=${start.recover ? this.recoveryLog : this.errorLog}`,
      ...SMALL_SERVER,
      // Commits are written to the OS at once but synced to disk each second, and pages are written
      // once (no doublewrite): a killed process loses nothing the OS has, and the tests run faster.
      '--innodb-flush-log-at-trx-commit=2',
      '--skip-innodb-doublewrite',
      // Galera replication on, through Debian's galera-4 provider.
      '--wsrep_on=ON',
      `--wsrep_provider=${GALERA_PROVIDER}`,
      // A name of this cluster's own: a node never joins another test run's cluster by mistake.
      `--wsrep_cluster_name=${this.#settings.clusterName}`,
      // Every node's group communication address: a node joins whichever of them is up.
      `--wsrep_cluster_address=${this.#settings.clusterAddress}`,
      `--wsrep_node_name=${spec.name}`,
      `--wsrep_node_address=127.0.0.1:${spec.galeraPort}`,
      // Galera's own options: listen for the group on our port, receive an IST on another, and keep a
      // 32 MB write-set cache (gcache; 128 MB by default, a file made up front) from which the
      // others serve a rejoining node's IST.
      `--wsrep_provider_options=gmcast.listen_addr=tcp://127.0.0.1:${spec.galeraPort};ist.recv_addr=127.0.0.1:${spec.istPort};gcache.size=32M`,
      // A full state transfer copies the donor's data folder with rsync, received on our port.
      '--wsrep_sst_method=rsync',
      `--wsrep_sst_receive_address=127.0.0.1:${spec.sstPort}`,
      // What Galera requires: row-based replication events, InnoDB tables only (the only engine it
      // replicates), and interleaved auto-increment locks (the nodes apply inserts in parallel).
      '--binlog_format=ROW',
      '--default_storage_engine=InnoDB',
      '--innodb_autoinc_lock_mode=2',
      // The first node starts a new cluster (a Primary Component of one); the others join it.
      ...(start.bootstrap ? ['--wsrep-new-cluster'] : []),
      // A node that ran before says where its data stands, as the service does (galera_recovery):
      // the others then send only the write sets it missed (IST) instead of a whole copy (SST).
      ...(start.position !== undefined ? [`--wsrep_start_position=${start.position}`] : []),
      // Recovery only: start the engines, print the last committed position, exit.
      ...(start.recover ? ['--wsrep_recover'] : []),
    ];
  }

  spawn(start: Start): ChildProcess {
    const account = this.#settings.account;
    // setpriv starts the server as the mysql account when we are root (rsync's daemon, which
    // receives a state transfer, drops root to `nobody` and could then not write the data folder),
    // and has the kernel kill it when the test process dies (--pdeathsig), even by SIGKILL or a
    // crash, so no server outlives its test. Set after the change of user, which would clear it.
    const command = [
      ...(account.uid !== undefined
        ? [`--reuid=${account.uid}`, `--regid=${account.gid}`, '--init-groups']
        : []),
      '--pdeathsig',
      'KILL',
      '--',
      MARIADBD,
      ...this.arguments(start),
    ];
    // A process group of its own: stop() kills the state transfer scripts and rsync with it.
    const child = spawn('setpriv', command, { stdio: 'ignore', detached: true });
    live.add(child);
    if (start.recover) {
      child.once('exit', () => live.delete(child));
      return child;
    }
    this.#child = child;
    this.#exited = new Promise((resolve) => {
      child.once('exit', () => {
        live.delete(child);
        resolve();
      });
      child.once('error', () => {
        live.delete(child);
        resolve();
      });
    });
    return child;
  }

  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = this.#child;
    if (child === undefined) return;
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await this.#exited;
    this.#child = undefined;
  }

  /** Kills the server's whole process group (SST helpers included) and waits for it to exit. */
  async stopProcess(): Promise<void> {
    const child = this.#child;
    if (child === undefined) return;
    killGroup(child, 'SIGKILL');
    await this.#exited;
    this.#child = undefined;
  }

  async restart(options: { wait?: boolean } = {}): Promise<void> {
    if (this.#child !== undefined) throw new Error(`${this.name} is still running (pid ${this.pid})`);
    const position = await this.recoverPosition();
    this.spawn({ bootstrap: false, ...(position !== undefined ? { position } : {}) });
    if (options.wait ?? true) await this.waitSynced();
  }

  /**
   * The last position the node's data committed (`uuid:seqno`), found as the service finds it before
   * a start (`mariadbd --wsrep_recover`); undefined when it has none (it then gets a full copy).
   */
  async recoverPosition(): Promise<string | undefined> {
    await rm(this.recoveryLog, { force: true });
    const child = this.spawn({ bootstrap: false, recover: true });
    const [code] = (await once(child, 'exit')) as [number | null];
    const log = await readFile(this.recoveryLog, 'utf8').catch(() => '');
    const position = /WSREP: Recovered position: *(\S+)/.exec(log)?.[1];
    if (code !== 0 || position === undefined) {
      const tail = log.trimEnd().split('\n').slice(-20).join('\n');
      throw new Error(`${this.name}: the position recovery failed (exit ${code}):\n${tail}`);
    }
    return position.endsWith(':-1') ? undefined : position;
  }

  /** How the node got its data at its last start, read in its error log. */
  async joinedBy(): Promise<'bootstrap' | 'IST' | 'SST' | undefined> {
    const log = await readFile(this.errorLog, 'utf8').catch(() => '');
    const last = log.slice(log.lastIndexOf('Starting MariaDB'));
    if (last.includes('rsync SST completed on joiner')) return 'SST';
    if (last.includes('IST received')) return 'IST';
    if (last.includes('Bootstrapping a new cluster') || last.includes('bootstrap = yes')) return 'bootstrap';
    return undefined;
  }

  async status(): Promise<NodeStatus> {
    let connection: mysql.Connection | undefined;
    try {
      connection = await connect(this.url, { timeoutMs: 2_000 });
      const [rows] = await connection.query<mysql.RowDataPacket[]>(
        "SHOW GLOBAL STATUS WHERE Variable_name IN ('wsrep_cluster_size', 'wsrep_local_state_comment', 'wsrep_ready')",
      );
      const value = (name: string) => rows.find((row) => row.Variable_name === name)?.Value as string;
      return {
        reachable: true,
        clusterSize: Number(value('wsrep_cluster_size')),
        state: value('wsrep_local_state_comment'),
        ready: value('wsrep_ready') === 'ON',
      };
    } catch (error) {
      return { reachable: false, error: error instanceof Error ? error.message : String(error) };
    } finally {
      await connection?.end().catch(() => undefined);
    }
  }

  waitSynced(timeoutMs = 90_000): Promise<void> {
    return this.waitUntilSynced(this.#settings.size, timeoutMs);
  }

  /**
   * Polls until the node is Synced in a cluster of `size` (any size when undefined), failing at once
   * when the server exits and after `timeoutMs` otherwise, with the end of its error log.
   */
  async waitUntilSynced(size: number | undefined, timeoutMs: number): Promise<void> {
    const started = Date.now();
    let last: NodeStatus = { reachable: false, error: 'not asked yet' };
    for (;;) {
      const child = this.#child;
      if (child === undefined || child.exitCode !== null || child.signalCode !== null) {
        throw new Error(
          `${this.name} (port ${this.port}) exited before it was Synced${await this.logTail()}`,
        );
      }
      last = await this.status();
      if (last.reachable && last.state === 'Synced' && (size === undefined || last.clusterSize === size)) {
        return;
      }
      if (Date.now() - started > timeoutMs) {
        const seen = last.reachable
          ? `state ${last.state}, cluster size ${last.clusterSize}`
          : `unreachable: ${last.error}`;
        throw new Error(
          `${this.name} (port ${this.port}) was not Synced${size === undefined ? '' : ` in a cluster of ${size}`} within ${timeoutMs / 1000} s (${seen})${await this.logTail()}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  async logTail(lines = 30): Promise<string> {
    const text = await readFile(this.errorLog, 'utf8').catch(() => '');
    const tail = text.trimEnd().split('\n').slice(-lines).join('\n');
    return tail === '' ? ` (no error log at ${this.errorLog})` : `; the end of ${this.errorLog}:\n${tail}`;
  }
}

/**
 * Removes the folders of clusters whose test process was killed outright (its servers died with it,
 * the folder stayed): those older than 10 minutes that no running process names on its command
 * line. A cluster of another test run on this machine, still starting or running, is left alone.
 */
async function removeAbandonedFolders(): Promise<void> {
  const base = tmpdir();
  const entries = (await readdir(base)).filter((entry) => entry.startsWith('ta-galera-'));
  if (entries.length === 0) return;
  const commandLines = await Promise.all(
    (await readdir('/proc'))
      .filter((entry) => /^\d+$/.test(entry))
      .map((pid) => readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')),
  );
  for (const entry of entries) {
    const folder = join(base, entry);
    const info = await stat(folder).catch(() => undefined);
    if (info === undefined || !info.isDirectory() || Date.now() - info.mtimeMs < 10 * 60_000) continue;
    if (commandLines.some((line) => line.includes(`${folder}/`))) continue;
    await rm(folder, { recursive: true, force: true });
  }
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    child.kill(signal);
  }
}

interface ServerAccount {
  /** The account mariadbd runs as: `mysql` when we are root, else our own. */
  readonly user: string;
  /** Its uid and gid when we switch to it (we are root), else undefined. */
  readonly uid: number | undefined;
  readonly gid: number;
}

async function serverAccount(): Promise<ServerAccount> {
  const uid = process.getuid?.();
  if (uid !== 0) {
    const { stdout } = await run('id', ['-un']);
    return { user: stdout.trim(), uid: undefined, gid: process.getgid?.() ?? 0 };
  }
  const [{ stdout: id }, { stdout: group }] = await Promise.all([
    run('id', ['-u', 'mysql']),
    run('id', ['-g', 'mysql']),
  ]);
  return { user: 'mysql', uid: Number(id.trim()), gid: Number(group.trim()) };
}

async function requireInstalled(): Promise<void> {
  const missing: string[] = [];
  for (const [path, pkg] of [
    [MARIADBD, 'mariadb-server'],
    [GALERA_PROVIDER, 'galera-4'],
    ['/usr/bin/wsrep_sst_rsync', 'mariadb-server'],
    ['/usr/bin/rsync', 'rsync'],
  ] as const) {
    await access(path).catch(() => missing.push(`${path} (Debian package ${pkg})`));
  }
  if (missing.length > 0) {
    throw new Error(
      `a Galera cluster needs ${missing.join(', ')}: run scripts/ensure-services.sh --tests as root`,
    );
  }
}
