import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_TABLES } from '../../src/demo/demo-install.js';
import type { Demo } from '../../src/demo/start-demo.js';
import { toNodeListener } from '../../src/http/node-adapter.js';
import { SCREEN_ASSETS } from '../../src/http/screen-page.js';
import { HISTORY_TABLE_NAME } from '../../src/model/table-names.js';
import { LABELS_EN, MAX_KEEP_BYTES } from '../../web/association-screen.js';
import { seriousViolations } from '../support/axe.js';
import {
  draftsOnDevice,
  launchOnProfile,
  openPage,
  outboxEntries,
  showTable,
  usePageChecks,
} from '../support/browser.js';
import { cookieUserHandler, listen, signIn, startTestDemo, wipeEntries } from '../support/demo.js';

/**
 * More of the association screen offline (#28), in Debian's Chromium on a profile on disk: "Keep
 * this sheet for offline use" (the whole sheet, then every branch opens offline; a sheet over the
 * bound said so), storage cleared by the browser told on the next opening, the warning where the
 * browser may clear storage, the handler at a path ending in `/`, and Background Sync sending the
 * outbox from the worker with no screen open.
 *
 * The handler is mounted three times: at `/associationtask`, at `/nested/associationtask/`, and at
 * `/big/associationtask`, where each `part=children` answer carries a 1.2 MB `padding` (the screen
 * reads no such field): the data of a sheet over `MAX_KEEP_BYTES` (about 20,000 activities) in the
 * few branches of the demo sheet.
 */

const METRICS = DEMO_TABLES.metrics;
const ALICE = 7;
const SYNC_TAG = 'task-association-outbox';
const PADDING = 'x'.repeat(1_200_000);

let demo: Demo;
let server: Awaited<ReturnType<typeof listen>> | undefined;
/** Whether the server leaves page requests unanswered, and how to end those it holds. */
let hangPages = false;
/** Whether the host answers the sheet's page with its sign-in form (200, the same URL): a session ended. */
let signInPages = false;
/** Whether the host's proxy answers the sheet's page 502 Bad Gateway: the application behind it is down. */
let downPages = false;
const hung: (() => void)[] = [];
let origin: string;

beforeAll(async () => {
  demo = await startTestDemo();
  const handler = cookieUserHandler(demo, ALICE);
  const padded = async (request: Request) => {
    const answer = await handler(request);
    if (new URL(request.url).searchParams.get('part') !== 'children' || answer.status !== 200) return answer;
    const body = { ...((await answer.json()) as object), padding: PADDING };
    const headers = new Headers(answer.headers);
    for (const name of ['content-length', 'content-encoding', 'etag']) headers.delete(name);
    return new Response(JSON.stringify(body), { status: 200, headers });
  };
  const plain = toNodeListener(handler);
  const big = toNodeListener(padded);
  server = await listen((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    // A weak signal: the page's request is taken and never answered (until the test ends).
    if (hangPages && path === '/associationtask' && (req.headers.accept ?? '').includes('text/html')) {
      hung.push(() => res.destroy());
      return;
    }
    if (downPages && path === '/associationtask' && (req.headers.accept ?? '').includes('text/html')) {
      res
        .writeHead(502, { 'content-type': 'text/html' })
        .end('<!doctype html><title>502 Bad Gateway</title><h1>Bad Gateway</h1>');
      return;
    }
    if (signInPages && path === '/associationtask' && (req.headers.accept ?? '').includes('text/html')) {
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><title>Sign in</title><form>Sign in</form>');
      return;
    }
    if (path === '/associationtask' || path === '/nested/associationtask/') return plain(req, res);
    if (path === '/big/associationtask') return big(req, res);
    res.writeHead(404, { 'content-type': 'text/html' }).end('<!doctype html><title>elsewhere</title>');
  });
  origin = server.origin;
});

afterAll(async () => {
  await server?.close();
  await demo?.close();
});

const USED = ['A-SUBSOIL', 'A-DISC'];
const pages = usePageChecks();

beforeEach(async () => {
  await wipeEntries(demo, USED);
});

// Runs before usePageChecks' (registered first): the hung requests end before the contexts close.
afterEach(() => {
  hangPages = false;
  signInPages = false;
  for (const end of hung.splice(0)) end();
});

async function liveRows(code: string) {
  return demo.scratch.db.query<{ METRICA1: string | null }>(
    `SELECT m.METRICA1 FROM ${METRICS} m JOIN ${demo.names.OPER} o ON o.SEQ_DB = m.OPER_SEQ_DB
      WHERE o.CODIGO = ? AND m.FOLHA_TAREFA_SEQ_DB = ? AND m.DELETED = 0`,
    [code, demo.sample.taskSheet],
  );
}

async function sources(code: string) {
  const rows = await demo.scratch.db.query<{ SOURCE: string }>(
    `SELECT h.SOURCE FROM ${HISTORY_TABLE_NAME} h JOIN ${demo.names.OPER} o ON o.SEQ_DB = h.OPER_SEQ_DB
      WHERE o.CODIGO = ?`,
    [code],
  );
  return [...new Set(rows.map((row) => row.SOURCE))];
}

const L = LABELS_EN;
const fill = (template: string, params: Record<string, string | number>) =>
  template.replace(/\{(\w+)\}/g, (whole, name: string) => String(params[name] ?? whole));
const SOIL = ['S-NORTH — North field', 'G-SOIL — Soil preparation'];
const SUBSOIL = 'A-SUBSOIL — Subsoiling';

/** A browser on a profile of its own, Alice signed in. `init` runs in each page before its scripts. */
async function browser(init?: () => void) {
  const dir = await pages.profile('ta-offline-more-');
  const context = await launchOnProfile(dir, {
    locale: 'en',
    timezoneId: 'America/Sao_Paulo',
    reducedMotion: 'reduce',
    viewport: { width: 1280, height: 800 },
  });
  pages.track(context);
  await signIn(context, origin, ALICE);
  if (init) await context.addInitScript(init);
  const page = context.pages()[0] ?? (await openPage(context));
  return { context, page };
}

const sheetUrl = (path = '/associationtask') => `${origin}${path}?taskSheet=${demo.sample.taskSheet}`;

/** Online, the first visit: the page opens and the service worker keeps the page and its files. */
async function firstVisit(page: Page, path = '/associationtask') {
  await page.goto(sheetUrl(path));
  await page.getByRole('tree').waitFor();
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    for (let i = 0; i < 300; i++) {
      // The release's files (kept whole at install) and the page.
      const release = (await caches.keys()).find((name) => name.startsWith('task-association-assets-'));
      const kept = release ? (await (await caches.open(release)).keys()).length : 0;
      const pages = (await (await caches.open('task-association-files-v1')).keys()).length;
      if (kept > 20 && pages > 0 && navigator.serviceWorker.controller) return registration.scope;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the service worker did not keep the page and its files');
  });
}

async function expand(page: Page, name: string) {
  const item = page.getByRole('treeitem', { name }).first();
  if ((await item.getAttribute('aria-expanded')) === 'true') return;
  await item.locator(':scope > .ta-screen__row').click();
  await item.getByRole('group').first().waitFor();
}

/** Opens every branch of the tree, each waited for; how many it opened. */
async function expandAll(page: Page) {
  let opened = 0;
  for (;;) {
    const closed = page.locator('[role="treeitem"][aria-expanded="false"]');
    if ((await closed.count()) === 0) return opened;
    const item = await closed.first().elementHandle();
    await closed.first().locator(':scope > .ta-screen__row').click();
    await page.waitForFunction(
      (node) =>
        node?.getAttribute('aria-expanded') === 'true' && node.querySelector('[role="group"]') !== null,
      item,
    );
    opened++;
  }
}

async function enterOffline(page: Page, values: Record<string, string>) {
  await page.getByRole('treeitem', { name: SUBSOIL }).first().locator(':scope > .ta-screen__row').click();
  const dialog = page.getByRole('dialog', { name: SUBSOIL });
  for (const [name, value] of Object.entries(values))
    await dialog.getByRole('textbox', { name, exact: true }).fill(value);
  await dialog.getByRole('button', { name: L.save, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}

const region = (page: Page) => page.getByRole('region', { name: L.offlineRegion });

async function outboxCookie(context: BrowserContext) {
  // Every path's: at the origin's `/` alone, the handler's cookie is not sent.
  return (await context.cookies()).find((cookie) => cookie.name === 'ta-outbox');
}

describe('releases of the screen’s files', () => {
  it('keeps its release’s files whole at install, and drops files of releases before it', async () => {
    const { page } = await browser();
    await firstVisit(page);
    // What an earlier worker left: a release of its own, and files kept beside the pages. Then this
    // worker is installed afresh, as a new release's would be.
    await page.evaluate(async () => {
      await (await caches.open('task-association-assets-old')).put('/old', new Response('old'));
      await (await caches.open('task-association-files-v1')).put(
        `${location.origin}/associationtask?asset=association-screen/sync.js`,
        new Response('// old'),
      );
      for (const registration of await navigator.serviceWorker.getRegistrations())
        await registration.unregister();
    });
    await firstVisit(page);
    const kept = await page.evaluate(async () => {
      const names = await caches.keys();
      const release = names.find((name) => name.startsWith('task-association-assets-')) ?? '';
      const files = (await (await caches.open(release)).keys()).map((request) => new URL(request.url).search);
      const pages = (await (await caches.open('task-association-files-v1')).keys()).map(
        (request) => new URL(request.url).search,
      );
      return { names, release, files, pages };
    });
    expect(kept.names.filter((name) => name.startsWith('task-association-assets-'))).toEqual([kept.release]);
    expect(kept.release).not.toBe('task-association-assets-old');
    // Every file of the screen but the worker itself, whether the page asked for it yet or not.
    expect(kept.files.length).toBe(SCREEN_ASSETS.length - 1);
    expect(kept.pages.filter((search) => search.includes('asset='))).toEqual([]);
    expect(kept.pages.length).toBeGreaterThan(0);
  });
});

describe('a rolling deploy', () => {
  /**
   * Two nodes behind a load balancer, as one server: node 2 runs a new release, one label reworded
   * (its files and its worker's release differ), node 1 the release before. `nodeFor` says which
   * node answers a request.
   */
  let nodeFor: (url: string) => 1 | 2 = () => 1;
  let proxy: Awaited<ReturnType<typeof listen>>;
  const OLD_LABEL = L.keepSheet;
  const NEW_LABEL = 'Keep this sheet on this device';
  const NEW = '-new';

  /** What node 2 answers: the new release's label, and its worker naming the new release. */
  function asNewRelease(url: string, body: string) {
    if (url.includes('asset=association-screen/offline-labels.js')) return body.replace(OLD_LABEL, NEW_LABEL);
    if (url.includes('asset=association-screen-sw.js'))
      return body.replace(/"release":"([^"]+)"/, (_whole, id: string) => `"release":"${id}${NEW}"`);
    return body;
  }

  async function forward(req: IncomingMessage, res: ServerResponse) {
    const node = nodeFor(req.url ?? '/');
    // Node 2 serves the new release: a file asked for as of it is its own (the server under it
    // knows the release by the old name).
    const url = node === 2 ? (req.url ?? '/').replace(/(release=[\w-]+?)-new\b/, '$1') : (req.url ?? '/');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers))
      if (
        typeof value === 'string' &&
        !['host', 'if-none-match', 'accept-encoding', 'connection'].includes(name)
      )
        headers[name] = value;
    const answer = await fetch(`${origin}${url}`, {
      method: req.method ?? 'GET',
      headers,
      redirect: 'manual',
      ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
    });
    const out: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!['content-encoding', 'content-length', 'etag', 'transfer-encoding', 'connection'].includes(name))
        out[name] = value;
    });
    const text = await answer.text();
    res.writeHead(answer.status, out).end(node === 2 ? asNewRelease(url, text) : text);
  }

  beforeAll(async () => {
    proxy = await listen((req, res) => {
      forward(req, res).catch((error: unknown) => res.writeHead(502).end(String(error)));
    });
  });
  afterAll(async () => {
    await proxy?.close();
  });

  it('runs the new release once the deploy is over, whatever node answered the worker’s first install', async () => {
    // How the worker's first install ended: said by the page that registers it.
    const { context, page } = await browser(() => {
      const container = navigator.serviceWorker;
      const register = container.register.bind(container);
      container.register = async (...args) => {
        const registration = await register(...args);
        const worker = registration.installing;
        const said = window as unknown as { installed?: string };
        worker?.addEventListener('statechange', () => {
          if (worker.state === 'activated' || worker.state === 'redundant') said.installed = worker.state;
        });
        return registration;
      };
    });
    await signIn(context, proxy.origin, ALICE);
    const sheet = `${proxy.origin}/associationtask?taskSheet=${demo.sample.taskSheet}`;
    // During the deploy: the worker's script from the new node, every other file from the old one.
    nodeFor = (url) => (url.includes('asset=association-screen-sw.js') ? 2 : 1);
    await page.goto(sheet);
    await page.getByRole('tree').waitFor();
    await expect
      .poll(() =>
        page.evaluate(() => (window as unknown as { installed?: string }).installed ?? 'installing'),
      )
      .not.toBe('installing');
    // The deploy is over: every node runs the new release. Alice opens the sheet again, online.
    nodeFor = () => 2;
    const kept = async () => {
      await page.reload();
      await page.getByRole('tree').waitFor();
      return page.evaluate(async (label) => {
        const release = (await caches.keys()).find((name) => name.startsWith('task-association-assets-'));
        if (!release?.endsWith('-new')) return `release ${release}`;
        const cache = await caches.open(release);
        const file = (await cache.keys()).find((request) => request.url.endsWith('offline-labels.js'));
        return file ? (await (await cache.match(file))?.text())?.includes(label) : 'no file';
      }, NEW_LABEL);
    };
    await expect.poll(kept, { timeout: 30_000, interval: 500 }).toBe(true);
    await expect.poll(() => page.getByRole('button', { name: NEW_LABEL }).count()).toBe(1);
    expect(await page.getByRole('button', { name: OLD_LABEL }).count()).toBe(0);
  }, 60_000);
});

/**
 * A new release, in another tab, opens both databases at version 2: `index` adds an index to each
 * store (its records kept where they were), `ownWay` keeps them in a store of its own, the old one
 * gone. Resolves with that tab.
 */
async function newRelease(context: BrowserContext, how: 'index' | 'ownWay') {
  const other = await openPage(context);
  await other.goto(`${origin}/associationtask?asset=association-screen.css`);
  await other.evaluate(async (how) => {
    const upgrade = (name: string, store: string) =>
      new Promise<void>((resolve, reject) => {
        const opening = indexedDB.open(name, 2);
        opening.onupgradeneeded = () => {
          if (how === 'index') {
            opening.transaction?.objectStore(store).createIndex('owner', 'owner');
            return;
          }
          opening.result.deleteObjectStore(store);
          opening.result.createObjectStore(`${store}-v2`, { keyPath: 'id' });
        };
        opening.onsuccess = () => {
          opening.result.close();
          resolve();
        };
        opening.onerror = () => reject(opening.error);
      });
    await upgrade('task-association-drafts', 'drafts');
    await upgrade('task-association-outbox', 'entries');
  }, how);
  return other;
}

describe('a new release opening the device’s databases at a newer version', () => {
  it('keeps what a page of the old release, still open, types and saves after the upgrade', async () => {
    const { context, page } = await browser();
    await firstVisit(page);
    for (const name of SOIL) await expand(page, name);
    const other = await newRelease(context, 'index');
    // Back in the old page: Quantidade 55 typed and left (a draft), then Horas 9 saved offline.
    await page.getByRole('treeitem', { name: SUBSOIL }).first().locator(':scope > .ta-screen__row').click();
    const dialog = page.getByRole('dialog', { name: SUBSOIL });
    await dialog.getByRole('textbox', { name: 'Quantidade', exact: true }).fill('55');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await expect
      .poll(async () => (await draftsOnDevice(other)).map((draft) => draft.texts))
      .toEqual([{ METRICA1: '55' }]);
    await context.setOffline(true);
    await enterOffline(page, { Horas: '9' });
    await expect.poll(() => region(page).getByText(L.pendingCountOne).count()).toBe(1);
    expect(await page.getByText(L.outboxUnavailable).count()).toBe(0);
  });

  it('says to reload, of what a page of the old release types and saves, once the new one keeps them its own way', async () => {
    const { context, page } = await browser();
    await firstVisit(page);
    for (const name of SOIL) await expand(page, name);
    await newRelease(context, 'ownWay');
    await page.getByRole('treeitem', { name: SUBSOIL }).first().locator(':scope > .ta-screen__row').click();
    const dialog = page.getByRole('dialog', { name: SUBSOIL });
    const quantidade = dialog.getByRole('textbox', { name: 'Quantidade', exact: true });
    await quantidade.fill('55');
    // What stays in the form: the words the outbox says of the same cause, not that the device
    // keeps nothing.
    await dialog.getByText(L.outboxNewer, { exact: true }).waitFor();
    expect(await dialog.getByText(L.draftUnkept, { exact: true }).count()).toBe(0);
    // Its save, offline: not kept on the device either, said so, the value left in the form.
    await context.setOffline(true);
    await dialog.getByRole('button', { name: L.save, exact: true }).click();
    await region(page).getByText(L.outboxNewer, { exact: true }).waitFor();
    expect(await quantidade.inputValue()).toBe('55');
    expect(await page.getByText(L.outboxUnavailable).count()).toBe(0);
  });
});

describe('a weak signal', () => {
  it('opens the kept page when the server takes the request and never answers', async () => {
    const { page } = await browser();
    await firstVisit(page);
    hangPages = true;
    // Online as far as the phone knows; the worker waits a bounded time, then opens the kept copy.
    await page.reload();
    await page.getByRole('tree').waitFor({ timeout: 20_000 });
    expect(hung.length).toBeGreaterThan(0);
  });
});

describe('a host that answers but cannot serve the sheet', () => {
  it('opens the kept sheet, not the proxy’s error page, when the page is answered 502', async () => {
    const { page } = await browser();
    await firstVisit(page);
    downPages = true;
    try {
      // The signal is there, the host's proxy too, but the application behind it is down: the
      // sheet the device keeps (with what waits to be sent) opens, not "Bad Gateway".
      await page.reload();
      await page.getByRole('tree').waitFor({ timeout: 15_000 });
      expect(await page.getByText('Bad Gateway').count()).toBe(0);
    } finally {
      downPages = false;
    }
  });
});

describe('a host’s sign-in page at the sheet’s URL', () => {
  it('still opens the sheet offline after the host answered its link with its sign-in form (200)', async () => {
    const { context, page } = await browser();
    await firstVisit(page);
    // Her session ended: the link opened once more shows the host's sign-in form, with a 200.
    signInPages = true;
    await page.reload();
    await page.getByText('Sign in').first().waitFor();
    // In the field, no signal: the sheet opens from the device, not the sign-in form.
    await context.setOffline(true);
    await page.goto(sheetUrl());
    await page.getByRole('tree').waitFor({ timeout: 15_000 });
  });
});

describe('a device whose clock is off', () => {
  it('sends an entry the server refuses the time of, without it, instead of stopping it for good', async () => {
    const { context, page } = await browser();
    await firstVisit(page);
    for (const branch of SOIL) await expand(page, branch);
    // Ten minutes ahead of the server's clock: past the five the server takes.
    await page.clock.setSystemTime(new Date(Date.now() + 10 * 60_000));
    await context.setOffline(true);
    await enterOffline(page, { Quantidade: '8' });
    await expect.poll(() => region(page).getByText(L.pendingCountOne).count()).toBe(1);
    await context.setOffline(false);
    await expect.poll(async () => (await liveRows('A-SUBSOIL')).map((row) => row.METRICA1)).toEqual(['8.00']);
    const times = await demo.scratch.db.query<{ DEVICE_DH: unknown }>(
      `SELECT h.DEVICE_DH FROM ${HISTORY_TABLE_NAME} h JOIN ${demo.names.OPER} o ON o.SEQ_DB = h.OPER_SEQ_DB
        WHERE o.CODIGO = 'A-SUBSOIL'`,
    );
    expect(times.length).toBeGreaterThan(0);
    for (const time of times) expect(time.DEVICE_DH).toBeNull();
    await expect.poll(() => region(page).getByRole('listitem').count()).toBe(0);
  });
});

describe('an activity saved twice while offline', () => {
  it('sends both saves in turn, the second from the first, and stores the later value', async () => {
    const { context, page } = await browser();
    await firstVisit(page);
    for (const branch of SOIL) await expand(page, branch);
    await context.setOffline(true);
    await enterOffline(page, { Quantidade: '5' });
    // Opened again, the modal starts from the waiting value; the second save starts from it.
    await enterOffline(page, { Quantidade: '6' });
    await expect
      .poll(() =>
        region(page)
          .getByText(fill(L.pendingCount, { count: 2 }))
          .count(),
      )
      .toBe(1);

    await context.setOffline(false);
    await expect.poll(async () => (await liveRows('A-SUBSOIL')).map((row) => row.METRICA1)).toEqual(['6.00']);
    const changes = await demo.scratch.db.query<{ OLD_VALUE: string | null; NEW_VALUE: string | null }>(
      `SELECT h.OLD_VALUE, h.NEW_VALUE FROM ${HISTORY_TABLE_NAME} h JOIN ${demo.names.OPER} o ON o.SEQ_DB = h.OPER_SEQ_DB
        WHERE o.CODIGO = 'A-SUBSOIL' AND h.FIELD = 'METRICA1' ORDER BY h.SEQ_DB`,
    );
    expect(changes).toEqual([
      { OLD_VALUE: null, NEW_VALUE: '5.00' },
      { OLD_VALUE: '5.00', NEW_VALUE: '6.00' },
    ]);
    // Nothing stopped: no entry waits or asks for a decision.
    await expect.poll(() => region(page).getByRole('listitem').count()).toBe(0);
    await expect.poll(() => region(page).getByText(L.pendingCountOne).count()).toBe(0);
  });
});

describe('the table offline', () => {
  it('reads the progress again once a save kept on the device is sent and stored, its branch never opened', async () => {
    const { context, page } = await browser();
    await firstVisit(page);
    const grid = await showTable(page);
    await page.getByText('2 of 6 activities have values').waitFor();
    // The signal is lost: Pessoas typed for A-DISC (no values yet) and saved, kept on the device.
    await context.setOffline(true);
    const row = grid.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /^A-DISC/ }) });
    await row.getByRole('textbox', { name: 'Pessoas', exact: true }).click();
    await page.keyboard.type('7');
    await page.getByRole('button', { name: 'Save changes', exact: true }).click();
    await expect.poll(() => region(page).getByText(L.pendingCountOne).count()).toBe(1);
    // The signal is back: the outbox sends it, the server stores it, and the progress says so.
    await context.setOffline(false);
    await expect
      .poll(() =>
        demo.scratch.db.query(
          `SELECT m.METRICA2 FROM ${METRICS} m JOIN ${demo.names.OPER} o ON o.SEQ_DB = m.OPER_SEQ_DB
        WHERE o.CODIGO = 'A-DISC' AND m.FOLHA_TAREFA_SEQ_DB = ? AND m.DELETED = 0`,
          [demo.sample.taskSheet],
        ),
      )
      .toEqual([{ METRICA2: 7 }]);
    await expect.poll(() => page.getByText('3 of 6 activities have values').count()).toBe(1);
  });
});

describe('keep this sheet for offline use', () => {
  it('reads the whole sheet, so that every branch, never opened before, opens offline', async () => {
    const { context, page } = await browser();
    await firstVisit(page);
    const keep = region(page).getByRole('button', { name: L.keepSheet });
    await keep.click();
    const status = region(page)
      .getByRole('status')
      .filter({ hasText: /kept for offline use/ });
    await expect.poll(() => status.count()).toBe(1);
    const branches = Number(/\((\d+) branches\)/.exec((await status.textContent()) ?? '')?.[1]);
    expect(branches).toBeGreaterThan(2);
    expect(await status.textContent()).toBe(fill(L.kept, { count: branches }));
    expect(await keep.isEnabled()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);

    await context.setOffline(true);
    await page.reload();
    await page.getByRole('tree').waitFor();
    expect(await expandAll(page)).toBe(branches);
    expect(await page.getByRole('treeitem', { name: SUBSOIL }).count()).toBe(1);
    expect(await page.getByText(L.networkError).count()).toBe(0);
  });

  it('says the sheet is not kept when the browser refuses the space for it', async () => {
    // The browser's Cache Storage refuses every write, as it does past its quota.
    const { page } = await browser(() => {
      Cache.prototype.put = () =>
        Promise.reject(new DOMException('the quota is used up', 'QuotaExceededError'));
    });
    await firstVisit(page);
    await region(page).getByRole('button', { name: L.keepSheet }).click();
    await expect
      .poll(() => region(page).getByRole('status').filter({ hasText: L.keepNoSpace }).count())
      .toBe(1);
    expect(
      await region(page)
        .getByText(/kept for offline use/)
        .count(),
    ).toBe(0);
  });

  it(`says so when the sheet's data is over the bound (${MAX_KEEP_BYTES / 1024 / 1024} MB), and keeps the branches opened`, async () => {
    const { context, page } = await browser();
    await firstVisit(page, '/big/associationtask');
    for (const branch of SOIL) await expand(page, branch);
    await region(page).getByRole('button', { name: L.keepSheet }).click();
    const tooLarge = fill(L.keepTooLarge, { max: MAX_KEEP_BYTES / 1024 / 1024 });
    await expect.poll(() => region(page).getByRole('status').filter({ hasText: tooLarge }).count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);

    await context.setOffline(true);
    await page.reload();
    await page.getByRole('tree').waitFor();
    for (const branch of SOIL) await expand(page, branch);
    expect(await page.getByRole('treeitem', { name: SUBSOIL }).count()).toBe(1);
  }, 90_000);
});

describe('storage the browser may clear, or cleared', () => {
  it('says on the next opening that the browser cleared the entries that waited (the cookie counted them)', async () => {
    const { context, page } = await browser();
    await firstVisit(page);
    for (const branch of SOIL) await expand(page, branch);
    await context.setOffline(true);
    await enterOffline(page, { Quantidade: '3' });
    await expect.poll(() => region(page).getByText(L.pendingCountOne).count()).toBe(1);
    // The cookie goes only to the handler's path, not to every request of the host's site.
    expect(await outboxCookie(context)).toMatchObject({
      value: '1',
      path: '/associationtask',
      sameSite: 'Strict',
    });

    // The screen closed, the browser clears the site's IndexedDB (eviction), cookies apart.
    // Background Sync, fired then, must not make the outbox anew: the page, opened next, would no
    // longer see that it was gone.
    await page.goto('about:blank');
    const cdp = await context.newCDPSession(page);
    await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'indexeddb' });
    await fireSync(page, '/associationtask');
    await page.waitForTimeout(1000);

    await page.goto(sheetUrl());
    await page.getByRole('tree').waitFor();
    const alert = region(page).getByRole('alert');
    await expect.poll(() => alert.textContent()).toBe(L.outboxEvicted);
    expect(await region(page).getByText(L.pendingCountOne).count()).toBe(0);
    expect(await outboxCookie(context)).toBeUndefined();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('warns, while entries wait, that a browser not keeping the site’s storage may clear them', async () => {
    const { context, page } = await browser(() => {
      StorageManager.prototype.persist = async () => false;
      StorageManager.prototype.persisted = async () => false;
    });
    await firstVisit(page);
    for (const branch of SOIL) await expand(page, branch);
    await context.setOffline(true);
    await enterOffline(page, { Quantidade: '4' });
    const alert = region(page).getByRole('alert');
    await expect.poll(() => alert.textContent()).toBe(L.notPersisted);
    expect(await seriousViolations(page)).toEqual([]);
    // Said again on the next opening while the entry waits, and gone once it is sent.
    await page.reload();
    await page.getByRole('tree').waitFor();
    await expect.poll(() => alert.textContent()).toBe(L.notPersisted);
    await context.setOffline(false);
    await expect.poll(async () => (await liveRows('A-SUBSOIL')).map((row) => row.METRICA1)).toEqual(['4.00']);
    await expect.poll(() => alert.isVisible()).toBe(false);
  });

  it('does not warn where the browser keeps the site’s storage', async () => {
    const { context, page } = await browser(() => {
      StorageManager.prototype.persist = async () => true;
      StorageManager.prototype.persisted = async () => true;
    });
    await firstVisit(page);
    for (const branch of SOIL) await expand(page, branch);
    await context.setOffline(true);
    await enterOffline(page, { Quantidade: '4' });
    await expect.poll(() => region(page).getByText(L.pendingCountOne).count()).toBe(1);
    await page.waitForTimeout(500);
    expect(await region(page).getByRole('alert').isVisible()).toBe(false);
  });
});

describe('the handler at a path ending in /', () => {
  it('scopes the worker to that path, whose imports resolve, and opens, keeps and sends offline there', async () => {
    const { context, page } = await browser();
    expect(await firstVisit(page, '/nested/associationtask/')).toBe(`${origin}/nested/associationtask/`);
    for (const branch of SOIL) await expand(page, branch);
    await context.setOffline(true);
    await page.reload();
    await page.getByRole('tree').waitFor();
    for (const branch of SOIL) await expand(page, branch);
    await enterOffline(page, { Quantidade: '7' });
    await expect.poll(() => region(page).getByText(L.pendingCountOne).count()).toBe(1);
    expect(await outboxCookie(context)).toMatchObject({ value: '1', path: '/nested/associationtask/' });
    await context.setOffline(false);
    await expect.poll(async () => (await liveRows('A-SUBSOIL')).map((row) => row.METRICA1)).toEqual(['7.00']);
    await expect.poll(() => region(page).getByText(L.pendingCountOne).count()).toBe(0);
    await expect.poll(async () => (await outboxCookie(context))?.value).toBeUndefined();
  });
});

/**
 * Fires Background Sync's event in the worker registered for `path` on this origin, as DevTools'
 * "Sync" button does (the browser would fire it itself when it thinks the network is back).
 */
async function fireSync(page: Page, path: string) {
  const cdp = await page.context().newCDPSession(page);
  const found = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const mine = registrations.find((one) => one.scopeURL === `${origin}${path}` && !one.isDeleted);
      if (mine) resolve(mine.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  const registrationId = await found;
  await cdp.send('ServiceWorker.dispatchSyncEvent', {
    origin,
    registrationId,
    tag: SYNC_TAG,
    lastChance: false,
  });
  await cdp.detach();
}

describe('Background Sync', () => {
  it('has the worker send the outbox when the sync event fires, with no screen open', async () => {
    const { context, page } = await browser();
    await firstVisit(page);
    for (const branch of SOIL) await expand(page, branch);
    await context.setOffline(true);
    await enterOffline(page, { Quantidade: '8' });
    await expect.poll(() => region(page).getByText(L.pendingCountOne).count()).toBe(1);

    // The screen closed: a blank page is all that is open.
    const blank = await openPage(context);
    await page.close();
    await context.setOffline(false);
    await fireSync(blank, '/associationtask');
    await expect.poll(async () => (await liveRows('A-SUBSOIL')).map((row) => row.METRICA1)).toEqual(['8.00']);
    expect(await sources('A-SUBSOIL')).toEqual(['offline']);
    await blank.goto(`${origin}/elsewhere`);
    // The worker takes the entry out once the answer is in, a moment after the row is stored.
    await expect.poll(() => outboxEntries(blank)).toBe(0);

    // The next opening sets the cookie's count right (the worker has no cookies to write).
    expect(await outboxCookie(context)).toMatchObject({ value: '1' });
    await blank.goto(sheetUrl());
    await blank.getByRole('tree').waitFor();
    await expect.poll(async () => (await outboxCookie(context))?.value).toBeUndefined();
  });
});
