import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runCli } from '../../src/cli/main.js';
import { DEMO_TABLES } from '../../src/demo/demo-install.js';
import { type Demo, startDemo } from '../../src/demo/start-demo.js';
import { createAssociationHandler } from '../../src/http/association-handler.js';
import { toNodeListener } from '../../src/http/node-adapter.js';
import { HISTORY_TABLE_NAME } from '../../src/model/table-names.js';
import { captureIo } from './cli.js';
import { SERVER_URL } from './database.js';

/**
 * The demo (`npm start`'s) in a scratch database of its own, its installer run in process, on a
 * free port; the caller closes it. Fails with the installer's stderr when it does not start.
 */
export async function startTestDemo(): Promise<Demo> {
  const io = captureIo();
  const started = await startDemo({
    serverUrl: SERVER_URL,
    port: 0,
    say: () => {},
    runInstaller: async (args) => ({ code: await runCli(args, io), stdout: '' }),
  });
  if (started === undefined) throw new Error(`the demo did not start:\n${io.err()}`);
  return started;
}

/**
 * The demo's association handler with the person as a cookie, `user=<id>` (`fallbackUser`
 * without one), so that two people can use one sheet and the screen can say who changed what.
 */
export function cookieUserHandler(
  demo: Demo,
  fallbackUser: number,
): ReturnType<typeof createAssociationHandler> {
  return createAssociationHandler({
    db: demo.scratch.db,
    context: async (request) => ({
      scope: demo.install.scope,
      user: Number(/(?:^|;\s*)user=(\d+)/.exec(request.headers.get('cookie') ?? '')?.[1] ?? fallbackUser),
    }),
  });
}

/** Serves `listener` on 127.0.0.1 at a free port: its origin, and how to stop it. */
export async function listen(listener: RequestListener): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * A host's own page: the screen's module imported from the handler and mounted on the demo's sheet,
 * with no service worker of ours (so no Background Sync gets in the way of what a test drives).
 */
export function hostScreenPage(taskSheet: number): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>host</title>
<link rel="stylesheet" href="/associationtask?asset=association-screen.css"></head>
<body><main><div id="screen"></div></main><script type="module">
import { mountAssociationScreen } from '/associationtask?asset=association-screen.js';
window.screen1 = mountAssociationScreen(document.getElementById('screen'), {
  endpoint: '/associationtask', taskSheet: ${taskSheet} });
</script></body></html>`;
}

/**
 * The demo's handler at `/associationtask` (the person as a cookie, see {@link cookieUserHandler})
 * and {@link hostScreenPage} at `/host`, on a free port.
 */
export function serveScreen(demo: Demo, fallbackUser: number): ReturnType<typeof listen> {
  const listener = toNodeListener(cookieUserHandler(demo, fallbackUser));
  return listen((req, res) => {
    if ((req.url ?? '').startsWith('/associationtask')) return listener(req, res);
    if ((req.url ?? '').startsWith('/host')) {
      res.writeHead(200, { 'content-type': 'text/html' }).end(hostScreenPage(demo.sample.taskSheet));
      return;
    }
    res.writeHead(404).end();
  });
}

/** The SEQ_DB of the demo's row of `table` whose CODIGO is `code` (an activity, a group). */
export async function seqOfCode(demo: Demo, table: string, code: string): Promise<number> {
  const [row] = await demo.scratch.db.query<{ SEQ_DB: number }>(
    `SELECT SEQ_DB FROM ${table} WHERE CODIGO = ?`,
    [code],
  );
  if (row === undefined) throw new Error(`no ${code} in ${table}`);
  return Number(row.SEQ_DB);
}

/** Removes the metric rows and the history of the demo's activities `codes`: each test starts bare. */
export async function wipeEntries(demo: Demo, codes: readonly string[]): Promise<void> {
  const list = codes.map(() => '?').join(', ');
  for (const table of [DEMO_TABLES.metrics, HISTORY_TABLE_NAME]) {
    await demo.scratch.db.execute(
      `DELETE m FROM ${table} m JOIN ${demo.names.OPER} o ON o.SEQ_DB = m.OPER_SEQ_DB WHERE o.CODIGO IN (${list})`,
      codes,
    );
  }
}
