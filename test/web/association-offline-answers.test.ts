import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_TABLES } from '../../src/demo/demo-install.js';
import type { Demo } from '../../src/demo/start-demo.js';
import { LABELS_EN } from '../../web/association-screen.js';
import { description, holdRequests, launchOnProfile, openPage, watchProblems } from '../support/browser.js';
import { type listen, seqOfCode, serveScreen, startTestDemo, wipeEntries } from '../support/demo.js';

/**
 * What the association screen makes of a save's answer (#25, #28), in Debian's Chromium on a
 * profile on disk, the network switched off with the browser's own switch:
 *
 * - an answer the server replays (`replayed: true`: the save was sent again under its request id
 *   after its first answer was lost) says what the save stored then: the tree, the modal and the
 *   table show what is stored now, read again, never the replayed values as stored;
 * - the data kept for offline use holds what a save stored: a sheet opened offline after a save
 *   made online (in the modal, in the table, or sent from the outbox) shows the saved entry, not
 *   the defaults read before it.
 */

const METRICS = DEMO_TABLES.metrics;
const ALICE = 7;
const SEEDER = 9;
/** Each test opens a browser on a profile of its own and waits on the network. */
const LONG = 90_000;

let demo: Demo;
let server: Awaited<ReturnType<typeof listen>> | undefined;
let origin: string;
/** The requests the server leaves unanswered (see serveScreen's `drop`), and how many it dropped. */
let dropping: (url: URL) => boolean = () => false;
let dropped = 0;

beforeAll(async () => {
  demo = await startTestDemo();
  server = await serveScreen(demo, SEEDER, (req) => {
    if (!dropping(new URL(req.url ?? '/', 'http://server'))) return false;
    dropped++;
    return true;
  });
  origin = server.origin;
});

afterAll(async () => {
  await server?.close();
  await demo?.close();
});

const USED = ['A-SUBSOIL', 'A-DISC'];
const contexts: BrowserContext[] = [];
const profiles: string[] = [];
let pageProblems: string[] = [];

beforeEach(async () => {
  await wipeEntries(demo, USED);
  dropping = () => false;
  dropped = 0;
});

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close().catch(() => undefined);
  for (const dir of profiles.splice(0)) await rm(dir, { recursive: true, force: true });
  const problems = pageProblems;
  pageProblems = [];
  expect(problems).toEqual([]);
});

/** Someone else (the seeder) stores Subsoiling's Quantidade `value`, from `base`. */
async function seedQuantity(value: string, base: string | null) {
  const answer = await fetch(`${origin}/associationtask?taskSheet=${demo.sample.taskSheet}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', accept: 'application/json', cookie: `user=${SEEDER}` },
    body: JSON.stringify({
      requestId: randomUUID(),
      source: 'api',
      entries: [
        {
          activity: await seqOfCode(demo, demo.names.OPER, 'A-SUBSOIL'),
          group: await seqOfCode(demo, demo.names.OPER_GRUPO, 'G-SOIL'),
          values: { METRICA1: value },
          base: { METRICA1: base },
        },
      ],
    }),
  });
  expect(answer.status, await answer.clone().text()).toBe(200);
}

async function liveRows(code: string) {
  return demo.scratch.db.query<{ METRICA1: string | null; HORAS: string | null }>(
    `SELECT m.METRICA1, m.HORAS FROM ${METRICS} m JOIN ${demo.names.OPER} o ON o.SEQ_DB = m.OPER_SEQ_DB
      WHERE o.CODIGO = ? AND m.FOLHA_TAREFA_SEQ_DB = ? AND m.DELETED = 0`,
    [code, demo.sample.taskSheet],
  );
}

const L = LABELS_EN;
const SOIL = ['S-NORTH — North field', 'G-SOIL — Soil preparation'];
const SUBSOIL = 'A-SUBSOIL — Subsoiling';
const DISC = 'A-DISC — Disc ploughing';
const SYNC_TAG = 'task-association-outbox';
const DATA_LOCK = 'task-association-data';

/** A browser on a profile of its own, Alice signed in; `puts` counts the saves its pages send. */
async function browser() {
  const dir = await mkdtemp(join(tmpdir(), 'ta-offline-answers-'));
  profiles.push(dir);
  const context = await launchOnProfile(dir, { locale: 'en', viewport: { width: 1280, height: 800 } });
  contexts.push(context);
  await context.addCookies([{ name: 'user', value: String(ALICE), url: origin }]);
  context.on('page', (page) => watchProblems(page, (problem) => pageProblems.push(problem)));
  const page = await openPage(context);
  return { context, page };
}

/** Opens Soil preparation's branches (the tree keeps what it opened as it was). */
async function openSoil(page: Page) {
  await page.getByRole('tree').waitFor();
  for (const name of SOIL) {
    const item = page.getByRole('treeitem', { name }).first();
    if ((await item.getAttribute('aria-expanded')) !== 'true')
      await item.locator(':scope > .ta-screen__row').click();
    await item.getByRole('group').first().waitFor();
  }
}

/** The screen on the host's page (`/host`: no service worker) or the handler's own, Soil open. */
async function open(page: Page, where: 'host' | 'handler') {
  await page.goto(
    where === 'host' ? `${origin}/host` : `${origin}/associationtask?taskSheet=${demo.sample.taskSheet}`,
  );
  await openSoil(page);
  if (where === 'handler') {
    // The service worker controls the page and keeps its files: it opens offline from then on.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      for (let i = 0; i < 300 && !navigator.serviceWorker.controller; i++)
        await new Promise((resolve) => setTimeout(resolve, 50));
    });
  }
}

const row = (page: Page, name: string) =>
  page.getByRole('treeitem', { name }).first().locator(':scope > .ta-screen__row');
const region = (page: Page) => page.getByRole('region', { name: L.offlineRegion });
const quantityOf = (page: Page, code: string) =>
  page
    .getByRole('grid')
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${code}`) }) })
    .getByRole('textbox', { name: 'Quantidade', exact: true });

/** Enters `values` in an activity's modal and saves; resolves once the dialog closed. */
async function enter(page: Page, name: string, values: Record<string, string>) {
  await row(page, name).click();
  const dialog = page.getByRole('dialog', { name });
  for (const [field, value] of Object.entries(values))
    await dialog.getByRole('textbox', { name: field, exact: true }).fill(value);
  await dialog.getByRole('button', { name: L.save, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}

/**
 * The page's first save of the sheet reaches the server and is stored, and then someone else stores
 * Quantidade 99.00 over its 55.00 before its answer, `answered`, reaches the page (the answer lost,
 * or a server failure in front of it). Resolves with the count of saves sent so far.
 */
async function storedThenChanged(page: Page, answered: (route: Route) => Promise<void>) {
  let puts = 0;
  await page.route(
    (url) => url.pathname === '/associationtask',
    async (route) => {
      if (route.request().method() !== 'PUT') return route.fallback();
      puts++;
      if (puts !== 1) return route.fallback();
      await route.fetch();
      await seedQuantity('99.00', '55.00');
      return answered(route);
    },
  );
  return () => puts;
}

const lost = (route: Route) => route.abort('internetdisconnected');

/** Subsoiling, as the modal presets it, saved on with Horas 9 from it: no conflict, 99.00 kept. */
async function savesOnFromStoredNow(page: Page) {
  await row(page, SUBSOIL).click();
  const dialog = page.getByRole('dialog', { name: SUBSOIL });
  expect(await dialog.getByRole('textbox', { name: 'Quantidade', exact: true }).inputValue()).toBe('99.00');
  await dialog.getByRole('textbox', { name: 'Horas', exact: true }).fill('9');
  await dialog.getByRole('button', { name: L.save, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
  await expect.poll(() => liveRows('A-SUBSOIL')).toEqual([{ METRICA1: '99.00', HORAS: '9.0' }]);
}

describe('a save answered again from the server’s record, after its answer was lost', () => {
  it(
    'shows in the tree and the modal what is stored now, not what the save stored before someone changed it',
    async () => {
      const { page } = await browser();
      await open(page, 'host');
      const puts = await storedThenChanged(page, lost);
      // No answer: the modal keeps the save in the outbox under its id, which sends it again.
      await enter(page, SUBSOIL, { Quantidade: '55' });
      await expect.poll(puts).toBe(2);
      await expect.poll(() => region(page).getByText(L.pendingCountOne).count()).toBe(0);
      expect(await liveRows('A-SUBSOIL')).toMatchObject([{ METRICA1: '99.00' }]);
      await expect.poll(() => row(page, SUBSOIL).textContent()).toContain(`Quantidade99.00${L.chipSaved}`);
      await savesOnFromStoredNow(page);
    },
    LONG,
  );

  it(
    'shows what is stored now after Save is pressed again on a save answered with a server failure',
    async () => {
      const { page } = await browser();
      await open(page, 'host');
      // A proxy in front of the server answers 503 once the save is stored: not kept in the outbox
      // (the server answered), the modal says it failed; Save again sends it under the same id.
      const puts = await storedThenChanged(page, (route) =>
        route.fulfill({ status: 503, contentType: 'application/json', body: '{}' }),
      );
      await row(page, SUBSOIL).click();
      const dialog = page.getByRole('dialog', { name: SUBSOIL });
      await dialog.getByRole('textbox', { name: 'Quantidade', exact: true }).fill('55');
      await dialog.getByRole('button', { name: L.save, exact: true }).click();
      await dialog.getByRole('alert').waitFor();
      await dialog.getByRole('button', { name: L.save, exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });
      expect(puts()).toBe(2);
      await expect.poll(() => row(page, SUBSOIL).textContent()).toContain(`Quantidade99.00${L.chipSaved}`);
      await savesOnFromStoredNow(page);
    },
    LONG,
  );

  it(
    'shows in the table what is stored now, and saves on from it',
    async () => {
      const { page } = await browser();
      await open(page, 'host');
      await page.getByRole('button', { name: L.viewTable, exact: true }).click();
      const quantity = quantityOf(page, 'A-SUBSOIL');
      await quantity.waitFor();
      const puts = await storedThenChanged(page, lost);
      // No answer: the table keeps its batch in the outbox under its id, which sends it again.
      await quantity.fill('55');
      await page.getByRole('button', { name: L.tableSave, exact: true }).click();
      await expect.poll(puts).toBe(2);
      await expect.poll(() => region(page).getByText(L.pendingCountOne).count()).toBe(0);
      await expect.poll(() => quantity.inputValue()).toBe('99.00');
      expect(await description(quantity)).toBe(L.sourceSaved);
      await page.getByRole('button', { name: L.viewTree, exact: true }).click();
      await expect.poll(() => row(page, SUBSOIL).textContent()).toContain(`Quantidade99.00${L.chipSaved}`);
      await savesOnFromStoredNow(page);
    },
    LONG,
  );
});

describe('the data kept for offline use, after a save', () => {
  /**
   * The page opened again without network, from what the device keeps, Soil open; once the writes
   * of kept data asked for before are done (they take turns by a Web Lock, granted in the order asked).
   */
  async function reopenOffline(context: BrowserContext, page: Page) {
    await page.evaluate((name) => navigator.locks.request(name, () => undefined), DATA_LOCK);
    await context.setOffline(true);
    await page.reload();
    await openSoil(page);
    await region(page)
      .getByText(L.offlineNow.split('{')[0] ?? '')
      .waitFor();
  }

  it(
    'shows an entry saved online in the modal or the table as saved, not as the defaults read before',
    async () => {
      const { context, page } = await browser();
      await open(page, 'handler');
      expect(await row(page, SUBSOIL).textContent()).toContain(`Quantidade0.80${L.chipDefault}`);
      await enter(page, SUBSOIL, { Quantidade: '55' });
      await expect.poll(() => row(page, SUBSOIL).textContent()).toContain(`Quantidade55.00${L.chipSaved}`);
      await page.getByRole('button', { name: L.viewTable, exact: true }).click();
      const quantity = quantityOf(page, 'A-DISC');
      await quantity.fill('4');
      await page.getByRole('button', { name: L.tableSave, exact: true }).click();
      await page.getByText(L.tableSavedOne).waitFor();
      expect(await liveRows('A-DISC')).toMatchObject([{ METRICA1: '4.00' }]);
      await page.getByRole('button', { name: L.viewTree, exact: true }).click();
      await reopenOffline(context, page);
      expect(await row(page, SUBSOIL).textContent()).toContain(`Quantidade55.00${L.chipSaved}`);
      expect(await row(page, DISC).textContent()).toContain(`Quantidade4.00${L.chipSaved}`);
      // The next save starts from it: kept, and sent as a change of the saved entry.
      await enter(page, SUBSOIL, { Horas: '9' });
      await context.setOffline(false);
      await expect.poll(() => liveRows('A-SUBSOIL')).toEqual([{ METRICA1: '55.00', HORAS: '9.0' }]);
    },
    LONG,
  );

  it(
    'shows an entry the outbox sent as saved',
    async () => {
      const { context, page } = await browser();
      await open(page, 'handler');
      await context.setOffline(true);
      await enter(page, SUBSOIL, { Quantidade: '55' });
      await expect.poll(() => region(page).getByText(L.pendingCountOne).count()).toBe(1);
      await context.setOffline(false);
      await expect.poll(() => region(page).getByText(L.pendingCountOne).count()).toBe(0);
      expect(await liveRows('A-SUBSOIL')).toMatchObject([{ METRICA1: '55.00' }]);
      await reopenOffline(context, page);
      expect(await row(page, SUBSOIL).textContent()).toContain(`Quantidade55.00${L.chipSaved}`);
    },
    LONG,
  );

  /**
   * Quantidade 55 entered offline into the outbox, Soil open; the signal returns, the first sending
   * is stored and its answer lost while the page is opened again (its tree closed). The entry goes
   * again under the same request id (the page's sender or the service worker's), and the server
   * answers from its record of the first sending (`replayed`). `meanwhile` runs as the signal
   * returns. Resolves once the entry left the outbox.
   */
  async function replayedWithTreeClosed(context: BrowserContext, page: Page, meanwhile = async () => {}) {
    await open(page, 'handler');
    expect(await row(page, SUBSOIL).textContent()).toContain(`Quantidade0.80${L.chipDefault}`);
    await context.setOffline(true);
    await enter(page, SUBSOIL, { Quantidade: '55' });
    await expect.poll(() => region(page).getByText(L.pendingCountOne).count()).toBe(1);
    let puts = 0;
    const { release } = await holdRequests(page, (url) => url.pathname === '/associationtask', {
      // The first PUT only: stored, its answer held, then lost.
      which: (request) => request.method() === 'PUT' && ++puts === 1,
      answers: true,
      pass: 'fallback',
      reply: (route) => lost(route).catch(() => undefined),
    });
    await meanwhile();
    await context.setOffline(false);
    await expect.poll(() => liveRows('A-SUBSOIL')).toMatchObject([{ METRICA1: '55.00' }]);
    await page.reload();
    release();
    await page.getByRole('tree').waitFor();
    await expect.poll(() => region(page).getByText(L.pendingCountOne).count()).toBe(0);
    // Nothing on the page shows Subsoiling: no tree reads its branch again.
    expect(await page.getByRole('treeitem', { name: SUBSOIL }).count()).toBe(0);
  }

  it(
    'shows an entry as saved when its answer was replayed and no tree shows its activity',
    async () => {
      const { context, page } = await browser();
      await replayedWithTreeClosed(context, page);
      await reopenOffline(context, page);
      expect(await row(page, SUBSOIL).textContent()).toContain(`Quantidade55.00${L.chipSaved}`);
    },
    LONG,
  );

  it(
    'reads such a branch at the next opening online when the signal went before it could be read',
    async () => {
      const { context, page } = await browser();
      const soil = String(await seqOfCode(demo, demo.names.OPER_GRUPO, 'G-SOIL'));
      // From when the signal returns, Soil's branch gets no answer, whoever asks for it.
      await replayedWithTreeClosed(context, page, async () => {
        dropping = (url) =>
          url.pathname === '/associationtask' &&
          url.searchParams.get('part') === 'children' &&
          url.searchParams.get('node') === soil;
      });
      // Once the replayed answer was kept (the writes of kept data take turns by a Web Lock).
      await page.evaluate((name) => navigator.locks.request(name, () => undefined), DATA_LOCK);
      expect(dropped).toBeGreaterThan(0);
      // The signal is back; the sheet opened online again, its tree closed.
      dropping = () => false;
      await page.reload();
      await page.getByRole('tree').waitFor();
      await reopenOffline(context, page);
      expect(await row(page, SUBSOIL).textContent()).toContain(`Quantidade55.00${L.chipSaved}`);
    },
    LONG,
  );

  it(
    'shows an entry the service worker’s Background Sync sent as saved',
    async () => {
      const { context, page } = await browser();
      await open(page, 'handler');
      // This page cannot ask whose entries these are, so it never sends them itself.
      const cannotSend = (url: URL) =>
        url.pathname === '/associationtask' && url.searchParams.get('part') === 'owner';
      const unavailable = (route: Route) =>
        route.fulfill({ status: 503, contentType: 'application/json', body: '{}' });
      await page.route(cannotSend, unavailable);
      await context.setOffline(true);
      await enter(page, SUBSOIL, { Quantidade: '55' });
      await expect.poll(() => region(page).getByText(L.pendingCountOne).count()).toBe(1);
      await context.setOffline(false);
      const cdp = await context.newCDPSession(page);
      const found = new Promise<string>((resolve) => {
        cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
          const mine = registrations.find(
            (one) => one.scopeURL === `${origin}/associationtask` && !one.isDeleted,
          );
          if (mine) resolve(mine.registrationId);
        });
      });
      await cdp.send('ServiceWorker.enable');
      await cdp.send('ServiceWorker.dispatchSyncEvent', {
        origin,
        registrationId: await found,
        tag: SYNC_TAG,
        lastChance: false,
      });
      await cdp.detach();
      await expect.poll(() => liveRows('A-SUBSOIL')).toMatchObject([{ METRICA1: '55.00' }]);
      await expect.poll(() => region(page).getByText(L.pendingCountOne).count()).toBe(0);
      await page.unroute(cannotSend, unavailable);
      await reopenOffline(context, page);
      expect(await row(page, SUBSOIL).textContent()).toContain(`Quantidade55.00${L.chipSaved}`);
    },
    LONG,
  );
});
