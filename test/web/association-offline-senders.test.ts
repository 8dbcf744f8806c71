import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEMO_TABLES } from '../../src/demo/demo-install.js';
import { HISTORY_TABLE_NAME } from '../../src/model/table-names.js';
import { LABELS_EN } from '../../web/association-screen.js';
import { holdRequests, launchOnProfile, openPage, usePageChecks } from '../support/browser.js';
import { saveByCodes, signIn, useServedScreen, wipeEntries } from '../support/demo.js';

/**
 * The association screen offline (#28) when someone else than the page sends its entries, or
 * someone else signs in under it, in Debian's Chromium on a profile on disk, the network switched
 * off and on with the browser's own switch:
 *
 * - another tab of the screen, or the service worker's Background Sync, sends an entry this page
 *   kept: the page shows the value as stored (not the default it read before), and its next save
 *   starts from it;
 * - an entry discarded while another tab has it on its way: the page says it is on its way, and then
 *   whether the server stored it (and shows what is stored);
 * - someone else signs in on the browser while a page stays open: the page files as them from then
 *   on, and what it kept without being able to ask is never sent as either person unless the one
 *   signed in says it is theirs.
 */

const METRICS = DEMO_TABLES.metrics;
const ALICE = 7;
const BRUNO = 8;
const SEEDER = 9;
const SYNC_TAG = 'task-association-outbox';
/** Each test opens one or two browsers on profiles of their own and waits on the network switch. */
const LONG = 90_000;

const served = useServedScreen(SEEDER);
const pages = usePageChecks();

const USED = ['A-SUBSOIL', 'A-DISC'];

beforeEach(async () => {
  await wipeEntries(served.demo(), USED);
});

/** Someone else (the seeder) saves Subsoiling's Quantidade, from `base`. */
async function seedQuantity(value: string, base: string | null) {
  await saveByCodes(served, SEEDER, 'A-SUBSOIL', 'G-SOIL', { METRICA1: value }, { METRICA1: base });
}

async function liveRows(code: string) {
  return served.demo().scratch.db.query<{ METRICA1: string | null; HORAS: string | null }>(
    `SELECT m.METRICA1, m.HORAS FROM ${METRICS} m JOIN ${served.demo().names.OPER} o ON o.SEQ_DB = m.OPER_SEQ_DB
      WHERE o.CODIGO = ? AND m.FOLHA_TAREFA_SEQ_DB = ? AND m.DELETED = 0`,
    [code, served.demo().sample.taskSheet],
  );
}

async function users(code: string) {
  const rows = await served.demo().scratch.db.query<{ USUARIO_SEQ_DB: number }>(
    `SELECT h.USUARIO_SEQ_DB FROM ${HISTORY_TABLE_NAME} h JOIN ${served.demo().names.OPER} o ON o.SEQ_DB = h.OPER_SEQ_DB
      WHERE o.CODIGO = ?`,
    [code],
  );
  return [...new Set(rows.map((row) => Number(row.USUARIO_SEQ_DB)))];
}

/** Who stored each value of Subsoiling's Quantidade, in the order stored: `[value, user]`. */
async function quantitiesBy() {
  const rows = await served.demo().scratch.db.query<{ NEW_VALUE: string | null; USUARIO_SEQ_DB: number }>(
    `SELECT h.NEW_VALUE, h.USUARIO_SEQ_DB FROM ${HISTORY_TABLE_NAME} h JOIN ${served.demo().names.OPER} o ON o.SEQ_DB = h.OPER_SEQ_DB
      WHERE o.CODIGO = 'A-SUBSOIL' AND h.FIELD = 'METRICA1' ORDER BY h.SEQ_DB`,
  );
  return rows.map((row) => [row.NEW_VALUE, Number(row.USUARIO_SEQ_DB)]);
}

const L = LABELS_EN;
const fill = (template: string, params: Record<string, string | number>) =>
  template.replace(/\{(\w+)\}/g, (whole, name: string) => String(params[name] ?? whole));
const SOIL = ['S-NORTH — North field', 'G-SOIL — Soil preparation'];
const SUBSOIL = 'A-SUBSOIL — Subsoiling';

/** A browser on a profile of its own, `user` signed in. */
async function browser(user: number) {
  const dir = await pages.profile('ta-offline-senders-');
  const context = pages.track(
    await launchOnProfile(dir, { locale: 'en', viewport: { width: 1280, height: 800 } }),
  );
  await signIn(context, served.origin(), user);
  return context;
}

/** The screen on the host's page (`/host`) or the handler's own (with its service worker), Soil preparation open. */
async function open(page: Page, where: 'host' | 'handler' = 'host') {
  await page.goto(where === 'host' ? `${served.origin()}/host` : served.sheetUrl());
  await page.getByRole('tree').waitFor();
  for (const name of SOIL) {
    const item = page.getByRole('treeitem', { name }).first();
    if ((await item.getAttribute('aria-expanded')) !== 'true')
      await item.locator(':scope > .ta-screen__row').click();
    await item.getByRole('group').first().waitFor();
  }
}

/** Waits until the service worker controls the page and keeps its files (it opens offline then). */
async function workerReady(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    for (let i = 0; i < 300 && !navigator.serviceWorker.controller; i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
  });
}

const row = (page: Page) =>
  page.getByRole('treeitem', { name: SUBSOIL }).first().locator(':scope > .ta-screen__row');
const region = (page: Page) => page.getByRole('region', { name: L.offlineRegion });
const status = (page: Page) => page.locator('.ta-screen__status');

async function enter(page: Page, values: Record<string, string>) {
  await row(page).click();
  const dialog = page.getByRole('dialog', { name: SUBSOIL });
  for (const [name, value] of Object.entries(values))
    await dialog.getByRole('textbox', { name, exact: true }).fill(value);
  await dialog.getByRole('button', { name: L.save, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}

/**
 * Resolves once the sending the page started on opening (it asks who is signed in, then sends) is
 * over: senders take turns by a lock, granted in the order asked.
 */
async function sendingOver(page: Page) {
  await page.evaluate((tag) => navigator.locks.request(tag, () => undefined), SYNC_TAG);
}

/** This page cannot ask whose entries these are, so it never sends them itself (as if slower). */
const cannotSend = (url: URL) =>
  url.pathname === '/associationtask' && url.searchParams.get('part') === 'owner';
const unavailable = (route: import('playwright-core').Route) =>
  route.fulfill({ status: 503, contentType: 'application/json', body: '{}' });

/**
 * Alice's page keeps Subsoiling's Quantidade 55 offline, and cannot send it itself; the network
 * is back when this resolves.
 */
async function keptOffline(where: 'host' | 'handler' = 'host') {
  const context = await browser(ALICE);
  const page = await openPage(context);
  await open(page, where);
  if (where === 'handler') await workerReady(page);
  await page.route(cannotSend, unavailable);
  await context.setOffline(true);
  await enter(page, { Quantidade: '55' });
  await expect.poll(() => region(page).getByText(L.pendingCountOne).count()).toBe(1);
  expect(await row(page).textContent()).toContain(`Quantidade55.00${L.pendingChip}`);
  await context.setOffline(false);
  return { context, page };
}

/** The row shows Quantidade as stored (55.00, saved), its next save starts from it. */
async function showsStored(page: Page) {
  await expect.poll(() => region(page).getByText(L.pendingCountOne).count()).toBe(0);
  await expect.poll(() => row(page).textContent()).toContain(`Quantidade55.00${L.chipSaved}`);
  await page.unroute(cannotSend, unavailable);
  await row(page).click();
  const dialog = page.getByRole('dialog', { name: SUBSOIL });
  expect(await dialog.getByRole('textbox', { name: 'Quantidade', exact: true }).inputValue()).toBe('55.00');
  await dialog.getByRole('textbox', { name: 'Horas', exact: true }).fill('9');
  await dialog.getByRole('button', { name: L.save, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
  await expect.poll(() => liveRows('A-SUBSOIL')).toEqual([{ METRICA1: '55.00', HORAS: '9.0' }]);
}

describe('an entry this page kept, sent by another sender', () => {
  it(
    'shows what another tab stored, and saves on from it without a conflict of the person’s own',
    async () => {
      const { context, page } = await keptOffline();
      const other = await openPage(context);
      await open(other);
      await expect.poll(() => liveRows('A-SUBSOIL')).toMatchObject([{ METRICA1: '55.00' }]);
      await showsStored(page);
    },
    LONG,
  );

  it(
    'shows what the service worker’s Background Sync stored',
    async () => {
      const { context, page } = await keptOffline('handler');
      const cdp = await context.newCDPSession(page);
      const found = new Promise<string>((resolve) => {
        cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
          const mine = registrations.find(
            (one) => one.scopeURL === `${served.origin()}/associationtask` && !one.isDeleted,
          );
          if (mine) resolve(mine.registrationId);
        });
      });
      await cdp.send('ServiceWorker.enable');
      await cdp.send('ServiceWorker.dispatchSyncEvent', {
        origin: served.origin(),
        registrationId: await found,
        tag: SYNC_TAG,
        lastChance: false,
      });
      await cdp.detach();
      await expect.poll(() => liveRows('A-SUBSOIL')).toMatchObject([{ METRICA1: '55.00' }]);
      await showsStored(page);
    },
    LONG,
  );
});

describe('an entry discarded while another tab has it on its way', () => {
  /**
   * Tab 2 sends Alice's kept entry; its PUT is held until `release`, while tab 1 discards it.
   * `meanwhile` runs before tab 2 opens.
   */
  async function discardOnItsWay(meanwhile?: () => Promise<void>) {
    const { context, page } = await keptOffline();
    await meanwhile?.();
    const other = await openPage(context);
    const { arrived: sending, release } = await holdRequests(
      other,
      (url) => url.pathname === '/associationtask',
      { which: (request) => request.method() === 'PUT', pass: 'fallback' },
    );
    await open(other);
    await sending;
    await region(page).getByRole('button', { name: L.pendingList }).click();
    await region(page)
      .getByRole('button', { name: fill(L.discardFor, { label: SUBSOIL }) })
      .click();
    await region(page).getByRole('button', { name: L.discardYes }).click();
    await expect.poll(() => region(page).getByRole('listitem').count()).toBe(0);
    // Not "discarded": the server may yet store it.
    await expect.poll(() => status(page).textContent()).toBe(fill(L.discardedOnItsWay, { label: SUBSOIL }));
    return { page, release };
  }

  it(
    'says it was on its way, then that it is saved, and shows what is stored',
    async () => {
      const { page, release } = await discardOnItsWay();
      release();
      await expect.poll(() => liveRows('A-SUBSOIL')).toMatchObject([{ METRICA1: '55.00' }]);
      await expect.poll(() => status(page).textContent()).toBe(fill(L.sentBeforeDiscard, { label: SUBSOIL }));
      await showsStored(page);
    },
    LONG,
  );

  it(
    'says it was discarded once the server refused the batch it was in',
    async () => {
      // Someone changed Quantidade meanwhile: tab 2's batch is refused for the conflict.
      const { page, release } = await discardOnItsWay(() => seedQuantity('31.00', null));
      release();
      await expect.poll(() => status(page).textContent()).toBe(fill(L.discarded, { label: SUBSOIL }));
      expect(await liveRows('A-SUBSOIL')).toMatchObject([{ METRICA1: '31.00' }]);
      expect(await region(page).getByRole('listitem').count()).toBe(0);
    },
    LONG,
  );
});

describe('someone else signing in while the page stays open', () => {
  it(
    'never sends what was typed meanwhile as the person the page was opened as, and lets the one signed in claim it',
    async () => {
      const context = await browser(ALICE);
      const page = await openPage(context);
      await open(page);
      // Bruno signs in on the same browser (another tab of the host); Alice's screen stays open.
      await signIn(context, served.origin(), BRUNO);
      await context.setOffline(true);
      await enter(page, { Quantidade: '77' });
      await expect.poll(() => region(page).getByText(L.pendingCountOne).count()).toBe(1);
      await context.setOffline(false);

      // The page learns who is signed in now, says so, and keeps the entry for them to claim.
      await region(page).getByText(L.ownerChanged).waitFor();
      await region(page)
        .getByText(fill(L.unconfirmedCount, { count: 1 }))
        .waitFor();
      expect(await region(page).getByText(L.pendingCountOne).count()).toBe(0);
      expect(await row(page).textContent()).not.toContain(L.pendingChip);
      // Said once the page's sending asked who is signed in and was over: it sent nothing.
      expect(await liveRows('A-SUBSOIL')).toEqual([]);

      // Alice, back on the browser, does not get it sent as hers by opening the sheet.
      await signIn(context, served.origin(), ALICE);
      const alice = await openPage(context);
      await open(alice);
      await region(alice)
        .getByText(fill(L.unconfirmedCount, { count: 1 }))
        .waitFor();
      await sendingOver(alice);
      expect(await liveRows('A-SUBSOIL')).toEqual([]);
      await alice.close();

      // Bruno says it is his: sent as his.
      await signIn(context, served.origin(), BRUNO);
      await region(page).getByRole('button', { name: L.claim, exact: true }).click();
      await expect.poll(() => liveRows('A-SUBSOIL')).toMatchObject([{ METRICA1: '77.00' }]);
      expect(await users('A-SUBSOIL')).toEqual([BRUNO]);
    },
    LONG,
  );

  it(
    'never sends the rest of a sending as someone who signed in while its first batch was answered, and lets them claim it',
    async () => {
      const context = await browser(ALICE);
      const page = await openPage(context);
      await open(page);
      // Two saves of one activity while offline: they go out as two batches, the second from the first.
      await context.setOffline(true);
      await enter(page, { Quantidade: '55' });
      await enter(page, { Quantidade: '66' });
      await expect
        .poll(() =>
          region(page)
            .getByText(fill(L.pendingCount, { count: 2 }))
            .count(),
        )
        .toBe(1);
      let puts = 0;
      await page.route(
        (url) => url.pathname === '/associationtask',
        async (route) => {
          if (route.request().method() !== 'PUT' || ++puts !== 1) return route.fallback();
          // The first batch reaches the server as Alice's; while its answer is on its way back (a weak
          // signal), Bruno signs in on the same browser (another tab of the host).
          const response = await route.fetch();
          await signIn(context, served.origin(), BRUNO);
          return route.fulfill({ response });
        },
      );
      await context.setOffline(false);

      // The second is not sent as Bruno: the page learns who is signed in, says so, and keeps it for
      // whoever is signed in to claim (Alice typed it offline, the page could not tell for whom).
      await region(page).getByText(L.ownerChanged).waitFor();
      await region(page)
        .getByText(fill(L.unconfirmedCount, { count: 1 }))
        .waitFor();
      await sendingOver(page);
      expect(await quantitiesBy()).toEqual([['55.00', ALICE]]);
      expect(await liveRows('A-SUBSOIL')).toMatchObject([{ METRICA1: '55.00' }]);

      // Bruno says it is his: sent as his, from the value stored.
      await region(page).getByRole('button', { name: L.claim, exact: true }).click();
      await expect.poll(() => liveRows('A-SUBSOIL')).toMatchObject([{ METRICA1: '66.00' }]);
      expect(await quantitiesBy()).toEqual([
        ['55.00', ALICE],
        ['66.00', BRUNO],
      ]);
    },
    LONG,
  );

  it(
    'keeps an entry it marked unconfirmed while its batch was on its way so, when the refusal comes back',
    async () => {
      const context = await browser(ALICE);
      const page = await openPage(context);
      await open(page);
      await context.setOffline(true);
      await enter(page, { Quantidade: '55' });
      await expect.poll(() => region(page).getByText(L.pendingCountOne).count()).toBe(1);
      // Someone changed Quantidade meanwhile: the batch will be refused for the conflict.
      await seedQuantity('31.00', null);
      // The server answers (409, nothing written); the answer is held on its way back.
      const { arrived: sending, release } = await holdRequests(
        page,
        (url) => url.pathname === '/associationtask',
        { which: (request) => request.method() === 'PUT', answers: true, pass: 'fallback' },
      );
      await context.setOffline(false);
      await sending;

      // Meanwhile Bruno signs in and opens the sheet in another tab: Alice's page hears who is
      // signed in now, and the entry it kept offline waits for whoever is signed in to claim it.
      await signIn(context, served.origin(), BRUNO);
      const bruno = await openPage(context);
      await open(bruno);
      await region(page).getByText(L.ownerChanged).waitFor();
      await region(page)
        .getByText(fill(L.unconfirmedCount, { count: 1 }))
        .waitFor();
      await bruno.close();

      // The refusal comes back: the sender's word (a conflict) does not undo the page's mark.
      release();
      await sendingOver(page);
      expect(await quantitiesBy()).toEqual([['31.00', SEEDER]]);
      // As the outbox holds it once the sender let go (a script string: vitest would rewrite an
      // import() written in this file).
      const kept = await page.evaluate(`(async () => {
        const { openOutbox } = await import('/associationtask?asset=association-screen/outbox.js');
        const outbox = await openOutbox();
        const all = await outbox.all();
        outbox.close();
        return all.map((record) => [record.state, record.unconfirmed === true]);
      })()`);
      expect(kept).toEqual([['conflict', true]]);
    },
    LONG,
  );

  it(
    'files as the person another tab found signed in, and sends it as theirs',
    async () => {
      const context = await browser(ALICE);
      const page = await openPage(context);
      await open(page);
      // Bruno signs in and opens the sheet in another tab: Alice's page hears who is signed in now.
      await signIn(context, served.origin(), BRUNO);
      const bruno = await openPage(context);
      await open(bruno);
      await region(page).getByText(L.ownerChanged).waitFor();
      await bruno.close();

      await context.setOffline(true);
      await enter(page, { Quantidade: '78' });
      await expect.poll(() => region(page).getByText(L.pendingCountOne).count()).toBe(1);
      await context.setOffline(false);
      await expect.poll(() => liveRows('A-SUBSOIL')).toMatchObject([{ METRICA1: '78.00' }]);
      expect(await users('A-SUBSOIL')).toEqual([BRUNO]);
      await expect.poll(() => region(page).getByText(L.pendingCountOne).count()).toBe(0);
    },
    LONG,
  );
});
