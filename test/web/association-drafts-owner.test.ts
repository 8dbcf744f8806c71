import type { Locator, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { LABELS_EN } from '../../web/association-screen.js';
import {
  description,
  draftsOnDevice,
  holdDraftWrites,
  keptOnDevice,
  launchOnProfile,
  openPage,
  openTable,
  showTable,
  usePageChecks,
} from '../support/browser.js';
import { liveMetrics, saveByCodes, signIn, useBareActivity, useServedScreen } from '../support/demo.js';

/*
 * Whose a draft is, and drafts beside the outbox: a draft typed on a page opened offline is the
 * same person's once the page opens online; what one person typed is never filed as, nor shown to,
 * someone who signed in on the same browser meanwhile; deciding a stopped outbox entry leaves the
 * activity's draft alone. On the demo (Subsoiling: Quantidade 0.80 and Horas 8.0 by default), in
 * English on a desktop.
 */

const ALICE = 7;
const BRUNO = 8;
const SEEDER = 9;
const served = useServedScreen(SEEDER);
const subsoil = useBareActivity(served, 'A-SUBSOIL', 'G-SOIL');
const pages = usePageChecks();
const L = LABELS_EN;
const SOIL = ['S-NORTH — North field', 'G-SOIL — Soil preparation'];
const SUBSOIL = 'A-SUBSOIL — Subsoiling';

/** A browser of its own (a profile: the service worker keeps the page for offline), `user` signed in. */
async function browserOn(user: number) {
  const context = pages.track(
    await launchOnProfile(await pages.profile('ta-drafts-owner-'), {
      locale: 'en',
      viewport: { width: 1280, height: 800 },
    }),
  );
  await signIn(context, served.origin(), user);
  const page = context.pages()[0] ?? (await openPage(context));
  return { context, page };
}

/** Online, the first visit: the service worker controls the page and keeps its files. */
async function firstVisit(page: Page) {
  await page.goto(served.sheetUrl());
  await page.getByRole('tree').waitFor();
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    for (let i = 0; i < 300; i++) {
      const release = (await caches.keys()).find((name) => name.startsWith('task-association-assets-'));
      const kept = release ? (await (await caches.open(release)).keys()).length : 0;
      const pagesKept = (await (await caches.open('task-association-files-v1')).keys()).length;
      if (kept > 20 && pagesKept > 0 && navigator.serviceWorker.controller) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('no service worker');
  });
}

async function openSoil(page: Page) {
  await page.getByRole('tree').waitFor();
  for (const name of SOIL) {
    const item = page.getByRole('treeitem', { name }).first();
    if ((await item.getAttribute('aria-expanded')) !== 'true')
      await item.locator(':scope > .ta-screen__row').click();
    await item.getByRole('group').first().waitFor();
  }
}

const row = (page: Page) =>
  page.getByRole('treeitem', { name: SUBSOIL }).first().locator(':scope > .ta-screen__row');
const region = (page: Page) => page.getByRole('region', { name: L.offlineRegion });
const field = (dialog: Locator, name: string) => dialog.getByRole('textbox', { name, exact: true });

async function openActivity(page: Page) {
  await row(page).click();
  const dialog = page.getByRole('dialog', { name: SUBSOIL });
  await dialog.waitFor();
  return dialog;
}

async function typeInto(page: Page, input: Locator, text: string) {
  await input.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type(text);
}

/** Bruno signs in on the same browser (another tab); Alice's page, shown again, asks who is signed in. */
async function brunoSignsIn(page: Page) {
  await signIn(page.context(), served.origin(), BRUNO);
  await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
  await expect.poll(() => page.getByText(L.ownerChanged).count()).toBeGreaterThan(0);
}

/** A-SUBSOIL's `metric` in the table. */
const subsoilCell = (page: Page, metric: string) =>
  page
    .getByRole('grid')
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: /^A-SUBSOIL/ }) })
    .getByRole('textbox', { name: metric, exact: true });
/** A-SUBSOIL's Quantidade in the table. */
const subsoilQuantity = (page: Page) => subsoilCell(page, 'Quantidade');
it('shows a draft typed on a page opened offline once the page opens online for the same person, no longer marked unconfirmed', async () => {
  const { context, page } = await browserOn(ALICE);
  await firstVisit(page);
  // Its branches read online: the browser keeps them.
  await openSoil(page);
  // The signal goes; the page is opened again from what the device keeps (its owner unconfirmed).
  await context.setOffline(true);
  await page.reload();
  await openSoil(page);
  const dialog = await openActivity(page);
  await typeInto(page, field(dialog, 'Quantidade'), '55');
  await keptOnDevice(page);
  await page.keyboard.press('Escape');
  expect(await draftsOnDevice(page)).toMatchObject([{ unconfirmed: true, texts: { METRICA1: '55' } }]);

  // The signal is back; Alice, still signed in, opens the sheet: her draft, in the tree and the modal.
  await context.setOffline(false);
  await page.reload();
  await openSoil(page);
  await expect.poll(() => row(page).textContent()).toContain(L.draftChip);
  const again = await openActivity(page);
  expect(await field(again, 'Quantidade').inputValue()).toBe('55');
  await again.getByText(/^Not saved yet: typed on this device on /).waitFor();
  // Hers now: no longer marked as typed where the page could not tell who was signed in.
  await expect
    .poll(async () => (await draftsOnDevice(page)).map((draft) => draft.unconfirmed))
    .toEqual([undefined]);
});

it('keeps Alice’s draft typed online when she types in the same activity on a page opened offline, the two joined once online', async () => {
  const { context, page } = await browserOn(ALICE);
  await firstVisit(page);
  await openSoil(page);
  // Online: Alice types Quantidade 55 and leaves it as a draft.
  let dialog = await openActivity(page);
  await typeInto(page, field(dialog, 'Quantidade'), '55');
  await keptOnDevice(page);
  await page.keyboard.press('Escape');

  // No signal: the page opens from the device (who is signed in unconfirmed) and does not show her
  // draft; she types Horas 9 there and leaves it too.
  await context.setOffline(true);
  await page.reload();
  await openSoil(page);
  dialog = await openActivity(page);
  expect(await field(dialog, 'Quantidade').inputValue()).toBe('0.80');
  await typeInto(page, field(dialog, 'Horas'), '9');
  await keptOnDevice(page);
  await page.keyboard.press('Escape');

  // Online again: both, in one draft of hers.
  await context.setOffline(false);
  await page.reload();
  await openSoil(page);
  const again = await openActivity(page);
  expect(await field(again, 'Quantidade').inputValue()).toBe('55');
  expect(await field(again, 'Horas').inputValue()).toBe('9');
  await expect
    .poll(() => draftsOnDevice(page))
    .toEqual([{ owner: expect.any(String), texts: { METRICA1: '55', HORAS: '9' } }]);
});

it('keeps Alice’s later typing of a field when a form open on a page opened offline is joined into her draft once online', async () => {
  const { context, page } = await browserOn(ALICE);
  await firstVisit(page);
  await openSoil(page);
  // No signal: another window opens the sheet from the device (who is signed in unconfirmed), and
  // Alice types Horas 9 there, its form left open.
  await context.setOffline(true);
  const offline = await openPage(context);
  await offline.goto(served.sheetUrl());
  await openSoil(offline);
  const form = await openActivity(offline);
  await typeInto(offline, field(form, 'Horas'), '9');
  await keptOnDevice(offline);
  // Later, on the page opened online (hers, confirmed), she types Horas 7 and leaves it as a draft.
  const online = await openActivity(page);
  await typeInto(page, field(online, 'Horas'), '7');
  await keptOnDevice(page);
  await page.keyboard.press('Escape');

  // The signal is back; the offline window, shown again, learns she is signed in and joins its draft
  // into hers: her later 7 wins, and its open form shows it.
  await context.setOffline(false);
  await offline.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
  await expect.poll(() => field(form, 'Horas').inputValue()).toBe('7');
  // What she types there next is kept with her 7, not the 9 typed before it.
  await typeInto(offline, field(form, 'Quantidade'), '55');
  await keptOnDevice(offline);
  await expect
    .poll(async () => (await draftsOnDevice(page)).map((draft) => draft.texts))
    .toEqual([{ HORAS: '7', METRICA1: '55' }]);
});

it('keeps what Alice typed last on a page opened offline when it is joined into her older draft once online', async () => {
  const { context, page } = await browserOn(ALICE);
  await firstVisit(page);
  await openSoil(page);
  // No signal: another window opens the sheet from the device, its form open. On the page opened
  // online (hers, confirmed), she types Horas 7 first and leaves it as a draft.
  await context.setOffline(true);
  const offline = await openPage(context);
  await offline.goto(served.sheetUrl());
  await openSoil(offline);
  const form = await openActivity(offline);
  const online = await openActivity(page);
  await typeInto(page, field(online, 'Horas'), '7');
  await keptOnDevice(page);
  await page.keyboard.press('Escape');
  // Later, in the offline window, she types Horas 9, then Quantidade 55.
  await typeInto(offline, field(form, 'Horas'), '9');
  await keptOnDevice(offline);
  await typeInto(offline, field(form, 'Quantidade'), '55');
  await keptOnDevice(offline);

  // The signal is back; the offline window, shown again, joins its draft into hers: its later 9
  // wins over her older 7, in its form and on the device.
  await context.setOffline(false);
  await offline.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
  await expect
    .poll(async () => (await draftsOnDevice(page)).map((draft) => draft.texts))
    .toEqual([{ HORAS: '9', METRICA1: '55' }]);
  expect(await field(form, 'Horas').inputValue()).toBe('9');
  await typeInto(offline, field(form, 'Pessoas'), '4');
  await keptOnDevice(offline);
  await expect
    .poll(async () => (await draftsOnDevice(page)).map((draft) => draft.texts))
    .toEqual([{ HORAS: '9', METRICA1: '55', METRICA2: '4' }]);
});

it('closes the form Alice has open when Bruno signs in on the same browser: her typing stays hers, never shown to or kept as Bruno', async () => {
  const { context, page } = await browserOn(ALICE);
  await page.goto(served.sheetUrl());
  await openSoil(page);
  const dialog = await openActivity(page);
  await typeInto(page, field(dialog, 'Quantidade'), '55');
  await keptOnDevice(page);
  const [alices] = await draftsOnDevice(page);

  await brunoSignsIn(page);
  await dialog.waitFor({ state: 'hidden' });
  // The page hidden and left (a phone, a closed tab) files nothing as Bruno.
  await page.evaluate(() => {
    window.dispatchEvent(new PageTransitionEvent('pagehide'));
  });
  await page.close({ runBeforeUnload: true });
  const other = await openPage(context);
  await other.goto(served.sheetUrl());
  await openSoil(other);
  expect(await draftsOnDevice(other)).toEqual([alices]);
  const his = await openActivity(other);
  expect(await field(his, 'Quantidade').inputValue()).toBe('0.80');
  expect(await row(other).textContent()).not.toContain(L.draftChip);
  await other.keyboard.press('Escape');

  // Alice signs in again: hers.
  await signIn(context, served.origin(), ALICE);
  await other.reload();
  await openSoil(other);
  expect(await field(await openActivity(other), 'Quantidade').inputValue()).toBe('55');
});

it('puts the table’s rows Alice typed in back to their presets when Bruno signs in on the same browser, her typing kept as hers', async () => {
  const { context, page } = await browserOn(ALICE);
  const cell = () => subsoilQuantity(page);
  await openTable(page, served.sheetUrl());
  await typeInto(page, cell(), '55');
  await keptOnDevice(page);
  const [alices] = await draftsOnDevice(page);

  await brunoSignsIn(page);
  await expect.poll(() => cell().inputValue()).toBe('0.80');
  expect(await page.getByText(/unsaved change/).count()).toBe(0);
  // Typing on as Bruno files as Bruno; Alice's draft stays as it was.
  await typeInto(page, cell(), '7');
  await keptOnDevice(page);
  const device = await draftsOnDevice(page);
  expect(device).toHaveLength(2);
  expect(device).toContainEqual(alices);
  expect(device.find((draft) => draft.owner !== alices?.owner)?.texts).toEqual({ METRICA1: '7' });

  await signIn(context, served.origin(), ALICE);
  await page.reload();
  await page.getByRole('button', { name: 'Table', exact: true }).click();
  await expect.poll(() => cell().inputValue()).toBe('55');
});

it('keeps what Bruno types in the table before his drafts are read as his, Alice’s draft left as it was', async () => {
  const { page } = await browserOn(ALICE);
  const cell = () => subsoilQuantity(page);
  await openTable(page, served.sheetUrl());
  await typeInto(page, cell(), '55');
  await keptOnDevice(page);
  const [alices] = await draftsOnDevice(page);

  // Another tab of the browser holds the drafts' database: the page's next read of it waits.
  const holder = await openPage(page.context());
  await holder.goto(served.sheetUrl());
  await holder.getByRole('tree').waitFor();
  const { release: letGo } = await holdDraftWrites(holder);

  // Bruno signs in; before his drafts are read he types Quantidade 7 in the table.
  await brunoSignsIn(page);
  await typeInto(page, cell(), '7');
  await letGo();
  await holder.close();
  await keptOnDevice(page);
  // Read now: his 7 stays in the cell, kept as his; Alice's 55 as it was.
  await expect.poll(() => draftsOnDevice(page)).toHaveLength(2);
  expect(await cell().inputValue()).toBe('7');
  const device = await draftsOnDevice(page);
  expect(device).toContainEqual(alices);
  expect(device.find((draft) => draft.owner !== alices?.owner)?.texts).toEqual({ METRICA1: '7' });
});

/** Records what every live region of the page (the page's and the dialog's) says from now on, in order. */
async function recordEverySaid(page: Page) {
  await page.evaluate(() => {
    const said: string[] = [];
    Object.assign(window, { everySaid: said });
    for (const region of document.querySelectorAll('[aria-live]'))
      new MutationObserver(() => {
        const text = region.textContent ?? '';
        if (text !== '') said.push(text);
      }).observe(region, { childList: true, characterData: true, subtree: true });
  });
}

const everySaid = (page: Page) =>
  page.evaluate(() => (window as unknown as { everySaid: string[] }).everySaid);

it('never stores what Alice saves in the modal as Bruno, who signed in elsewhere while her page stayed in view: the form closes, her typing kept as hers, said once', async () => {
  const { page } = await browserOn(ALICE);
  await page.goto(served.sheetUrl());
  await openSoil(page);
  const dialog = await openActivity(page);
  await typeInto(page, field(dialog, 'Quantidade'), '55');
  await keptOnDevice(page);
  const [alices] = await draftsOnDevice(page);

  // Bruno signs in through the host's own page, in another window: Alice's stays in view, so
  // nothing tells her page; she presses Save.
  await signIn(page.context(), served.origin(), BRUNO);
  await recordEverySaid(page);
  await dialog.getByRole('button', { name: L.save, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
  // The notice stays on the page; what she hears is the save's outcome, once, with its reason.
  await expect.poll(() => region(page).getByText(L.ownerChanged, { exact: true }).isVisible()).toBe(true);
  const notSaved = `${SUBSOIL}: ${L.saveError.replace('{message}', L.signedInElsewhere)}`;
  await expect.poll(() => everySaid(page)).toContain(notSaved);
  expect(await everySaid(page)).toEqual([notSaved]);
  expect(await liveMetrics(served.demo(), subsoil().activity)).toEqual([]);
  expect(await draftsOnDevice(page)).toEqual([alices]);
});

it('never stores what Alice saves in the table as Bruno, who signed in elsewhere while her page stayed in view: her rows go back, her typing kept as hers', async () => {
  const { page } = await browserOn(ALICE);
  const cell = () => subsoilQuantity(page);
  await openTable(page, served.sheetUrl());
  await typeInto(page, cell(), '55');
  await keptOnDevice(page);
  const [alices] = await draftsOnDevice(page);

  await signIn(page.context(), served.origin(), BRUNO);
  await page.getByRole('button', { name: L.tableSave, exact: true }).click();
  await expect.poll(() => page.getByText(L.ownerChanged).count()).toBeGreaterThan(0);
  await expect.poll(() => cell().inputValue()).toBe('0.80');
  expect(await liveMetrics(served.demo(), subsoil().activity)).toEqual([]);
  expect(await draftsOnDevice(page)).toEqual([alices]);
});

it('leaves the activity’s draft alone while a stopped outbox entry of it is decided and saved', async () => {
  await saveByCodes(served, SEEDER, 'A-SUBSOIL', 'G-SOIL', { METRICA1: '20.00' });
  const { context, page } = await browserOn(ALICE);
  await page.goto(served.sheetUrl());
  await openSoil(page);
  await context.setOffline(true);
  // Offline: Quantidade 32 saved (into the outbox), then Horas 9 typed and not saved (a draft).
  let dialog = await openActivity(page);
  await field(dialog, 'Quantidade').fill('32');
  await dialog.getByRole('button', { name: L.save, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
  await expect.poll(() => region(page).getByText(L.pendingCountOne).count()).toBe(1);
  dialog = await openActivity(page);
  await typeInto(page, field(dialog, 'Horas'), '9');
  await keptOnDevice(page);
  await page.keyboard.press('Escape');
  // Meanwhile someone changes Quantidade: the outbox entry stops for a decision.
  await saveByCodes(served, SEEDER, 'A-SUBSOIL', 'G-SOIL', { METRICA1: '31' }, { METRICA1: '20.00' });
  await context.setOffline(false);
  await region(page).getByRole('button', { name: L.pendingList }).click();
  await region(page)
    .getByRole('button', { name: L.decideFor.replace('{label}', SUBSOIL) })
    .click();
  dialog = page.getByRole('dialog', { name: SUBSOIL });
  await dialog.waitFor();
  // The entry's values, not the draft's.
  expect(await field(dialog, 'Horas').inputValue()).not.toBe('9');
  await dialog.getByRole('button', { name: L.keepMineFor.replace('{field}', 'Quantidade') }).click();
  await dialog.getByRole('button', { name: L.save, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
  await expect
    .poll(() => liveMetrics(served.demo(), subsoil().activity))
    .toMatchObject([{ METRICA1: '32.00' }]);

  // The draft typed apart from the entry is still there, in the tree and the modal.
  expect(await row(page).textContent()).toContain(L.draftChip);
  expect(await draftsOnDevice(page)).toMatchObject([{ texts: { HORAS: '9' } }]);
  expect(await field(await openActivity(page), 'Horas').inputValue()).toBe('9');
});

/**
 * No signal: Quantidade 12.5 saved (kept on the device), then the activity opened again and Pessoas
 * 4 typed over the 6 it shows, kept as a draft; resolves with the open dialog.
 */
async function typedOverKept(page: Page) {
  await page.context().setOffline(true);
  const kept = await openActivity(page);
  await typeInto(page, field(kept, 'Quantidade'), '12.5');
  await kept.getByRole('button', { name: L.save, exact: true }).click();
  await kept.waitFor({ state: 'hidden' });
  const dialog = await openActivity(page);
  await typeInto(page, field(dialog, 'Pessoas'), '4');
  await keptOnDevice(page);
  return dialog;
}

/** Discards A-SUBSOIL's waiting entry in the list of waiting entries of `page`. */
async function discardWaiting(page: Page) {
  await region(page).getByRole('button', { name: L.pendingList }).click();
  await region(page)
    .getByRole('button', { name: L.discardFor.replace('{label}', SUBSOIL) })
    .click();
  await region(page).getByRole('button', { name: L.discardYes }).click();
  await expect.poll(() => region(page).getByRole('listitem').count()).toBe(0);
}

/** Saves the open dialog: stored, not refused as a change by "someone else", the values those given. */
async function savedAs(page: Page, dialog: Locator, values: Awaited<ReturnType<typeof liveMetrics>>) {
  // Pressed once the page knows the signal is back: before, the save is kept in the outbox, which
  // may send it from the service worker, out of the page's sight (the test then waited 30 s in a CI run).
  await expect.poll(() => page.evaluate(() => navigator.onLine)).toBe(true);
  const put = page.waitForResponse((response) => response.request().method() === 'PUT');
  await dialog.getByRole('button', { name: L.save, exact: true }).click();
  expect((await put).status()).toBe(200);
  await dialog.waitFor({ state: 'hidden' });
  expect(await liveMetrics(served.demo(), subsoil().activity)).toEqual(values);
}

it('stores a draft typed over a waiting entry once that entry is discarded, with no conflict of Alice with herself', async () => {
  const { context, page } = await browserOn(ALICE);
  await page.goto(served.sheetUrl());
  await openSoil(page);
  // Pessoas 4 typed over an entry kept offline, and left as a draft.
  let dialog = await typedOverKept(page);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  // The 12.5 was wrong: she discards the waiting entry.
  await discardWaiting(page);

  // The signal is back. The table shows her Pessoas 4 as changed, not as met by someone's change.
  await context.setOffline(false);
  await showTable(page);
  const people = subsoilCell(page, 'Pessoas');
  await expect.poll(() => people.inputValue()).toBe('4');
  expect(await description(people)).toBe(L.sourceEdited);
  // In the modal too, over the defaults, and Save stores it with them.
  await page.getByRole('button', { name: 'Tree', exact: true }).click();
  await openSoil(page);
  dialog = await openActivity(page);
  expect(await field(dialog, 'Pessoas').inputValue()).toBe('4');
  expect(await field(dialog, 'Quantidade').inputValue()).toBe('0.80');
  await savedAs(page, dialog, [{ METRICA1: '0.80', METRICA2: 4, HORAS: '8.0' }]);
  expect(await draftsOnDevice(page)).toEqual([]);
});

it('stores what Alice types in a form open over a waiting entry that her other tab discards meanwhile, with no conflict with herself', async () => {
  const { context, page } = await browserOn(ALICE);
  await page.goto(served.sheetUrl());
  await openSoil(page);
  const other = await openPage(context);
  await other.goto(served.sheetUrl());
  await other.getByRole('tree').waitFor();
  // Pessoas 4 typed in the first tab over an entry kept offline, the form left open.
  const dialog = await typedOverKept(page);
  // In her other tab she discards the waiting 12.5.
  await discardWaiting(other);
  // The open form follows: Quantidade is no longer the kept 12.50, and her 4 stays typed.
  await expect.poll(() => field(dialog, 'Quantidade').inputValue()).toBe('0.80');
  expect(await field(dialog, 'Pessoas').inputValue()).toBe('4');

  await context.setOffline(false);
  await savedAs(page, dialog, [{ METRICA1: '0.80', METRICA2: 4, HORAS: '8.0' }]);
});
