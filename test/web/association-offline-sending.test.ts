import type { Page, Route } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEMO_TABLES } from '../../src/demo/demo-install.js';
import { HISTORY_TABLE_NAME } from '../../src/model/table-names.js';
import { LABELS_EN } from '../../web/association-screen.js';
import {
  holdRequests,
  launchOnProfile,
  openPage,
  putBodies,
  recordSaid,
  saidSoFar,
  usePageChecks,
} from '../support/browser.js';
import {
  saveAsProgram,
  saveByCodes,
  seqOfCode,
  signIn,
  useServedScreen,
  wipeEntries,
} from '../support/demo.js';

/**
 * What the outbox's sending makes of the answers a weak signal brings (#28), in Debian's Chromium
 * on a profile on disk, the network switched off and on with the browser's own switch:
 *
 * - a 200 that is not the handler's answer (a sign-in or captive portal's page, a proxy's rewrite):
 *   the entries stay on the device, go again under their request id, and are applied once;
 * - a remove the server finds already done (someone else removed the entry meanwhile): done, in
 *   the modal's words, not "refused"; the rest of its batch is sent again and stored;
 * - a batch whose answer was lost goes again whole, under its id, even when entries claimed since
 *   come before it in the order entered: applied once, never met as a conflict of the person's own.
 */

const METRICS = DEMO_TABLES.metrics;
const ALICE = 7;
const BRUNO = 8;
const SEEDER = 9;
/** Each test opens a browser on a profile of its own and waits on the network switch. */
const LONG = 90_000;

const served = useServedScreen(SEEDER);
const pages = usePageChecks();

const USED = ['A-SUBSOIL', 'A-DISC'];

beforeEach(async () => {
  await wipeEntries(served.demo(), USED);
});

async function liveRows(code: string) {
  return served.demo().scratch.db.query<{ METRICA1: string | null }>(
    `SELECT m.METRICA1 FROM ${METRICS} m JOIN ${served.demo().names.OPER} o ON o.SEQ_DB = m.OPER_SEQ_DB
      WHERE o.CODIGO = ? AND m.FOLHA_TAREFA_SEQ_DB = ? AND m.DELETED = 0`,
    [code, served.demo().sample.taskSheet],
  );
}

/** Who stored each value of an activity's Quantidade, in the order stored: `[value, user]`. */
async function quantitiesBy(code: string) {
  const rows = await served.demo().scratch.db.query<{ NEW_VALUE: string | null; USUARIO_SEQ_DB: number }>(
    `SELECT h.NEW_VALUE, h.USUARIO_SEQ_DB FROM ${HISTORY_TABLE_NAME} h JOIN ${served.demo().names.OPER} o ON o.SEQ_DB = h.OPER_SEQ_DB
      WHERE o.CODIGO = ? AND h.FIELD = 'METRICA1' ORDER BY h.SEQ_DB`,
    [code],
  );
  return rows.map((row) => [row.NEW_VALUE, Number(row.USUARIO_SEQ_DB)]);
}

/** `expect.poll` with room for a loaded two-core machine. */
const later = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000, interval: 100 });

const L = LABELS_EN;
const fill = (template: string, params: Record<string, string | number>) =>
  template.replace(/\{(\w+)\}/g, (whole, name: string) => String(params[name] ?? whole));
const SOIL = ['S-NORTH — North field', 'G-SOIL — Soil preparation'];
const SUBSOIL = 'A-SUBSOIL — Subsoiling';
const DISC = 'A-DISC — Disc ploughing';

/** A page of a browser on a profile of its own, `user` signed in, on the host's page, Soil preparation open. */
async function opened(user: number) {
  const dir = await pages.profile('ta-offline-sending-');
  const context = pages.track(
    await launchOnProfile(dir, { locale: 'en', viewport: { width: 1280, height: 800 } }),
  );
  await signIn(context, served.origin(), user);
  const page = await openPage(context);
  const puts = putBodies(page);
  await page.goto(`${served.origin()}/host`);
  await page.getByRole('tree').waitFor();
  for (const name of SOIL) {
    const item = page.getByRole('treeitem', { name }).first();
    if ((await item.getAttribute('aria-expanded')) !== 'true')
      await item.locator(':scope > .ta-screen__row').click();
    await item.getByRole('group').first().waitFor();
  }
  return { context, page, puts };
}

const row = (page: Page, name: string) =>
  page.getByRole('treeitem', { name }).first().locator(':scope > .ta-screen__row');
const region = (page: Page) => page.getByRole('region', { name: L.offlineRegion });
const said = async (page: Page) => (await saidSoFar(page)).join(' | ');

async function enter(page: Page, name: string, values: Record<string, string>) {
  await row(page, name).click();
  const dialog = page.getByRole('dialog', { name });
  for (const [field, value] of Object.entries(values))
    await dialog.getByRole('textbox', { name: field, exact: true }).fill(value);
  await dialog.getByRole('button', { name: L.save, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}

async function remove(page: Page, name: string) {
  await row(page, name).click();
  const dialog = page.getByRole('dialog', { name });
  await dialog.getByRole('button', { name: L.remove, exact: true }).click();
  await page
    .getByRole('alertdialog', { name: L.removeTitle })
    .getByRole('button', { name: L.removeConfirm, exact: true })
    .click();
  await dialog.waitFor({ state: 'hidden' });
}

const waiting = (page: Page, count: number) =>
  region(page)
    .getByText(count === 1 ? L.pendingCountOne : fill(L.pendingCount, { count }))
    .count();

/** Resolves once the sending under way (if any) is over: senders take turns by a lock. */
async function sendingOver(page: Page) {
  await page.evaluate((tag) => navigator.locks.request(tag, () => undefined), 'task-association-outbox');
}

describe('a 200 that is not the handler’s answer', () => {
  it(
    'keeps the entry on the device and sends it again under its id until the server answers: stored once',
    async () => {
      const { context, page, puts } = await opened(ALICE);
      await context.setOffline(true);
      await enter(page, SUBSOIL, { Quantidade: '55' });
      await later(() => waiting(page, 1)).toBe(1);
      let answered = 0;
      await page.route(
        (url) => url.pathname === '/associationtask',
        async (route: Route) => {
          if (route.request().method() !== 'PUT') return route.fallback();
          answered++;
          // A captive portal's sign-in page: the save never reached the server.
          if (answered === 1)
            return route.fulfill({
              status: 200,
              contentType: 'text/html',
              body: '<!doctype html><title>Sign in to the network</title><form></form>',
            });
          // A proxy that reached the server (the batch is stored) and answered with a body of its own.
          if (answered === 2) {
            await route.fetch();
            return route.fulfill({ status: 200, contentType: 'application/json', body: '{"ok":true}' });
          }
          return route.fallback();
        },
      );
      await context.setOffline(false);
      await later(() => answered).toBeGreaterThanOrEqual(2);
      // Still on the device after both: neither answer said the entry was stored.
      expect(await waiting(page, 1)).toBe(1);
      await later(() => answered).toBe(3);
      await later(() => waiting(page, 1)).toBe(0);
      expect(await liveRows('A-SUBSOIL')).toEqual([{ METRICA1: '55.00' }]);
      expect(await quantitiesBy('A-SUBSOIL')).toEqual([['55.00', ALICE]]);
      // The same request each time: the server answered the third with what the second stored.
      expect(puts).toHaveLength(3);
      expect(new Set(puts.map((put) => put.requestId)).size).toBe(1);
      await later(() => row(page, SUBSOIL).textContent()).toContain(`Quantidade55.00${L.chipSaved}`);
      expect(await region(page).getByRole('listitem').count()).toBe(0);
    },
    LONG,
  );
});

describe('a 200 that is not the handler’s answer, to a save sent online', () => {
  it(
    'keeps the modal’s save on the device under its request id instead of taking the page as its answer: stored once',
    async () => {
      const { page, puts } = await opened(ALICE);
      let answered = 0;
      await page.route(
        (url) => url.pathname === '/associationtask',
        async (route: Route) => {
          if (route.request().method() !== 'PUT') return route.fallback();
          answered++;
          // The session ended: the host redirected the save to its sign-in page.
          if (answered === 1)
            return route.fulfill({
              status: 200,
              contentType: 'text/html',
              body: '<!doctype html><title>Sign in</title><form></form>',
            });
          return route.fallback();
        },
      );
      await recordSaid(page);
      await enter(page, SUBSOIL, { Quantidade: '56' });
      await later(() => said(page)).toContain(fill(L.queued, { label: SUBSOIL }));
      // The outbox sends it again under the same request id: stored, once.
      await later(() => liveRows('A-SUBSOIL')).toEqual([{ METRICA1: '56.00' }]);
      await later(() => waiting(page, 1)).toBe(0);
      expect(await quantitiesBy('A-SUBSOIL')).toEqual([['56.00', ALICE]]);
      expect(puts).toHaveLength(2);
      expect(new Set(puts.map((put) => put.requestId)).size).toBe(1);
      await later(() => row(page, SUBSOIL).textContent()).toContain(`Quantidade56.00${L.chipSaved}`);
    },
    LONG,
  );
});

describe('a remove the server finds already done', () => {
  it(
    'takes it out as done, in the modal’s words, sends the rest of its batch again, and shows the defaults',
    async () => {
      await saveByCodes(served, SEEDER, 'A-SUBSOIL', 'G-SOIL', { METRICA1: '31.00' });
      const { context, page, puts } = await opened(ALICE);
      await later(() => row(page, SUBSOIL).textContent()).toContain(`Quantidade31.00${L.chipSaved}`);
      await context.setOffline(true);
      await remove(page, SUBSOIL);
      await enter(page, DISC, { Quantidade: '5' });
      await later(() => waiting(page, 2)).toBe(1);
      // Someone else removes the entry meanwhile.
      const demo = served.demo();
      await saveAsProgram(demo, served.origin(), SEEDER, [
        {
          activity: await seqOfCode(demo, demo.names.OPER, 'A-SUBSOIL'),
          group: await seqOfCode(demo, demo.names.OPER_GRUPO, 'G-SOIL'),
          remove: true,
          base: { METRICA1: '31.00' },
        },
      ]);

      await recordSaid(page);
      await context.setOffline(false);
      await later(() => liveRows('A-DISC')).toEqual([{ METRICA1: '5.00' }]);
      await later(() => waiting(page, 1)).toBe(0);
      await later(() => said(page)).toContain(`${SUBSOIL}: ${L.entryGone}`);
      // Nothing stopped: no entry waits for the person to discard it.
      expect(await region(page).getByRole('listitem').count()).toBe(0);
      expect(await liveRows('A-SUBSOIL')).toEqual([]);
      // The defaults, as read from the server after a removal.
      await later(() => row(page, SUBSOIL).textContent()).not.toContain('31.00');
      expect(await row(page, SUBSOIL).textContent()).toContain(L.chipDefault);
      expect(await row(page, SUBSOIL).textContent()).not.toContain(L.pendingChip);
      // The batch was refused whole: the rest went again as a new request.
      expect(puts.map((put) => put.entries.length)).toEqual([2, 1]);
      expect(puts[1]?.requestId).not.toBe(puts[0]?.requestId);
    },
    LONG,
  );
});

describe('a batch whose answer was lost, behind entries claimed since', () => {
  it(
    'goes again whole under its id before them: applied once, never met as a conflict of the person’s own',
    async () => {
      const { context, page, puts } = await opened(ALICE);
      // Bruno signs in on the same browser while Alice's screen stays open; what is typed offline
      // then waits for whoever is signed in to claim it.
      await signIn(context, served.origin(), BRUNO);
      await context.setOffline(true);
      await enter(page, SUBSOIL, { Quantidade: '77' });
      await later(() => waiting(page, 1)).toBe(1);
      await context.setOffline(false);
      await region(page).getByText(L.ownerChanged).waitFor();
      await region(page)
        .getByText(fill(L.unconfirmedCount, { count: 1 }))
        .waitFor();
      await sendingOver(page);

      // Bruno's own entry, typed offline after it (a later place in the order entered).
      await context.setOffline(true);
      await enter(page, DISC, { Quantidade: '5' });
      await later(() => waiting(page, 1)).toBe(1);
      // Its batch reaches the server and is stored; someone else then changes the value; the answer
      // is lost, and so is every sending after it until the claim is made.
      let sent = 0;
      let holding = true;
      await page.route(
        (url) => url.pathname === '/associationtask',
        async (route: Route) => {
          if (route.request().method() !== 'PUT') return route.fallback();
          if (++sent === 1) {
            await route.fetch();
            await saveByCodes(served, SEEDER, 'A-DISC', 'G-SOIL', { METRICA1: '6.00' }, { METRICA1: '5.00' });
            return route.abort('connectionreset');
          }
          if (holding) return route.abort('connectionreset');
          return route.fallback();
        },
      );
      await context.setOffline(false);
      await later(() => quantitiesBy('A-DISC')).toEqual([
        ['5.00', BRUNO],
        ['6.00', SEEDER],
      ]);
      const lost = puts[0]?.requestId;

      // Bruno says the entry typed before his is his: it comes first in the order entered.
      await region(page).getByRole('button', { name: L.claim, exact: true }).click();
      await later(() => sent).toBeGreaterThanOrEqual(2);
      holding = false;
      await later(() => liveRows('A-SUBSOIL')).toEqual([{ METRICA1: '77.00' }]);
      await later(() => waiting(page, 1)).toBe(0);
      // The batch went again as it was: the server answered it with what it stored then.
      const disc = await seqOfCode(served.demo(), served.demo().names.OPER, 'A-DISC');
      for (const put of puts.filter((body) => body.entries.some((entry) => entry.activity === disc)))
        expect({ id: put.requestId, entries: put.entries.length }).toEqual({ id: lost, entries: 1 });
      expect(await quantitiesBy('A-DISC')).toEqual([
        ['5.00', BRUNO],
        ['6.00', SEEDER],
      ]);
      expect(await liveRows('A-DISC')).toEqual([{ METRICA1: '6.00' }]);
      // Nothing stopped for a decision: the person's own stored save is no conflict.
      expect(await region(page).getByRole('listitem').count()).toBe(0);
      expect(await quantitiesBy('A-SUBSOIL')).toEqual([['77.00', BRUNO]]);
    },
    LONG,
  );
});

/** A host whose session ended: its own refusal, not the handler's (`context` threw it). */
const SESSION_ENDED = {
  status: 403,
  contentType: 'application/json',
  body: JSON.stringify({
    error: { code: 'SESSION_EXPIRED', message: 'Your session has ended: sign in again.' },
  }),
};

describe('a session that ended, or a page not the handler’s, refusing a batch', () => {
  it(
    'keeps the entry waiting, never refused, and sends it once the person signed in again: stored once',
    async () => {
      const { context, page } = await opened(ALICE);
      await context.setOffline(true);
      await enter(page, SUBSOIL, { Quantidade: '55' });
      await later(() => waiting(page, 1)).toBe(1);
      // Her session ends between the outbox asking who is signed in and its PUT (403), then a
      // node being deployed answers with a page of its own (404): neither is the handler's refusal.
      let answered = 0;
      let ended = true;
      await page.route(
        (url) => url.pathname === '/associationtask',
        async (route: Route) => {
          if (route.request().method() !== 'PUT' || !ended) return route.fallback();
          answered++;
          if (answered === 1) return route.fulfill(SESSION_ENDED);
          return route.fulfill({ status: 404, contentType: 'text/html', body: '<h1>Not Found</h1>' });
        },
      );
      await context.setOffline(false);
      await later(() => answered).toBeGreaterThanOrEqual(2);
      await sendingOver(page);
      expect(await waiting(page, 1)).toBe(1);
      expect(await region(page).getByText(L.stoppedCountOne).count()).toBe(0);

      // She signs in again and opens the sheet again: what she entered is sent, once.
      ended = false;
      await page.reload();
      await page.getByRole('tree').waitFor();
      await later(() => liveRows('A-SUBSOIL')).toEqual([{ METRICA1: '55.00' }]);
      await later(() => waiting(page, 1)).toBe(0);
      expect(await quantitiesBy('A-SUBSOIL')).toEqual([['55.00', ALICE]]);
    },
    LONG,
  );

  it(
    'says on the waiting entry what its last try got from a firewall’s page, across a reload, until it is stored',
    async () => {
      const { context, page, puts } = await opened(ALICE);
      await context.setOffline(true);
      await enter(page, SUBSOIL, { Quantidade: '58' });
      await later(() => waiting(page, 1)).toBe(1);
      // The session is alive (the outbox's question of who is signed in is answered), but a
      // firewall before the server refuses the save with a page of its own.
      let blocked = 0;
      let holding = false;
      await page.route(
        (url) => url.pathname === '/associationtask',
        async (route: Route) => {
          if (route.request().method() !== 'PUT' || holding) return route.fallback();
          blocked++;
          return route.fulfill({ status: 400, contentType: 'text/html', body: '<h1>Request blocked</h1>' });
        },
      );
      // Once `holding`, the tries are held on their way instead, then let by the route above.
      const { release } = await holdRequests(page, (url) => url.pathname === '/associationtask', {
        which: (request) => request.method() === 'PUT' && holding,
        pass: 'fallback',
      });
      await context.setOffline(false);
      await later(() => blocked).toBeGreaterThanOrEqual(1);
      await sendingOver(page);
      const list = region(page);
      await list.getByRole('button', { name: L.pendingList, exact: true }).click();
      const item = list.getByRole('listitem').filter({ hasText: SUBSOIL });
      const lastTry = fill(L.lastTry, { status: 400, reason: 'Bad Request' });
      await later(() => item.getByText(lastTry, { exact: true }).count()).toBe(1);
      expect(await item.getByText(L.entryWaiting, { exact: true }).count()).toBe(1);
      expect(await list.getByText(L.stoppedCountOne).count()).toBe(0);

      // Opened again, its next try under way: what the last one got is still said with the entry.
      holding = true;
      await page.reload();
      await page.getByRole('tree').waitFor();
      await later(() => waiting(page, 1)).toBe(1);
      await region(page).getByRole('button', { name: L.pendingList, exact: true }).click();
      await later(() => item.getByText(lastTry, { exact: true }).count()).toBe(1);

      // The firewall lets it through: stored once, and nothing is left to say of it.
      release();
      await later(() => liveRows('A-SUBSOIL')).toEqual([{ METRICA1: '58.00' }]);
      await later(() => waiting(page, 1)).toBe(0);
      expect(await region(page).getByRole('listitem').count()).toBe(0);
      expect(await quantitiesBy('A-SUBSOIL')).toEqual([['58.00', ALICE]]);
      expect(new Set(puts.map((put) => put.requestId)).size).toBe(1);
    },
    LONG,
  );

  it(
    'stops an entry the handler refuses as from another site (a host set up wrong), saying so, never tried again',
    async () => {
      const { context, page, puts } = await opened(ALICE);
      await context.setOffline(true);
      await enter(page, SUBSOIL, { Quantidade: '59' });
      await later(() => waiting(page, 1)).toBe(1);
      // A proxy before the server rewrites the origin it sees: the handler refuses every save as
      // from another site, whoever sends it, however often.
      await page.route(
        (url) => url.pathname === '/associationtask',
        (route: Route) =>
          route.request().method() === 'PUT'
            ? route.fulfill({
                status: 403,
                contentType: 'application/json',
                body: JSON.stringify({
                  error: {
                    code: 'CROSS_SITE_REQUEST',
                    message: 'metrics are saved only from pages of this site (Origin: http://elsewhere.test)',
                    path: 'origin',
                  },
                }),
              })
            : route.fallback(),
      );
      await context.setOffline(false);
      await later(() => region(page).getByText(L.stoppedCountOne).count()).toBe(1);
      await sendingOver(page);
      expect(await waiting(page, 1)).toBe(0);
      await region(page).getByRole('button', { name: L.pendingList, exact: true }).click();
      const item = region(page).getByRole('listitem').filter({ hasText: SUBSOIL });
      await item.getByText(L.crossSite, { exact: true }).waitFor();
      // Kept with its value until the person discards it.
      expect(await item.textContent()).toContain('Quantidade: 59');
      // Not tried again, even when the page sends what waits (as when the network comes back):
      // nothing a later try would change.
      expect(puts).toHaveLength(1);
      await page.evaluate(() => window.dispatchEvent(new Event('online')));
      await sendingOver(page);
      expect(puts).toHaveLength(1);
      expect(await liveRows('A-SUBSOIL')).toEqual([]);
    },
    LONG,
  );

  it(
    'keeps what was typed in the modal and the table when their save meets an ended session, saying the sign-in ended',
    async () => {
      const { page } = await opened(ALICE);
      await page.route(
        (url) => url.pathname === '/associationtask',
        (route: Route) =>
          route.request().method() === 'PUT' ? route.fulfill(SESSION_ENDED) : route.fallback(),
      );
      await row(page, SUBSOIL).click();
      const dialog = page.getByRole('dialog', { name: SUBSOIL });
      const quantidade = dialog.getByRole('textbox', { name: 'Quantidade', exact: true });
      await quantidade.fill('56');
      await dialog.getByRole('button', { name: L.save, exact: true }).click();
      await dialog
        .getByRole('alert')
        .getByText(fill(L.saveError, { message: L.signedOut }))
        .waitFor();
      expect(await quantidade.inputValue()).toBe('56');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });

      await page.getByRole('button', { name: 'Table', exact: true }).click();
      const cell = page
        .getByRole('grid')
        .getByRole('row')
        .filter({ has: page.getByRole('rowheader', { name: /^A-DISC/ }) })
        .getByRole('textbox', { name: 'Quantidade', exact: true });
      await cell.fill('57');
      await page.getByRole('button', { name: L.tableSave, exact: true }).click();
      await page
        .getByRole('alert')
        .getByText(fill(L.saveError, { message: L.signedOut }))
        .waitFor();
      expect(await cell.inputValue()).toBe('57');
      expect(await liveRows('A-SUBSOIL')).toEqual([]);
      expect(await liveRows('A-DISC')).toEqual([]);
    },
    LONG,
  );
});
