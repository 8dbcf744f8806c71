// The association screen's outbox (#28): 100 entries queued offline, on the demo's installation
// with 100 more activities under one group, replayed by the screen itself when the network returns,
// in Debian's Chromium. Measured from `setOffline(false)` to all 100 rows stored (the database
// polled), and the requests it took (the owner check, then the PUTs: one batch holds up to 1000).
// Run with `npm run bench:offline`; the last line is the figures.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { chromium } from 'playwright-core';
import { runCli } from '../src/cli/main.js';
import { DEMO_TABLES } from '../src/demo/demo-install.js';
import { startDemo } from '../src/demo/start-demo.js';
import { toNodeListener } from '../src/http/node-adapter.js';
import { createAssociationHandler } from '../src/tree.js';
import { CHROMIUM_PATH } from '../test/support/browser.js';
import { captureIo } from '../test/support/cli.js';
import { SERVER_URL } from '../test/support/database.js';
import { loadLine, median, spread } from './report.js';

const ENTRIES = 100;
const ROUNDS = 5;

const io = captureIo();
const demo = await startDemo({
  serverUrl: SERVER_URL,
  port: 0,
  say: () => {},
  runInstaller: async (args) => ({ code: await runCli(args, io), stdout: '' }),
});
if (demo === undefined) throw new Error(`the demo did not start:\n${io.err()}`);
const { db } = demo.scratch;
const { OPER, OPER_OPER_GRUPO } = demo.names;

/** A copy of a row of `table` with some columns changed (the table's own columns, whatever they are). */
async function copyRow(table: string, where: string, params: unknown[], changes: Record<string, unknown>) {
  const columns = (await db.query<{ Field: string }>(`SHOW COLUMNS FROM ${table}`))
    .map((column) => column.Field)
    .filter((name) => name !== 'SEQ_DB');
  const list = columns.join(', ');
  const picks = columns.map((name) => (name in changes ? '?' : name)).join(', ');
  const values = columns.filter((name) => name in changes).map((name) => changes[name]);
  const answer = await db.execute(
    `INSERT INTO ${table} (${list}) SELECT ${picks} FROM ${table} WHERE ${where}`,
    [...values, ...params],
  );
  return Number((answer as unknown as { insertId: number }).insertId);
}

const [disc] = await db.query<{ SEQ_DB: number }>(`SELECT SEQ_DB FROM ${OPER} WHERE CODIGO = 'A-DISC'`);
const discSeq = Number(disc?.SEQ_DB);
const activities: number[] = [];
for (let index = 0; index < ENTRIES; index++) {
  const seq = await copyRow(OPER, 'CODIGO = ?', ['A-DISC'], {
    CODIGO: `B-${String(index).padStart(3, '0')}`,
    DESCRICAO: `Bench ${index}`,
    ID: 10_000 + index,
  });
  activities.push(seq);
  await copyRow(OPER_OPER_GRUPO, 'OPER_SEQ_DB = ?', [discSeq], { OPER_SEQ_DB: seq, ID: 10_000 + index });
}
const [soil] = await db.query<{ SEQ_DB: number }>(
  `SELECT SEQ_DB FROM ${demo.names.OPER_GRUPO} WHERE CODIGO = 'G-SOIL'`,
);
const group = Number(soil?.SEQ_DB);

const handler = createAssociationHandler({
  db,
  context: async () => ({ scope: demo.install.scope, user: 7 }),
});
const listener = toNodeListener(handler);
const server = createServer((req, res) =>
  (req.url ?? '').startsWith('/associationtask') ? listener(req, res) : res.writeHead(404).end(),
);
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const sheetUrl = `${origin}/associationtask?taskSheet=${demo.sample.taskSheet}`;
const placeholders = activities.map(() => '?').join(', ');
const stored = async () =>
  Number(
    (
      await db.query<{ n: number }>(
        `SELECT COUNT(*) AS n FROM ${DEMO_TABLES.metrics} WHERE DELETED = 0 AND OPER_SEQ_DB IN (${placeholders})`,
        activities,
      )
    )[0]?.n,
  );

const browser = await chromium.launch({
  executablePath: CHROMIUM_PATH,
  args: ['--no-sandbox', '--disable-gpu'],
});
const times: number[] = [];
const requests: number[] = [];
const puts: number[] = [];
try {
  for (let round = 0; round < ROUNDS; round++) {
    await db.execute(`DELETE FROM ${DEMO_TABLES.metrics} WHERE OPER_SEQ_DB IN (${placeholders})`, activities);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(sheetUrl);
    await page.getByRole('tree').waitFor();
    const owner = await page.evaluate(
      async (url) => ((await (await fetch(`${url}&part=owner`)).json()) as { owner: string }).owner,
      sheetUrl,
    );
    await context.setOffline(true);
    // The 100 entries as the screen files them, straight into its outbox (the modal's part is not timed).
    await page.evaluate(
      async ({ activities, group, taskSheet, owner }) => {
        const outboxModule = await import(
          // @ts-expect-error a URL the browser resolves, not a module of this program
          '/associationtask?asset=association-screen/outbox.js'
        );
        const outbox = await outboxModule.openOutbox({ doc: document });
        for (const [index, activity] of activities.entries()) {
          await outbox.add([
            {
              owner,
              endpoint: new URL('/associationtask', location.href).href,
              taskSheet,
              requestId: crypto.randomUUID(),
              enteredAt: new Date().toISOString(),
              entry: { activity, group, values: { METRICA1: `${index}.5` }, base: { METRICA1: null } },
              label: `Bench ${index}`,
              path: [],
            },
          ]);
        }
        outbox.close();
      },
      { activities, group, taskSheet: demo.sample.taskSheet, owner },
    );
    let sent = 0;
    let put = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname !== '/associationtask') return;
      sent++;
      if (request.method() === 'PUT') put++;
    });
    const start = performance.now();
    await context.setOffline(false);
    while ((await stored()) < ENTRIES) await new Promise((resolve) => setTimeout(resolve, 5));
    times.push(performance.now() - start);
    requests.push(sent);
    puts.push(put);
    await context.close();
  }
} finally {
  await browser.close();
  await new Promise((resolve) => server.close(resolve));
  await demo.close();
}

console.log(`${ENTRIES} queued entries replayed after reconnect, ${ROUNDS} rounds; ${loadLine()}`);
console.log(
  `time to all stored: ${spread(times, 0)} ms; requests per replay: ${spread(requests, 0)} (PUTs ${spread(puts, 0)})`,
);
console.log(
  `entries=${ENTRIES} replay_ms=${median(times).toFixed(0)} requests=${median(requests)} puts=${median(puts)} goal_ms=2000`,
);
