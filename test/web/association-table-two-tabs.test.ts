import type { Locator, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import {
  asksBeforeLeaving,
  description,
  discardTyped,
  draftsOnDevice,
  holdDraftWrites,
  holdRequests,
  holdSheetReads,
  keptOnDevice,
  loseSaveAnswers,
  openTable,
  showTable,
  useBrowser,
  usePageChecks,
} from '../support/browser.js';
import {
  liveMetrics,
  saveAsProgram,
  signedInPage,
  useBareActivity,
  useServedScreen,
} from '../support/demo.js';

/*
 * Two tabs of one person (Alice) on one sheet, in real Chromium, in English on a desktop: what one
 * tab typed in an activity's draft is never dropped, nor written over with older cells, by what the
 * other does (the table's Escape, the modal's Cancel, the modal's typing while the table is hidden);
 * nor, in one tab, by a read of the table's rows answered after a save of them. And in one tab, the
 * three views of an entry (the tree's line, the table's row, the modal) agree with what is stored
 * after the other view saved, removed or met a conflict: none shows a value nobody holds as saved,
 * and none starts a save from it.
 */

const browser = useBrowser();
const pages = usePageChecks();
const served = useServedScreen(9);
const subsoil = useBareActivity(served, 'A-SUBSOIL', 'G-SOIL');
const spray = useBareActivity(served, 'A-SPRAY', 'G-CARE');
const ALICE = 7;
const SOIL_PATH = ['S-NORTH — North field', 'G-SOIL — Soil preparation'];
const SPRAY_PATH = ['S-SOUTH — South field', 'G-CARE — Crop care'];

const cell = (page: Page, activity: string, metric: string) =>
  page
    .getByRole('grid')
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${activity}`) }) })
    .getByRole('textbox', { name: metric, exact: true });

async function typeIn(page: Page, activity: string, metric: string, text: string) {
  await cell(page, activity, metric).click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(text);
  expect(await cell(page, activity, metric).inputValue()).toBe(text);
}

/** Two tabs of Alice's in one browser (one device: one drafts' store). */
async function twoTabs() {
  const context = pages.track(
    await browser().newContext({ locale: 'en', viewport: { width: 1280, height: 800 } }),
  );
  const { page: a } = await signedInPage(context, served.origin(), ALICE);
  const { page: b } = await signedInPage(context, served.origin(), ALICE);
  return { a, b };
}

/** Shows the tree (the switch's button `treeName`, by the page's language) open down to `path`. */
async function expand(page: Page, path: readonly string[], treeName = 'Tree') {
  const tree = page.getByRole('button', { name: treeName, exact: true });
  if ((await tree.getAttribute('aria-pressed')) !== 'true') await tree.click();
  for (const name of path) {
    const item = page.getByRole('treeitem', { name }).first();
    if ((await item.getAttribute('aria-expanded')) !== 'true')
      await item.locator(':scope > .ta-screen__row').click();
    await item.getByRole('group').first().waitFor();
  }
}

/** Opens the tree (leaving the table) down to an activity and clicks it: its dialog. */
async function openModal(page: Page, path: readonly string[], label: string, treeName = 'Tree') {
  await expand(page, path, treeName);
  await page
    .getByRole('treeitem', { name: new RegExp(`^${label}`) })
    .first()
    .locator(':scope > .ta-screen__row')
    .click();
  const dialog = page.getByRole('dialog', { name: label });
  await dialog.waitFor();
  return dialog;
}

it('keeps what tab B typed in a row when tab A takes its own cell of the row back with Escape', async () => {
  const { a, b } = await twoTabs();
  await openTable(a, served.sheetUrl());
  await openTable(b, served.sheetUrl());
  await typeIn(a, 'A-SUBSOIL', 'Quantidade', '12.5');
  await keptOnDevice(a);
  await typeIn(b, 'A-SUBSOIL', 'Horas', '9');
  await keptOnDevice(b);
  // B's write joined A's Quantidade: the device holds both.
  await expect
    .poll(async () => (await draftsOnDevice(b))[0]?.texts)
    .toEqual({ METRICA1: '12.5', HORAS: '9' });

  await a.bringToFront();
  await cell(a, 'A-SUBSOIL', 'Quantidade').click();
  await a.keyboard.press('Escape');
  await a.keyboard.press('Escape');
  expect(await cell(a, 'A-SUBSOIL', 'Quantidade').inputValue()).toBe('0.80');
  await keptOnDevice(a);

  // Tab B says its Horas 9 is kept (no question before leaving): it is, and comes back after a reload.
  await b.bringToFront();
  expect(await description(cell(b, 'A-SUBSOIL', 'Horas'))).toBe('Changed, not saved yet');
  expect(await asksBeforeLeaving(b)).toBe(false);
  await expect
    .poll(async () => (await draftsOnDevice(b)).map((draft) => draft.texts))
    .toEqual([{ HORAS: '9' }]);
  await b.reload();
  await showTable(b);
  await expect.poll(() => cell(b, 'A-SUBSOIL', 'Horas').inputValue()).toBe('9');
  expect(await cell(b, 'A-SUBSOIL', 'Quantidade').inputValue()).toBe('0.80');
});

it('keeps what tab A typed later in a cell when tab B, whose row showed the cell’s older draft, types in another cell of the row', async () => {
  const { a, b } = await twoTabs();
  await openTable(a, served.sheetUrl());
  await typeIn(a, 'A-SUBSOIL', 'Quantidade', '12.5');
  await keptOnDevice(a);
  // Tab B reads the table after it: its row shows A's draft, Quantidade 12.5.
  await openTable(b, served.sheetUrl());
  await expect.poll(() => cell(b, 'A-SUBSOIL', 'Quantidade').inputValue()).toBe('12.5');

  // A types 20 over it, later, and is closed.
  await a.bringToFront();
  await typeIn(a, 'A-SUBSOIL', 'Quantidade', '20');
  await keptOnDevice(a);
  await a.close();

  // B types Horas 9 in the row: its write does not put its older Quantidade over A's 20, and its
  // row shows the 20.
  await b.bringToFront();
  await typeIn(b, 'A-SUBSOIL', 'Horas', '9');
  await keptOnDevice(b);
  await expect.poll(() => cell(b, 'A-SUBSOIL', 'Quantidade').inputValue()).toBe('20');
  await expect
    .poll(async () => (await draftsOnDevice(b)).map((draft) => draft.texts))
    .toEqual([{ METRICA1: '20', HORAS: '9' }]);
  await b.reload();
  await showTable(b);
  await expect.poll(() => cell(b, 'A-SUBSOIL', 'Quantidade').inputValue()).toBe('20');
  expect(await cell(b, 'A-SUBSOIL', 'Horas').inputValue()).toBe('9');
});

/** Types `text` over what a dialog's field `name` holds. */
async function typeField(page: Page, dialog: Locator, name: string, text: string) {
  await page.bringToFront();
  await dialog.getByRole('textbox', { name, exact: true }).click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(text);
}

it('keeps what tab A typed later in a field when tab B’s form, saving as the device joined it, keeps its older state after the save failed', async () => {
  const { a, b } = await twoTabs();
  const soil = async (page: Page) => {
    await page.goto(served.sheetUrl());
    return openModal(page, SOIL_PATH, 'A-SUBSOIL — Subsoiling');
  };
  const quantity = (dialog: Locator) => dialog.getByRole('textbox', { name: 'Quantidade', exact: true });
  const first = await soil(a);
  await typeField(a, first, 'Quantidade', '12.5');
  await keptOnDevice(a);
  const second = await soil(b);
  expect(await quantity(second).inputValue()).toBe('12.5');
  await typeField(a, first, 'Quantidade', '20');
  await keptOnDevice(a);

  // B types Horas 9 and saves; the device is slow to write, so B's draft is joined with A's later
  // 20 while the save is out (the busy form does not take it), and the save fails (the server's
  // own failure).
  const failing = await holdRequests(b, (url) => url.pathname === '/associationtask', {
    which: (request) => request.method() === 'PUT',
    pass: 'fallback',
    reply: (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: '{"error":{"code":"INTERNAL_ERROR","message":"boom"}}',
      }),
  });
  const { release } = await holdDraftWrites(a);
  await typeField(b, second, 'Horas', '9');
  const put = b.waitForRequest((request) => request.method() === 'PUT');
  await second.getByRole('button', { name: 'Save', exact: true }).click();
  await put;
  await release();
  await expect
    .poll(async () => (await draftsOnDevice(b)).map((draft) => draft.texts))
    .toEqual([{ METRICA1: '20', HORAS: '9' }]);
  failing.release();
  await second
    .getByRole('alert')
    .filter({ hasText: /^Not saved/ })
    .waitFor();

  // B's form still shows its 12.5 (typed before A's 20) and keeps what it holds as B is hidden:
  // the 20 stays on the device, and B's form takes it.
  await a.bringToFront();
  await b.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await keptOnDevice(b);
  await expect.poll(() => quantity(second).inputValue()).toBe('20');
  await typeField(a, first, 'Pessoas', '3');
  await keptOnDevice(a);
  expect(await quantity(first).inputValue()).toBe('20');
  await expect
    .poll(async () => (await draftsOnDevice(a)).map((draft) => draft.texts))
    .toEqual([{ METRICA1: '20', HORAS: '9', METRICA2: '3' }]);
});

it('keeps a value typed back in one keystroke in a cell that had taken what another tab typed later', async () => {
  const { a, b } = await twoTabs();
  await openTable(a, served.sheetUrl());
  await typeIn(a, 'A-SUBSOIL', 'Quantidade', '5');
  await keptOnDevice(a);
  await openTable(b, served.sheetUrl());
  await expect.poll(() => cell(b, 'A-SUBSOIL', 'Quantidade').inputValue()).toBe('5');
  await b.bringToFront();
  await typeIn(b, 'A-SUBSOIL', 'Quantidade', '7');
  await keptOnDevice(b);
  // A types Horas 9: its row takes B's later 7.
  await a.bringToFront();
  await typeIn(a, 'A-SUBSOIL', 'Horas', '9');
  await keptOnDevice(a);
  await expect.poll(() => cell(a, 'A-SUBSOIL', 'Quantidade').inputValue()).toBe('7');

  // The person in A types 5 again, in one keystroke: the latest typing, kept as shown.
  await typeIn(a, 'A-SUBSOIL', 'Quantidade', '5');
  await keptOnDevice(a);
  await expect
    .poll(async () => (await draftsOnDevice(a)).map((draft) => draft.texts))
    .toEqual([{ METRICA1: '5', HORAS: '9' }]);
  expect(await cell(a, 'A-SUBSOIL', 'Quantidade').inputValue()).toBe('5');
  await a.reload();
  await showTable(a);
  await expect.poll(() => cell(a, 'A-SUBSOIL', 'Quantidade').inputValue()).toBe('5');
});

it('keeps a value typed again in the modal after it was typed back to what the field showed, over what another tab typed meanwhile', async () => {
  const { a, b } = await twoTabs();
  await a.goto(served.sheetUrl());
  const dialog = await openModal(a, SOIL_PATH, 'A-SUBSOIL — Subsoiling');
  const quantity = dialog.getByRole('textbox', { name: 'Quantidade', exact: true });
  await typeField(a, dialog, 'Quantidade', '5');
  await keptOnDevice(a);
  // Put back to what it showed in one input (pasted): nothing typed is left, and the draft goes.
  await quantity.fill('0.80');
  await expect.poll(async () => (await draftsOnDevice(a)).length).toBe(0);
  await openTable(b, served.sheetUrl());
  await typeIn(b, 'A-SUBSOIL', 'Quantidade', '7');
  await keptOnDevice(b);

  // The person types 5 again in A's form, in one keystroke, after B's 7: the latest typing.
  await typeField(a, dialog, 'Quantidade', '5');
  await keptOnDevice(a);
  await expect
    .poll(async () => (await draftsOnDevice(a)).map((draft) => draft.texts))
    .toEqual([{ METRICA1: '5' }]);
  expect(await quantity.inputValue()).toBe('5');
});

it('keeps what tab B typed last in a cell when the device’s clock was set back between the two tabs’ typing', async () => {
  const { a, b } = await twoTabs();
  // The device's clock as both tabs read it, moved by the test (a clock running fast, then set
  // right by network time).
  const clock = `(() => {
    const Real = Date;
    const skew = () => Number(localStorage.getItem('test-clock-skew') ?? '0');
    class Skewed extends Real {
      constructor(...args) { if (args.length === 0) super(Real.now() + skew()); else super(...args); }
      static now() { return Real.now() + skew(); }
    }
    window.Date = Skewed;
  })();`;
  await a.context().addInitScript(clock);
  const skew = (ms: number) => a.evaluate((ms) => localStorage.setItem('test-clock-skew', String(ms)), ms);
  await openTable(a, served.sheetUrl());
  await skew(10 * 60_000);
  await typeIn(a, 'A-SUBSOIL', 'Quantidade', '12.5');
  await keptOnDevice(a);
  await openTable(b, served.sheetUrl());
  await expect.poll(() => cell(b, 'A-SUBSOIL', 'Quantidade').inputValue()).toBe('12.5');
  await skew(0);

  // B types 20 over it (after A's 12.5, though stamped ten minutes before it); A, still showing
  // 12.5, types Horas 9; B types Pessoas 3. B's 20 is the cell's draft throughout.
  await b.bringToFront();
  await typeIn(b, 'A-SUBSOIL', 'Quantidade', '20');
  await keptOnDevice(b);
  await a.bringToFront();
  await typeIn(a, 'A-SUBSOIL', 'Horas', '9');
  await keptOnDevice(a);
  await expect.poll(() => cell(a, 'A-SUBSOIL', 'Quantidade').inputValue()).toBe('20');
  await b.bringToFront();
  await typeIn(b, 'A-SUBSOIL', 'Pessoas', '3');
  await keptOnDevice(b);
  expect(await cell(b, 'A-SUBSOIL', 'Quantidade').inputValue()).toBe('20');
  await expect
    .poll(async () => (await draftsOnDevice(b)).map((draft) => draft.texts))
    .toEqual([{ METRICA1: '20', HORAS: '9', METRICA2: '3' }]);
});

it('keeps what a tab typed last in a cell over an older state of it written by a tab of an earlier release, which kept no times of fields', async () => {
  const { a } = await twoTabs();
  await openTable(a, served.sheetUrl());
  await typeIn(a, 'A-SUBSOIL', 'Quantidade', '12.5');
  await keptOnDevice(a);
  await typeIn(a, 'A-SUBSOIL', 'Quantidade', '20');
  await keptOnDevice(a);
  // A tab of the earlier release, whose row still showed 12.5, types Horas 9: its write, as that
  // release made it, holds no field times, and its fields win whole.
  await a.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const opening = indexedDB.open('task-association-drafts');
        opening.onerror = () => reject(opening.error);
        opening.onsuccess = () => {
          const db = opening.result;
          const tx = db.transaction('drafts', 'readwrite');
          const store = tx.objectStore('drafts');
          const all = store.getAll();
          all.onsuccess = () => {
            const draft = all.result[0];
            const { at: _at, ...older } = { ...draft.fields.METRICA1, text: '12.5' };
            store.put({
              ...draft,
              typedAt: new Date().toISOString(),
              fields: { METRICA1: older, HORAS: { text: '9', base: null, preset: null } },
            });
          };
          tx.oncomplete = () => {
            db.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
  );
  await typeIn(a, 'A-SUBSOIL', 'Pessoas', '3');
  await keptOnDevice(a);
  expect(await cell(a, 'A-SUBSOIL', 'Quantidade').inputValue()).toBe('20');
  await expect
    .poll(async () => (await draftsOnDevice(a)).map((draft) => draft.texts))
    .toEqual([{ METRICA1: '20', HORAS: '9', METRICA2: '3' }]);
});

it('does not bring back in tab B a cell tab A took back with Escape, tab A closed before the device removed it', async () => {
  const { a, b } = await twoTabs();
  await openTable(a, served.sheetUrl());
  await openTable(b, served.sheetUrl());
  await typeIn(a, 'A-SUBSOIL', 'Horas', '55');
  await keptOnDevice(a);

  // Another tab holds the drafts' database: the removal tab A's Escape asks for waits behind it,
  // and is lost when tab A is closed. The device still holds Horas 55.
  const { page: holder } = await signedInPage(a.context(), served.origin(), ALICE);
  await openTable(holder, served.sheetUrl());
  const { release: letGo, held } = await holdDraftWrites(holder);
  await a.bringToFront();
  await cell(a, 'A-SUBSOIL', 'Horas').click();
  await a.keyboard.press('Escape');
  await a.keyboard.press('Escape');
  expect(await cell(a, 'A-SUBSOIL', 'Horas').inputValue()).toBe('8.0');
  expect(await asksBeforeLeaving(a)).toBe(false);
  await a.close();
  // The removal was lost with tab A: the device still holds the 55.
  expect(await held()).toEqual([{ texts: { HORAS: '55' } }]);
  await letGo();
  await holder.close();

  // Tab B, which never read the 55, types in the same row: its write does not take the dropped 55
  // from the device's record.
  await b.bringToFront();
  await typeIn(b, 'A-SUBSOIL', 'Quantidade', '3');
  await keptOnDevice(b);
  await expect
    .poll(async () => (await draftsOnDevice(b)).map((draft) => draft.texts))
    .toEqual([{ METRICA1: '3' }]);
  expect(await cell(b, 'A-SUBSOIL', 'Horas').inputValue()).toBe('8.0');
  await b.reload();
  await showTable(b);
  await expect.poll(() => cell(b, 'A-SUBSOIL', 'Quantidade').inputValue()).toBe('3');
  expect(await cell(b, 'A-SUBSOIL', 'Horas').inputValue()).toBe('8.0');
});

it('names the person’s own save in another tab as theirs at a cell it met as a conflict', async () => {
  const { a, b } = await twoTabs();
  await openTable(a, served.sheetUrl());
  await openTable(b, served.sheetUrl());
  await typeIn(a, 'A-SUBSOIL', 'Quantidade', '12.5');
  await a.getByRole('button', { name: 'Save changes', exact: true }).click();
  await expect.poll(() => description(cell(a, 'A-SUBSOIL', 'Quantidade'))).toBe('Saved value');

  await b.bringToFront();
  await typeIn(b, 'A-SUBSOIL', 'Quantidade', '13');
  await b.getByRole('button', { name: 'Save changes', exact: true }).click();
  await expect
    .poll(() => description(cell(b, 'A-SUBSOIL', 'Quantidade')))
    .toMatch(
      /^Changed meanwhile by you \(in another tab, on another device or through a program\), .+: stored now 12\.50\.$/,
    );
  await b
    .getByRole('alert')
    .getByText(/^Not saved: 1 cell changed meanwhile \(marked\)/)
    .waitFor();
  expect(await liveMetrics(served.demo(), subsoil().activity)).toMatchObject([{ METRICA1: '12.50' }]);
});

it('keeps a draft discarded with Cancel discarded when the modal’s next write takes in what tab B typed elsewhere', async () => {
  const { a, b } = await twoTabs();
  await openTable(a, served.sheetUrl());
  await b.goto(served.sheetUrl());
  await b.getByRole('tree').waitFor();
  await typeIn(a, 'A-SUBSOIL', 'Quantidade', '12.5');
  await keptOnDevice(a);

  // Tab B types Pessoas 3 in Spraying's modal and closes it with Esc: kept as its draft.
  await b.bringToFront();
  const other = await openModal(b, SPRAY_PATH, 'A-SPRAY — Spraying');
  await other.getByRole('textbox', { name: 'Pessoas', exact: true }).fill('3');
  await keptOnDevice(b);
  await b.keyboard.press('Escape');
  await other.waitFor({ state: 'hidden' });

  // Tab A: Subsoiling's modal shows the table's 12.5; Cancel discards it.
  await a.bringToFront();
  const soil = await openModal(a, SOIL_PATH, 'A-SUBSOIL — Subsoiling');
  await expect
    .poll(() => soil.getByRole('textbox', { name: 'Quantidade', exact: true }).inputValue())
    .toBe('12.5');
  await soil.getByRole('button', { name: 'Cancel', exact: true }).click();
  await discardTyped(a);
  await soil.waitFor({ state: 'hidden' });

  // Tab A types Horas 9 in Spraying's modal: its write takes in tab B's Pessoas 3.
  const spray = await openModal(a, SPRAY_PATH, 'A-SPRAY — Spraying');
  await spray.getByRole('textbox', { name: 'Horas', exact: true }).fill('9');
  await expect
    .poll(() => spray.getByRole('textbox', { name: 'Pessoas', exact: true }).inputValue())
    .toBe('3');
  await keptOnDevice(a);
  await a.keyboard.press('Escape');
  await spray.waitFor({ state: 'hidden' });
  await keptOnDevice(a);

  // What was discarded stays discarded: in the tree, on the device, in the table, and in a Save.
  const soilItem = a.getByRole('treeitem', { name: /^A-SUBSOIL — Subsoiling/ }).first();
  expect(await soilItem.textContent()).not.toContain('Draft, not saved');
  expect((await draftsOnDevice(a)).map((draft) => draft.texts)).toEqual([{ METRICA2: '3', HORAS: '9' }]);
  await showTable(a);
  expect(await cell(a, 'A-SUBSOIL', 'Quantidade').inputValue()).toBe('0.80');
  const answer = a.waitForResponse((response) => response.request().method() === 'PUT');
  await a.getByRole('button', { name: 'Save changes', exact: true }).click();
  expect((await answer).status()).toBe(200);
  expect(await liveMetrics(served.demo(), subsoil().activity)).toEqual([]);
});

it('keeps what was typed last in the modal when its write takes in what tab B typed: the hidden table does not write its older cell over it', async () => {
  const { a, b } = await twoTabs();
  await openTable(a, served.sheetUrl());
  await openTable(b, served.sheetUrl());
  await typeIn(a, 'A-SUBSOIL', 'Quantidade', '12.5');
  await keptOnDevice(a);
  await b.bringToFront();
  await typeIn(b, 'A-SUBSOIL', 'Horas', '9');
  await keptOnDevice(b);

  // Tab A's modal of the activity: Quantidade 12.5 replaced with 5; tab B's Horas 9 joins the form.
  await a.bringToFront();
  const dialog = await openModal(a, SOIL_PATH, 'A-SUBSOIL — Subsoiling');
  const quantity = dialog.getByRole('textbox', { name: 'Quantidade', exact: true });
  await expect.poll(() => quantity.inputValue()).toBe('12.5');
  await quantity.click();
  await a.keyboard.press('ControlOrMeta+A');
  await a.keyboard.type('5');
  await expect.poll(() => dialog.getByRole('textbox', { name: 'Horas', exact: true }).inputValue()).toBe('9');
  await keptOnDevice(a);
  expect(await quantity.inputValue()).toBe('5');
  await a.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  await keptOnDevice(a);

  // The draft is what was typed last: on the device, in the modal opened again, in the table.
  expect((await draftsOnDevice(a)).map((draft) => draft.texts)).toEqual([{ METRICA1: '5', HORAS: '9' }]);
  const again = await openModal(a, SOIL_PATH, 'A-SUBSOIL — Subsoiling');
  expect(await again.getByRole('textbox', { name: 'Quantidade', exact: true }).inputValue()).toBe('5');
  await a.keyboard.press('Escape');
  await again.waitFor({ state: 'hidden' });
  await showTable(a);
  await expect.poll(() => cell(a, 'A-SUBSOIL', 'Quantidade').inputValue()).toBe('5');
  expect(await cell(a, 'A-SUBSOIL', 'Horas').inputValue()).toBe('9');
});

it('shows what the modal stored in a row left with what tab B typed as its draft, and Save changes stores the rest', async () => {
  const { a, b } = await twoTabs();
  // Tab A read the table once (nothing typed in it), then types Quantidade 12.5 in the modal.
  await openTable(a, served.sheetUrl());
  expect(await cell(a, 'A-SUBSOIL', 'Quantidade').inputValue()).toBe('0.80');
  const dialog = await openModal(a, SOIL_PATH, 'A-SUBSOIL — Subsoiling');
  await dialog.getByRole('textbox', { name: 'Quantidade', exact: true }).fill('12.5');
  await keptOnDevice(a);
  // Tab B types Horas 9 in the activity's row (its write takes in A's Quantidade).
  await openTable(b, served.sheetUrl());
  await typeIn(b, 'A-SUBSOIL', 'Horas', '9');
  await keptOnDevice(b);

  // Tab A saves its form: Quantidade 12.50 stored; Horas 9, typed in tab B, stays the draft.
  await a.bringToFront();
  const put = a.waitForResponse((response) => response.request().method() === 'PUT');
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  expect((await put).status()).toBe(200);
  await dialog.waitFor({ state: 'hidden' });
  await keptOnDevice(a);

  // The table shown again reads the row: what the modal stored, and Horas 9 as typed.
  await showTable(a);
  await expect.poll(() => cell(a, 'A-SUBSOIL', 'Quantidade').inputValue()).toBe('12.50');
  expect(await description(cell(a, 'A-SUBSOIL', 'Quantidade'))).toBe('Saved value');
  expect(await cell(a, 'A-SUBSOIL', 'Horas').inputValue()).toBe('9');
  const saved = a.waitForResponse((response) => response.request().method() === 'PUT');
  await a.getByRole('button', { name: 'Save changes', exact: true }).click();
  expect((await saved).status()).toBe(200);
  expect(await liveMetrics(served.demo(), subsoil().activity)).toMatchObject([
    { METRICA1: '12.50', HORAS: '9.0' },
  ]);
});

it('keeps a row as Save changes stored it when the read again started as the table showed answers after the save', async () => {
  // No service worker: the page's own requests, which the test holds, are what it reads with.
  const context = pages.track(
    await browser().newContext({
      locale: 'en',
      viewport: { width: 1280, height: 800 },
      serviceWorkers: 'block',
    }),
  );
  const { page: a } = await signedInPage(context, served.origin(), ALICE);
  await openTable(a, served.sheetUrl());
  expect(await cell(a, 'A-SUBSOIL', 'Quantidade').inputValue()).toBe('0.80');
  await typeIn(a, 'A-SUBSOIL', 'Quantidade', '12.5');
  await keptOnDevice(a);

  // The modal changes Subsoiling's draft (12.5 -> 5), closed with Esc: kept as the draft.
  const soil = await openModal(a, SOIL_PATH, 'A-SUBSOIL — Subsoiling');
  const quantity = soil.getByRole('textbox', { name: 'Quantidade', exact: true });
  await expect.poll(() => quantity.inputValue()).toBe('12.5');
  await quantity.click();
  await a.keyboard.press('ControlOrMeta+A');
  await a.keyboard.type('5');
  await keptOnDevice(a);
  await a.keyboard.press('Escape');
  await soil.waitFor({ state: 'hidden' });
  await keptOnDevice(a);

  // The modal stores something in another activity: the table's sheet is stale.
  const spray = await openModal(a, SPRAY_PATH, 'A-SPRAY — Spraying');
  await spray.getByRole('textbox', { name: 'Horas', exact: true }).fill('9');
  const put = a.waitForResponse((response) => response.request().method() === 'PUT');
  await spray.getByRole('button', { name: 'Save', exact: true }).click();
  expect((await put).status()).toBe(200);
  await spray.waitFor({ state: 'hidden' });

  // A slow network: the read of the sheet is answered by the server at once, delivered late.
  const reads = await holdSheetReads(a);

  await showTable(a);
  await expect.poll(() => cell(a, 'A-SUBSOIL', 'Quantidade').inputValue()).toBe('5');
  await reads.arrived; // the row's read again is out (answered with what is stored before the save)

  // The person saves at once: Quantidade 5 stored.
  const saved = a.waitForResponse((response) => response.request().method() === 'PUT');
  await a.getByRole('button', { name: 'Save changes', exact: true }).click();
  expect((await saved).status()).toBe(200);
  await expect.poll(() => description(cell(a, 'A-SUBSOIL', 'Quantidade'))).toBe('Saved value');
  expect(await cell(a, 'A-SUBSOIL', 'Quantidade').inputValue()).toBe('5.00');
  expect(await liveMetrics(served.demo(), subsoil().activity)).toMatchObject([{ METRICA1: '5.00' }]);

  // The late answer of the read arrives: the row must still show what is stored.
  const late = a.waitForResponse((response) => /part=sheet/.test(response.url()));
  reads.release();
  await late;
  await a.waitForTimeout(500);
  expect(await cell(a, 'A-SUBSOIL', 'Quantidade').inputValue()).toBe('5.00');
  expect(await description(cell(a, 'A-SUBSOIL', 'Quantidade'))).toBe('Saved value');
});

/** Someone else's save through the API (as a program), `body` one entry. */
async function meanwhile(body: unknown) {
  await saveAsProgram(served.demo(), served.origin(), 9, [body]);
}

it('shows what a row’s read again found when the read answers after a Save of the row was refused for a conflict', async () => {
  await meanwhile({ ...subsoil(), values: { METRICA1: '31.00', METRICA2: 5, HORAS: '7.0' } });
  const context = pages.track(
    await browser().newContext({
      locale: 'pt-BR',
      viewport: { width: 1280, height: 800 },
      serviceWorkers: 'block',
    }),
  );
  const { page, puts } = await signedInPage(context, served.origin(), 7);
  const grid = await openTable(page, served.sheetUrl(), 'Tabela');
  const row = grid.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /^A-SUBSOIL/ }) });
  const quantity = row.getByRole('textbox', { name: 'Quantidade', exact: true });
  const hours = row.getByRole('textbox', { name: 'Horas', exact: true });
  await expect.poll(() => hours.inputValue()).toBe('7,0');

  // The first PUT is stored, then someone changes Horas to 9, then the PUT's answer is lost.
  const lost = await loseSaveAnswers(context, false);
  lost.lose(() => meanwhile({ ...subsoil(), values: { HORAS: '9.0' }, base: { HORAS: '7.0' }, row: true }));
  // Reads of rows: answered by the server at once, delivered when the test says.
  const reads = await holdSheetReads(page);

  await quantity.fill('32');
  const save = page.getByRole('button', { name: 'Salvar alterações', exact: true });
  await save.click();
  // Sent again from the outbox: the replayed answer (Horas 7,0 of back then); the row is read again.
  await expect.poll(() => puts.length).toBe(2);
  await expect.poll(() => reads.count).toBe(1);
  expect(await liveMetrics(served.demo(), subsoil().activity)).toMatchObject([
    { METRICA1: '32.00', HORAS: '9.0' },
  ]);
  await expect.poll(() => save.isEnabled()).toBe(true);
  // The replayed answer's Horas of back then shows until the read lands.
  expect(await hours.inputValue()).toBe('7,0');

  // Someone changes Quantidade; the person types in it and saves: refused for the conflict.
  await meanwhile({ ...subsoil(), values: { METRICA1: '40.00' }, base: { METRICA1: '32.00' }, row: true });
  await quantity.fill('33');
  const refused = page.waitForResponse((answer) => answer.request().method() === 'PUT');
  await save.click();
  expect((await refused).status()).toBe(409);
  await expect.poll(() => save.isEnabled()).toBe(true);

  // The read's answer arrives (Horas 9,0, what is stored): the row must show it.
  const late = page.waitForResponse((answer) => /part=sheet/.test(answer.url()));
  reads.release();
  await late;
  expect(await liveMetrics(served.demo(), subsoil().activity)).toMatchObject([{ HORAS: '9.0' }]);
  await expect.poll(() => hours.inputValue()).toBe('9,0');
});

it('reads a row asked for under a new read of the table while an older read of it is out', async () => {
  await meanwhile({ ...subsoil(), values: { METRICA1: '31.00', METRICA2: 5, HORAS: '7.0' } });
  const context = pages.track(
    await browser().newContext({
      locale: 'en',
      viewport: { width: 1280, height: 800 },
      serviceWorkers: 'block',
    }),
  );
  const { page, puts } = await signedInPage(context, served.origin(), 7);
  const grid = await openTable(page, served.sheetUrl());
  const row = grid.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /^A-SUBSOIL/ }) });
  const quantity = row.getByRole('textbox', { name: 'Quantidade', exact: true });
  const hours = row.getByRole('textbox', { name: 'Horas', exact: true });
  await expect.poll(() => hours.inputValue()).toBe('7.0');

  // A PUT asked to be lost is stored, and its answer never reaches the page.
  const lost = await loseSaveAnswers(context, false);
  // The first read of a row is answered by the server at once and delivered when the test says.
  const reads = await holdSheetReads(page, 1);

  // Quantidade 32, its answer lost: sent again from the outbox, the replayed answer, the row read (held).
  lost.lose();
  await quantity.fill('32');
  const save = page.getByRole('button', { name: 'Save changes', exact: true });
  await save.click();
  await expect.poll(() => puts.length).toBe(2);
  await expect.poll(() => reads.count).toBe(1);
  await expect.poll(() => save.isEnabled()).toBe(true);

  // The modal stores Horas of another activity: the table, with nothing changed, is read anew when shown.
  await page.getByRole('button', { name: 'Tree', exact: true }).click();
  for (const name of ['S-SOUTH — South field', 'G-CARE — Crop care']) {
    const item = page.getByRole('treeitem', { name }).first();
    if ((await item.getAttribute('aria-expanded')) !== 'true')
      await item.locator(':scope > .ta-screen__row').click();
    await item.getByRole('group').first().waitFor();
  }
  await page
    .getByRole('treeitem', { name: /^A-SPRAY/ })
    .first()
    .locator(':scope > .ta-screen__row')
    .click();
  const dialog = page.getByRole('dialog', { name: 'A-SPRAY — Spraying' });
  await dialog.getByRole('textbox', { name: 'Horas', exact: true }).fill('4');
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
  expect(await liveMetrics(served.demo(), spray().activity)).toMatchObject([{ HORAS: '4.0' }]);
  await page.getByRole('button', { name: 'Table', exact: true }).click();
  await expect.poll(() => reads.count).toBe(2);
  await expect.poll(() => quantity.inputValue()).toBe('32.00');

  // Quantidade 33, its answer lost; stored, then someone changes Horas to 9: the replayed answer
  // says Horas 7.0 of back then, and the row is to be read again (its first read still out).
  lost.lose(() => meanwhile({ ...subsoil(), values: { HORAS: '9.0' }, base: { HORAS: '7.0' }, row: true }));
  await quantity.fill('33');
  await save.click();
  await expect.poll(() => puts.length).toBe(5);
  await expect.poll(() => save.isEnabled()).toBe(true);
  expect(await liveMetrics(served.demo(), subsoil().activity)).toMatchObject([
    { METRICA1: '33.00', HORAS: '9.0' },
  ]);

  // The first read's answer arrives (of the older table): the row is read for the newer, Horas 9.0.
  reads.release();
  await expect.poll(() => hours.inputValue()).toBe('9.0');
});

/** One page of Alice's: English on a desktop, or Portuguese on a phone. */
async function onePage(how: 'desktop' | 'phone' = 'desktop') {
  const context = pages.track(
    await browser().newContext(
      how === 'phone'
        ? { locale: 'pt-BR', viewport: { width: 390, height: 844 } }
        : { locale: 'en', viewport: { width: 1280, height: 800 } },
    ),
  );
  return signedInPage(context, served.origin(), ALICE);
}

/** A slow uplink: the page's saves reach the server only once the returned function lets them go. */
async function holdSaves(page: Page): Promise<() => void> {
  const { release } = await holdRequests(page, (url) => url.pathname === '/associationtask', {
    which: (request) => request.method() === 'PUT',
    pass: 'fallback',
    // Once released, a save goes straight to the server, past the page's other routes.
    reply: (route) => route.continue(),
  });
  return release;
}

/** The answer of the next save `page` sends. */
const nextSave = (page: Page) => page.waitForResponse((response) => response.request().method() === 'PUT');

/** The line of an activity in the tree, as read with its name (its chips, its marks). */
const treeLine = (page: Page, activity: string) =>
  page.getByRole('treeitem', { name: new RegExp(`^${activity}`) }).first();

it('shows in the table what applies after the modal removed an entry while the table holds a change in another row', async () => {
  await meanwhile({ ...subsoil(), values: { METRICA1: '31.00', METRICA2: 5, HORAS: '7.0' } });
  const { page, puts } = await onePage();
  await openTable(page, served.sheetUrl());
  expect(await cell(page, 'A-SUBSOIL', 'Quantidade').inputValue()).toBe('31.00');
  await typeIn(page, 'A-SPRAY', 'Horas', '9');

  // Subsoiling's entry removed in the modal (nothing typed in it: no draft says it changed).
  const dialog = await openModal(page, SOIL_PATH, 'A-SUBSOIL — Subsoiling');
  await dialog.getByRole('button', { name: 'Remove entry', exact: true }).click();
  const removed = nextSave(page);
  await page.getByRole('alertdialog').getByRole('button', { name: 'Remove', exact: true }).click();
  expect((await removed).status()).toBe(200);
  await dialog.waitFor({ state: 'hidden' });
  expect(await liveMetrics(served.demo(), subsoil().activity)).toEqual([]);

  // The table shows the defaults that apply now, and keeps the change of the other row.
  await showTable(page);
  const quantity = cell(page, 'A-SUBSOIL', 'Quantidade');
  await expect.poll(() => quantity.inputValue()).toBe('0.80');
  expect(await description(quantity)).toBe('Default: from the activity');
  expect(await cell(page, 'A-SPRAY', 'Horas').inputValue()).toBe('9');

  // Typed in, the row is saved as the new entry it is (no conflict with the entry removed).
  await typeIn(page, 'A-SUBSOIL', 'Pessoas', '4');
  const saved = nextSave(page);
  await page.getByRole('button', { name: 'Save changes', exact: true }).click();
  expect((await saved).status()).toBe(200);
  expect(puts.at(-1)?.entries.find((entry) => entry.activity === subsoil().activity)).toMatchObject({
    row: false,
    values: { METRICA2: 4 },
  });
  expect(await liveMetrics(served.demo(), subsoil().activity)).toEqual([
    { METRICA1: '0.80', METRICA2: 4, HORAS: '8.0' },
  ]);
  expect(await liveMetrics(served.demo(), spray().activity)).toMatchObject([{ HORAS: '9.0' }]);
});

it('shows in the table the entry the modal stored of an activity’s defaults while the table holds a change in another row', async () => {
  const { page, puts } = await onePage();
  await openTable(page, served.sheetUrl());
  await typeIn(page, 'A-SPRAY', 'Horas', '9');

  // Subsoiling has no entry: Save in its modal, nothing typed, stores the defaults it shows.
  const dialog = await openModal(page, SOIL_PATH, 'A-SUBSOIL — Subsoiling');
  const stored = nextSave(page);
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  expect((await stored).status()).toBe(200);
  await dialog.waitFor({ state: 'hidden' });
  expect(await liveMetrics(served.demo(), subsoil().activity)).toEqual([
    { METRICA1: '0.80', METRICA2: 6, HORAS: '8.0' },
  ]);

  await showTable(page);
  const people = cell(page, 'A-SUBSOIL', 'Pessoas');
  await expect.poll(() => description(people)).toBe('Saved value');
  expect(await cell(page, 'A-SPRAY', 'Horas').inputValue()).toBe('9');
  // A change of the row is a change of the entry stored, from what it holds.
  await typeIn(page, 'A-SUBSOIL', 'Pessoas', '4');
  const saved = nextSave(page);
  await page.getByRole('button', { name: 'Save changes', exact: true }).click();
  expect((await saved).status()).toBe(200);
  expect(puts.at(-1)?.entries.find((entry) => entry.activity === subsoil().activity)).toEqual({
    ...subsoil(),
    values: { METRICA2: 4 },
    base: { METRICA2: 6 },
    row: true,
  });
  expect(await liveMetrics(served.demo(), subsoil().activity)).toEqual([
    { METRICA1: '0.80', METRICA2: 4, HORAS: '8.0' },
  ]);
});

it('shows in the table what a conflict of the modal met while the table holds a change in another row', async () => {
  await meanwhile({ ...subsoil(), values: { METRICA1: '31.00', METRICA2: 5, HORAS: '7.0' } });
  const { page } = await onePage();
  await openTable(page, served.sheetUrl());
  expect(await cell(page, 'A-SUBSOIL', 'Pessoas').inputValue()).toBe('5');
  await typeIn(page, 'A-SPRAY', 'Horas', '9');

  // Quantidade 32 in the modal; meanwhile someone else stores Quantidade 40 and Pessoas 8.
  const dialog = await openModal(page, SOIL_PATH, 'A-SUBSOIL — Subsoiling');
  const field = dialog.getByRole('textbox', { name: 'Quantidade', exact: true });
  expect(await field.inputValue()).toBe('31.00');
  await meanwhile({ ...subsoil(), values: { METRICA1: '40.00', METRICA2: 8 }, row: true });
  await field.fill('32');
  const refused = nextSave(page);
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  expect((await refused).status()).toBe(409);
  await dialog.getByRole('button', { name: 'Use theirs for Quantidade', exact: true }).click();
  await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });

  // The table shows what is stored now, never the 31.00 and 5 nobody holds any more as saved, and
  // keeps the change of the other row.
  await showTable(page);
  const quantity = cell(page, 'A-SUBSOIL', 'Quantidade');
  await expect.poll(() => quantity.inputValue()).toBe('40.00');
  expect(await description(quantity)).toBe('Saved value');
  expect(await cell(page, 'A-SUBSOIL', 'Pessoas').inputValue()).toBe('8');
  expect(await cell(page, 'A-SPRAY', 'Horas').inputValue()).toBe('9');
  expect(await liveMetrics(served.demo(), subsoil().activity)).toEqual([
    { METRICA1: '40.00', METRICA2: 8, HORAS: '7.0' },
  ]);
});

it('shows in the tree and the modal the value a conflict of the table met, once taken, and a modal save starts from it (Portuguese, phone)', async () => {
  await meanwhile({ ...subsoil(), values: { METRICA1: '31.00', METRICA2: 5, HORAS: '7.0' } });
  const { page, puts } = await onePage('phone');
  await page.goto(served.sheetUrl());
  await page.getByRole('tree').waitFor();
  await expand(page, SOIL_PATH, 'Árvore');
  const line = treeLine(page, 'A-SUBSOIL');
  expect(await line.textContent()).toContain('Quantidade31,00salvo');

  // Quantidade 32 in the table; meanwhile someone else stores 40. Save is refused; Escape takes 40.
  await showTable(page, 'Tabela');
  await typeIn(page, 'A-SUBSOIL', 'Quantidade', '32');
  await meanwhile({ ...subsoil(), values: { METRICA1: '40.00' }, base: { METRICA1: '31.00' }, row: true });
  const refused = nextSave(page);
  await page.getByRole('button', { name: 'Salvar alterações', exact: true }).click();
  expect((await refused).status()).toBe(409);
  const quantity = cell(page, 'A-SUBSOIL', 'Quantidade');
  await expect.poll(() => description(quantity)).toContain('40,00');
  await quantity.focus();
  await page.keyboard.press('Escape');
  await expect.poll(() => quantity.inputValue()).toBe('40,00');

  // The tree's line and the modal show what is stored, never the 31,00 nobody holds any more.
  await page.getByRole('button', { name: 'Árvore', exact: true }).click();
  await expect.poll(() => line.textContent()).toContain('Quantidade40,00salvo');
  const dialog = await openModal(page, SOIL_PATH, 'A-SUBSOIL — Subsoiling', 'Árvore');
  const field = dialog.getByRole('textbox', { name: 'Quantidade', exact: true });
  expect(await field.inputValue()).toBe('40,00');
  expect(await description(field)).toBe('Valor salvo');
  // A change there starts from 40: stored, with no conflict met again.
  await field.fill('41');
  const saved = nextSave(page);
  await dialog.getByRole('button', { name: 'Salvar', exact: true }).click();
  expect((await saved).status()).toBe(200);
  expect(puts.at(-1)?.entries[0]).toMatchObject({ base: { METRICA1: '40.00' }, row: true });
  expect(await liveMetrics(served.demo(), subsoil().activity)).toEqual([
    { METRICA1: '41.00', METRICA2: 5, HORAS: '7.0' },
  ]);
});

/**
 * Spraying's Horas 9 typed in the table and Save changes pressed on a slow uplink; its modal opened
 * from the tree while that save is out (it shows the table's Horas 9, not saved yet).
 */
async function modalWhileTableSaves(page: Page) {
  await openTable(page, served.sheetUrl());
  await typeIn(page, 'A-SPRAY', 'Horas', '9');
  await keptOnDevice(page);
  const release = await holdSaves(page);
  const tableSave = nextSave(page);
  await page.getByRole('button', { name: 'Save changes', exact: true }).click();
  const dialog = await openModal(page, SPRAY_PATH, 'A-SPRAY — Spraying');
  const hours = dialog.getByRole('textbox', { name: 'Horas', exact: true });
  expect(await hours.inputValue()).toBe('9');
  expect(await description(hours)).toBe('Changed, not saved yet');
  return {
    dialog,
    hours,
    people: dialog.getByRole('textbox', { name: 'Pessoas', exact: true }),
    release,
    tableSave,
  };
}

it('has the modal opened while the table saves its activity start from what that save stored, and save only what is typed after', async () => {
  const { page, puts } = await onePage();
  const { dialog, hours, people, release, tableSave } = await modalWhileTableSaves(page);
  release();
  expect((await tableSave).status()).toBe(200);
  expect(await liveMetrics(served.demo(), spray().activity)).toEqual([
    { METRICA1: '0.60', METRICA2: 6, HORAS: '9.0' },
  ]);

  // The form says what is stored, as an opening now would; its draft is gone.
  await expect.poll(() => description(hours)).toBe('Saved value');
  expect(await hours.inputValue()).toBe('9.0');
  expect(await description(people)).toBe('Saved value');
  expect(await dialog.getByRole('button', { name: 'Remove entry', exact: true }).isVisible()).toBe(true);
  await expect.poll(() => draftsOnDevice(page)).toEqual([]);

  // Pessoas 4, saved: only it is sent, from the value stored; nothing is refused.
  await people.fill('4');
  const saved = nextSave(page);
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  expect((await saved).status()).toBe(200);
  await dialog.waitFor({ state: 'hidden' });
  expect(puts.at(-1)?.entries).toEqual([
    { ...spray(), values: { METRICA2: 4 }, base: { METRICA2: 6 }, row: true },
  ]);
  expect(await liveMetrics(served.demo(), spray().activity)).toEqual([
    { METRICA1: '0.60', METRICA2: 4, HORAS: '9.0' },
  ]);
  await expect.poll(() => treeLine(page, 'A-SPRAY').textContent()).toContain('Pessoas4saved');
  expect(await treeLine(page, 'A-SPRAY').textContent()).not.toContain('Draft, not saved');
  await expect.poll(() => draftsOnDevice(page)).toEqual([]);
});

it('keeps what is typed in the modal while the table saves its activity, and saves it from what that save stored', async () => {
  const { page, puts } = await onePage();
  const { dialog, hours, people, release, tableSave } = await modalWhileTableSaves(page);
  await people.fill('4');
  await keptOnDevice(page);
  release();
  expect((await tableSave).status()).toBe(200);

  // Pessoas stays as typed, over the default the table's save stored as the person saw it.
  await expect.poll(() => description(hours)).toBe('Saved value');
  expect(await people.inputValue()).toBe('4');
  expect(await description(people)).toBe('Changed, not saved yet');
  await expect
    .poll(async () => (await draftsOnDevice(page)).map((draft) => draft.texts))
    .toEqual([{ METRICA2: '4' }]);

  const saved = nextSave(page);
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  expect((await saved).status()).toBe(200);
  expect(puts.at(-1)?.entries).toEqual([
    { ...spray(), values: { METRICA2: 4 }, base: { METRICA2: 6 }, row: true },
  ]);
  expect(await liveMetrics(served.demo(), spray().activity)).toEqual([
    { METRICA1: '0.60', METRICA2: 4, HORAS: '9.0' },
  ]);
  await expect.poll(() => draftsOnDevice(page)).toEqual([]);
});

it('meets as a conflict, in the modal opened while the table saves another field, what someone else stored meanwhile in the field typed', async () => {
  await meanwhile({ ...subsoil(), values: { METRICA1: '31.00', METRICA2: 5, HORAS: '7.0' } });
  const { page } = await onePage();
  await openTable(page, served.sheetUrl());
  await typeIn(page, 'A-SUBSOIL', 'Horas', '9');
  await keptOnDevice(page);
  const release = await holdSaves(page);
  const tableSave = nextSave(page);
  await page.getByRole('button', { name: 'Save changes', exact: true }).click();
  const dialog = await openModal(page, SOIL_PATH, 'A-SUBSOIL — Subsoiling');
  const people = dialog.getByRole('textbox', { name: 'Pessoas', exact: true });
  await people.fill('4');
  // Someone else changes Pessoas; the table's save (Horas only) then stores and answers 6.
  await meanwhile({ ...subsoil(), values: { METRICA2: 6 }, base: { METRICA2: 5 }, row: true });
  release();
  expect((await tableSave).status()).toBe(200);
  await expect
    .poll(() => description(dialog.getByRole('textbox', { name: 'Horas', exact: true })))
    .toBe('Saved value');
  expect(await people.inputValue()).toBe('4');

  // Never taken as the base unseen: the save is refused, and the field shows who stored what.
  const refused = nextSave(page);
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  expect((await refused).status()).toBe(409);
  await expect.poll(() => dialog.getByRole('alert').textContent()).toContain('Pessoas changed meanwhile');
  await expect.poll(() => description(people)).toMatch(/^Changed meanwhile by user 9, /);
  expect(await liveMetrics(served.demo(), subsoil().activity)).toEqual([
    { METRICA1: '31.00', METRICA2: 6, HORAS: '9.0' },
  ]);
});
