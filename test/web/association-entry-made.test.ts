import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { DEMO_TABLES } from '../../src/demo/demo-install.js';
import type { Demo } from '../../src/demo/start-demo.js';
import { openTable, useBrowser, watchProblems } from '../support/browser.js';
import { type listen, seqOfCode, serveScreen, startTestDemo } from '../support/demo.js';

/**
 * A person fills an activity that has no entry yet; meanwhile another program makes its entry. The
 * save is refused for the conflict, and the next Save stores what the form (or the row) shows: a
 * value the person typed over a default that met no conflict is not dropped because the activity
 * now has an entry.
 */

const browser = useBrowser();
const METRICS = DEMO_TABLES.metrics;

let demo: Demo;
let server: Awaited<ReturnType<typeof listen>> | undefined;
let context: BrowserContext | undefined;
let problems: string[] = [];
let activity = 0;
let group = 0;

interface PutBody {
  readonly entries: ReadonlyArray<{
    values?: Record<string, unknown>;
    base?: Record<string, unknown>;
    row?: boolean;
  }>;
}

beforeAll(async () => {
  demo = await startTestDemo();
  server = await serveScreen(demo, 9);
  activity = await seqOfCode(demo, demo.names.OPER, 'A-SUBSOIL');
  group = await seqOfCode(demo, demo.names.OPER_GRUPO, 'G-SOIL');
});

afterAll(async () => {
  await server?.close();
  await demo?.close();
});

beforeEach(async () => {
  await demo.scratch.db.execute(`DELETE FROM ${METRICS} WHERE OPER_SEQ_DB = ?`, [activity]);
});

afterEach(async () => {
  await context?.close();
  context = undefined;
  expect(problems).toEqual([]);
  problems = [];
});

async function open(): Promise<{ page: Page; puts: PutBody[] }> {
  context = await browser().newContext({ locale: 'pt-BR', viewport: { width: 1280, height: 800 } });
  await context.addCookies([{ name: 'user', value: '7', url: server?.origin ?? '' }]);
  const page = await context.newPage();
  watchProblems(page, (problem) => problems.push(problem));
  const puts: PutBody[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PUT') puts.push(request.postDataJSON());
  });
  return { page, puts };
}

/** Another program makes the activity's entry: Quantidade 31, nothing else. */
async function madeMeanwhile(values: Record<string, unknown> = { METRICA1: '31.00' }) {
  const answer = await fetch(`${server?.origin}/associationtask?taskSheet=${demo.sample.taskSheet}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', accept: 'application/json', cookie: 'user=9' },
    body: JSON.stringify({
      requestId: randomUUID(),
      source: 'api',
      entries: [{ activity, group, values }],
    }),
  });
  expect(answer.status).toBe(200);
}

const stored = () =>
  demo.scratch.db.query<{ METRICA1: string | null; METRICA2: number | null; HORAS: string | null }>(
    `SELECT METRICA1, METRICA2, HORAS FROM ${METRICS} WHERE OPER_SEQ_DB = ? AND DELETED = 0`,
    [activity],
  );

it('saves the hours typed over a default in the modal after a conflict on an activity that had no entry', async () => {
  const { page, puts } = await open();
  await page.goto(`${server?.origin}/associationtask?taskSheet=${demo.sample.taskSheet}`);
  await page.getByRole('tree').waitFor();
  for (const name of ['S-NORTH — North field', 'G-SOIL — Soil preparation']) {
    const item = page.getByRole('treeitem', { name }).first();
    await item.locator(':scope > .ta-screen__row').click();
    await item.getByRole('group').first().waitFor();
  }
  const label = 'A-SUBSOIL — Subsoiling';
  await page.getByRole('treeitem', { name: label }).first().locator(':scope > .ta-screen__row').click();
  const dialog = page.getByRole('dialog', { name: label });
  const hours = dialog.getByRole('textbox', { name: 'Horas', exact: true });
  await expect.poll(() => hours.inputValue()).toBe('8,0');
  await dialog.getByRole('textbox', { name: 'Quantidade', exact: true }).fill('32');
  await hours.fill('8');
  await madeMeanwhile();
  await dialog.getByRole('button', { name: 'Salvar', exact: true }).click();
  // Every field the new entry holds otherwise is a conflict, read from no row as the save was: the 32
  // and the 8 typed, and the default Pessoas against the entry's empty one.
  await dialog.getByRole('button', { name: 'Manter o meu em Quantidade' }).click();
  await dialog.getByRole('button', { name: 'Manter o meu em Horas' }).click();
  await dialog.getByRole('button', { name: 'Usar o salvo em Pessoas' }).click();
  // The form shows what the next Save stores: the 8 typed, and Pessoas as stored now (empty).
  expect(await hours.inputValue()).toBe('8');
  expect(await dialog.getByRole('textbox', { name: 'Pessoas', exact: true }).inputValue()).toBe('');
  await dialog.getByRole('button', { name: 'Salvar', exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
  expect(puts[1]?.entries[0]).toEqual({
    activity,
    group,
    values: { METRICA1: '32', HORAS: '8' },
    base: { METRICA1: '31.00', HORAS: null },
    row: true,
  });
  expect(await stored()).toEqual([{ METRICA1: '32.00', METRICA2: null, HORAS: '8.0' }]);
});

it('saves every value a table row shows after a conflict on an activity that had no entry', async () => {
  const { page, puts } = await open();
  const grid = await openTable(
    page,
    `${server?.origin}/associationtask?taskSheet=${demo.sample.taskSheet}`,
    'Tabela',
  );
  const row = grid.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /^A-SUBSOIL/ }) });
  const hours = row.getByRole('textbox', { name: 'Horas', exact: true });
  await expect.poll(() => hours.inputValue()).toBe('8,0');
  await row.getByRole('textbox', { name: 'Quantidade', exact: true }).fill('32');
  await madeMeanwhile();
  const save = page.getByRole('button', { name: 'Salvar alterações', exact: true });
  const refused = page.waitForResponse((response) => response.request().method() === 'PUT');
  await save.click();
  expect((await refused).status()).toBe(409);
  await expect
    .poll(() => row.getByRole('textbox', { name: 'Quantidade', exact: true }).getAttribute('aria-invalid'))
    .toBe('true');
  // The row still shows the default hours and workers: Save again stores them with the 32 kept.
  expect(await hours.inputValue()).toBe('8,0');
  const saved = page.waitForResponse((response) => response.request().method() === 'PUT');
  await save.click();
  expect((await saved).status()).toBe(200);
  expect(puts[1]?.entries[0]?.values).toEqual({ METRICA1: '32', METRICA2: 6, HORAS: '8.0' });
  expect(puts[1]?.entries[0]?.base).toEqual({ METRICA1: '31.00', METRICA2: null, HORAS: null });
  // Read without a row, sent again against the row the conflict said is there.
  expect([puts[0]?.entries[0]?.row, puts[1]?.entries[0]?.row]).toEqual([false, true]);
  expect(await stored()).toEqual([{ METRICA1: '32.00', METRICA2: 6, HORAS: '8.0' }]);
  await expect.poll(() => hours.inputValue()).toBe('8,0');
});

it('Escape on a value a table row kept after that conflict takes what is stored and leaves it out of the next save', async () => {
  const { page, puts } = await open();
  const grid = await openTable(
    page,
    `${server?.origin}/associationtask?taskSheet=${demo.sample.taskSheet}`,
    'Tabela',
  );
  const row = grid.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /^A-SUBSOIL/ }) });
  const hours = row.getByRole('textbox', { name: 'Horas', exact: true });
  await expect.poll(() => hours.inputValue()).toBe('8,0');
  await row.getByRole('textbox', { name: 'Quantidade', exact: true }).fill('32');
  await madeMeanwhile();
  const save = page.getByRole('button', { name: 'Salvar alterações', exact: true });
  const refused = page.waitForResponse((response) => response.request().method() === 'PUT');
  await save.click();
  expect((await refused).status()).toBe(409);
  // The default hours were refused too (the new entry holds none); Escape there takes what is
  // stored: the cell shows no hours and the next save leaves them alone.
  await hours.focus();
  await page.keyboard.press('Escape');
  await expect.poll(() => hours.inputValue()).toBe('');
  const saved = page.waitForResponse((response) => response.request().method() === 'PUT');
  await save.click();
  expect((await saved).status()).toBe(200);
  expect(puts[1]?.entries[0]?.values).toEqual({ METRICA1: '32', METRICA2: 6 });
  expect(puts[1]?.entries[0]?.base).toEqual({ METRICA1: '31.00', METRICA2: null });
  expect(await stored()).toEqual([{ METRICA1: '32.00', METRICA2: 6, HORAS: null }]);
  await expect.poll(() => hours.inputValue()).toBe('');
});

it('shows as stored, not to be sent again, a value the entry made meanwhile holds as the row sent it', async () => {
  const { page, puts } = await open();
  const grid = await openTable(
    page,
    `${server?.origin}/associationtask?taskSheet=${demo.sample.taskSheet}`,
    'Tabela',
  );
  const row = grid.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /^A-SUBSOIL/ }) });
  const hours = row.getByRole('textbox', { name: 'Horas', exact: true });
  await expect.poll(() => hours.inputValue()).toBe('8,0');
  await row.getByRole('textbox', { name: 'Quantidade', exact: true }).fill('32');
  // The other program's entry holds the same 8.0 hours the row shows and sends.
  await madeMeanwhile({ METRICA1: '31.00', HORAS: '8.0' });
  const save = page.getByRole('button', { name: 'Salvar alterações', exact: true });
  const refused = page.waitForResponse((response) => response.request().method() === 'PUT');
  await save.click();
  expect((await refused).status()).toBe(409);
  // Escape on the hours stays on the 8,0 stored; typed over, they are sent from that base.
  await hours.focus();
  await page.keyboard.press('Escape');
  await expect.poll(() => hours.inputValue()).toBe('8,0');
  await hours.fill('9');
  const saved = page.waitForResponse((response) => response.request().method() === 'PUT');
  await save.click();
  expect((await saved).status()).toBe(200);
  expect(puts[1]?.entries[0]?.values).toEqual({ METRICA1: '32', METRICA2: 6, HORAS: '9' });
  expect(puts[1]?.entries[0]?.base).toEqual({ METRICA1: '31.00', METRICA2: null, HORAS: '8.0' });
  expect(await stored()).toEqual([{ METRICA1: '32.00', METRICA2: 6, HORAS: '9.0' }]);
});
