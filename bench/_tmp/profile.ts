import { performance } from 'node:perf_hooks';
import { createScratchDatabase } from '../../src/db/scratch.js';
import { runSqlFile } from '../../src/db/script.js';
import { type MetricEntry, saveMetrics } from '../../src/resolvers/index.js';
import { tableNames } from '../../src/table-names.js';
import { insertRow, insertRows, installTables, SCOPE_A } from '../../test/resolvers/fixture.js';
import { HOST_SCHEMA_FILE, SERVER_URL } from '../../test/support/database.js';
import type { Database, SqlExecutor } from '../../src/db/driver.js';

const names = tableNames();
const table = names.OPER_GRUPO_METRICA;
const live = { ...SCOPE_A, ATIVO: 1, DELETED: 0 };
const N = Number(process.env.N ?? 100);
const scratch = await createScratchDatabase(SERVER_URL, 'prof_save');
try {
  const { db } = scratch;
  await runSqlFile(scratch.url, HOST_SCHEMA_FILE);
  await installTables(db, names);
  const root = await insertRow(db, names.OPER_GRUPO, { ...live, CODIGO: 'ROOT' });
  const groups = await insertRows(db, names.OPER_GRUPO, Array.from({ length: 100 }, (_, i) => ({ ...live, CODIGO: `G${i}`, OPER_GRUPO_SEQ_DB: root })));
  const activities = await insertRows(db, names.OPER, Array.from({ length: 20000 }, (_, i) => ({ ...live, CODIGO: `O${i}` })));
  const keys = activities.map((activity, i) => ({ activity, group: groups[i % 100] ?? 0 }));
  await insertRows(db, names.OPER_OPER_GRUPO, keys.map((k) => ({ ...live, OPER_GRUPO_SEQ_DB: k.group, OPER_SEQ_DB: k.activity })));
  const [sheet] = await insertRows(db, 'app_folha_tarefa', [{ ...SCOPE_A, DELETED: 0 }], { withId: false });
  await insertRows(db, table, keys.slice(0, 20000).map((k) => ({ ...live, FOLHA_TAREFA_SEQ_DB: sheet, OPER_SEQ_DB: k.activity, OPER_GRUPO_SEQ_DB: k.group, METRICA1: '1.00' })));
  await db.execute(`ANALYZE TABLE ${table}`);
  const batch = Array.from({ length: N }, (_, i) => keys[Math.floor((i * 20000) / N) + 7]!);
  const log: [string, number][] = [];
  const wrap = (ex: SqlExecutor): SqlExecutor => ({
    query: async (sql, params, options) => { if (process.env.DUMP && sql.startsWith('WITH')) { (globalThis as any).dumped = { sql, params }; } const t = performance.now(); try { return await ex.query(sql, params, options); } finally { log.push([sql.slice(0, 30).replace(/\s+/g, ' '), performance.now() - t]); } },
    execute: async (sql, params, options) => { const t = performance.now(); try { return await ex.execute(sql, params, options); } finally { log.push([sql.slice(0, 30).replace(/\s+/g, ' '), performance.now() - t]); } },
  });
  const traced: Database = { ...wrap(db), schemaName: db.schemaName, close: () => db.close(), transaction: (work) => { const t = performance.now(); return db.transaction((tx) => work(wrap(tx))).finally(() => log.push(['transaction total', performance.now() - t])); } } as Database;
  let c = 0;
  const totals = new Map<string, number[]>();
  for (let r = 0; r < 60; r++) {
    log.length = 0;
    const entries: MetricEntry[] = batch.map((k) => ({ ...k, values: { METRICA1: `${++c % 1000}` } }));
    const t = performance.now();
    await saveMetrics(traced, { scope: SCOPE_A, user: 7, taskSheet: sheet!, entries, names, treeView: null });
    const total = performance.now() - t;
    if (r < 10) continue;
    for (const [k, v] of [...log, ['whole', total] as [string, number]]) { const a = totals.get(k) ?? []; a.push(v); totals.set(k, a); }
  }
  if (process.env.DUMP) {
    const { sql, params } = (globalThis as any).dumped;
    const conn = await db.pool.getConnection();
    const [rows] = await conn.query('ANALYZE FORMAT=JSON ' + sql, params);
    console.log(JSON.stringify(rows, null, 1).slice(0, 20000));
    console.log(conn.format(sql, params).slice(0, 6000));
    conn.release();
  }
  for (const [k, v] of totals) { v.sort((a, b) => a - b); console.log(k.padEnd(32), v[Math.floor(v.length / 2)]!.toFixed(3), 'n', v.length); }
} finally { await scratch.drop(); }
