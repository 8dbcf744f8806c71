import type { BrowserContext, Locator, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { seriousViolations } from '../support/axe.js';
import {
  asksBeforeLeaving,
  description,
  discardTyped,
  draftsOnDevice,
  holdDraftsOpening,
  holdDraftWrites,
  holdRequests,
  keptOnDevice,
  openPage,
  openTable,
  type SaveBody,
  showTable,
  typedKept,
  useBrowser,
  usePageChecks,
} from '../support/browser.js';
import { liveMetrics, saveByCodes, signedInPage, useBareActivity, useServedScreen } from '../support/demo.js';

/*
 * What a person types in the table view is kept on the device until it is stored or they take it
 * back: a reload, a closed page, or a phone that drops the page loses none of it. It is the
 * activity's draft, the same one the metric modal keeps: the modal shows a draft typed in the table
 * and the table one typed in the modal; the tree marks either. A draft's values go back over what
 * they were typed over, so a value someone stored meanwhile shows as a conflict at its cell, naming
 * who. On the demo (Subsoiling: Quantidade 0.80 and Horas 8.0 by default, no entry; Spraying: Horas
 * 8.0), in English, signed in as user 7.
 */

const browser = useBrowser();
const pages = usePageChecks();
const served = useServedScreen(9);
const subsoil = useBareActivity(served, 'A-SUBSOIL', 'G-SOIL');
const spray = useBareActivity(served, 'A-SPRAY', 'G-CARE');
const ALICE = 7;
const CARLA = 11;
const SUBSOIL = 'A-SUBSOIL — Subsoiling';
const RESTORED_TWO =
  'Values typed on this device and not saved yet are back in 2 rows. Save stores them; Escape takes a cell back.';
const RESTORED_ONE =
  'Values typed on this device and not saved yet are back in 1 row. Save stores them; Escape takes a cell back.';

/**
 * A browser of Alice's (`init` runs in each page before the screen): its context, a first page and
 * the saves that page sends.
 */
async function alices(init?: () => void): Promise<{ context: BrowserContext; page: Page; puts: SaveBody[] }> {
  const context = pages.track(
    await browser().newContext({ locale: 'en', viewport: { width: 1280, height: 800 } }),
  );
  if (init) await context.addInitScript(init);
  return { context, ...(await signedInPage(context, served.origin(), ALICE)) };
}

const cell = (page: Page, activity: string, metric: string) =>
  page
    .getByRole('grid')
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${activity}`) }) })
    .getByRole('textbox', { name: metric, exact: true });

/** Types `text` over what a cell holds, as a person does (entering the cell selects its value). */
async function typeIn(page: Page, activity: string, metric: string, text: string) {
  await cell(page, activity, metric).click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(text);
  expect(await cell(page, activity, metric).inputValue()).toBe(text);
}

const restoredLine = (page: Page) =>
  page.getByRole('status').filter({ hasText: /^Values typed on this device/ });
const save = (page: Page) => page.getByRole('button', { name: 'Save changes', exact: true });

async function saved(page: Page) {
  const answer = page.waitForResponse((response) => response.request().method() === 'PUT');
  await save(page).click();
  expect((await answer).status()).toBe(200);
}

/** Opens the tree down to Subsoiling: its tree item. */
async function subsoilItem(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Tree', exact: true }).click();
  for (const name of ['S-NORTH — North field', 'G-SOIL — Soil preparation']) {
    const item = page.getByRole('treeitem', { name }).first();
    if ((await item.getAttribute('aria-expanded')) !== 'true')
      await item.locator(':scope > .ta-screen__row').click();
    await item.getByRole('group').first().waitFor();
  }
  return page.getByRole('treeitem', { name: new RegExp(`^${SUBSOIL}`) }).first();
}

it('keeps cells typed in the table through a reload and a closed page, says they are back, and Save stores them', async () => {
  const { context, page: first } = await alices();
  await openTable(first, served.sheetUrl());
  await typeIn(first, 'A-SUBSOIL', 'Quantidade', '12.5');
  await typeIn(first, 'A-SUBSOIL', 'Horas', '9');
  await typeIn(first, 'A-SPRAY', 'Pessoas', '3');
  await keptOnDevice(first);

  await first.reload();
  await showTable(first);
  await expect.poll(() => cell(first, 'A-SUBSOIL', 'Quantidade').inputValue()).toBe('12.5');
  expect(await cell(first, 'A-SUBSOIL', 'Horas').inputValue()).toBe('9');
  expect(await cell(first, 'A-SPRAY', 'Pessoas').inputValue()).toBe('3');
  expect(await description(cell(first, 'A-SUBSOIL', 'Quantidade'))).toBe('Changed, not saved yet');
  await restoredLine(first).getByText(RESTORED_TWO, { exact: true }).waitFor();
  await first.getByText('3 unsaved changes').waitFor();
  expect(await seriousViolations(first)).toEqual([]);
  // Shown again, not typed again: nothing to ask before leaving.
  expect(await asksBeforeLeaving(first)).toBe(false);
  await first.close({ runBeforeUnload: true });

  const { page } = await signedInPage(context, served.origin(), ALICE);
  await openTable(page, served.sheetUrl());
  await expect.poll(() => cell(page, 'A-SUBSOIL', 'Quantidade').inputValue()).toBe('12.5');
  expect(await cell(page, 'A-SPRAY', 'Pessoas').inputValue()).toBe('3');
  await saved(page);
  expect(await liveMetrics(served.demo(), subsoil().activity)).toEqual([
    { METRICA1: '12.50', METRICA2: 6, HORAS: '9.0' },
  ]);
  expect(await liveMetrics(served.demo(), spray().activity)).toMatchObject([{ METRICA2: 3 }]);
  await expect.poll(() => restoredLine(page).count()).toBe(0);
  // Stored: the drafts are gone from the device, and a reload shows the stored values.
  await expect.poll(async () => (await draftsOnDevice(page)).length).toBe(0);
  await page.reload();
  await showTable(page);
  expect(await cell(page, 'A-SUBSOIL', 'Quantidade').inputValue()).toBe('12.50');
  expect(await description(cell(page, 'A-SUBSOIL', 'Quantidade'))).toBe('Saved value');
  expect(await restoredLine(page).count()).toBe(0);
});

it('shows a value stored meanwhile over a draft as a conflict at its cell, naming who, and after every reload', async () => {
  const { context, page: first } = await alices();
  await openTable(first, served.sheetUrl());
  await typeIn(first, 'A-SUBSOIL', 'Quantidade', '12.5');
  await keptOnDevice(first);
  await first.close({ runBeforeUnload: true });
  await saveByCodes(served, CARLA, 'A-SUBSOIL', 'G-SOIL', { METRICA1: '31' });

  const { page, puts } = await signedInPage(context, served.origin(), ALICE);
  await openTable(page, served.sheetUrl());
  const quantity = cell(page, 'A-SUBSOIL', 'Quantidade');
  const met = /^Changed meanwhile by user 11, .+: stored now 31\.00\.$/;
  await expect.poll(() => description(quantity)).toMatch(met);
  expect(await quantity.inputValue()).toBe('12.5');
  expect(await quantity.getAttribute('aria-invalid')).toBe('true');
  await restoredLine(page).getByText(RESTORED_ONE, { exact: true }).waitFor();
  expect(puts).toEqual([]);
  expect(await liveMetrics(served.demo(), subsoil().activity)).toMatchObject([{ METRICA1: '31.00' }]);

  // Typed on at the conflict, the draft keeps the value it was typed over, not the one met: seen
  // again after a reload, never taken silently.
  await typeIn(page, 'A-SUBSOIL', 'Quantidade', '12.75');
  await keptOnDevice(page);
  await page.reload();
  await showTable(page);
  await expect.poll(() => description(quantity)).toMatch(met);
  expect(await quantity.inputValue()).toBe('12.75');

  // Save now keeps the typed value on purpose, over the stored value the person was shown.
  await saved(page);
  expect(puts.at(-1)?.entries).toEqual([
    {
      activity: subsoil().activity,
      group: subsoil().group,
      values: { METRICA1: '12.75' },
      base: { METRICA1: '31.00' },
      row: true,
    },
  ]);
  expect(await liveMetrics(served.demo(), subsoil().activity)).toMatchObject([{ METRICA1: '12.75' }]);
});

it('keeps a draft whose save was refused for a conflict over the value it was typed over: the conflict is met again after a reload', async () => {
  await saveByCodes(served, CARLA, 'A-SUBSOIL', 'G-SOIL', { HORAS: '7' });
  const { page, puts } = await alices();
  await openTable(page, served.sheetUrl());
  const hours = cell(page, 'A-SUBSOIL', 'Horas');
  await expect.poll(() => hours.inputValue()).toBe('7.0');
  await typeIn(page, 'A-SUBSOIL', 'Horas', '9');
  await saveByCodes(served, CARLA, 'A-SUBSOIL', 'G-SOIL', { HORAS: '10' }, { HORAS: '7.0' });
  const answer = page.waitForResponse((response) => response.request().method() === 'PUT');
  await save(page).click();
  expect((await answer).status()).toBe(409);
  const met = /^Changed meanwhile by user 11, .+: stored now 10\.0\.$/;
  await expect.poll(() => description(hours)).toMatch(met);
  await keptOnDevice(page);

  await page.reload();
  await showTable(page);
  await expect.poll(() => description(hours)).toMatch(met);
  expect(await hours.inputValue()).toBe('9');
  expect(puts).toHaveLength(1);
  expect(await liveMetrics(served.demo(), subsoil().activity)).toMatchObject([{ HORAS: '10.0' }]);
});

it('takes drafts read after the rows: an untouched row shows its draft, a row typed in meanwhile keeps what was typed and takes the draft’s other cells', async () => {
  const { context, page: first } = await alices(holdDraftsOpening);
  await openTable(first, served.sheetUrl());
  await typeIn(first, 'A-SUBSOIL', 'Quantidade', '12.5');
  await typeIn(first, 'A-SPRAY', 'Horas', '3');
  await keptOnDevice(first);
  await first.evaluate(() => localStorage.setItem('hold-drafts', 'yes'));
  await first.close({ runBeforeUnload: true });

  const { page } = await signedInPage(context, served.origin(), ALICE);
  await openTable(page, served.sheetUrl());
  expect(await cell(page, 'A-SUBSOIL', 'Quantidade').inputValue()).toBe('0.80');
  await typeIn(page, 'A-SUBSOIL', 'Pessoas', '4');
  await page.evaluate(() => (window as unknown as { releaseDrafts: () => void }).releaseDrafts());
  await expect.poll(() => cell(page, 'A-SPRAY', 'Horas').inputValue()).toBe('3');
  await expect.poll(() => cell(page, 'A-SUBSOIL', 'Quantidade').inputValue()).toBe('12.5');
  expect(await cell(page, 'A-SUBSOIL', 'Pessoas').inputValue()).toBe('4');
  await restoredLine(page).getByText(RESTORED_TWO, { exact: true }).waitFor();
  await keptOnDevice(page);

  // Both kept as one draft of the row: a reload shows them together.
  await page.reload();
  await showTable(page);
  await page.evaluate(() => (window as unknown as { releaseDrafts: () => void }).releaseDrafts());
  await expect.poll(() => cell(page, 'A-SUBSOIL', 'Quantidade').inputValue()).toBe('12.5');
  expect(await cell(page, 'A-SUBSOIL', 'Pessoas').inputValue()).toBe('4');
  expect(await cell(page, 'A-SPRAY', 'Horas').inputValue()).toBe('3');
});

it('shares one draft per activity with the modal: each shows what the other typed, the tree marks it, Cancel in the modal takes it back in the table', async () => {
  const { page } = await alices();
  await openTable(page, served.sheetUrl());
  await typeIn(page, 'A-SUBSOIL', 'Quantidade', '12.5');
  await keptOnDevice(page);

  const item = await subsoilItem(page);
  // Seen and read in the tree: the mark is part of the item's name.
  await page.getByRole('treeitem', { name: new RegExp(`^${SUBSOIL}.*Draft, not saved`) }).waitFor();
  await item.locator(':scope > .ta-screen__row').click();
  const dialog = page.getByRole('dialog', { name: SUBSOIL });
  const field = (name: string) => dialog.getByRole('textbox', { name, exact: true });
  await expect.poll(() => field('Quantidade').inputValue()).toBe('12.5');
  await dialog.getByText(/^Not saved yet: typed on this device on /).waitFor();

  // Typed on in the modal and closed with Esc (no decision): the table shows both values.
  await field('Horas').fill('9');
  await keptOnDevice(page);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  await showTable(page);
  await expect.poll(() => cell(page, 'A-SUBSOIL', 'Horas').inputValue()).toBe('9');
  expect(await cell(page, 'A-SUBSOIL', 'Quantidade').inputValue()).toBe('12.5');
  await page.getByText('2 unsaved changes').waitFor();

  // Cancel in the modal discards the draft: the table's cells go back to what they showed.
  await (await subsoilItem(page)).locator(':scope > .ta-screen__row').click();
  await expect.poll(() => field('Horas').inputValue()).toBe('9');
  await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
  await discardTyped(page);
  await dialog.waitFor({ state: 'hidden' });
  await expect.poll(() => item.textContent()).not.toContain('Draft, not saved');
  await showTable(page);
  await expect.poll(() => cell(page, 'A-SUBSOIL', 'Horas').inputValue()).toBe('8.0');
  expect(await cell(page, 'A-SUBSOIL', 'Quantidade').inputValue()).toBe('0.80');
  expect(await page.getByText(/unsaved change/).count()).toBe(0);
  await expect.poll(async () => (await draftsOnDevice(page)).length).toBe(0);
  expect(await liveMetrics(served.demo(), subsoil().activity)).toEqual([]);

  // Typed in the table again and saved in the modal: the table shows what the modal stored.
  await typeIn(page, 'A-SUBSOIL', 'Quantidade', '12.5');
  await keptOnDevice(page);
  await (await subsoilItem(page)).locator(':scope > .ta-screen__row').click();
  await expect.poll(() => field('Quantidade').inputValue()).toBe('12.5');
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
  await showTable(page);
  await expect.poll(() => description(cell(page, 'A-SUBSOIL', 'Quantidade'))).toBe('Saved value');
  expect(await cell(page, 'A-SUBSOIL', 'Quantidade').inputValue()).toBe('12.50');
  expect(await page.getByText(/unsaved change/).count()).toBe(0);
  expect(await liveMetrics(served.demo(), subsoil().activity)).toMatchObject([{ METRICA1: '12.50' }]);
});

it("takes what the modal typed while the table's save was out once that save ends: typing on in the row keeps it", async () => {
  const { page } = await alices();
  await openTable(page, served.sheetUrl());
  await typeIn(page, 'A-SUBSOIL', 'Horas', '9');
  await keptOnDevice(page);
  // A slow network: the table's save is held on its way.
  const { release } = await holdRequests(page, () => true, {
    which: (request) => request.method() === 'PUT',
  });
  const answer = page.waitForResponse((response) => response.request().method() === 'PUT');
  await save(page).click();

  // Meanwhile, the modal of the same activity: Pessoas typed, closed with Esc (kept as its draft).
  await (await subsoilItem(page)).locator(':scope > .ta-screen__row').click();
  const dialog = page.getByRole('dialog', { name: SUBSOIL });
  await expect.poll(() => dialog.getByRole('textbox', { name: 'Horas', exact: true }).inputValue()).toBe('9');
  await dialog.getByRole('textbox', { name: 'Pessoas', exact: true }).fill('4');
  await keptOnDevice(page);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });

  // Back to the table while the save is out; once it is stored, the row shows the modal's Pessoas 4.
  await page.getByRole('button', { name: 'Table', exact: true }).click();
  release();
  expect((await answer).status()).toBe(200);
  await expect.poll(() => cell(page, 'A-SUBSOIL', 'Pessoas').inputValue()).toBe('4');
  // Horas as the draft holds it, typed: the value stored by the save.
  expect(await cell(page, 'A-SUBSOIL', 'Horas').inputValue()).toBe('9');
  // Typing on in the row keeps both, through a reload.
  await typeIn(page, 'A-SUBSOIL', 'Quantidade', '12.5');
  await keptOnDevice(page);
  await page.reload();
  await showTable(page);
  await expect.poll(() => cell(page, 'A-SUBSOIL', 'Pessoas').inputValue()).toBe('4');
  expect(await cell(page, 'A-SUBSOIL', 'Quantidade').inputValue()).toBe('12.5');
  expect(await liveMetrics(served.demo(), subsoil().activity)).toMatchObject([{ HORAS: '9.0' }]);
});

it('keeps nothing once every changed cell of a row is taken back with Escape, or once it is saved', async () => {
  const { page } = await alices();
  await openTable(page, served.sheetUrl());
  for (const metric of ['Quantidade', 'Horas']) {
    await typeIn(page, 'A-SUBSOIL', metric, '5');
    await page.keyboard.press('Escape');
  }
  expect(await cell(page, 'A-SUBSOIL', 'Quantidade').inputValue()).toBe('0.80');
  expect(await cell(page, 'A-SUBSOIL', 'Horas').inputValue()).toBe('8.0');
  await expect.poll(async () => (await draftsOnDevice(page)).length).toBe(0);
  await page.reload();
  await showTable(page);
  expect(await cell(page, 'A-SUBSOIL', 'Quantidade').inputValue()).toBe('0.80');
  expect(await page.getByText(/unsaved change/).count()).toBe(0);
  expect(await restoredLine(page).count()).toBe(0);

  await typeIn(page, 'A-SUBSOIL', 'Horas', '5');
  await expect.poll(async () => (await draftsOnDevice(page)).length).toBe(1);
  await saved(page);
  await expect.poll(async () => (await draftsOnDevice(page)).length).toBe(0);
  await page.reload();
  await showTable(page);
  expect(await cell(page, 'A-SUBSOIL', 'Horas').inputValue()).toBe('5.0');
  expect(await description(cell(page, 'A-SUBSOIL', 'Horas'))).toBe('Saved value');
  expect(await page.getByText(/unsaved change/).count()).toBe(0);
  expect(await liveMetrics(served.demo(), subsoil().activity)).toEqual([
    { METRICA1: '0.80', METRICA2: 6, HORAS: '5.0' },
  ]);
});

it('does not bring back a cell taken back with Escape, the page reloaded before the device removed its draft', async () => {
  const { context, page } = await alices();
  await openTable(page, served.sheetUrl());
  await typeIn(page, 'A-SUBSOIL', 'Horas', '5');
  await page.keyboard.type('5');
  await keptOnDevice(page);
  // Another tab holds the drafts' database: the removal Escape asks for waits behind it, and the
  // reload drops it with the page, as a reload within milliseconds sometimes did (the browser does
  // not always finish a page's IndexedDB writes when it reloads it).
  const holder = await openPage(context);
  await holder.goto(served.sheetUrl());
  await holder.getByRole('tree').waitFor();
  const { release: letGo, held } = await holdDraftWrites(holder);
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  expect(await cell(page, 'A-SUBSOIL', 'Horas').inputValue()).toBe('8.0');
  expect(await asksBeforeLeaving(page)).toBe(false);
  await page.reload();
  // The removal was lost with the page: the device still holds the draft.
  expect(await held()).toEqual([{ texts: { HORAS: '55' } }]);
  await letGo();
  await holder.close();
  await showTable(page);
  // The draft "55" is still on the device; the page reads it as dropped, and removes it.
  await expect.poll(() => draftsOnDevice(page)).toEqual([]);
  expect(await cell(page, 'A-SUBSOIL', 'Horas').inputValue()).toBe('8.0');
  expect(await page.getByText(/unsaved change/).count()).toBe(0);
  expect(await restoredLine(page).count()).toBe(0);
  await page.reload();
  await showTable(page);
  expect(await cell(page, 'A-SUBSOIL', 'Horas').inputValue()).toBe('8.0');
  expect(await restoredLine(page).count()).toBe(0);

  // The same "55" typed again is the person's again: kept, and back after a reload.
  await typeIn(page, 'A-SUBSOIL', 'Horas', '55');
  await keptOnDevice(page);
  await page.reload();
  await showTable(page);
  await expect.poll(() => cell(page, 'A-SUBSOIL', 'Horas').inputValue()).toBe('55');
  expect(await description(cell(page, 'A-SUBSOIL', 'Horas'))).toBe('Changed, not saved yet');
});

it('does not bring back one cell taken back with Escape in a row whose other cell stays typed, the page closed before the device wrote it', async () => {
  const { context, page } = await alices();
  await openTable(page, served.sheetUrl());
  await typeIn(page, 'A-SUBSOIL', 'Quantidade', '12.5');
  await typeIn(page, 'A-SUBSOIL', 'Horas', '55');
  await keptOnDevice(page);
  // Another tab holds the drafts' database; Horas is taken back (the draft written without it),
  // and the page is closed before that write (a phone dropping the page): it is lost with it.
  const { page: holder } = await signedInPage(context, served.origin(), ALICE);
  await openTable(holder, served.sheetUrl());
  const { release: letGo, held } = await holdDraftWrites(holder);
  await cell(page, 'A-SUBSOIL', 'Horas').click();
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  expect(await cell(page, 'A-SUBSOIL', 'Horas').inputValue()).toBe('8.0');
  await page.close();
  expect(await held()).toEqual([{ texts: { METRICA1: '12.5', HORAS: '55' } }]);
  await letGo();
  await holder.close();

  // Opened again: Quantidade's 12.5 is back as typed, Horas shows what applies.
  const { page: again } = await signedInPage(context, served.origin(), ALICE);
  await openTable(again, served.sheetUrl());
  await expect.poll(() => cell(again, 'A-SUBSOIL', 'Quantidade').inputValue()).toBe('12.5');
  expect(await cell(again, 'A-SUBSOIL', 'Horas').inputValue()).toBe('8.0');
  await again.getByText('1 unsaved change').waitFor();
  await expect
    .poll(async () => (await draftsOnDevice(again)).map((draft) => draft.texts))
    .toEqual([{ METRICA1: '12.5' }]);
});

it('keeps the last keystroke typed in a cell, the page closed before the device wrote it', async () => {
  const { context, page } = await alices();
  await openTable(page, served.sheetUrl());
  await typeIn(page, 'A-SUBSOIL', 'Horas', '5');
  await keptOnDevice(page);
  // Another tab holds the drafts' database: the next keystroke's write waits behind it, and the
  // page is closed before that write (a phone dropping the page right after a keystroke; phones do
  // not ask before leaving): lost with it.
  const { page: holder } = await signedInPage(context, served.origin(), ALICE);
  await openTable(holder, served.sheetUrl());
  const { release: letGo, held } = await holdDraftWrites(holder);
  await page.keyboard.type('5');
  expect(await cell(page, 'A-SUBSOIL', 'Horas').inputValue()).toBe('55');
  await page.close();
  expect(await held()).toEqual([{ texts: { HORAS: '5' } }]);
  // What the closed page's write would have written is kept, whether or not the browser still
  // finishes that write once the database is let go.
  expect(await typedKept(holder)).toEqual([{ HORAS: '55' }]);
  await letGo();
  await holder.close();

  // Opened again: "55" as typed, and the device holds it now.
  const { page: again } = await signedInPage(context, served.origin(), ALICE);
  await openTable(again, served.sheetUrl());
  await expect.poll(() => cell(again, 'A-SUBSOIL', 'Horas').inputValue()).toBe('55');
  expect(await description(cell(again, 'A-SUBSOIL', 'Horas'))).toBe('Changed, not saved yet');
  await again.getByText('1 unsaved change').waitFor();
  await expect
    .poll(async () => (await draftsOnDevice(again)).map((draft) => draft.texts))
    .toEqual([{ HORAS: '55' }]);
  await saved(again);
  expect(await liveMetrics(served.demo(), subsoil().activity)).toMatchObject([{ HORAS: '55.0' }]);
  await again.reload();
  await showTable(again);
  expect(await cell(again, 'A-SUBSOIL', 'Horas').inputValue()).toBe('55.0');
  expect(await restoredLine(again).count()).toBe(0);
});

it('keeps what a page closed before the device wrote it typed, without the cell another tab took back since', async () => {
  const { context, page } = await alices();
  await openTable(page, served.sheetUrl());
  await typeIn(page, 'A-SUBSOIL', 'Horas', '5');
  await keptOnDevice(page);
  const { page: other } = await signedInPage(context, served.origin(), ALICE);
  await openTable(other, served.sheetUrl());
  await expect.poll(() => cell(other, 'A-SUBSOIL', 'Horas').inputValue()).toBe('5');
  // The first tab types Quantidade behind a third tab's transaction, and is closed before that
  // write: lost with it, as far as IndexedDB goes.
  const { page: holder } = await signedInPage(context, served.origin(), ALICE);
  await openTable(holder, served.sheetUrl());
  const { release: letGo, held } = await holdDraftWrites(holder);
  await typeIn(page, 'A-SUBSOIL', 'Quantidade', '12.5');
  await page.close();
  expect(await held()).toEqual([{ texts: { HORAS: '5' } }]);
  expect(await typedKept(holder)).toEqual([{ HORAS: '5', METRICA1: '12.5' }]);
  await letGo();
  await holder.close();
  // The other tab takes Horas' 5 back: the device no longer holds it (a write of the closed tab's
  // that the browser still finished, a first keystroke of 12.5, may stay: its last one is later).
  await cell(other, 'A-SUBSOIL', 'Horas').click();
  await other.keyboard.press('Escape');
  await other.keyboard.press('Escape');
  expect(await cell(other, 'A-SUBSOIL', 'Horas').inputValue()).toBe('8.0');
  await expect
    .poll(async () => (await draftsOnDevice(other)).filter((draft) => 'HORAS' in draft.texts))
    .toEqual([]);
  await other.close();

  // Opened again: the 12.5 typed in the closed tab is back; the 5 taken back is not.
  const { page: again } = await signedInPage(context, served.origin(), ALICE);
  await openTable(again, served.sheetUrl());
  await expect.poll(() => cell(again, 'A-SUBSOIL', 'Quantidade').inputValue()).toBe('12.5');
  expect(await cell(again, 'A-SUBSOIL', 'Horas').inputValue()).toBe('8.0');
  await expect
    .poll(async () => (await draftsOnDevice(again)).map((draft) => draft.texts))
    .toEqual([{ METRICA1: '12.5' }]);
});

it('shows every draft on a device that refuses the space, the one whose write it refused too', async () => {
  const { context, page } = await alices();
  await openTable(page, served.sheetUrl());
  await typeIn(page, 'A-SUBSOIL', 'Horas', '5');
  await keptOnDevice(page);
  // From here on the device refuses the space for drafts, in every page of this browser.
  const refuseSpace = () => {
    const put = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<typeof put>) {
      if (this.name === 'drafts')
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return put.apply(this, args);
    };
  };
  await context.addInitScript(refuseSpace);
  await page.evaluate(refuseSpace);
  await typeIn(page, 'A-SPRAY', 'Horas', '7');
  await page
    .getByRole('status')
    .getByText('This device cannot keep what you type here: save it before you leave the page.', {
      exact: true,
    })
    .waitFor();
  await page.close();

  // Opened again with the device still full: both drafts show, the one kept before and the one
  // typed last (kept in localStorage, not written: the device still refuses it).
  const { page: again } = await signedInPage(context, served.origin(), ALICE);
  await openTable(again, served.sheetUrl());
  await expect.poll(() => cell(again, 'A-SUBSOIL', 'Horas').inputValue()).toBe('5');
  await expect.poll(() => cell(again, 'A-SPRAY', 'Horas').inputValue()).toBe('7');
  await again.getByText('2 unsaved changes').waitFor();
});

/** The drafts' module's API (drafts.js) as the in-page tests below call it. */
type Drafts = {
  load: () => Promise<void>;
  keep: (key: object, typed: object, as: object) => object | undefined;
  get: (
    key: object,
  ) => { fields: Record<string, { text: string; base: string; preset: string }> } | undefined;
  settled: () => Promise<void>;
};

/** Puts the drafts' module's `createDrafts` on `page`'s window, from the screen's own origin. */
async function importDrafts(page: Page) {
  const module = new URL('?asset=association-screen/drafts.js', page.url()).href;
  // Imported from an expression given as text: vitest rewrites an import written in the test.
  await page.evaluate(
    `import(${JSON.stringify(module)}).then((m) => { window.createDrafts = m.createDrafts; })`,
  );
}

/** The drafts' module in a page as the read-again tests drive it (window.drafts, window.confirm). */
type ReadAgainWindow = { drafts: Drafts; confirm: () => void; loading: Promise<void> };

/**
 * The drafts' module in a page of the screen's origin (its IndexedDB and localStorage), under an
 * owner of its own (`name`; not confirmed where `confirmed` is false, as on a page opened offline,
 * until window.confirm()), holding H 5 and M 2 of activity 1, kept on the device.
 */
async function draftsKeptInPage(page: Page, name: string, confirmed: boolean) {
  await importDrafts(page);
  await page.evaluate(
    async ({ name, confirmed }) => {
      const { createDrafts } = window as unknown as { createDrafts: (ctx: object, parts: object) => Drafts };
      let owner = { key: name, confirmed };
      const parts = { endpoint: `/${name}`, owner: () => owner, redraw() {}, loaded() {}, onProblem() {} };
      const ctx = { doc: document, taskSheet: 1, labels: {}, destroyed: () => false };
      const drafts: Drafts = createDrafts(ctx, parts);
      await drafts.load();
      const typed = (text: string) => ({ text, base: '8.0', preset: '8.0' });
      drafts.keep(
        { activity: 1, group: null },
        { row: false, fields: { H: typed('5'), M: typed('2') } },
        owner,
      );
      await drafts.settled();
      Object.assign(window, {
        drafts,
        confirm: () => {
          owner = { key: name, confirmed: true };
        },
      });
    },
    { name, confirmed },
  );
}

/**
 * Once the page's read of the drafts (window.loading) ended and its writes are done: the fields its
 * drafts hold of activity 1, and the texts the device holds of `name`'s drafts.
 */
async function afterReadAgain(page: Page, name: string) {
  const fields = await page.evaluate(async () => {
    const test = window as unknown as ReadAgainWindow;
    await test.loading;
    await test.drafts.settled();
    return Object.keys(test.drafts.get({ activity: 1, group: null })?.fields ?? {});
  });
  const device = async () =>
    (await draftsOnDevice(page)).filter((draft) => draft.owner === name).map((draft) => draft.texts);
  return { fields, device };
}

/**
 * While a read of the drafts (window.loading) waits behind a held write, the person keeps each of
 * `rows` (texts by field) in turn, a few milliseconds apart, as `name` (confirmed); then the store
 * is let go.
 */
async function keptDuringRead(page: Page, name: string, rows: Array<Record<string, string>>) {
  const { release } = await holdDraftWrites(page);
  await page.evaluate(
    async ({ name, rows }) => {
      const test = window as unknown as ReadAgainWindow;
      test.loading = test.drafts.load();
      // The read's transaction made (behind the held one), the typing's after it.
      await new Promise((resolve) => setTimeout(resolve, 0));
      const as = { key: name, confirmed: true };
      for (const texts of rows) {
        const fields = Object.fromEntries(
          Object.entries(texts).map(([field, text]) => [field, { text, base: '8.0', preset: '8.0' }]),
        );
        test.drafts.keep({ activity: 1, group: null }, { row: false, fields }, as);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    { name, rows },
  );
  await release();
}

it('does not lend back a cell taken back while the drafts are read again, on a page opened offline whose owner is then confirmed', async () => {
  // A page opened offline keeps H and M unconfirmed; the server then confirms the same person, and
  // while that read is out the person takes H back.
  const { page } = await alices();
  await openTable(page, served.sheetUrl());
  await draftsKeptInPage(page, 'read-again', false);
  const { release: letGo } = await holdDraftWrites(page);
  await page.evaluate(() => {
    const test = window as unknown as ReadAgainWindow;
    test.confirm();
    test.loading = test.drafts.load();
    // H taken back (Escape) while the read waits behind the held store.
    const typed = (text: string) => ({ text, base: '8.0', preset: '8.0' });
    const as = { key: 'read-again', confirmed: false };
    test.drafts.keep({ activity: 1, group: null }, { row: false, fields: { M: typed('2') } }, as);
  });
  await letGo();
  const { fields, device } = await afterReadAgain(page, 'read-again');
  expect(fields).toEqual(['M']);
  await expect.poll(device).toEqual([{ M: '2' }]);
});

it('does not lend back a cell typed over and taken back while the drafts are read again', async () => {
  // H 5 and M 2 are kept; while a read of the drafts is out, the person types H 9 and takes it back
  // (Escape). The read, made before, found H 5: it is not lent back to what the page holds.
  const { page } = await alices();
  await openTable(page, served.sheetUrl());
  await draftsKeptInPage(page, 'taken-back', true);
  await keptDuringRead(page, 'taken-back', [{ H: '9', M: '2' }, { M: '2' }]);
  const { fields, device } = await afterReadAgain(page, 'taken-back');
  expect(fields).toEqual(['M']);
  await expect.poll(device).toEqual([{ M: '2' }]);
});

it('keeps what the page typed over a field while the drafts are read again, not the read’s older state of it', async () => {
  // H 5 and M 2 are kept; while a read of the drafts is out, the person types H 8, then M 3. The
  // read, made before, found H 5: the page's H 8 (typed after it) stays, in the page and on the device.
  const { page } = await alices();
  await openTable(page, served.sheetUrl());
  await draftsKeptInPage(page, 'typed-over', true);
  await keptDuringRead(page, 'typed-over', [
    { H: '8', M: '2' },
    { H: '8', M: '3' },
  ]);
  const texts = await page.evaluate(async () => {
    const test = window as unknown as ReadAgainWindow;
    await test.loading;
    const fields = test.drafts.get({ activity: 1, group: null })?.fields ?? {};
    return Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, field.text]));
  });
  expect(texts).toEqual({ H: '8', M: '3' });
  await page.evaluate(() => (window as unknown as ReadAgainWindow).drafts.settled());
  await expect
    .poll(async () =>
      (await draftsOnDevice(page))
        .filter((draft) => draft.owner === 'typed-over')
        .map((draft) => draft.texts),
    )
    .toEqual([{ H: '8', M: '3' }]);
});

it('joins a draft typed on a page opened offline field by field, the later typing winning, when that page writes it again after a join', async () => {
  // The drafts' module itself, as two pages of one person: O opened offline (its owner from the
  // browser's cache, unconfirmed), C online. O keeps H 9; C joins it, then the person types H 7 in
  // C; O, still open, then keeps M 55 (its draft's H 9 typed before C's 7). A page opened now joins
  // O's record again: H is C's 7, M is O's 55.
  const { page } = await alices();
  await openTable(page, served.sheetUrl());
  await importDrafts(page);
  const texts = await page.evaluate(async () => {
    const { createDrafts } = window as unknown as { createDrafts: (ctx: object, parts: object) => Drafts };
    const key = { activity: 1, group: null };
    const ctx = { doc: document, taskSheet: 1, labels: {}, destroyed: () => false };
    const pageAs = (confirmed: boolean) => {
      const owner = { key: 'later-typed', confirmed };
      const parts = {
        endpoint: '/later-typed',
        owner: () => owner,
        redraw() {},
        loaded() {},
        onProblem() {},
      };
      return { drafts: createDrafts(ctx, parts), owner };
    };
    const typed = (text: string) => ({ text, base: '8.0', preset: '8.0' });
    // Each typing a few milliseconds after the one before: the device's clock tells them apart.
    const tick = () => new Promise((resolve) => setTimeout(resolve, 20));
    const offline = pageAs(false);
    await offline.drafts.load();
    offline.drafts.keep(key, { row: false, fields: { H: typed('9') } }, offline.owner);
    await offline.drafts.settled();
    const online = pageAs(true);
    await online.drafts.load();
    await online.drafts.settled();
    const joinedFirst = online.drafts.get(key)?.fields.H?.text;
    await tick();
    online.drafts.keep(key, { row: false, fields: { H: typed('7') } }, online.owner);
    await online.drafts.settled();
    await tick();
    offline.drafts.keep(key, { row: false, fields: { H: typed('9'), M: typed('55') } }, offline.owner);
    await offline.drafts.settled();
    const opened = pageAs(true);
    await opened.drafts.load();
    await opened.drafts.settled();
    const fields = opened.drafts.get(key)?.fields ?? {};
    return { joinedFirst, H: fields.H?.text, M: fields.M?.text };
  });
  expect(texts).toEqual({ joinedFirst: '9', H: '7', M: '55' });
  await expect
    .poll(async () =>
      (await draftsOnDevice(page))
        .filter((draft) => draft.owner === 'later-typed')
        .map((draft) => draft.texts),
    )
    .toEqual([{ H: '7', M: '55' }]);
});

it('on a device that cannot keep drafts, says so in the table, asks before the page is left, and still saves', async () => {
  const { page } = await alices(() => {
    // A browser that keeps no IndexedDB for the page (some private modes).
    Object.defineProperty(window, 'indexedDB', { value: undefined, configurable: true });
  });
  await openTable(page, served.sheetUrl());
  await typeIn(page, 'A-SUBSOIL', 'Horas', '5');
  await page
    .getByRole('status')
    .getByText('This device cannot keep what you type here: save it before you leave the page.', {
      exact: true,
    })
    .waitFor();
  expect(await asksBeforeLeaving(page)).toBe(true);
  await saved(page);
  expect(await liveMetrics(served.demo(), subsoil().activity)).toMatchObject([{ HORAS: '5.0' }]);
  // Once the save's answer is taken in, leaving no longer asks (read at once, it asked still once
  // in a CI run).
  await expect.poll(() => asksBeforeLeaving(page)).toBe(false);
});

it('restores a draft in pt-BR, said in Portuguese', async () => {
  const context = pages.track(
    await browser().newContext({ locale: 'pt-BR', viewport: { width: 1280, height: 800 } }),
  );
  const { page } = await signedInPage(context, served.origin(), ALICE);
  await openTable(page, served.sheetUrl(), 'Tabela');
  await typeIn(page, 'A-SUBSOIL', 'Horas', '9,5');
  await keptOnDevice(page);
  await page.reload();
  await showTable(page, 'Tabela');
  await expect.poll(() => cell(page, 'A-SUBSOIL', 'Horas').inputValue()).toBe('9,5');
  await page
    .getByRole('status')
    .getByText(
      'Os valores digitados neste aparelho e ainda não salvos voltaram em 1 linha. Salvar alterações grava esses valores; Esc numa célula desfaz.',
      { exact: true },
    )
    .waitFor();
});
