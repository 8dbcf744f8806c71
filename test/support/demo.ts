import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { DEMO_TABLES } from '../../src/demo/demo-install.js';
import { type Demo, startDemo } from '../../src/demo/start-demo.js';
import { createAssociationHandler } from '../../src/http/association-handler.js';
import { toNodeListener } from '../../src/http/node-adapter.js';
import { HISTORY_TABLE_NAME } from '../../src/model/table-names.js';
import { openPage, putBodies, type SaveBody } from './browser.js';
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
 * and {@link hostScreenPage} at `/host`, on a free port. A request `drop` says yes to gets no answer
 * (its connection closed): the signal lost for it alone, whoever asks (a page or a service worker,
 * whose requests the browser's routing does not see).
 */
export function serveScreen(
  demo: Demo,
  fallbackUser: number,
  drop: (req: IncomingMessage) => boolean = () => false,
): ReturnType<typeof listen> {
  const listener = toNodeListener(cookieUserHandler(demo, fallbackUser));
  return listen((req, res) => {
    if (drop(req)) {
      res.destroy();
      return;
    }
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

/** The demo served by {@link serveScreen}, as the calling test file sees it from its tests and hooks. */
export interface ServedScreen {
  readonly demo: () => Demo;
  /** Where the server answers, `http://127.0.0.1:<port>`. */
  readonly origin: () => string;
  /** The handler's own page of the demo's task sheet. */
  readonly sheetUrl: () => string;
}

/**
 * Gives the calling test file the demo ({@link startTestDemo}), started before its tests and closed
 * after them. `prepare` changes the demo's database before the file's other hooks run (a column its
 * tests need).
 */
export function useTestDemo(prepare: (demo: Demo) => Promise<unknown> = async () => {}): () => Demo {
  let demo: Demo | undefined;
  beforeAll(async () => {
    demo = await startTestDemo();
    await prepare(demo);
  });
  afterAll(async () => {
    await demo?.close();
  });
  return () => {
    if (demo === undefined) throw new Error('the demo runs only inside tests and hooks');
    return demo;
  };
}

/**
 * Gives the calling test file the demo ({@link useTestDemo}, with `prepare`) served by
 * {@link serveScreen} (the person as a cookie, `fallbackUser` without one); the server is closed
 * after the file's tests, before the demo.
 */
export function useServedScreen(
  fallbackUser: number,
  prepare?: (demo: Demo) => Promise<unknown>,
): ServedScreen {
  const demo = useTestDemo(prepare);
  let server: Awaited<ReturnType<typeof listen>> | undefined;
  beforeAll(async () => {
    server = await serveScreen(demo(), fallbackUser);
  });
  afterAll(async () => {
    await server?.close();
  });
  const origin = () => {
    if (server === undefined) throw new Error('the server runs only inside tests and hooks');
    return server.origin;
  };
  return {
    demo,
    origin,
    sheetUrl: () => `${origin()}/associationtask?taskSheet=${demo().sample.taskSheet}`,
  };
}

/** The SEQ_DB of an activity of the demo and of its group: what an entry names. */
export interface ActivityIds {
  readonly activity: number;
  readonly group: number;
}

/**
 * The demo's activity of code `activity` in the group of code `group`, for the calling test file: their
 * SEQ_DB, read before its tests, and the activity's metric rows deleted before each test, so that each
 * starts with no entry.
 */
export function useBareActivity(served: ServedScreen, activity: string, group: string): () => ActivityIds {
  let ids: ActivityIds | undefined;
  beforeAll(async () => {
    const demo = served.demo();
    ids = {
      activity: await seqOfCode(demo, demo.names.OPER, activity),
      group: await seqOfCode(demo, demo.names.OPER_GRUPO, group),
    };
  });
  beforeEach(async () => {
    await served
      .demo()
      .scratch.db.execute(`DELETE FROM ${DEMO_TABLES.metrics} WHERE OPER_SEQ_DB = ?`, [ids?.activity]);
  });
  return () => {
    if (ids === undefined) throw new Error('the activity is read only inside tests and hooks');
    return ids;
  };
}

/** Signs `user` in on `context` at `origin` as the demo's handler reads the person: the `user` cookie. */
export async function signIn(context: BrowserContext, origin: string, user: number): Promise<void> {
  await context.addCookies([{ name: 'user', value: String(user), url: origin }]);
}

/** A new page of `context` with `user` signed in at `origin`, and the bodies of the saves it sends. */
export async function signedInPage(
  context: BrowserContext,
  origin: string,
  user: number,
): Promise<{ page: Page; puts: SaveBody[] }> {
  await signIn(context, origin, user);
  const page = await openPage(context);
  return { page, puts: putBodies(page) };
}

/**
 * Saves `entries` of the demo's task sheet as a program would, through the HTTP API as `user`, with
 * no browser: the state a test starts from, or someone's change meanwhile. The save must be stored.
 */
export async function saveAsProgram(
  demo: Demo,
  origin: string,
  user: number,
  entries: readonly unknown[],
): Promise<void> {
  const answer = await fetch(`${origin}/associationtask?taskSheet=${demo.sample.taskSheet}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', accept: 'application/json', cookie: `user=${user}` },
    body: JSON.stringify({ requestId: randomUUID(), source: 'api', entries }),
  });
  expect(answer.status, await answer.clone().text()).toBe(200);
}

/**
 * {@link saveAsProgram} of one entry as `user`, for the demo's activity of code `activity` in the group
 * of code `group`: `values` changed from `base`, null for every field `base` does not name.
 */
export async function saveByCodes(
  served: ServedScreen,
  user: number,
  activity: string,
  group: string,
  values: Record<string, string | number | null>,
  base: Record<string, string | number | null> = {},
): Promise<void> {
  const demo = served.demo();
  await saveAsProgram(demo, served.origin(), user, [
    {
      activity: await seqOfCode(demo, demo.names.OPER, activity),
      group: await seqOfCode(demo, demo.names.OPER_GRUPO, group),
      values,
      base: { ...Object.fromEntries(Object.keys(values).map((field) => [field, null])), ...base },
    },
  ]);
}

/** The live metric row of the demo's activity of SEQ_DB `activity` (none, or one), its three metrics. */
export function liveMetrics(
  demo: Demo,
  activity: number,
): Promise<Array<{ METRICA1: string | null; METRICA2: number | null; HORAS: string | null }>> {
  return demo.scratch.db.query(
    `SELECT METRICA1, METRICA2, HORAS FROM ${DEMO_TABLES.metrics} WHERE OPER_SEQ_DB = ? AND DELETED = 0`,
    [activity],
  );
}
