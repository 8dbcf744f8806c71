import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { DEMO_TABLES } from '../../src/demo/demo-install.js';
import type { Demo } from '../../src/demo/start-demo.js';
import { LABELS_EN } from '../../web/association-screen.js';
import { description, holdRequests, openPage, useBrowser, watchProblems } from '../support/browser.js';
import { startTestDemo } from '../support/demo.js';

/**
 * "Copy from the previous sheet" on a sheet of more than 1000 activities, which the table reads in
 * pages of 1000: the copy fills every activity of the sheet, waiting for the pages still on their
 * way, and copies nothing, saying so, when a page cannot be read.
 */

const browser = useBrowser();
const L = LABELS_EN;
const SECOND_PAGE = /[?&]part=sheet&.*page=2(?:&|$)/;
let demo: Demo;
let context: BrowserContext | undefined;
let problems: string[] = [];

beforeAll(async () => {
  demo = await startTestDemo();
  const db = demo.scratch.db;
  const { EMPRESA, FILIAL, LOCAL } = demo.install.scope;
  const seq = async (table: string, code: string) =>
    Number(
      (await db.query<{ S: number }>(`SELECT SEQ_DB AS S FROM ${table} WHERE CODIGO = ?`, [code]))[0]?.S,
    );
  const nextId = async (table: string) =>
    Number((await db.query<{ M: number }>(`SELECT IFNULL(MAX(ID), 0) AS M FROM ${table}`))[0]?.M) + 1;
  const soil = await seq(demo.names.OPER_GRUPO, 'G-SOIL');
  const care = await seq(demo.names.OPER_GRUPO, 'G-CARE');
  const weed = await seq(demo.names.OPER, 'A-WEED');
  // 1100 more activities under G-SOIL (North): A-WEED (South, G-CARE) lands on the second page.
  let operId = await nextId(demo.names.OPER);
  let linkId = await nextId(demo.names.OPER_OPER_GRUPO);
  for (let n = 1; n <= 1100; n++) {
    const inserted = await db.execute(
      `INSERT INTO ${demo.names.OPER} (EMPRESA, FILIAL, LOCAL, ID, INS_USUARIO_SEQ_DB, CODIGO, DESCRICAO) VALUES (?, ?, ?, ?, 1, ?, 'Bulk')`,
      [EMPRESA, FILIAL, LOCAL, operId++, `B-${String(n).padStart(4, '0')}`],
    );
    await db.execute(
      `INSERT INTO ${demo.names.OPER_OPER_GRUPO} (EMPRESA, FILIAL, LOCAL, ID, INS_USUARIO_SEQ_DB, OPER_GRUPO_SEQ_DB, OPER_SEQ_DB) VALUES (?, ?, ?, ?, 1, ?, ?)`,
      [EMPRESA, FILIAL, LOCAL, linkId++, soil, inserted.insertId],
    );
  }
  // Saved on the first sheet (the second's previous): A-WEED here, A-SEED by the demo (page 1).
  await db.execute(
    `INSERT INTO ${DEMO_TABLES.metrics} (EMPRESA, FILIAL, LOCAL, ID, INS_USUARIO_SEQ_DB, OPER_SEQ_DB, OPER_GRUPO_SEQ_DB, FOLHA_TAREFA_SEQ_DB, METRICA1, METRICA2, HORAS) VALUES (?, ?, ?, ?, 1, ?, ?, ?, '7.25', 3, '2.0')`,
    [EMPRESA, FILIAL, LOCAL, await nextId(DEMO_TABLES.metrics), weed, care, demo.sample.taskSheet],
  );
}, 180_000);

afterAll(async () => {
  await demo?.close();
});

afterEach(async () => {
  await context?.close();
  context = undefined;
  expect(problems).toEqual([]);
  problems = [];
});

/**
 * The second sheet's table, its second page held (or failed) by what `second` routes on the page
 * before the table asks for it; with what `second` resolved with.
 */
async function openSecondSheet<T>(second: (page: Page) => Promise<T>): Promise<{ page: Page; routed: T }> {
  context = await browser().newContext({ locale: 'en', viewport: { width: 1280, height: 800 } });
  const page = await openPage(context);
  watchProblems(page, (problem) => problems.push(problem));
  const routed = await second(page);
  await page.goto(`${demo.url}/associationtask?taskSheet=${demo.sample.taskSheets[1]}`);
  await page.getByRole('tree').waitFor();
  await page.getByRole('button', { name: L.viewTable, exact: true }).click();
  await page.getByRole('grid').getByRole('textbox').first().waitFor();
  return { page, routed };
}

const cellOf = (page: Page, code: string, metric: string) =>
  page
    .getByRole('grid')
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${code}`) }) })
    .getByRole('textbox', { name: metric, exact: true });

it('copies into every activity of the sheet, waiting for the pages the table still reads', async () => {
  const { page, routed: held } = await openSecondSheet((page) => holdRequests(page, SECOND_PAGE));
  await held.arrived;
  await page.getByRole('button', { name: L.copyPrevious }).click();
  const dialog = page.getByRole('dialog', { name: L.copyPrevious });
  await dialog.getByRole('button', { name: L.copyConfirm, exact: true }).click();
  // It waits for the second page, and says so: nothing is filled, nothing said done.
  await dialog.getByRole('status').getByText(L.copyReading).waitFor();
  expect(await description(cellOf(page, 'A-SEED', 'Quantidade'))).not.toContain('Copied');
  held.release();
  await dialog.waitFor({ state: 'hidden' });
  const grid = page.getByRole('grid');
  await grid.evaluate((node) => {
    node.scrollTop = node.scrollHeight;
  });
  const weed = cellOf(page, 'A-WEED', 'Quantidade');
  await expect.poll(() => weed.inputValue()).toBe('7.25');
  expect(await description(weed)).toBe(L.sourceCopied.replace('{id}', String(demo.sample.taskSheet)));
});

it('copies nothing, and says why, when a page of the sheet cannot be read', async () => {
  let reads = 0;
  const { page } = await openSecondSheet((page) =>
    page.route(SECOND_PAGE, async (route) => {
      reads++;
      await route.abort('connectionfailed');
    }),
  );
  await page.getByRole('button', { name: L.tableRetry }).waitFor();
  await page.getByRole('button', { name: L.copyPrevious }).click();
  const dialog = page.getByRole('dialog', { name: L.copyPrevious });
  await dialog.getByRole('button', { name: L.copyConfirm, exact: true }).click();
  // The page is tried again before anything is copied; it fails again.
  await dialog.getByRole('alert').getByText(L.copyUnread).waitFor();
  expect(reads).toBe(2);
  const seed = cellOf(page, 'A-SEED', 'Quantidade');
  expect(await seed.inputValue()).not.toBe('3.50');
  expect(await description(seed)).not.toContain('Copied');
  expect(
    await page
      .getByRole('status')
      .filter({ hasText: /Copied \d+ activities/ })
      .count(),
  ).toBe(0);
});
