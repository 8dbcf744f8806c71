import { randomUUID } from 'node:crypto';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { DEMO_TABLES } from '../../src/demo/demo-install.js';
import type { Demo } from '../../src/demo/start-demo.js';
import {
  description,
  holdRequests,
  openPage,
  openTable,
  useBrowser,
  watchProblems,
} from '../support/browser.js';
import { type listen, seqOfCode, serveScreen, startTestDemo, wipeEntries } from '../support/demo.js';

/**
 * A supervisor types in a row of the table whose other values the outbox sends meanwhile; someone
 * else (user 9) changed the typed cell's field before that. The answer of the send says what is
 * stored now: the typed cell shows it as a conflict ("Changed meanwhile by user 9 ...: stored now
 * 9.0"), never takes it silently as the base its next save starts from (which would write over it
 * unrefused), whoever sent the row (this page, another tab) and whether a later entry of the row
 * still waits. A value this device itself kept and sent is taken silently: no conflict of the
 * person's own.
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
  await wipeEntries(demo, ['A-SUBSOIL']);
  await meanwhile({ activity, group, values: { METRICA1: '31.00', METRICA2: 5, HORAS: '7.0' } });
});

afterEach(async () => {
  await context?.close();
  context = undefined;
  expect(problems).toEqual([]);
  problems = [];
});

/** Someone else (user 9) saves an entry of Subsoiling through the HTTP API. */
async function meanwhile(body: unknown) {
  const answer = await fetch(`${server?.origin}/associationtask?taskSheet=${demo.sample.taskSheet}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', accept: 'application/json', cookie: 'user=9' },
    body: JSON.stringify({ requestId: randomUUID(), source: 'api', entries: [body] }),
  });
  expect(answer.status, await answer.clone().text()).toBe(200);
}

const stored = () =>
  demo.scratch.db.query<{ METRICA1: string | null; METRICA2: number | null; HORAS: string | null }>(
    `SELECT METRICA1, METRICA2, HORAS FROM ${METRICS} WHERE OPER_SEQ_DB = ? AND DELETED = 0`,
    [activity],
  );

const KEPT = 'Kept on this device, not sent yet';
const HORAS_MET = /^Changed meanwhile by user 9, .+: stored now 9\.0\.$/;

/** This page cannot ask whose entries these are, so it never sends them itself (another tab does). */
const cannotSend = (url: URL) =>
  url.pathname === '/associationtask' && url.searchParams.get('part') === 'owner';

interface Opened {
  page: Page;
  puts: PutBody[];
  save: Locator;
  people: Locator;
  hours: Locator;
  quantity: Locator;
}

/** User 7's table, Subsoiling's row read (Horas 7.0). */
async function open(): Promise<Opened> {
  context = await browser().newContext({ locale: 'en', viewport: { width: 1280, height: 800 } });
  await context.addCookies([{ name: 'user', value: '7', url: server?.origin ?? '' }]);
  const page = await openPage(context);
  watchProblems(page, (problem) => problems.push(problem));
  const puts: PutBody[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PUT') puts.push(request.postDataJSON());
  });
  const grid = await openTable(page, `${server?.origin}/host`, 'Table');
  const row = grid.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /^A-SUBSOIL/ }) });
  const cell = (name: string) => row.getByRole('textbox', { name, exact: true });
  const opened = {
    page,
    puts,
    save: page.getByRole('button', { name: 'Save changes', exact: true }),
    people: cell('Pessoas'),
    hours: cell('Horas'),
    quantity: cell('Quantidade'),
  };
  await expect.poll(() => opened.hours.inputValue()).toBe('7.0');
  return opened;
}

/**
 * Offline: Pessoas 4 saved (kept on the device), then Horas typed 8 and not saved; meanwhile user 9
 * changes Horas 7.0 -> 9.0. The network is back when this resolves (nothing may have been sent yet).
 */
async function keptThenTyped(at: Opened) {
  await context?.setOffline(true);
  await at.people.fill('4');
  await at.save.click();
  await expect.poll(() => description(at.people)).toBe(KEPT);
  await at.hours.fill('8');
  await meanwhile({ activity, group, values: { HORAS: '9.0' }, base: { HORAS: '7.0' } });
  await context?.setOffline(false);
}

/** The typed Horas shows user 9's 9.0 as a conflict, keeping the 8 typed. */
async function showsMet(at: Opened) {
  await expect.poll(() => at.hours.getAttribute('aria-invalid')).toBe('true');
  await expect.poll(() => description(at.hours)).toMatch(HORAS_MET);
  expect(await at.hours.inputValue()).toBe('8');
}

it('shows the value stored meanwhile as a conflict at a typed cell when this page’s outbox sends its row; Escape takes it', async () => {
  const at = await open();
  await keptThenTyped(at);
  await expect.poll(async () => (await stored())[0]?.METRICA2).toBe(4);
  await expect.poll(() => description(at.people)).toBe('Saved value');
  await showsMet(at);

  // Escape takes what is stored: nothing is left to save, and user 9's 9.0 stays.
  await at.hours.focus();
  await at.page.keyboard.press('Escape');
  await expect.poll(() => at.hours.inputValue()).toBe('9.0');
  expect(await at.hours.getAttribute('aria-invalid')).toBe('false');
  await at.save.click();
  await at.page.getByText('Nothing changed: nothing to save.').waitFor();
  expect(at.puts).toHaveLength(1);
  expect(await stored()).toEqual([{ METRICA1: '31.00', METRICA2: 4, HORAS: '9.0' }]);
});

it('shows it too when another tab sends the row’s entry, and Save then keeps the typed value on purpose', async () => {
  const at = await open();
  await at.page.route(cannotSend, (route) =>
    route.fulfill({ status: 503, contentType: 'application/json', body: '{}' }),
  );
  await keptThenTyped(at);
  const other = await openPage(context as BrowserContext);
  watchProblems(other, (problem) => problems.push(problem), 'other tab: ');
  await other.goto(`${server?.origin}/host`);
  await expect.poll(async () => (await stored())[0]?.METRICA2).toBe(4);
  await showsMet(at);
  await at.page.unroute(cannotSend);

  // Keep mine: sent from the stored 9.0 the person was shown, never from the 7.0 they typed over.
  const answer = at.page.waitForResponse((response) => response.request().method() === 'PUT');
  await at.save.click();
  expect((await answer).status()).toBe(200);
  expect(at.puts.at(-1)?.entries).toEqual([
    { activity, group, values: { HORAS: '8' }, base: { HORAS: '9.0' }, row: true },
  ]);
  expect(await stored()).toEqual([{ METRICA1: '31.00', METRICA2: 4, HORAS: '8.0' }]);
});

it('shows it too while a later entry of the row still waits to be sent', async () => {
  const at = await open();
  await context?.setOffline(true);
  for (const value of ['4', '3']) {
    await at.people.fill(value);
    await at.save.click();
    await expect.poll(() => description(at.people)).toBe(KEPT);
  }
  await at.hours.fill('8');
  await meanwhile({ activity, group, values: { HORAS: '9.0' }, base: { HORAS: '7.0' } });
  // The first kept entry reaches the server; the second does not (its connection drops).
  let sent = 0;
  await context?.route(
    (url) => url.pathname === '/associationtask',
    (route) => (route.request().method() === 'PUT' && ++sent > 1 ? route.abort() : route.fallback()),
  );
  await context?.setOffline(false);
  await expect.poll(async () => (await stored())[0]?.METRICA2).toBe(4);
  await expect.poll(() => sent).toBeGreaterThan(1);
  await showsMet(at);
  expect(await at.people.inputValue()).toBe('3');
  expect(await description(at.people)).toBe(KEPT);
});

it('takes silently, as stored, the value this device kept and sent under a cell typed over it', async () => {
  const at = await open();
  await context?.setOffline(true);
  await at.hours.fill('8');
  await at.save.click();
  await expect.poll(() => description(at.hours)).toBe(KEPT);
  await at.hours.fill('10');
  await context?.setOffline(false);
  await expect.poll(async () => (await stored())[0]?.HORAS).toBe('8.0');
  // Nothing waits any more: the row was shown anew from what the outbox's send stored.
  const region = at.page.getByRole('region', { name: 'Offline and waiting entries' });
  await expect.poll(() => region.getByText('1 entry waits to be sent.').count()).toBe(0);
  expect(await description(at.hours)).toBe('Changed, not saved yet');
  expect(await at.hours.getAttribute('aria-invalid')).toBe('false');

  const answer = at.page.waitForResponse((response) => response.request().method() === 'PUT');
  await at.save.click();
  expect((await answer).status()).toBe(200);
  expect(at.puts.at(-1)?.entries[0]).toMatchObject({ values: { HORAS: '10' }, base: { HORAS: '8.0' } });
  expect(await stored()).toEqual([{ METRICA1: '31.00', METRICA2: 5, HORAS: '10.0' }]);
});

it('keeps a conflict’s mark and value on Escape while a save is on its way', async () => {
  const at = await open();
  await keptThenTyped(at);
  await showsMet(at);
  // The next save is held on its way (a slow network) until the test lets it go, and then fails.
  const { release } = await holdRequests(at.page, (url) => url.pathname === '/associationtask', {
    which: (request) => request.method() === 'PUT',
    pass: 'fallback',
    reply: (route) => route.fulfill({ status: 503, contentType: 'application/json', body: '{}' }),
  });
  await at.quantity.fill('32');
  await at.save.click();
  await at.page.getByRole('button', { name: 'Saving…', exact: true }).waitFor();
  await at.hours.focus();
  await at.page.keyboard.press('Escape');
  release();
  await at.page
    .getByRole('alert')
    .getByText(/^Not saved/)
    .waitFor();
  await at.page.unroute((url) => url.pathname === '/associationtask');

  // Drawn again from what the table holds: the cell still shows the conflict and the typed 8.
  const filter = at.page.getByRole('checkbox', { name: 'Only activities without values' });
  await filter.check();
  await filter.uncheck();
  await expect.poll(() => at.hours.inputValue()).toBe('8');
  expect(await at.hours.getAttribute('aria-invalid')).toBe('true');
  expect(await description(at.hours)).toMatch(HORAS_MET);
  // Escape now takes the stored value.
  await at.hours.focus();
  await at.page.keyboard.press('Escape');
  await expect.poll(() => at.hours.inputValue()).toBe('9.0');
  expect(await at.hours.getAttribute('aria-invalid')).toBe('false');
});
