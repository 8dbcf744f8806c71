import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { DEMO_TABLES } from '../../src/demo/demo-install.js';
import type { Demo } from '../../src/demo/start-demo.js';
import { openTable, useBrowser, watchProblems } from '../support/browser.js';
import { type listen, seqOfCode, serveScreen, startTestDemo } from '../support/demo.js';

/**
 * A person changes a cell of a row in the table; meanwhile another program removes the row's entry.
 * The save is refused for the conflict, and the row's other cells show what applies now (the
 * defaults, read again), not the removed entry's values: one Save (keep mine) stores the typed value
 * with the defaults, and nothing of the removed entry comes back.
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

/** Another program (user 9) saves an entry of the activity through the HTTP API. */
async function meanwhile(body: unknown) {
  const answer = await fetch(`${server?.origin}/associationtask?taskSheet=${demo.sample.taskSheet}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', accept: 'application/json', cookie: 'user=9' },
    body: JSON.stringify({ requestId: randomUUID(), source: 'api', entries: [body] }),
  });
  expect(answer.status).toBe(200);
}

const stored = () =>
  demo.scratch.db.query<{ METRICA1: string | null; METRICA2: number | null; HORAS: string | null }>(
    `SELECT METRICA1, METRICA2, HORAS FROM ${METRICS} WHERE OPER_SEQ_DB = ? AND DELETED = 0`,
    [activity],
  );

it('after a conflict says the entry was removed, the row shows the defaults and one Save stores them with the typed value', async () => {
  await meanwhile({ activity, group, values: { METRICA1: '31.00', METRICA2: 5, HORAS: '7.0' } });
  const { page, puts } = await open();
  const grid = await openTable(
    page,
    `${server?.origin}/associationtask?taskSheet=${demo.sample.taskSheet}`,
    'Tabela',
  );
  const row = grid.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /^A-SUBSOIL/ }) });
  const quantity = row.getByRole('textbox', { name: 'Quantidade', exact: true });
  const people = row.getByRole('textbox', { name: 'Pessoas', exact: true });
  const hours = row.getByRole('textbox', { name: 'Horas', exact: true });
  await expect.poll(() => hours.inputValue()).toBe('7,0');
  expect(await people.inputValue()).toBe('5');
  await quantity.fill('32');
  await meanwhile({ activity, group, remove: true });

  const save = page.getByRole('button', { name: 'Salvar alterações', exact: true });
  const first = page.waitForResponse((answer) => answer.request().method() === 'PUT');
  await save.click();
  expect((await first).status()).toBe(409);
  expect(puts[0]?.entries[0]).toMatchObject({ values: { METRICA1: '32' }, row: true });
  expect(await page.getByRole('alert').textContent()).toMatch(
    /^Não salvo: outra pessoa alterou 1 célula enquanto isso \(marcada\)/,
  );

  // The cells that met no conflict show the defaults (the demo's for A-SUBSOIL), read again; the
  // typed value stays, its conflict shown.
  await expect.poll(() => people.inputValue()).toBe('6');
  await expect.poll(() => hours.inputValue()).toBe('8,0');
  expect(await quantity.inputValue()).toBe('32');
  expect(await quantity.getAttribute('aria-invalid')).toBe('true');
  expect(await people.getAttribute('aria-invalid')).not.toBe('true');
  expect(await hours.getAttribute('aria-invalid')).not.toBe('true');

  const second = page.waitForResponse((answer) => answer.request().method() === 'PUT');
  await save.click();
  expect((await second).status()).toBe(200);
  expect(puts).toHaveLength(2);
  expect(puts[1]?.entries[0]).toMatchObject({
    values: { METRICA1: '32', METRICA2: 6, HORAS: '8.0' },
    base: { METRICA1: null, METRICA2: null, HORAS: null },
    row: false,
  });
  expect(await stored()).toEqual([{ METRICA1: '32.00', METRICA2: 6, HORAS: '8.0' }]);
});

it('Escape on the conflicted cell of an entry removed meanwhile takes the default, and nothing waits to be saved', async () => {
  await meanwhile({ activity, group, values: { METRICA1: '31.00', METRICA2: 5, HORAS: '7.0' } });
  const { page, puts } = await open();
  const grid = await openTable(
    page,
    `${server?.origin}/associationtask?taskSheet=${demo.sample.taskSheet}`,
    'Tabela',
  );
  const row = grid.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /^A-SUBSOIL/ }) });
  const quantity = row.getByRole('textbox', { name: 'Quantidade', exact: true });
  const hours = row.getByRole('textbox', { name: 'Horas', exact: true });
  await expect.poll(() => hours.inputValue()).toBe('7,0');
  await quantity.fill('32');
  await meanwhile({ activity, group, remove: true });
  const save = page.getByRole('button', { name: 'Salvar alterações', exact: true });
  const refused = page.waitForResponse((answer) => answer.request().method() === 'PUT');
  await save.click();
  expect((await refused).status()).toBe(409);
  await expect.poll(() => hours.inputValue()).toBe('8,0');
  // "Take what is stored": there is no entry, so the activity's default, as the other cells show.
  await quantity.focus();
  await page.keyboard.press('Escape');
  await expect.poll(() => quantity.inputValue()).toBe('0,80');
  expect(await quantity.getAttribute('aria-invalid')).not.toBe('true');
  expect(await page.getByText(/alteraç(ão|ões) não salva/).count()).toBe(0);
  expect(puts).toHaveLength(1);
  expect(await stored()).toEqual([]);
});

it('after a conflict says the entry was removed, the table stays busy until the row is read again: no Save sends the removed values meanwhile', async () => {
  await meanwhile({ activity, group, values: { METRICA1: '31.00', METRICA2: 5, HORAS: '7.0' } });
  const { page, puts } = await open();
  const grid = await openTable(
    page,
    `${server?.origin}/associationtask?taskSheet=${demo.sample.taskSheet}`,
    'Tabela',
  );
  const row = grid.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /^A-SUBSOIL/ }) });
  const quantity = row.getByRole('textbox', { name: 'Quantidade', exact: true });
  const people = row.getByRole('textbox', { name: 'Pessoas', exact: true });
  await expect.poll(() => people.inputValue()).toBe('5');
  await quantity.fill('32');
  await meanwhile({ activity, group, remove: true });

  // The row's reading again is held on its way (a slow network) until the test lets it go.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let heldReads = 0;
  await page.route(
    (url) => url.searchParams.get('part') === 'sheet',
    async (route) => {
      heldReads++;
      await held;
      await route.continue();
    },
  );
  const save = page.getByRole('button', { name: 'Salvar alterações', exact: true });
  const refused = page.waitForResponse((answer) => answer.request().method() === 'PUT');
  await save.click();
  expect((await refused).status()).toBe(409);
  await expect.poll(() => heldReads).toBe(1);
  // Meanwhile the row still shows the removed entry's Pessoas 5: Save cannot send it, nor a cell take a key.
  const busy = page.getByRole('button', { name: 'Salvando…', exact: true });
  await expect.poll(() => busy.isDisabled()).toBe(true);
  expect(await people.inputValue()).toBe('5');
  expect(await people.getAttribute('readonly')).not.toBeNull();
  release();
  await expect.poll(() => people.inputValue()).toBe('6');
  await expect.poll(() => save.isEnabled()).toBe(true);

  const second = page.waitForResponse((answer) => answer.request().method() === 'PUT');
  await save.click();
  expect((await second).status()).toBe(200);
  expect(puts[1]?.entries[0]).toMatchObject({
    values: { METRICA1: '32', METRICA2: 6, HORAS: '8.0' },
    row: false,
  });
  expect(await stored()).toEqual([{ METRICA1: '32.00', METRICA2: 6, HORAS: '8.0' }]);
});
