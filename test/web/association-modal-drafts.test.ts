import { randomUUID } from 'node:crypto';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { DEMO_TABLES } from '../../src/demo/demo-install.js';
import type { Demo } from '../../src/demo/start-demo.js';
import { seriousViolations } from '../support/axe.js';
import {
  asksBeforeLeaving,
  description,
  draftsOnDevice,
  focused,
  holdDraftsOpening,
  holdDraftWrites,
  holdRequests,
  keptOnDevice,
  openPage,
  useBrowser,
  watchProblems,
} from '../support/browser.js';
import { type listen, seqOfCode, serveScreen, startTestDemo, wipeEntries } from '../support/demo.js';

// What a person types in the metric modal is kept on the device until it is stored or discarded:
// a reload, a closed page or the dialog closed with Esc does not lose it (pt-BR, on a phone).

const browser = useBrowser();
let demo: Demo;
let server: Awaited<ReturnType<typeof listen>> | undefined;
let context: BrowserContext | undefined;
let problems: string[] = [];
const ALICE = 7;
const BOB = 8;
const SEEDER = 11;
const LABEL = 'A-SUBSOIL — Subsoiling';
const DRAFT_MARK = 'Rascunho, não salvo';

beforeAll(async () => {
  demo = await startTestDemo();
  server = await serveScreen(demo, 9);
});
afterAll(async () => {
  await server?.close();
  await demo?.close();
});
beforeEach(async () => {
  await wipeEntries(demo, ['A-SUBSOIL']);
});
afterEach(async () => {
  await context?.close();
  context = undefined;
  expect(problems).toEqual([]);
  problems = [];
});

const origin = () => server?.origin ?? '';
const url = () => `${origin()}/associationtask?taskSheet=${demo.sample.taskSheet}`;

/** A phone's context, signed in as `user`; `init` runs in each page before the screen. */
async function phone(user: number, init?: () => void): Promise<Page> {
  context = await browser().newContext({
    locale: 'pt-BR',
    viewport: { width: 375, height: 812 },
    isMobile: true,
    hasTouch: true,
  });
  if (init) await context.addInitScript(init);
  await signIn(user);
  return newPage();
}

async function signIn(user: number) {
  await context?.addCookies([{ name: 'user', value: String(user), url: origin() }]);
}

async function newPage(): Promise<Page> {
  if (!context) throw new Error('no context');
  const page = await openPage(context);
  watchProblems(page, (problem) => problems.push(problem));
  return page;
}

/** Opens the tree down to A-SUBSOIL (S-NORTH › G-SOIL): its tree item. */
async function reach(page: Page, load = true): Promise<Locator> {
  if (load) await page.goto(url());
  await page.getByRole('tree').waitFor();
  for (const name of ['S-NORTH — North field', 'G-SOIL — Soil preparation']) {
    const item = page.getByRole('treeitem', { name }).first();
    await item.locator(':scope > .ta-screen__row').click();
    await item.getByRole('group').first().waitFor();
  }
  return page.getByRole('treeitem', { name: LABEL }).first();
}

async function openModal(page: Page, load = true): Promise<Locator> {
  const item = await reach(page, load);
  await item.locator(':scope > .ta-screen__row').click();
  const dialog = page.getByRole('dialog', { name: LABEL });
  await dialog.waitFor();
  return dialog;
}

const quantity = (dialog: Locator) => dialog.getByRole('textbox', { name: 'Quantidade', exact: true });

/** Types `text` over what the dialog's field `name` holds. */
async function typeField(page: Page, dialog: Locator, name: string, text: string) {
  const field = dialog.getByRole('textbox', { name, exact: true });
  await field.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type(text);
  expect(await field.inputValue()).toBe(text);
}

const typeQuantity = (page: Page, dialog: Locator, text: string) =>
  typeField(page, dialog, 'Quantidade', text);

/**
 * Two tabs of Alice's on A-SUBSOIL's form: the first types Quantidade 12,5 (kept on the device),
 * the second opens after it and shows that draft.
 */
async function secondTabOnDraft() {
  const first = await phone(ALICE);
  const dialog = await openModal(first);
  await typeQuantity(first, dialog, '12,5');
  await keptOnDevice(first);
  const second = await newPage();
  const other = await openModal(second);
  expect(await quantity(other).inputValue()).toBe('12,5');
  return { first, dialog, second, other };
}

const draftLine = (dialog: Locator) => dialog.getByText(/^Ainda não salvo: digitado neste aparelho em /);

async function storedRows() {
  return demo.scratch.db.query<{ METRICA1: string | null; METRICA2: number | null }>(
    `SELECT m.METRICA1, m.METRICA2 FROM ${DEMO_TABLES.metrics} m JOIN ${demo.names.OPER} o ON o.SEQ_DB = m.OPER_SEQ_DB
      WHERE o.CODIGO = 'A-SUBSOIL' AND m.FOLHA_TAREFA_SEQ_DB = ? AND m.DELETED = 0`,
    [demo.sample.taskSheet],
  );
}

/** Someone else stores Quantidade 31 for A-SUBSOIL meanwhile (through the API). */
async function storedMeanwhile() {
  const answer = await fetch(url(), {
    method: 'PUT',
    headers: { 'content-type': 'application/json', accept: 'application/json', cookie: `user=${SEEDER}` },
    body: JSON.stringify({
      requestId: randomUUID(),
      source: 'api',
      entries: [
        {
          activity: await seqOfCode(demo, demo.names.OPER, 'A-SUBSOIL'),
          group: await seqOfCode(demo, demo.names.OPER_GRUPO, 'G-SOIL'),
          values: { METRICA1: '31' },
          base: { METRICA1: null },
        },
      ],
    }),
  });
  expect(answer.status, await answer.clone().text()).toBe(200);
}

it('keeps what was typed through a reload: the tree marks it, the modal says it is not saved yet, Save stores it and the draft goes', async () => {
  const page = await phone(ALICE);
  let dialog = await openModal(page);
  expect(await quantity(dialog).inputValue()).toBe('0,80');
  await typeQuantity(page, dialog, '12,5');
  await keptOnDevice(page);

  await page.reload();
  const item = await reach(page, false);
  // Seen and read in the tree, before the activity is opened.
  expect(await item.getAttribute('aria-haspopup')).toBe('dialog');
  await page.getByRole('treeitem', { name: new RegExp(`^${LABEL}.*${DRAFT_MARK}`) }).waitFor();
  await item.locator(':scope > .ta-screen__row').click();
  dialog = page.getByRole('dialog', { name: LABEL });
  await dialog.waitFor();
  expect(await quantity(dialog).inputValue()).toBe('12,5');
  await draftLine(dialog).waitFor();
  expect(await seriousViolations(page)).toEqual([]);

  const put = page.waitForResponse((response) => response.request().method() === 'PUT');
  await dialog.getByRole('button', { name: 'Salvar', exact: true }).click();
  expect((await put).status()).toBe(200);
  await dialog.waitFor({ state: 'hidden' });
  expect(await storedRows()).toMatchObject([{ METRICA1: '12.50' }]);
  await expect.poll(() => item.textContent()).not.toContain(DRAFT_MARK);

  // Acknowledged, the draft is gone from the device too: a reload opens the stored value.
  await page.reload();
  dialog = await openModal(page, false);
  expect(await quantity(dialog).inputValue()).toBe('12,50');
  expect(await draftLine(dialog).count()).toBe(0);
  expect(await page.getByRole('treeitem', { name: LABEL }).first().textContent()).not.toContain(DRAFT_MARK);
});

it('keeps it when the page is closed, and when the dialog is closed with Esc', async () => {
  const first = await phone(ALICE);
  let dialog = await openModal(first);
  await typeQuantity(first, dialog, '12,5');
  await keptOnDevice(first);
  await first.close({ runBeforeUnload: true });

  const page = await newPage();
  dialog = await openModal(page);
  expect(await quantity(dialog).inputValue()).toBe('12,5');
  await draftLine(dialog).waitFor();
  // Esc (a phone's Back closes the dialog the same way) is no decision: the draft stays.
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  await page.getByRole('treeitem', { name: LABEL }).first().locator(':scope > .ta-screen__row').click();
  await dialog.waitFor();
  expect(await quantity(dialog).inputValue()).toBe('12,5');
  expect(await storedRows()).toEqual([]);
});

it('sends a draft over the value it was typed over: a value stored meanwhile is a conflict at its field, nothing written', async () => {
  const page = await phone(ALICE);
  let dialog = await openModal(page);
  await typeQuantity(page, dialog, '12,5');
  await keptOnDevice(page);
  await storedMeanwhile();

  await page.reload();
  dialog = await openModal(page, false);
  expect(await quantity(dialog).inputValue()).toBe('12,5');
  const put = page.waitForResponse((response) => response.request().method() === 'PUT');
  await dialog.getByRole('button', { name: 'Salvar', exact: true }).click();
  expect((await put).status()).toBe(409);
  await dialog.getByRole('button', { name: 'Manter o meu em Quantidade' }).waitFor();
  await dialog.getByRole('button', { name: 'Usar o salvo em Quantidade' }).waitFor();
  expect(await storedRows()).toMatchObject([{ METRICA1: '31.00' }]);
  // Still not stored: the draft stays on the device.
  await keptOnDevice(page);
  await page.reload();
  dialog = await openModal(page, false);
  expect(await quantity(dialog).inputValue()).toBe('12,5');
});

it('drops the draft when the person discards it with Cancel, asked first', async () => {
  const page = await phone(ALICE);
  let dialog = await openModal(page);
  await typeQuantity(page, dialog, '12,5');
  await keptOnDevice(page);
  await page.reload();
  dialog = await openModal(page, false);
  await draftLine(dialog).waitFor();
  const cancel = dialog.getByRole('button', { name: 'Cancelar' });
  await cancel.click();
  // A tap on Cancel meant as "close" would lose the typing for good: the person is asked, and the
  // answer that keeps it has the focus (Enter at once keeps editing).
  const question = page.getByRole('alertdialog', { name: 'Descartar o que você digitou?' });
  await question.waitFor();
  expect(await description(question)).toBe(
    `O que você digitou em ${LABEL} não foi salvo: descartado, não volta.`,
  );
  expect(await focused(question.getByRole('button', { name: 'Continuar editando' }))).toBe(true);
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Enter');
  await question.waitFor({ state: 'hidden' });
  expect(await quantity(dialog).inputValue()).toBe('12,5');
  expect(await focused(cancel)).toBe(true);
  // Esc in the question is a no as well.
  await cancel.click();
  await question.waitFor();
  await page.keyboard.press('Escape');
  await question.waitFor({ state: 'hidden' });
  expect(await dialog.isVisible()).toBe(true);
  expect(await quantity(dialog).inputValue()).toBe('12,5');

  await cancel.click();
  await question.getByRole('button', { name: 'Descartar', exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
  const item = page.getByRole('treeitem', { name: LABEL }).first();
  await expect.poll(() => item.textContent()).not.toContain(DRAFT_MARK);
  await keptOnDevice(page);

  await page.reload();
  dialog = await openModal(page, false);
  expect(await quantity(dialog).inputValue()).toBe('0,80');
  expect(await draftLine(dialog).count()).toBe(0);
  expect(await storedRows()).toEqual([]);
});

it('leaves no draft when a value is typed back to what the field showed, in another form (0,8 over 0,80), the page reloaded before the device removed it', async () => {
  const page = await phone(ALICE);
  let dialog = await openModal(page);
  expect(await quantity(dialog).inputValue()).toBe('0,80');
  await typeQuantity(page, dialog, '12,5');
  await keptOnDevice(page);
  // Another tab holds the drafts' database: what the page writes of the draft from now on ("0",
  // "0,", then its removal at "0,8") waits behind it, and the reload drops it with the page, as a
  // reload within milliseconds sometimes did (the browser does not always finish a page's IndexedDB
  // writes when it reloads it). The device still holds "12,5".
  const holder = await openPage(page.context());
  await holder.goto(url());
  await holder.getByRole('tree').waitFor();
  const { release: letGo, held } = await holdDraftWrites(holder);
  await typeQuantity(page, dialog, '0,8');
  expect(await asksBeforeLeaving(page)).toBe(false);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  // The field says where its value comes from, as before: nothing changed, so nothing is a draft.
  const item = page.getByRole('treeitem', { name: LABEL }).first();
  expect(await item.textContent()).not.toContain(DRAFT_MARK);
  await page.reload();
  // The writes were lost with the page: the device still holds "12,5".
  expect(await held()).toEqual([{ texts: { METRICA1: '12,5' } }]);
  await letGo();
  await holder.close();
  dialog = await openModal(page, false);
  expect(await quantity(dialog).inputValue()).toBe('0,80');
  expect(await draftLine(dialog).count()).toBe(0);
  expect(await page.getByRole('treeitem', { name: LABEL }).first().textContent()).not.toContain(DRAFT_MARK);
  await expect.poll(() => draftsOnDevice(page)).toEqual([]);
});

it('shows no draft mark on an activity made read-only since, whose draft nobody can see or discard there', async () => {
  await storedMeanwhile();
  const page = await phone(ALICE);
  let dialog = await openModal(page);
  expect(await quantity(dialog).inputValue()).toBe('31,00');
  await typeQuantity(page, dialog, '12,5');
  await keptOnDevice(page);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  // An operator makes the activity's entry read-only.
  await demo.scratch.db.execute(
    `UPDATE ${DEMO_TABLES.metrics} m JOIN ${demo.names.OPER} o ON o.SEQ_DB = m.OPER_SEQ_DB SET m.RO = 1
      WHERE o.CODIGO = 'A-SUBSOIL' AND m.DELETED = 0`,
  );
  await page.reload();
  const item = await reach(page, false);
  await expect.poll(() => item.textContent()).toContain('Somente leitura');
  expect(await item.textContent()).not.toContain(DRAFT_MARK);
  // The modal shows what is stored, with nothing to discard (Close only).
  await item.locator(':scope > .ta-screen__row').click();
  dialog = page.getByRole('dialog', { name: LABEL });
  await dialog.waitFor();
  expect(await quantity(dialog).inputValue()).toBe('31,00');
  expect(await draftLine(dialog).count()).toBe(0);
  expect(await dialog.getByRole('button', { name: 'Cancelar' }).count()).toBe(0);
});

it('does not bring back a draft discarded with Cancel right before the page is reloaded', async () => {
  const page = await phone(ALICE);
  let dialog = await openModal(page);
  await typeQuantity(page, dialog, '12,5');
  // Typed on and discarded at once, the page reloaded with no pause: the removal is under way.
  await page.keyboard.type('5');
  await dialog.getByRole('button', { name: 'Cancelar' }).click();
  await page
    .getByRole('alertdialog', { name: 'Descartar o que você digitou?' })
    .getByRole('button', { name: 'Descartar', exact: true })
    .click();
  await page.reload();
  dialog = await openModal(page, false);
  expect(await quantity(dialog).inputValue()).toBe('0,80');
  expect(await page.getByRole('treeitem', { name: LABEL }).first().textContent()).not.toContain(DRAFT_MARK);
});

it('keeps what is typed in the modal while the drafts are being read, with the stored draft’s other fields', async () => {
  const page = await phone(ALICE, holdDraftsOpening);
  let dialog = await openModal(page);
  await typeQuantity(page, dialog, '12,5');
  await keptOnDevice(page);
  await page.evaluate(() => localStorage.setItem('hold-drafts', 'yes'));
  await page.reload();

  // The drafts' storage is slow to open: the activity opens with no draft, and Horas is typed.
  dialog = await openModal(page, false);
  expect(await quantity(dialog).inputValue()).toBe('0,80');
  const hours = dialog.getByRole('textbox', { name: 'Horas', exact: true });
  await hours.fill('9');
  await page.evaluate(() => (window as unknown as { releaseDrafts: () => void }).releaseDrafts());
  // Read now: the draft's Quantidade joins what was typed, and both are the activity's draft.
  await expect.poll(() => quantity(dialog).inputValue()).toBe('12,5');
  expect(await hours.inputValue()).toBe('9');
  await keptOnDevice(page);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  const item = page.getByRole('treeitem', { name: LABEL }).first();
  expect(await item.textContent()).toContain(DRAFT_MARK);
  await item.locator(':scope > .ta-screen__row').click();
  expect(await quantity(dialog).inputValue()).toBe('12,5');
  expect(await hours.inputValue()).toBe('9');
});

it('keeps the stored draft’s fields the form never showed when a save out while the drafts are read succeeds', async () => {
  const page = await phone(ALICE, holdDraftsOpening);
  let dialog = await openModal(page);
  await typeQuantity(page, dialog, '12,5');
  await keptOnDevice(page);
  await page.keyboard.press('Escape');
  await page.evaluate(() => localStorage.setItem('hold-drafts', 'yes'));
  await page.reload();

  // The drafts are slow to read: the activity opens without the draft, Horas 9 is typed and saved.
  dialog = await openModal(page, false);
  expect(await quantity(dialog).inputValue()).toBe('0,80');
  await dialog.getByRole('textbox', { name: 'Horas', exact: true }).fill('9');
  const saves = await holdRequests(page, '**/associationtask**', {
    which: (request) => request.method() === 'PUT',
  });
  await dialog.getByRole('button', { name: 'Salvar', exact: true }).click();
  await expect.poll(() => saves.count).toBe(1);
  // The drafts are read while the save is out; the busy form does not show the draft's Quantidade.
  await page.evaluate(() => (window as unknown as { releaseDrafts: () => void }).releaseDrafts());
  const item = page.getByRole('treeitem', { name: LABEL }).first();
  await expect.poll(() => item.textContent()).toContain(DRAFT_MARK);
  saves.release();
  await dialog.waitFor({ state: 'hidden' });
  await expect.poll(async () => (await storedRows()).length).toBe(1);

  // Neither shown nor sent, 12,5 stays the draft: marked in the tree, shown at the next opening.
  await keptOnDevice(page);
  expect(await item.textContent()).toContain(DRAFT_MARK);
  await page.evaluate(() => localStorage.removeItem('hold-drafts'));
  await page.reload();
  dialog = await openModal(page, false);
  await expect.poll(() => quantity(dialog).inputValue()).toBe('12,5');
  // Horas as saved.
  expect(await dialog.getByRole('textbox', { name: 'Horas', exact: true }).inputValue()).toBe('9,0');
});

it('keeps what another tab of the same person typed in the activity when this tab types in it too', async () => {
  const first = await phone(ALICE);
  await reach(first);
  const second = await newPage();
  const other = await openModal(second);
  // Tab 1 types Quantidade 12,5 and closes the dialog: kept as the draft.
  const item = first.getByRole('treeitem', { name: LABEL }).first();
  await item.locator(':scope > .ta-screen__row').click();
  const dialog = first.getByRole('dialog', { name: LABEL });
  await typeQuantity(first, dialog, '12,5');
  await keptOnDevice(first);
  await first.keyboard.press('Escape');
  await first.close();

  // Tab 2, its form open since before, types Horas 9,5: tab 1's Quantidade joins it, in its form.
  const hours = other.getByRole('textbox', { name: 'Horas', exact: true });
  await hours.click();
  await second.keyboard.press('Control+A');
  await second.keyboard.type('9,5');
  await expect.poll(() => quantity(other).inputValue()).toBe('12,5');
  await keptOnDevice(second);
  await second.keyboard.press('Escape');

  await second.reload();
  const again = await openModal(second, false);
  expect(await quantity(again).inputValue()).toBe('12,5');
  expect(await again.getByRole('textbox', { name: 'Horas', exact: true }).inputValue()).toBe('9,5');
});

it('keeps what another tab typed in the activity when this tab saves it: the save stores and drops only its own fields', async () => {
  // Tab 2 opens after tab 1 typed (it reads tab 1's draft), types Horas 9,5 and closes the dialog
  // with Esc.
  const { first, dialog, second, other } = await secondTabOnDraft();
  await typeField(second, other, 'Horas', '9,5');
  await keptOnDevice(second);
  await second.keyboard.press('Escape');
  await other.waitFor({ state: 'hidden' });

  // Tab 1 saves what its form shows: Quantidade 12,5 (Horas was never typed there).
  const put = first.waitForResponse((response) => response.request().method() === 'PUT');
  await dialog.getByRole('button', { name: 'Salvar', exact: true }).click();
  expect((await put).status()).toBe(200);
  await dialog.waitFor({ state: 'hidden' });
  expect(await storedRows()).toMatchObject([{ METRICA1: '12.50' }]);
  await keptOnDevice(first);

  // Horas 9,5, typed in tab 2 and saved nowhere, is still the activity's draft after a reload.
  await second.reload();
  const again = await openModal(second, false);
  expect(await again.getByRole('textbox', { name: 'Horas', exact: true }).inputValue()).toBe('9,5');
  expect(await quantity(again).inputValue()).toBe('12,50');
  await draftLine(again).waitFor();
});

it('keeps a field another tab typed again after this tab took it back, when this tab types another', async () => {
  const first = await phone(ALICE);
  const dialog = await openModal(first);
  await typeQuantity(first, dialog, '12,5');
  const hours = (of: Locator) => of.getByRole('textbox', { name: 'Horas', exact: true });
  await hours(dialog).click();
  await first.keyboard.press('Control+A');
  await first.keyboard.type('9,5');
  await keptOnDevice(first);
  // Tab 1 takes Quantidade back to what it showed: its draft holds Horas alone.
  await typeQuantity(first, dialog, '0,80');
  await keptOnDevice(first);

  // Tab 2, opened before that, still shows 12,5 there and types 20 over it.
  const second = await newPage();
  const other = await openModal(second);
  await typeQuantity(second, other, '20');
  await keptOnDevice(second);
  await second.keyboard.press('Escape');

  // Tab 1 types Pessoas: its write keeps the Quantidade tab 2 typed after tab 1 took its own back.
  await dialog.getByRole('textbox', { name: 'Pessoas', exact: true }).click();
  await first.keyboard.press('Control+A');
  await first.keyboard.type('4');
  await keptOnDevice(first);

  await second.reload();
  const again = await openModal(second, false);
  expect(await quantity(again).inputValue()).toBe('20');
  expect(await hours(again).inputValue()).toBe('9,5');
  expect(await again.getByRole('textbox', { name: 'Pessoas', exact: true }).inputValue()).toBe('4');
});

it('keeps what another tab typed later in a field when this tab, which showed the field’s older draft, types in another', async () => {
  // Tab 2 opens after tab 1 typed: its form shows tab 1's draft, Quantidade 12,5.
  const { first, dialog, second, other } = await secondTabOnDraft();

  // Tab 1 types Quantidade 20 over it, later, and is closed.
  await typeQuantity(first, dialog, '20');
  await keptOnDevice(first);
  await first.close();

  // Tab 2 types Horas 9,5: its write does not put its older Quantidade over the 20 typed later,
  // and its form shows the 20.
  await typeField(second, other, 'Horas', '9,5');
  await keptOnDevice(second);
  await expect.poll(() => quantity(other).inputValue()).toBe('20');
  await keptOnDevice(second);
  await second.keyboard.press('Escape');

  await second.reload();
  const again = await openModal(second, false);
  expect(await quantity(again).inputValue()).toBe('20');
  expect(await again.getByRole('textbox', { name: 'Horas', exact: true }).inputValue()).toBe('9,5');
});

it('keeps no draft of what “Salvar e próxima” stored when the page is hidden while it reads the next branch', async () => {
  const page = await phone(ALICE);
  // The next activity's branch (S-SOUTH's) is read on the way: its read held until released.
  let holding = false;
  const { arrived: reading, release } = await holdRequests(
    page,
    (url) => url.pathname === '/associationtask' && url.searchParams.get('part') === 'children',
    { which: () => holding },
  );
  const dialog = await openModal(page);
  await typeQuantity(page, dialog, '12,5');
  await keptOnDevice(page);
  holding = true;
  const put = page.waitForResponse((response) => response.request().method() === 'PUT');
  await dialog.getByRole('button', { name: 'Salvar e próxima', exact: true }).click();
  expect((await put).status()).toBe(200);
  await reading;

  // The person switches to another app meanwhile: the form still shows 12,5 over its old preset.
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  holding = false;
  release();
  await page.getByText(/^A-SUBSOIL — Subsoiling salva\. Agora: /).waitFor({ state: 'attached' });
  await keptOnDevice(page);
  expect(await storedRows()).toMatchObject([{ METRICA1: '12.50' }]);
  expect(await draftsOnDevice(page)).toEqual([]);
});

it('never shows a draft to another person signed in on the same browser', async () => {
  const page = await phone(ALICE);
  let dialog = await openModal(page);
  await typeQuantity(page, dialog, '12,5');
  await keptOnDevice(page);

  await signIn(BOB);
  await page.reload();
  dialog = await openModal(page, false);
  expect(await quantity(dialog).inputValue()).toBe('0,80');
  expect(await draftLine(dialog).count()).toBe(0);
  expect(await page.getByRole('treeitem', { name: LABEL }).first().textContent()).not.toContain(DRAFT_MARK);
  await page.keyboard.press('Escape');

  // Alice's, still on the device for her.
  await signIn(ALICE);
  await page.reload();
  dialog = await openModal(page, false);
  expect(await quantity(dialog).inputValue()).toBe('12,5');
});

it('without storage on the device says so, asks before the page is left, and still saves', async () => {
  const page = await phone(ALICE, () => {
    // A browser that keeps no IndexedDB for the page (some private modes).
    Object.defineProperty(window, 'indexedDB', { value: undefined, configurable: true });
  });
  const dialog = await openModal(page);
  await typeQuantity(page, dialog, '12,5');
  await dialog
    .getByText('Este aparelho não consegue guardar o que você digita aqui: salve antes de sair da página.')
    .first()
    .waitFor();
  expect(await asksBeforeLeaving(page)).toBe(true);
  const put = page.waitForResponse((response) => response.request().method() === 'PUT');
  await dialog.getByRole('button', { name: 'Salvar', exact: true }).click();
  expect((await put).status()).toBe(200);
  expect(await storedRows()).toMatchObject([{ METRICA1: '12.50' }]);
  expect(await asksBeforeLeaving(page)).toBe(false);
});
