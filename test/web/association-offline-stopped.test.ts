import type { BrowserContext, Locator, Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEMO_TABLES } from '../../src/demo/demo-install.js';
import { LABELS_EN, LABELS_PT_BR } from '../../web/association-screen.js';
import {
  description,
  holdRequests,
  launchOnProfile,
  openPage,
  recordSaid,
  saidSoFar,
  usePageChecks,
} from '../support/browser.js';
import { saveByCodes, signIn, useServedScreen, wipeEntries } from '../support/demo.js';

/**
 * The association screen's outbox (#28) once an entry stops there (someone else changed what it was
 * entered from, the server refused it), in Debian's Chromium on a profile on disk, the network
 * switched off and on with the browser's own switch, as a field crew's phone loses and finds signal:
 *
 * - the line above the tree counts entries stopped for a decision apart from those waiting to be
 *   sent, and says where to decide them (never "1 entry waits to be sent." for an entry that waits
 *   for the person, not the network); the sending's end says what stopped, whichever sender (this
 *   page, another tab) had it; the tree's row and the activity's modal say so too;
 * - the list of waiting entries is hidden until asked for, and hidden again with its button (the
 *   `hidden` attribute wins over the classes' display): up to 500 items no longer push the tree down.
 */

const METRICS = DEMO_TABLES.metrics;
const ALICE = 7;
const SEEDER = 9;
/** Each test opens a browser on a profile of its own and waits on the network switch. */
const LONG = 90_000;

const served = useServedScreen(SEEDER);
const pages = usePageChecks();

const USED = ['A-SUBSOIL', 'A-DISC'];

beforeEach(async () => {
  await wipeEntries(served.demo(), USED);
});

async function seed(values: Record<string, string | number | null>, base = {}, activity = 'A-SUBSOIL') {
  await saveByCodes(served, SEEDER, activity, 'G-SOIL', values, base);
}

async function liveRows(code: string) {
  return served.demo().scratch.db.query<{ METRICA1: string | null; METRICA2: number | null }>(
    `SELECT m.METRICA1, m.METRICA2 FROM ${METRICS} m JOIN ${served.demo().names.OPER} o ON o.SEQ_DB = m.OPER_SEQ_DB
      WHERE o.CODIGO = ? AND m.FOLHA_TAREFA_SEQ_DB = ? AND m.DELETED = 0`,
    [code, served.demo().sample.taskSheet],
  );
}

const SOIL = ['S-NORTH — North field', 'G-SOIL — Soil preparation'];
const SUBSOIL = 'A-SUBSOIL — Subsoiling';
const DISC = 'A-DISC — Disc ploughing';

const said = saidSoFar;

/** The elements of the screen with the `hidden` attribute that are laid out all the same. */
const hiddenButShown = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('.ta-screen [hidden]')]
      .filter((element) => getComputedStyle(element).display !== 'none')
      .map((element) => element.className),
  );

describe.each([
  { lang: 'en' as const, device: 'desktop' as const },
  { lang: 'pt-BR' as const, device: 'phone' as const },
])('the outbox of the association screen, an entry stopped ($lang, $device)', ({ lang, device }) => {
  const L = lang === 'en' ? LABELS_EN : LABELS_PT_BR;
  const fill = (template: string, params: Record<string, string | number>) =>
    template.replace(/\{(\w+)\}/g, (whole, name: string) => String(params[name] ?? whole));
  const num = (text: string) => (lang === 'pt-BR' ? text.replace('.', ',') : text);

  /** `worker`: whether the service worker may run (and send the outbox with Background Sync). */
  async function browserOn(dir: string, user: number, worker = true) {
    const context = await launchOnProfile(dir, {
      serviceWorkers: worker ? 'allow' : 'block',
      locale: lang,
      timezoneId: 'America/Sao_Paulo',
      reducedMotion: 'reduce',
      ...(device === 'phone'
        ? { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true }
        : { viewport: { width: 1280, height: 800 } }),
    });
    pages.track(context);
    await signIn(context, served.origin(), user);
    const page = context.pages()[0] ?? (await openPage(context));
    return { context, page };
  }

  /** The sheet opened online, its Soil preparation branch open, what it says recorded. */
  async function openSheet(context: BrowserContext, page?: Page) {
    const opened = page ?? (await openPage(context));
    await opened.goto(served.sheetUrl());
    await opened.getByRole('tree').waitFor();
    for (const branch of SOIL) await expand(opened, branch);
    await recordSaid(opened);
    return opened;
  }

  async function expand(page: Page, name: string) {
    const item = page.getByRole('treeitem', { name }).first();
    if ((await item.getAttribute('aria-expanded')) === 'true') return;
    await item.locator(':scope > .ta-screen__row').click();
    await item.getByRole('group').first().waitFor();
  }

  async function openActivity(page: Page, name: string) {
    await page.getByRole('treeitem', { name }).first().locator(':scope > .ta-screen__row').click();
    const dialog = page.getByRole('dialog', { name });
    await dialog.waitFor();
    return dialog;
  }

  const field = (dialog: Locator, name: string) => dialog.getByRole('textbox', { name, exact: true });
  const region = (page: Page) => page.getByRole('region', { name: L.offlineRegion });
  /** The line above the tree that counts the entries. */
  const countLine = (page: Page) => region(page).locator('.ta-screen__outbox-count');
  const toggle = (page: Page) => region(page).locator('.ta-screen__outbox > .ta-screen__button');
  const list = (page: Page) => region(page).locator('.ta-screen__outbox-list');
  const rowText = (page: Page, name: string) =>
    page.getByRole('treeitem', { name }).first().locator(':scope > .ta-screen__row').textContent();

  async function enter(page: Page, activity: string, values: Record<string, string>) {
    const dialog = await openActivity(page, activity);
    for (const [name, value] of Object.entries(values)) await field(dialog, name).fill(value);
    await dialog.getByRole('button', { name: L.save, exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
  }

  it(
    'counts an entry stopped by a conflict apart from those waiting, says it when the sending ends, marks its activity, and keeps the list hidden until asked for',
    async () => {
      await seed({ METRICA1: '20.00' });
      // The page alone sends (no Background Sync): what its sending's end says is known.
      const alice = await browserOn(await pages.profile('ta-stopped-'), ALICE, false);
      const page = await openSheet(alice.context, alice.page);
      // Nothing waits: the outbox's line and its list take no room.
      expect(await hiddenButShown(page)).toEqual([]);

      await alice.context.setOffline(true);
      await enter(page, SUBSOIL, { Quantidade: '32' });
      await enter(page, DISC, { Pessoas: '4' });
      await expect.poll(() => countLine(page).textContent()).toBe(fill(L.pendingCount, { count: 2 }));
      // The list is hidden until asked for, and its button says so: nothing laid out, however long.
      expect(await toggle(page).textContent()).toBe(L.pendingList);
      expect(await toggle(page).getAttribute('aria-expanded')).toBe('false');
      expect(await list(page).isVisible()).toBe(false);
      expect(await hiddenButShown(page)).toEqual([]);
      await toggle(page).click();
      expect(await toggle(page).getAttribute('aria-expanded')).toBe('true');
      await expect.poll(() => region(page).getByRole('listitem').count()).toBe(2);
      await region(page).getByRole('button', { name: L.pendingHide }).click();
      expect(await toggle(page).getAttribute('aria-expanded')).toBe('false');
      expect(await list(page).isVisible()).toBe(false);
      expect(await region(page).getByRole('listitem').count()).toBe(0);

      // Meanwhile someone changes what the first entry started from.
      await seed({ METRICA1: '31' }, { METRICA1: '20.00' });
      await alice.context.setOffline(false);
      await expect.poll(async () => await liveRows('A-DISC')).toMatchObject([{ METRICA2: 4 }]);
      // The line says what stopped and where it is decided, and nothing waits for the network.
      await expect.poll(() => countLine(page).textContent()).toBe(L.stoppedCountOne);
      await expect.poll(() => said(page)).toContain(`${L.sentOne} ${L.notSentOne}`);
      expect(await liveRows('A-SUBSOIL')).toMatchObject([{ METRICA1: '31.00' }]);
      // The activity's row says it too; the one sent does not.
      await expect.poll(() => rowText(page, SUBSOIL)).toContain(L.stoppedChip);
      expect(await rowText(page, DISC)).not.toContain(L.stoppedChip);
      // The list stays as the person left it (hidden): its button is beside the line.
      expect(await list(page).isVisible()).toBe(false);
      expect(await hiddenButShown(page)).toEqual([]);

      // Opened from the tree, the activity says its entry waits for a decision.
      const fromTree = await openActivity(page, SUBSOIL);
      expect(await fromTree.getByText(L.stoppedNotice).isVisible()).toBe(true);
      await fromTree.getByRole('button', { name: L.cancel, exact: true }).click();
      await fromTree.waitFor({ state: 'hidden' });

      // Decided in the list: the conflict view does not say it again, and once saved nothing is left.
      await toggle(page).click();
      const decide = region(page).getByRole('button', { name: fill(L.decideFor, { label: SUBSOIL }) });
      await decide.click();
      const dialog = page.getByRole('dialog', { name: SUBSOIL });
      await dialog.waitFor();
      expect(await dialog.getByText(L.stoppedNotice).isVisible()).toBe(false);
      expect(await field(dialog, 'Quantidade').inputValue()).toBe(num('32'));
      // The person's 32 is not said to be saved: 31 is.
      expect(await description(field(dialog, 'Quantidade'))).toContain(L.sourceEdited);
      expect(await description(field(dialog, 'Quantidade'))).not.toContain(L.sourceSaved);
      await dialog.getByRole('button', { name: fill(L.keepMineFor, { field: 'Quantidade' }) }).click();
      await dialog.getByRole('button', { name: L.save, exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });
      await expect.poll(async () => await liveRows('A-SUBSOIL')).toMatchObject([{ METRICA1: '32.00' }]);
      await expect.poll(() => countLine(page).textContent()).toBe('');
      await expect.poll(() => rowText(page, SUBSOIL)).not.toContain(L.stoppedChip);
      expect(await region(page).getByRole('listitem').count()).toBe(0);
      expect(await hiddenButShown(page)).toEqual([]);
    },
    LONG,
  );

  it(
    'does not stop an entry a node being deployed answers with its own 404: it waits, saying what its last try got',
    async () => {
      const alice = await browserOn(await pages.profile('ta-stopped-'), ALICE, false);
      const page = await openSheet(alice.context, alice.page);
      await alice.context.setOffline(true);
      await enter(page, SUBSOIL, { Quantidade: '33' });
      await expect.poll(() => countLine(page).textContent()).toBe(L.pendingCountOne);
      let deploying = true;
      let answered = 0;
      await page.route(
        (url) => url.pathname === '/associationtask',
        (route) => {
          if (route.request().method() !== 'PUT' || !deploying) return route.fallback();
          answered++;
          return route.fulfill({ status: 404, contentType: 'text/html', body: '<h1>Not Found</h1>' });
        },
      );
      await alice.context.setOffline(false);
      await expect.poll(() => answered).toBeGreaterThanOrEqual(1);
      await toggle(page).click();
      const item = region(page).getByRole('listitem').filter({ hasText: SUBSOIL });
      await item.getByText(fill(L.lastTry, { status: 404, reason: 'Not Found' }), { exact: true }).waitFor();
      expect(await item.getByText(L.entryWaiting, { exact: true }).count()).toBe(1);
      expect(await countLine(page).textContent()).toBe(L.pendingCountOne);
      expect(await hiddenButShown(page)).toEqual([]);

      // The node is up: the entry is stored and leaves the list.
      deploying = false;
      await expect.poll(async () => await liveRows('A-SUBSOIL')).toMatchObject([{ METRICA1: '33.00' }]);
      await expect.poll(() => countLine(page).textContent()).toBe('');
      expect(await region(page).getByRole('listitem').count()).toBe(0);
    },
    LONG,
  );

  it(
    'says the only entry stopped needs a decision, never that it waits to be sent, in every tab whoever sent it',
    async () => {
      await seed({ METRICA1: '20.00' });
      const alice = await browserOn(await pages.profile('ta-stopped-'), ALICE);
      const first = await openSheet(alice.context, alice.page);
      const second = await openSheet(alice.context);
      await alice.context.setOffline(true);
      await enter(first, SUBSOIL, { Quantidade: '32' });
      for (const page of [first, second])
        await expect.poll(() => countLine(page).textContent()).toBe(L.pendingCountOne);
      await seed({ METRICA1: '31' }, { METRICA1: '20.00' });
      await alice.context.setOffline(false);
      // One of the two tabs (or the service worker) sends it; both say it stopped, neither that it
      // was sent, and neither goes on counting it as waiting to be sent.
      for (const page of [first, second]) {
        await expect.poll(() => countLine(page).textContent()).toBe(L.stoppedCountOne);
        await expect.poll(() => said(page)).toContain(L.notSentOne);
        expect((await said(page)).join(' ')).not.toContain(L.sentOne);
        await expect.poll(() => rowText(page, SUBSOIL)).toContain(L.stoppedChip);
      }
      expect(await liveRows('A-SUBSOIL')).toMatchObject([{ METRICA1: '31.00' }]);
    },
    LONG,
  );
});

describe('an entry discarded on its way, then refused for a conflict', () => {
  it(
    'is not said to need a decision by the page that sent it',
    async () => {
      const L = LABELS_EN;
      const fill = (template: string, params: Record<string, string | number>) =>
        template.replace(/\{(\w+)\}/g, (whole, name: string) => String(params[name] ?? whole));
      await seed({ METRICA1: '20.00' });
      const context = pages.track(
        await launchOnProfile(await pages.profile('ta-offline-stopped-'), {
          serviceWorkers: 'block',
          locale: 'en',
          viewport: { width: 1280, height: 800 },
        }),
      );
      await signIn(context, served.origin(), ALICE);
      const page = await openPage(context);
      await page.goto(served.sheetUrl());
      await page.getByRole('tree').waitFor();
      for (const name of SOIL) {
        const item = page.getByRole('treeitem', { name }).first();
        if ((await item.getAttribute('aria-expanded')) !== 'true')
          await item.locator(':scope > .ta-screen__row').click();
        await item.getByRole('group').first().waitFor();
      }
      await recordSaid(page);
      // The page's PUT is held on its way until the test lets it go.
      const { arrived: sending, release } = await holdRequests(
        page,
        (url) => url.pathname === '/associationtask',
        { which: (request) => request.method() === 'PUT', pass: 'fallback' },
      );
      const region = page.getByRole('region', { name: L.offlineRegion });
      const row = page.getByRole('treeitem', { name: SUBSOIL }).first().locator(':scope > .ta-screen__row');
      await context.setOffline(true);
      await row.click();
      const dialog = page.getByRole('dialog', { name: SUBSOIL });
      await dialog.getByRole('textbox', { name: 'Quantidade', exact: true }).fill('32');
      await dialog.getByRole('button', { name: L.save, exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });
      // Someone else changes Quantidade meanwhile: the batch will be refused for a conflict.
      await seed({ METRICA1: '31' }, { METRICA1: '20.00' });
      await context.setOffline(false);
      await sending;
      // The person discards the entry while it is on its way.
      await region.getByRole('button', { name: L.pendingList }).click();
      await region.getByRole('button', { name: fill(L.discardFor, { label: SUBSOIL }) }).click();
      await region.getByRole('button', { name: L.discardYes }).click();
      await expect.poll(() => region.getByRole('listitem').count()).toBe(0);
      release();
      await expect
        .poll(async () => (await said(page)).join(' | '))
        .toContain(fill(L.discarded, { label: SUBSOIL }));
      expect(await row.textContent()).not.toContain(L.stoppedChip);
      expect((await said(page)).join(' | ')).not.toContain(L.notSentOne);
      expect(await liveRows('A-SUBSOIL')).toMatchObject([{ METRICA1: '31.00' }]);
    },
    LONG,
  );
});

describe('the open form of an activity whose stopped entry another tab decides', () => {
  it(
    'stops saying its entry waits for a decision once the entry is gone',
    async () => {
      const L = LABELS_EN;
      const fill = (template: string, params: Record<string, string | number>) =>
        template.replace(/\{(\w+)\}/g, (whole, name: string) => String(params[name] ?? whole));
      await seed({ METRICA1: '20.00' });
      const context = pages.track(
        await launchOnProfile(await pages.profile('ta-offline-stopped-'), {
          serviceWorkers: 'block',
          locale: 'en',
          viewport: { width: 1280, height: 800 },
        }),
      );
      await signIn(context, served.origin(), ALICE);
      const tab = async () => {
        const page = await openPage(context);
        await page.goto(served.sheetUrl());
        await page.getByRole('tree').waitFor();
        for (const name of SOIL) {
          const item = page.getByRole('treeitem', { name }).first();
          if ((await item.getAttribute('aria-expanded')) !== 'true')
            await item.locator(':scope > .ta-screen__row').click();
          await item.getByRole('group').first().waitFor();
        }
        return page;
      };
      const first = await tab();
      const second = await tab();
      const row = (page: Page) =>
        page.getByRole('treeitem', { name: SUBSOIL }).first().locator(':scope > .ta-screen__row');
      const count = (page: Page) =>
        page.getByRole('region', { name: L.offlineRegion }).locator('.ta-screen__outbox-count');
      await context.setOffline(true);
      await row(first).click();
      const entering = first.getByRole('dialog', { name: SUBSOIL });
      await entering.getByRole('textbox', { name: 'Quantidade', exact: true }).fill('32');
      await entering.getByRole('button', { name: L.save, exact: true }).click();
      await entering.waitFor({ state: 'hidden' });
      // Someone else changes Quantidade meanwhile: the entry stops when the signal is back.
      await seed({ METRICA1: '31' }, { METRICA1: '20.00' });
      await context.setOffline(false);
      for (const page of [first, second])
        await expect.poll(() => count(page).textContent()).toBe(L.stoppedCountOne);
      // The second tab opens the activity: its form says the entry waits for a decision.
      await expect.poll(() => row(second).textContent()).toContain(L.stoppedChip);
      await row(second).click();
      const dialog = second.getByRole('dialog', { name: SUBSOIL });
      await dialog.waitFor();
      expect(await dialog.getByText(L.stoppedNotice).isVisible()).toBe(true);
      // The first tab discards it: the second's open form no longer says so.
      const region = first.getByRole('region', { name: L.offlineRegion });
      await region.getByRole('button', { name: L.pendingList }).click();
      await region.getByRole('button', { name: fill(L.discardFor, { label: SUBSOIL }) }).click();
      await region.getByRole('button', { name: L.discardYes }).click();
      await expect.poll(() => count(second).textContent()).toBe('');
      await expect.poll(() => dialog.getByText(L.stoppedNotice).isVisible()).toBe(false);
    },
    LONG,
  );
});
