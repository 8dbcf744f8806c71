import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_TABLES } from '../../src/demo/demo-install.js';
import { HISTORY_TABLE_NAME } from '../../src/model/table-names.js';
import { seriousViolations } from '../support/axe.js';
import {
  asksBeforeLeaving,
  description,
  holdRequests,
  keptOnDevice,
  openTable as openGrid,
  openPage,
  paste,
  showTable,
  useBrowser,
  watchProblems,
} from '../support/browser.js';
import { useTestDemo } from '../support/demo.js';

/*
 * The table view of the sheet (#29), on the demo (6 activities, 3 metrics: Quantidade decimal(10,2),
 * Pessoas int, Horas decimal(4,1)), in real Chromium, found by role and name. Tests of one file share
 * the demo's database: each works on its own activities or sheet, in the order written.
 */

const browser = useBrowser();
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const METRICS = DEMO_TABLES.metrics;

const demo = useTestDemo();
let context: BrowserContext | undefined;
let pageProblems: string[] = [];

afterEach(async () => {
  await context?.close();
  context = undefined;
  expect(pageProblems).toEqual([]);
});

async function newPage(options: { viewport?: { width: number; height: number }; locale?: string } = {}) {
  context = await browser().newContext({
    viewport: options.viewport ?? DESKTOP,
    ...(options.locale === undefined ? {} : { locale: options.locale }),
  });
  const page = await openPage(context);
  // Shorter than the test's own timeout, so a wait that fails says which.
  page.setDefaultTimeout(15_000);
  pageProblems = [];
  watchProblems(page, (problem) => pageProblems.push(problem));
  return page;
}

/** The PUT bodies and the number of requests by `part`, to the association endpoint. */
function watchRequests(page: Page) {
  const counts = new Map<string, number>();
  const puts: { requestId: string; source: string; entries: Record<string, unknown>[] }[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname !== '/associationtask' || url.searchParams.has('asset')) return;
    const part = request.method() === 'PUT' ? 'put' : (url.searchParams.get('part') ?? 'page');
    counts.set(part, (counts.get(part) ?? 0) + 1);
    if (request.method() === 'PUT') puts.push(request.postDataJSON());
  });
  return { count: (part: string) => counts.get(part) ?? 0, puts };
}

const openTable = (page: Page, taskSheet = demo().sample.taskSheet, name = 'Table') =>
  openGrid(page, `${demo().url}/associationtask?taskSheet=${taskSheet}`, name);

const rowOf = (grid: Locator, label: string) =>
  grid
    .getByRole('row')
    .filter({ has: grid.page().getByRole('rowheader', { name: new RegExp(`^${label}`) }) });
const cell = (grid: Locator, label: string, metric: string) =>
  rowOf(grid, label).getByRole('textbox', { name: metric, exact: true });

/** What has the focus: the row's activity and the cell's metric. */
const where = (page: Page) =>
  page.evaluate(() => {
    const input = document.activeElement;
    const row = input?.closest('[role="row"]');
    return `${row?.querySelector('[role="rowheader"] span')?.textContent ?? '?'} / ${input?.getAttribute('aria-label') ?? input?.textContent}`;
  });

async function savedRow(operCode: string, taskSheet = demo().sample.taskSheet) {
  return demo().scratch.db.query(
    `SELECT m.METRICA1, m.METRICA2, m.HORAS
       FROM ${METRICS} m JOIN ${demo().names.OPER} o ON o.SEQ_DB = m.OPER_SEQ_DB
      WHERE o.CODIGO = ? AND m.FOLHA_TAREFA_SEQ_DB = ? AND m.DELETED = 0`,
    [operCode, taskSheet],
  );
}

/** Someone else's save of an activity, through the API, every field given (base null: no row). */
async function savedElsewhere(operCode: string, groupCode: string, values: Record<string, string | number>) {
  const seq = async (table: string, code: string) =>
    Number(
      (
        await demo().scratch.db.query<{ SEQ_DB: number }>(`SELECT SEQ_DB FROM ${table} WHERE CODIGO = ?`, [
          code,
        ])
      )[0]?.SEQ_DB,
    );
  const answer = await fetch(`${demo().url}/associationtask?taskSheet=${demo().sample.taskSheet}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({
      requestId: crypto.randomUUID(),
      source: 'api',
      entries: [
        {
          activity: await seq(demo().names.OPER, operCode),
          group: await seq(demo().names.OPER_GRUPO, groupCode),
          values,
          base: Object.fromEntries(Object.keys(values).map((field) => [field, null])),
        },
      ],
    }),
  });
  expect(answer.status, await answer.clone().text()).toBe(200);
}

/** An activity's saved entry on a sheet removed (soft-deleted), so that its row shows defaults again. */
async function forget(operCode: string, taskSheet = demo().sample.taskSheet) {
  await demo().scratch.db.execute(
    `UPDATE ${METRICS} m JOIN ${demo().names.OPER} o ON o.SEQ_DB = m.OPER_SEQ_DB SET m.DELETED = 1
      WHERE o.CODIGO = ? AND m.FOLHA_TAREFA_SEQ_DB = ? AND m.DELETED = 0`,
    [operCode, taskSheet],
  );
}

/**
 * The demo's second sheet without live rows (tests before may have saved copies there), opened in
 * the table and filled with Copy from the previous sheet: every row copies.
 */
async function copiedIntoSecond() {
  const second = demo().sample.taskSheets[1] as number;
  await demo().scratch.db.query(
    `UPDATE ${METRICS} SET DELETED = 1 WHERE FOLHA_TAREFA_SEQ_DB = ? AND DELETED = 0`,
    [second],
  );
  const page = await newPage();
  const requests = watchRequests(page);
  const grid = await openTable(page, second);
  await page.getByRole('button', { name: 'Copy from the previous sheet' }).click();
  const dialog = page.getByRole('dialog', { name: 'Copy from the previous sheet' });
  await dialog.getByRole('button', { name: 'Copy', exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
  return { second, page, requests, grid };
}

/** Back to the tree view, an activity's modal opened down its `path` (its sector and group). */
async function modalFromTree(page: Page, path: readonly string[], activity: string) {
  await page.getByRole('button', { name: 'Tree', exact: true }).click();
  for (const name of path) {
    const item = page.getByRole('treeitem', { name }).first();
    await item.locator(':scope > .ta-screen__row').click();
    await item.getByRole('group').first().waitFor();
  }
  await page.getByRole('treeitem', { name: activity }).first().locator(':scope > .ta-screen__row').click();
  const modal = page.getByRole('dialog', { name: activity });
  await modal.waitFor();
  return modal;
}

const ORDER = [
  'A-FERT — Fertilising',
  'A-SEED — Seeding',
  'A-DISC — Disc ploughing',
  'A-SUBSOIL — Subsoiling',
  'A-SPRAY — Spraying',
  'A-WEED — Weeding',
];

describe('the table view, on the demo', () => {
  it('shows the progress, per group too, and filters the activities still without values', async () => {
    const page = await newPage();
    const grid = await openTable(page);
    await page.getByText('2 of 6 activities have values').waitFor();
    expect(
      await grid.getByRole('rowheader').evaluateAll((cells) => cells.map((c) => c.firstChild?.textContent)),
    ).toEqual(ORDER);
    await page.getByText('Progress by group').click();
    const groups = page.getByRole('listitem').filter({ hasText: /of \d/ });
    // The list is drawn again on the disclosure's toggle event, a moment after the click, with every
    // node the table has read by then: read at once, it can still be the sheet's first drawing.
    await expect
      .poll(() => groups.allTextContents())
      .toEqual(
        expect.arrayContaining([
          'S-NORTH — North field2 of 4',
          'G-PLANT — Planting2 of 2',
          'G-SOIL — Soil preparation0 of 2',
          'S-SOUTH — South field2 of 4',
          'G-CARE — Crop care0 of 2',
        ]),
      );
    await page.getByRole('checkbox', { name: 'Only activities without values' }).check();
    expect(
      await grid.getByRole('rowheader').evaluateAll((cells) => cells.map((c) => c.firstChild?.textContent)),
    ).toEqual(ORDER.slice(2));
    expect(await grid.getAttribute('aria-rowcount')).toBe('5');
    expect(await seriousViolations(page)).toEqual([]);
    // The same counts beside the tree's branches, as their descriptions (their names stay the labels).
    await page.getByRole('button', { name: 'Tree', exact: true }).click();
    const north = page.getByRole('treeitem', { name: 'S-NORTH — North field', exact: true });
    expect(await description(north)).toBe('2 of 4');
    expect(await north.locator('.ta-screen__branch-count').textContent()).toBe('2 of 4');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('switches between tree and table, presets cells like the modal, keeps changes across switches and on the device, so leaving does not ask', async () => {
    const page = await newPage();
    const grid = await openTable(page);
    expect(await page.getByRole('button', { name: 'Table' }).getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByRole('tree').isVisible()).toBe(false);
    expect(await grid.getByRole('columnheader').allTextContents()).toEqual([
      'Activity',
      'Quantidade',
      'Pessoas',
      'Horas',
    ]);
    const disc = cell(grid, 'A-DISC', 'Quantidade');
    expect(await disc.inputValue()).toBe('1.25');
    expect(await description(disc)).toBe('Default: from the activity');
    expect(await description(cell(grid, 'A-DISC', 'Pessoas'))).toBe('Default: from the task sheet');
    expect(await cell(grid, 'A-SEED', 'Quantidade').inputValue()).toBe('3.50');
    expect(await description(cell(grid, 'A-SEED', 'Quantidade'))).toBe('Saved value');
    expect(await description(cell(grid, 'A-SEED', 'Horas'))).toBe('Saved empty');
    expect(await rowOf(grid, 'A-FERT').getByRole('rowheader').textContent()).toContain('Read-only');
    expect(await cell(grid, 'A-FERT', 'Quantidade').getAttribute('readonly')).toBe('');
    expect(await rowOf(grid, 'A-DISC').getByRole('rowheader').textContent()).toContain(
      'S-NORTH — North field › G-SOIL — Soil preparation',
    );
    expect(await seriousViolations(page)).toEqual([]);

    await disc.click();
    await page.keyboard.type('7');
    expect(await description(disc)).toBe('Changed, not saved yet');
    await page.getByText('1 unsaved change').waitFor();
    await page.getByRole('button', { name: 'Tree', exact: true }).click();
    await page.getByRole('tree').waitFor();
    expect(await grid.isVisible()).toBe(false);
    // Kept on the device as the activity's draft, which comes back with the page: leaving asks
    // only while something typed is kept nowhere (see association-table-drafts.test.ts).
    await keptOnDevice(page);
    await page.getByRole('button', { name: 'Table', exact: true }).click();
    expect(await disc.inputValue()).toBe('7');
    await disc.focus();
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    expect(await disc.inputValue()).toBe('1.25');
    expect(await asksBeforeLeaving(page)).toBe(false);
  });

  it('moves like a spreadsheet: Tab along a row, Enter and arrows between rows, Page Down / Up to the end, Escape undoes, typing replaces', async () => {
    const page = await newPage();
    const grid = await openTable(page);
    await cell(grid, 'A-DISC', 'Quantidade').click();
    await page.keyboard.type('2');
    expect(await cell(grid, 'A-DISC', 'Quantidade').inputValue()).toBe('2');
    await page.keyboard.press('Tab');
    expect(await where(page)).toBe('A-DISC — Disc ploughing / Pessoas');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await where(page)).toBe('A-SUBSOIL — Subsoiling / Quantidade');
    await page.keyboard.press('Shift+Tab');
    expect(await where(page)).toBe('A-DISC — Disc ploughing / Horas');
    await page.keyboard.press('Enter');
    expect(await where(page)).toBe('A-SUBSOIL — Subsoiling / Horas');
    await page.keyboard.press('ArrowDown');
    expect(await where(page)).toBe('A-SPRAY — Spraying / Horas');
    await page.keyboard.type('3,5');
    await page.keyboard.press('Escape');
    expect(await cell(grid, 'A-SPRAY', 'Horas').inputValue()).toBe('8.0');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    expect(await where(page)).toBe('A-DISC — Disc ploughing / Horas');
    await page.keyboard.press('Shift+Enter');
    expect(await where(page)).toBe('A-SEED — Seeding / Horas');
    // Page Down / Page Up within a screenful of the end and the start: to the last and first row.
    await page.keyboard.press('PageDown');
    expect(await where(page)).toBe('A-WEED — Weeding / Horas');
    await page.keyboard.press('PageUp');
    expect(await where(page)).toBe('A-FERT — Fertilising / Horas');
    await page.keyboard.press('ArrowDown');
    expect(await where(page)).toBe('A-SEED — Seeding / Horas');
    // Checked as the modal checks: the problem at its cell, nothing sent.
    await page.keyboard.type('1.234');
    await page.getByRole('button', { name: 'Save changes' }).click();
    const seedHours = cell(grid, 'A-SEED', 'Horas');
    expect(await seedHours.getAttribute('aria-invalid')).toBe('true');
    expect(await description(seedHours)).toBe('Use at most 1 decimal place.');
    await page.getByRole('alert').getByText('Not saved: check the marked cell.').waitFor();
    expect(await where(page)).toBe('A-SEED — Seeding / Horas');
  });

  it('pastes a column copied from a spreadsheet and saves every change in one request', async () => {
    const page = await newPage();
    const requests = watchRequests(page);
    const grid = await openTable(page);
    // The tree has read A-DISC's branch before the table saves it: it must show the saved values.
    await page.getByRole('button', { name: 'Tree', exact: true }).click();
    for (const name of ['S-NORTH — North field', 'G-SOIL — Soil preparation']) {
      await page.getByRole('treeitem', { name }).first().locator(':scope > .ta-screen__row').click();
      await page
        .getByRole('treeitem', { name: /^A-DISC/ })
        .or(page.getByRole('treeitem', { name: /^G-SOIL/ }))
        .first()
        .waitFor();
    }
    await page.getByRole('treeitem', { name: /^A-DISC/ }).waitFor();
    await page.getByRole('button', { name: 'Table', exact: true }).click();
    await cell(grid, 'A-DISC', 'Pessoas').click();
    await paste(page, '3\r\n4\r\n5\r\n');
    await page.getByText('Pasted 3 cells.').waitFor();
    expect(await cell(grid, 'A-DISC', 'Pessoas').inputValue()).toBe('3');
    expect(await cell(grid, 'A-SUBSOIL', 'Pessoas').inputValue()).toBe('4');
    expect(await cell(grid, 'A-SPRAY', 'Pessoas').inputValue()).toBe('5');
    expect(await cell(grid, 'A-WEED', 'Pessoas').inputValue()).toBe('6');
    // A block: two columns from the focused cell.
    await cell(grid, 'A-DISC', 'Quantidade').click();
    await paste(page, '2.5\t7\n0.75\t8\n');
    expect(await cell(grid, 'A-SUBSOIL', 'Quantidade').inputValue()).toBe('0.75');
    expect(await cell(grid, 'A-SUBSOIL', 'Pessoas').inputValue()).toBe('8');
    await page.getByText('5 unsaved changes').waitFor();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved 3 activities.').waitFor();
    expect(requests.count('put')).toBe(1);
    const [put] = requests.puts;
    expect(put?.source).toBe('screen');
    expect(put?.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(put?.entries).toEqual([
      {
        activity: expect.any(Number),
        group: expect.any(Number),
        values: { METRICA1: '2.5', METRICA2: 7, HORAS: '8.0' },
        base: { METRICA1: null, METRICA2: null, HORAS: null },
        row: false,
      },
      {
        activity: expect.any(Number),
        group: expect.any(Number),
        values: { METRICA1: '0.75', METRICA2: 8, HORAS: '8.0' },
        base: { METRICA1: null, METRICA2: null, HORAS: null },
        row: false,
      },
      {
        activity: expect.any(Number),
        group: expect.any(Number),
        values: { METRICA1: '0.60', METRICA2: 5, HORAS: '8.0' },
        base: { METRICA1: null, METRICA2: null, HORAS: null },
        row: false,
      },
    ]);
    expect(await savedRow('A-DISC')).toEqual([{ METRICA1: '2.50', METRICA2: 7, HORAS: '8.0' }]);
    expect(await savedRow('A-SPRAY')).toEqual([{ METRICA1: '0.60', METRICA2: 5, HORAS: '8.0' }]);
    expect(await cell(grid, 'A-DISC', 'Quantidade').inputValue()).toBe('2.50');
    expect(await description(cell(grid, 'A-DISC', 'Quantidade'))).toBe('Saved value');
    await page.getByText('5 of 6 activities have values').waitFor();
    // The tree shows what the table saved, without reading the branch again.
    const children = requests.count('children');
    await page.getByRole('button', { name: 'Tree', exact: true }).click();
    expect(
      await page
        .getByRole('treeitem', { name: /^A-DISC/ })
        .locator(':scope > .ta-screen__row')
        .textContent(),
    ).toBe('A-DISC — Disc ploughingQuantidade2.50savedPessoas7savedHoras8.0saved');
    expect(requests.count('children')).toBe(children);
  });

  it('shows a conflict at its cell and writes nothing of the refused batch', async () => {
    const page = await newPage();
    const requests = watchRequests(page);
    const grid = await openTable(page);
    // Someone else (user 12, as the row's audit columns say) changes A-SEED's Quantidade after the
    // table read it.
    await demo().scratch.db.execute(
      `UPDATE ${METRICS} m JOIN ${demo().names.OPER} o ON o.SEQ_DB = m.OPER_SEQ_DB
        SET m.METRICA1 = '9.99', m.UPD_USUARIO_SEQ_DB = 12
        WHERE o.CODIGO = 'A-SEED' AND m.FOLHA_TAREFA_SEQ_DB = ?`,
      [demo().sample.taskSheet],
    );
    await cell(grid, 'A-SEED', 'Quantidade').click();
    await page.keyboard.type('5');
    await cell(grid, 'A-WEED', 'Horas').click();
    await page.keyboard.type('4.5');
    await page.getByRole('button', { name: 'Save changes' }).click();
    const seed = cell(grid, 'A-SEED', 'Quantidade');
    await page.waitForFunction(() => document.querySelector('[aria-invalid="true"]') !== null);
    // The row's last writer, as the server knows it, and what is stored now.
    expect(await description(seed)).toMatch(/^Changed meanwhile by user 12, .+: stored now 9\.99\.$/);
    expect(await seed.inputValue()).toBe('5');
    expect(await page.getByRole('alert').textContent()).toMatch(/^Not saved: 1 cell changed meanwhile/);
    expect(await savedRow('A-WEED')).toEqual([]);
    expect(await savedRow('A-SEED')).toMatchObject([{ METRICA1: '9.99' }]);
    expect(await seriousViolations(page)).toEqual([]);
    // Saving again keeps mine, over what is stored now.
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved 2 activities.').waitFor();
    expect(requests.count('put')).toBe(2);
    expect(requests.puts[1]?.entries[0]).toMatchObject({
      values: { METRICA1: '5' },
      base: { METRICA1: '9.99' },
    });
    expect(await savedRow('A-SEED')).toMatchObject([{ METRICA1: '5.00' }]);
    expect(await savedRow('A-WEED')).toEqual([{ METRICA1: '0.40', METRICA2: 6, HORAS: '4.5' }]);
  });

  it('copies the previous sheet’s values with a metric left empty, marked until saved with source copy', async () => {
    const second = demo().sample.taskSheets[1] as number;
    const page = await newPage();
    const requests = watchRequests(page);
    const grid = await openTable(page, second);
    await page.getByRole('button', { name: 'Copy from the previous sheet' }).click();
    const dialog = page.getByRole('dialog', { name: 'Copy from the previous sheet' });
    await dialog.getByRole('checkbox', { name: 'Pessoas' }).check();
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Copy', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    const copiedFrom = `Copied from sheet ${demo().sample.taskSheet}, not saved yet`;
    // Sheet 1 holds A-FERT 1.00 / 5 / 6.0, A-SEED 5.00 / 4 / empty, A-DISC 2.50 / 7 / 8.0 ... (the tests before).
    expect(await cell(grid, 'A-FERT', 'Quantidade').inputValue()).toBe('1.00');
    expect(await description(cell(grid, 'A-FERT', 'Quantidade'))).toBe(copiedFrom);
    expect(await cell(grid, 'A-FERT', 'Pessoas').inputValue()).toBe('');
    expect(await description(cell(grid, 'A-FERT', 'Pessoas'))).toBe(copiedFrom);
    expect(await cell(grid, 'A-SEED', 'Quantidade').inputValue()).toBe('5.00');
    expect(await cell(grid, 'A-SEED', 'Horas').inputValue()).toBe('8.0');
    expect(await description(cell(grid, 'A-SEED', 'Horas'))).toBe('Default: fixed value');
    expect(await cell(grid, 'A-SUBSOIL', 'Quantidade').inputValue()).toBe('0.75');
    // Typed over, then undone: the copied value comes back, still marked as copied (and saved so).
    const seed = cell(grid, 'A-SEED', 'Quantidade');
    await seed.click();
    await page.keyboard.type('6');
    expect(await description(seed)).toBe('Changed, not saved yet');
    await page.keyboard.press('Escape');
    expect(await seed.inputValue()).toBe('5.00');
    expect(await description(seed)).toBe(copiedFrom);
    // Left and entered again, nothing typed since: one Escape has no edit to undo, the copy stays.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Escape');
    expect(await seed.inputValue()).toBe('5.00');
    expect(await description(seed)).toBe(copiedFrom);
    expect(requests.count('put')).toBe(0);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText(/^Saved \d activities\.$/).waitFor();
    expect(requests.count('put')).toBe(1);
    expect(requests.puts[0]?.source).toBe('copy');
    expect(await savedRow('A-FERT', second)).toEqual([{ METRICA1: '1.00', METRICA2: null, HORAS: '6.0' }]);
    expect(await description(cell(grid, 'A-FERT', 'Quantidade'))).toBe('Saved value');
  });

  it('says in the modal that values copied in the table were copied, and saves them from there with source copy', async () => {
    const { second, page, requests, grid } = await copiedIntoSecond();
    const copied = await cell(grid, 'A-SEED', 'Quantidade').inputValue();
    const copiedFrom = `Copied from sheet ${demo().sample.taskSheet}, not saved yet`;
    // Back to the tree: Seeding checked in its modal, and saved there.
    const modal = await modalFromTree(
      page,
      ['S-NORTH — North field', 'G-PLANT — Planting'],
      'A-SEED — Seeding',
    );
    const quantity = modal.getByRole('textbox', { name: 'Quantidade', exact: true });
    expect(await quantity.inputValue()).toBe(copied);
    // Where the values came from, as the table's cells said it.
    expect(await description(quantity)).toBe(copiedFrom);
    await modal
      .getByText(
        new RegExp(`^Not saved yet: copied from sheet ${demo().sample.taskSheet} on this device on `),
      )
      .waitFor();
    await modal.getByRole('button', { name: 'Save', exact: true }).click();
    await modal.waitFor({ state: 'hidden' });
    expect(requests.puts.map((put) => put.source)).toEqual(['copy']);
    // The history says the values came from another sheet, not from this screen.
    const sources = await demo().scratch.db.query<{ SOURCE: string }>(
      `SELECT h.SOURCE FROM ${HISTORY_TABLE_NAME} h
         JOIN ${METRICS} m ON m.SEQ_DB = h.ROW_SEQ_DB AND h.METRIC_TABLE = ?
         JOIN ${demo().names.OPER} o ON o.SEQ_DB = m.OPER_SEQ_DB
        WHERE o.CODIGO = 'A-SEED' AND m.FOLHA_TAREFA_SEQ_DB = ? AND m.DELETED = 0`,
      [METRICS, second],
    );
    expect(sources.length).toBeGreaterThan(0);
    expect(new Set(sources.map((row) => row.SOURCE))).toEqual(new Set(['copy']));
  });

  it('keeps copied cells saved offline in the outbox and sends them, once online, with source copy and the device’s time', async () => {
    const { second, page, requests, grid } = await copiedIntoSecond();
    expect(await cell(grid, 'A-FERT', 'Quantidade').inputValue()).toBe('1.00');
    await context?.setOffline(true);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText(/^\d+ activities saved on this device/).waitFor();
    expect(requests.count('put')).toBe(0);
    expect(await savedRow('A-FERT', second)).toEqual([]);

    await context?.setOffline(false);
    await expect
      .poll(() => savedRow('A-FERT', second), { timeout: 20_000, interval: 100 })
      .toEqual([{ METRICA1: '1.00', METRICA2: 5, HORAS: '6.0' }]);
    expect(requests.puts.map((put) => put.source)).toEqual(['copy']);
    // The live row's history: its insert, one row per field given.
    const changes = await demo().scratch.db.query<{ SOURCE: string; deviceBehind: number | null }>(
      `SELECT h.SOURCE, TIMESTAMPDIFF(SECOND, h.DEVICE_DH, h.CHANGED_DH) AS deviceBehind
         FROM ${HISTORY_TABLE_NAME} h
         JOIN ${METRICS} m ON m.SEQ_DB = h.ROW_SEQ_DB AND h.METRIC_TABLE = ?
         JOIN ${demo().names.OPER} o ON o.SEQ_DB = m.OPER_SEQ_DB
        WHERE o.CODIGO = 'A-FERT' AND m.FOLHA_TAREFA_SEQ_DB = ? AND m.DELETED = 0`,
      [METRICS, second],
    );
    expect(changes.length).toBeGreaterThan(0);
    for (const change of changes) {
      expect(change.SOURCE).toBe('copy');
      // The device's time of entry, kept by the outbox while offline: before the server's, not after.
      expect(change.deviceBehind).not.toBeNull();
      expect(Number(change.deviceBehind)).toBeGreaterThanOrEqual(0);
    }
  });

  it('"Save and next" in the modal walks into closed branches', async () => {
    const page = await newPage();
    await page.goto(`${demo().url}/associationtask?taskSheet=${demo().sample.taskSheet}`);
    await page.getByRole('tree').waitFor();
    for (const name of ['S-NORTH — North field', 'G-SOIL — Soil preparation']) {
      const item = page.getByRole('treeitem', { name }).first();
      await item.locator(':scope > .ta-screen__row').click();
      await page.waitForFunction(
        (label) =>
          [...document.querySelectorAll('[aria-expanded="true"]')].some(
            (node) =>
              node.querySelector('.ta-screen__label')?.textContent === label &&
              !node.hasAttribute('aria-busy'),
          ),
        name,
      );
    }
    await page
      .getByRole('treeitem', { name: /^A-SUBSOIL/ })
      .locator(':scope > .ta-screen__row')
      .click();
    const dialog = page.getByRole('dialog', { name: 'A-SUBSOIL — Subsoiling' });
    await dialog.waitFor();
    // S-SOUTH is closed: the next activity is read and shown all the same.
    expect(
      await page.getByRole('treeitem', { name: 'S-SOUTH — South field' }).getAttribute('aria-expanded'),
    ).toBe('false');
    await dialog.getByRole('button', { name: 'Save and next' }).click();
    await page.getByRole('dialog', { name: 'A-SPRAY — Spraying' }).waitFor();
    expect(
      await page.getByRole('treeitem', { name: 'S-SOUTH — South field' }).getAttribute('aria-expanded'),
    ).toBe('true');
    await page.getByRole('dialog').getByRole('button', { name: 'Save and next' }).click();
    await page.getByRole('dialog', { name: 'A-WEED — Weeding' }).waitFor();
    // Then G-PLANT under S-SOUTH (closed too): A-FERT is read-only and passed, A-SEED is next.
    await page.getByRole('dialog').getByRole('button', { name: 'Save and next' }).click();
    await page.getByRole('dialog', { name: 'A-SEED — Seeding' }).waitFor();
  });

  it('finds an activity by several words in any order', async () => {
    const page = await newPage();
    await page.goto(`${demo().url}/associationtask?taskSheet=${demo().sample.taskSheet}`);
    await page.getByRole('searchbox', { name: 'Search activities' }).fill('seeding a-seed');
    const results = page.getByRole('list', { name: 'Search results' });
    await results
      .getByRole('button', { name: /^A-SEED — Seeding/ })
      .first()
      .waitFor();
    await page.getByRole('searchbox', { name: 'Search activities' }).fill('WEEDING  a-weed');
    await results.getByRole('button', { name: /^A-WEED — Weeding/ }).waitFor();
  });

  it('works on a phone, in Portuguese: "Tabela", the decimal comma, one column in view beside the activity', async () => {
    const page = await newPage({ viewport: PHONE, locale: 'pt-BR' });
    const grid = await openTable(page, demo().sample.taskSheet, 'Tabela');
    expect(await grid.getAttribute('aria-label')).toBe('Atividades e métricas');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    // What a narrow column cuts says so with "…": a value wider than its cell (cut without a sign,
    // 12345678,99 read "123456") and a label wider than its header ("Quantidad").
    const quantity = cell(grid, 'A-SPRAY', 'Quantidade');
    await quantity.fill('12345678,99');
    expect(await quantity.evaluate((input) => input.scrollWidth > input.clientWidth)).toBe(true);
    expect(await quantity.evaluate((input) => getComputedStyle(input).textOverflow)).toBe('ellipsis');
    await quantity.press('Escape');
    const header = grid.getByRole('columnheader', { name: 'Quantidade' });
    expect(await header.evaluate((e) => e.scrollWidth > e.clientWidth)).toBe(true);
    expect(
      await header.evaluate((e) => [getComputedStyle(e).display, getComputedStyle(e).textOverflow]),
    ).toEqual(['block', 'ellipsis']);
    // A read-only row's label and lock fit the row's height: its label was cut at the top, its path
    // hidden under the lock's wrapped words.
    const fert = rowOf(grid, 'A-FERT');
    const rowBox = await fert.boundingBox();
    for (const part of [
      fert.getByRole('rowheader').locator('.ta-screen__table-label'),
      fert.getByText('Somente leitura', { exact: true }),
    ]) {
      const box = await part.boundingBox();
      expect(box && rowBox && box.y >= rowBox.y && box.y + box.height <= rowBox.y + rowBox.height).toBe(true);
    }
    // Out of sight, the path is still part of the row header's name.
    expect(await fert.getByRole('rowheader', { name: /S-NORTH/ }).count()).toBe(1);
    const subsoil = cell(grid, 'A-SUBSOIL', 'Horas');
    await subsoil.scrollIntoViewIfNeeded();
    await subsoil.click();
    await page.keyboard.type('6,5');
    await page.getByRole('button', { name: 'Salvar alterações' }).click();
    await page.getByText('1 atividade salva.').waitFor();
    expect(await savedRow('A-SUBSOIL')).toMatchObject([{ HORAS: '6.5' }]);
    expect(await subsoil.inputValue()).toBe('6,5');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('keeps every cell of a conflict on Save again, those kept from a default as well as those typed; Escape takes the stored value for good', async () => {
    // Without a saved entry, a save sends every value the row shows (Horas typed, the defaults kept).
    await forget('A-DISC');
    const page = await newPage();
    const requests = watchRequests(page);
    const grid = await openTable(page);
    await cell(grid, 'A-DISC', 'Horas').click();
    await page.keyboard.type('5');
    await savedElsewhere('A-DISC', 'G-SOIL', { METRICA1: '3', METRICA2: 2, HORAS: '2.0' });
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page
      .getByRole('alert')
      .getByText(/^Not saved: 3 cells changed meanwhile/)
      .waitFor();
    for (const metric of ['Quantidade', 'Pessoas', 'Horas'])
      expect(await description(cell(grid, 'A-DISC', metric))).toMatch(/^Changed meanwhile by /);
    // Each is the person's to keep, typed or not: all three wait to be saved again.
    await page.getByText('3 unsaved changes').waitFor();
    // Escape takes the stored value; pressed again, it stays there (what the cell now starts from).
    const hours = cell(grid, 'A-DISC', 'Horas');
    await hours.focus();
    await page.keyboard.press('Escape');
    expect(await hours.inputValue()).toBe('2.0');
    await page.keyboard.press('Escape');
    expect(await hours.inputValue()).toBe('2.0');
    expect(await description(hours)).toBe('Saved value');
    await page.getByText('2 unsaved changes').waitFor();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved 1 activity.').waitFor();
    expect(requests.puts[1]?.entries[0]).toMatchObject({
      values: { METRICA1: '1.25', METRICA2: 6 },
      base: { METRICA1: '3.00', METRICA2: 2 },
    });
    expect(await savedRow('A-DISC')).toEqual([{ METRICA1: '1.25', METRICA2: 6, HORAS: '2.0' }]);
  });

  it('copies nothing over typed cells nor while a save is out, and counts only the activities it filled', async () => {
    const second = demo().sample.taskSheets[1] as number;
    // A-SEED is the one activity to copy: saved on sheet 1, not on sheet 2 (A-FERT's sheet-1 row
    // goes; the others have rows on sheet 2 by now, or none on sheet 1 when run alone).
    await forget('A-SEED', second);
    await forget('A-FERT');
    const page = await newPage();
    // The save's request is held on its way until released.
    const { release } = await holdRequests(page, (url) => url.pathname === '/associationtask', {
      which: (request) => request.method() === 'PUT',
      pass: 'fallback',
    });
    const grid = await openTable(page, second);
    // Every cell of A-SEED typed (sheet 1 has its values): the copy leaves them, and fills no row.
    await cell(grid, 'A-SEED', 'Quantidade').click();
    for (const value of ['1', '2', '3']) {
      await page.keyboard.type(value);
      await page.keyboard.press('Tab');
    }
    const copy = page.getByRole('button', { name: 'Copy from the previous sheet' });
    await copy.click();
    const dialog = page.getByRole('dialog', { name: 'Copy from the previous sheet' });
    await dialog.getByRole('button', { name: 'Copy', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page
      .getByText(new RegExp(`^Sheet ${demo().sample.taskSheet} has no saved values to copy here\\.`))
      .waitFor();
    expect(await cell(grid, 'A-SEED', 'Quantidade').inputValue()).toBe('1');
    expect(await description(cell(grid, 'A-SEED', 'Pessoas'))).toBe('Changed, not saved yet');
    // While the save is out, there is no copying into the cells it sends.
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => copy.isDisabled()).toBe(true);
    release();
    await page.getByText('Saved 1 activity.').waitFor();
    await expect.poll(() => copy.isDisabled()).toBe(false);
    expect(await savedRow('A-SEED', second)).toEqual([{ METRICA1: '1.00', METRICA2: 2, HORAS: '3.0' }]);
  });

  it('keeps what was typed in a cell left and entered again on one Escape, and takes its preset on a second', async () => {
    await forget('A-DISC');
    const page = await newPage();
    const grid = await openTable(page);
    const disc = cell(grid, 'A-DISC', 'Quantidade');
    await disc.click();
    await page.keyboard.type('7');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Shift+Tab');
    // Back in the cell, nothing edited in it since: the first Escape has no edit to undo.
    await page.keyboard.press('Escape');
    expect(await disc.inputValue()).toBe('7');
    expect(await description(disc)).toBe('Changed, not saved yet');
    await page.getByText('1 unsaved change').waitFor();
    // An edit since entering is undone first (back to the 7), then the preset.
    await page.keyboard.type('8');
    await page.keyboard.press('Escape');
    expect(await disc.inputValue()).toBe('7');
    await page.keyboard.press('Escape');
    expect(await disc.inputValue()).toBe('1.25');
    expect(await description(disc)).toBe('Default: from the activity');
  });

  it('scrolls the cell Tab, Shift+Tab or a refused save moves to fully into view across, clear of the activity column (landscape phone)', async () => {
    const page = await newPage({ viewport: { width: 640, height: 360 } });
    const grid = await openTable(page);
    /** Whether a field's whole box is within the grid's visible box, right of the sticky activity column. */
    const seen = (field: Locator) =>
      field.evaluate((input) => {
        const view = input.closest('[role="grid"]') as HTMLElement;
        const activity = input.closest('[role="row"]')?.querySelector('[role="rowheader"]') as HTMLElement;
        const box = input.getBoundingClientRect();
        const left = activity.getBoundingClientRect().right;
        return (
          input === document.activeElement &&
          box.left >= left &&
          box.right <= view.getBoundingClientRect().left + view.clientWidth
        );
      });
    await cell(grid, 'A-DISC', 'Quantidade').click();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    const hours = cell(grid, 'A-DISC', 'Horas');
    expect(await seen(hours)).toBe(true);
    // Right-aligned: the value typed is where the person sees it.
    await page.keyboard.type('1,2');
    // Back along the row after the grid was scrolled to its far right (as a finger does).
    await grid.evaluate((node) => {
      node.scrollLeft = node.scrollWidth;
    });
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    expect(await seen(cell(grid, 'A-DISC', 'Quantidade'))).toBe(true);
    // A refused value's cell, focused by the save, is scrolled to as well.
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('alert').getByText('Not saved: check the marked cell.').waitFor();
    expect(await hours.getAttribute('aria-invalid')).toBe('true');
    expect(await seen(hours)).toBe(true);
    // Tab from outside the grid, its cell scrolled under the activity column and the header row
    // meanwhile (as a finger does): the browser's own scrolling left it there, typed in out of sight.
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await page.getByRole('button', { name: 'Save changes' }).focus();
    await grid.evaluate((node) => {
      node.scrollLeft = node.scrollWidth;
      node.scrollTop = node.scrollHeight;
    });
    await page.keyboard.press('Tab');
    const quantity = cell(grid, 'A-DISC', 'Quantidade');
    expect(await seen(quantity)).toBe(true);
    expect(
      await quantity.evaluate((input) => {
        const head = input.closest('[role="grid"]')?.querySelector('[role="row"]') as HTMLElement;
        return input.getBoundingClientRect().top >= head.getBoundingClientRect().bottom;
      }),
    ).toBe(true);
  });

  it('shows all activities again for a refused value in one "Only activities without values" hides, and focuses its cell', async () => {
    await forget('A-DISC');
    const page = await newPage();
    const requests = watchRequests(page);
    const grid = await openTable(page);
    // A-SEED has values saved: a typo in it, then the filter to go on with the empty ones.
    await cell(grid, 'A-SEED', 'Quantidade').click();
    await page.keyboard.type('3,5x');
    const filter = page.getByRole('checkbox', { name: 'Only activities without values' });
    await filter.check();
    expect(await rowOf(grid, 'A-SEED').count()).toBe(0);
    await cell(grid, 'A-DISC', 'Pessoas').click();
    await page.keyboard.type('3');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page
      .getByRole('alert')
      .getByText(
        'Not saved: check the marked cell. “Only activities without values” is off now: it hid what is marked.',
      )
      .waitFor();
    expect(await filter.isChecked()).toBe(false);
    expect(await where(page)).toBe('A-SEED — Seeding / Quantidade');
    expect(await cell(grid, 'A-SEED', 'Quantidade').getAttribute('aria-invalid')).toBe('true');
    // Nothing is sent while a value is refused; both changes wait.
    expect(requests.count('put')).toBe(0);
    expect(await cell(grid, 'A-DISC', 'Pessoas').inputValue()).toBe('3');
  });

  it('shows all activities again for a conflict in one "Only activities without values" hides, and focuses its cell', async () => {
    await forget('A-DISC');
    const page = await newPage();
    const grid = await openTable(page);
    await cell(grid, 'A-SEED', 'Quantidade').click();
    await page.keyboard.type('4');
    const filter = page.getByRole('checkbox', { name: 'Only activities without values' });
    await filter.check();
    await cell(grid, 'A-DISC', 'Pessoas').click();
    await page.keyboard.type('3');
    // Someone else changes A-SEED's Quantidade meanwhile.
    await demo().scratch.db.execute(
      `UPDATE ${METRICS} m JOIN ${demo().names.OPER} o ON o.SEQ_DB = m.OPER_SEQ_DB SET m.METRICA1 = '8.88'
        WHERE o.CODIGO = 'A-SEED' AND m.FOLHA_TAREFA_SEQ_DB = ? AND m.DELETED = 0`,
      [demo().sample.taskSheet],
    );
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page
      .getByRole('alert')
      .getByText(
        /^Not saved: 1 cell changed meanwhile.* “Only activities without values” is off now: it hid what is marked\.$/,
      )
      .waitFor();
    expect(await filter.isChecked()).toBe(false);
    expect(await where(page)).toBe('A-SEED — Seeding / Quantidade');
    expect(await description(cell(grid, 'A-SEED', 'Quantidade'))).toMatch(/: stored now 8\.88\.$/);
    expect(await savedRow('A-DISC')).toEqual([]);
  });

  it('keeps values copied whole as they equal the defaults across a look in the modal, and stores them', async () => {
    // Weeding's entry on sheet 1 holds exactly what sheet 2 would show by default: its INDICE, the
    // sheet's Pessoas and the fixed Horas.
    await forget('A-WEED');
    await savedElsewhere('A-WEED', 'G-CARE', { METRICA1: '0.40', METRICA2: 4, HORAS: '8.0' });
    const { second, page, requests, grid } = await copiedIntoSecond();
    const copiedFrom = `Copied from sheet ${demo().sample.taskSheet}, not saved yet`;
    expect(await description(cell(grid, 'A-WEED', 'Horas'))).toBe(copiedFrom);
    // A look at the row in the modal, closed with Esc: the copy stays the person's to save.
    const modal = await modalFromTree(
      page,
      ['S-SOUTH — South field', 'G-CARE — Crop care'],
      'A-WEED — Weeding',
    );
    for (const metric of ['Quantidade', 'Pessoas', 'Horas']) {
      expect(await description(modal.getByRole('textbox', { name: metric, exact: true }))).toBe(copiedFrom);
    }
    // One value typed over there, then Esc, which only closes the dialog (Cancel would discard).
    await modal.getByRole('textbox', { name: 'Pessoas', exact: true }).fill('5');
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Table', exact: true }).click();
    for (const metric of ['Quantidade', 'Horas']) {
      expect(await description(cell(grid, 'A-WEED', metric))).toBe(copiedFrom);
    }
    expect(await description(cell(grid, 'A-WEED', 'Pessoas'))).toBe('Changed, not saved yet');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText(/^Saved \d activities\.$/).waitFor();
    expect(await savedRow('A-WEED', second)).toEqual([{ METRICA1: '0.40', METRICA2: 5, HORAS: '8.0' }]);
    expect(requests.puts.map((put) => put.source)).toEqual(['copy']);
  });

  it('reads the activities again once the network is back, after a read that failed without it', async () => {
    const page = await newPage();
    await page.goto(`${demo().url}/associationtask?taskSheet=${demo().sample.taskSheet}`);
    await page.getByRole('tree').waitFor();
    await context?.setOffline(true);
    await page.getByRole('button', { name: 'Table', exact: true }).click();
    const again = page.getByRole('button', { name: 'Load the activities again' });
    await again.waitFor();
    await page.getByText(/^The activities could not be loaded\./).waitFor();
    // The person had to press it; the network back, the rows come by themselves.
    await context?.setOffline(false);
    await page
      .getByRole('grid')
      .getByRole('rowheader', { name: /^A-SEED/ })
      .waitFor();
    await again.waitFor({ state: 'hidden' });
  });

  it('says one activity as one: one copied, one kept on this device for later, one left as saved (English and pt-BR)', async () => {
    // Sheet 1's one entry is Disc ploughing's; sheet 2 has none.
    const second = demo().sample.taskSheets[1] as number;
    await demo().scratch.db.execute(
      `UPDATE ${METRICS} SET DELETED = 1 WHERE FOLHA_TAREFA_SEQ_DB IN (?, ?) AND DELETED = 0`,
      [demo().sample.taskSheet, second],
    );
    await savedElsewhere('A-DISC', 'G-SOIL', { METRICA1: '3', METRICA2: 2, HORAS: '2.0' });
    const page = await newPage();
    const grid = await openTable(page, second);
    await page.getByRole('button', { name: 'Copy from the previous sheet' }).click();
    const dialog = page.getByRole('dialog', { name: 'Copy from the previous sheet' });
    await dialog.getByRole('button', { name: 'Copy', exact: true }).click();
    await page
      .getByText(
        `Copied 1 activity from sheet ${demo().sample.taskSheet}. Check it, then press Save changes.`,
        {
          exact: true,
        },
      )
      .waitFor();
    expect(await cell(grid, 'A-DISC', 'Quantidade').inputValue()).toBe('3.00');
    // No signal: the one row goes to the outbox, said as one; sent once the signal is back.
    await context?.setOffline(true);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page
      .getByText('1 activity saved on this device: it will be sent when the network returns.', {
        exact: true,
      })
      .waitFor();
    await context?.setOffline(false);
    await expect
      .poll(() => savedRow('A-DISC', second), { timeout: 20_000, interval: 100 })
      .toEqual([{ METRICA1: '3.00', METRICA2: 2, HORAS: '2.0' }]);
    await context?.close();

    // In Portuguese: the copy leaves the one activity saved here as it is; one change kept for later.
    const pt = await newPage({ locale: 'pt-BR' });
    const tabela = await openTable(pt, second, 'Tabela');
    await pt.getByRole('button', { name: 'Copiar da folha anterior' }).click();
    const copiar = pt.getByRole('dialog', { name: 'Copiar da folha anterior' });
    await copiar.getByRole('button', { name: 'Copiar', exact: true }).click();
    await pt
      .getByText(
        `A folha ${demo().sample.taskSheet} não tem valores salvos para copiar aqui. 1 com registro já salvo aqui (com valores ou salvo vazio) ficou como estava.`,
        { exact: true },
      )
      .waitFor();
    await context?.setOffline(true);
    await cell(tabela, 'A-DISC', 'Horas').click();
    await pt.keyboard.type('2,5');
    await pt.getByRole('button', { name: 'Salvar alterações' }).click();
    await pt
      .getByText('1 atividade salva neste aparelho: será enviada quando a rede voltar.', { exact: true })
      .waitFor();
    await context?.setOffline(false);
    await expect
      .poll(() => savedRow('A-DISC', second), { timeout: 20_000, interval: 100 })
      .toEqual([{ METRICA1: '3.00', METRICA2: 2, HORAS: '2.5' }]);
  });

  // Found by review: the browser focuses the cell again when its window comes back, which the grid
  // took for entering the cell afresh: all of it selected, the next key replaced what was typed,
  // and Escape went back to that typing, not to what the cell held before.
  it('keeps what was typed in a cell when the window is left for another and comes back', async () => {
    await forget('A-DISC');
    const page = await newPage();
    const grid = await openTable(page);
    const disc = cell(grid, 'A-DISC', 'Quantidade');
    await disc.click();
    await page.keyboard.type('12');
    // Another tab brought up and this one back, for real: Playwright keeps every page focused
    // unless told not to.
    const session = await page.context().newCDPSession(page);
    await session.send('Emulation.setFocusEmulationEnabled', { enabled: false });
    const other = await page.context().newPage();
    await other.bringToFront();
    await expect.poll(() => page.evaluate(() => document.hasFocus())).toBe(false);
    await page.bringToFront();
    await expect.poll(() => page.evaluate(() => document.hasFocus())).toBe(true);
    expect(await where(page)).toBe('A-DISC — Disc ploughing / Quantidade');
    await page.keyboard.type('5');
    expect(await disc.inputValue()).toBe('125');
    await page.keyboard.press('Escape');
    expect(await disc.inputValue()).toBe('1.25');
    expect(await description(disc)).toBe('Default: from the activity');
  });

  // Found by review: Enter moved the focus to a cell below the screen's edge without scrolling the
  // page to it (the grid only scrolls itself), so the person typed out of sight.
  it('brings the cell the keys move to into the screen, not only into the grid (small phone)', async () => {
    const page = await newPage({ viewport: { width: 360, height: 640 } });
    const grid = await openTable(page);
    await cell(grid, 'A-DISC', 'Pessoas').click();
    // The page scrolled so that the cell sits at the screen's bottom edge, as where the grid starts
    // below the fold: the next row down is out of sight.
    await page.evaluate(() => {
      const box = document.activeElement?.closest('[role="gridcell"]')?.getBoundingClientRect();
      if (box) window.scrollBy(0, box.bottom - window.innerHeight + 1);
    });
    const inView = () =>
      page.evaluate(() => {
        const box = document.activeElement?.closest('[role="gridcell"]')?.getBoundingClientRect();
        // Within a pixel: the page scrolls by whole pixels, the rows sit at fractions of one.
        return box !== undefined && box.top >= -1 && box.bottom <= window.innerHeight + 1;
      });
    for (const label of ['A-SUBSOIL', 'A-SPRAY', 'A-WEED']) {
      await page.keyboard.press('Enter');
      expect(await where(page)).toMatch(new RegExp(`^${label} .* / Pessoas$`));
      expect(await inView()).toBe(true);
    }
    await page.keyboard.press('PageUp');
    expect(await inView()).toBe(true);
  });

  // Found by review: what a paste left out (and what a copy or a save came to) went only to the
  // screen reader's hidden status: a sighted person saw just "1 unsaved change".
  it('shows, not only says, how many cells a paste left out, until the person types on', async () => {
    const page = await newPage();
    const grid = await openTable(page);
    await cell(grid, 'A-WEED', 'Pessoas').click();
    await paste(page, '3\n4\n5\n');
    const said = page.getByText('Pasted 1 cell. 2 cells were left (read-only or past the end).', {
      exact: true,
    });
    await said.waitFor();
    const box = await said.boundingBox();
    expect(box?.width).toBeGreaterThan(100);
    expect(box?.height).toBeGreaterThan(10);
    expect(await page.getByRole('status').filter({ has: said }).getByText('1 unsaved change').count()).toBe(
      1,
    );
    await page.keyboard.press('Tab');
    await page.keyboard.type('9');
    await expect.poll(() => said.count()).toBe(0);
    await page.getByText('2 unsaved changes').waitFor();
  });

  it('keeps the grid where it is on a phone as the outcome beside Save goes at the next key', async () => {
    const page = await newPage({ viewport: PHONE });
    const grid = await openTable(page);
    const weedPeople = cell(grid, 'A-WEED', 'Pessoas');
    await weedPeople.click();
    await paste(page, '3\n4\n5\n');
    const said = page.getByText('Pasted 1 cell. 2 cells were left (read-only or past the end).', {
      exact: true,
    });
    await said.waitFor();
    const top = async () => (await grid.boundingBox())?.y;
    const before = await top();
    await page.keyboard.type('6');
    await expect.poll(() => said.count()).toBe(0);
    expect(await top()).toBe(before);
    expect(await weedPeople.inputValue()).toBe('6');
  });

  // Found by review: Enter that ends an input method's composition (choosing the word typed with a
  // Japanese or Chinese keyboard, or a phone's) moved the focus a row down, mid-word. An input
  // method cannot be driven here: the browser's own keydown of such an Enter is sent as it is.
  it('leaves Enter to an input method composing a word in the cell', async () => {
    const page = await newPage();
    const grid = await openTable(page);
    await cell(grid, 'A-DISC', 'Pessoas').click();
    await page.evaluate(() =>
      document.activeElement?.dispatchEvent(
        new KeyboardEvent('keydown', { key: 'Enter', isComposing: true, bubbles: true, cancelable: true }),
      ),
    );
    expect(await where(page)).toBe('A-DISC — Disc ploughing / Pessoas');
    await page.keyboard.press('Enter');
    expect(await where(page)).toBe('A-SUBSOIL — Subsoiling / Pessoas');
  });

  // Found by a review of the shown outcome: the same words twice (Save pressed again with nothing to
  // save) were no change to the live region, so a screen reader said them once.
  it('says the same outcome again when it comes again, and clears it when a save starts', async () => {
    const page = await newPage();
    const grid = await openTable(page);
    const outcome = page.locator('.ta-screen__table-outcome');
    await page.evaluate(() => {
      const said: string[] = [];
      (window as unknown as { said: string[] }).said = said;
      const region = document.querySelector('.ta-screen__table-outcome');
      if (region)
        new MutationObserver(() => said.push(region.textContent ?? '')).observe(region, {
          childList: true,
          characterData: true,
          subtree: true,
        });
    });
    const save = page.getByRole('button', { name: 'Save changes' });
    await save.click();
    await expect.poll(() => outcome.textContent()).toBe('Nothing changed: nothing to save.');
    await save.click();
    await expect
      .poll(() =>
        page.evaluate(() =>
          (window as unknown as { said: string[] }).said.filter(
            (text) => text === 'Nothing changed: nothing to save.',
          ),
        ),
      )
      .toHaveLength(2);
    // Typing clears it; a paste's outcome goes as the save starts (the save held on its way), and
    // the save's own comes after.
    await cell(grid, 'A-SPRAY', 'Pessoas').click();
    await page.keyboard.type('5');
    expect(await outcome.isVisible()).toBe(false);
    await cell(grid, 'A-SPRAY', 'Horas').click();
    await paste(page, '7.5\n');
    await expect.poll(() => outcome.textContent()).toBe('Pasted 1 cell.');
    const { release } = await holdRequests(page, (url) => url.pathname === '/associationtask', {
      which: (request) => request.method() === 'PUT',
    });
    await save.click();
    await expect.poll(() => outcome.isVisible()).toBe(false);
    release();
    await expect.poll(() => outcome.textContent()).toBe('Saved 1 activity.');
    expect(await savedRow('A-SPRAY')).toEqual([expect.objectContaining({ METRICA2: 5, HORAS: '7.5' })]);
  });

  it('records an activity without an entry whose values typed or pasted are its defaults, kept across a reload until saved', async () => {
    await forget('A-DISC');
    await forget('A-SUBSOIL');
    const page = await newPage();
    const requests = watchRequests(page);
    let grid = await openTable(page);
    // Typed over the default as its cell shows it, and as the same value written otherwise.
    const discHours = cell(grid, 'A-DISC', 'Horas');
    await discHours.click();
    await page.keyboard.type('8.0');
    expect(await description(discHours)).toBe('Entered, not saved yet');
    await page.getByText('1 unsaved change').waitFor();
    // Escape takes the entry back (the cell shows its default again), and typing makes it again.
    await page.keyboard.press('Escape');
    expect(await description(discHours)).toBe('Default: fixed value');
    await expect.poll(() => page.locator('.ta-screen__table-count').textContent()).toBe('');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('8');
    expect(await description(discHours)).toBe('Entered, not saved yet');
    await cell(grid, 'A-SUBSOIL', 'Quantidade').click();
    const preset = await cell(grid, 'A-SUBSOIL', 'Quantidade').inputValue();
    await paste(page, `${preset}\n`);
    expect(await description(cell(grid, 'A-SUBSOIL', 'Quantidade'))).toBe('Entered, not saved yet');
    await page.getByText('2 unsaved changes').waitFor();
    // Kept on the device as typed: a reload shows both as entered, still to save.
    await keptOnDevice(page);
    await page.reload();
    grid = await showTable(page);
    expect(await description(cell(grid, 'A-DISC', 'Horas'))).toBe('Entered, not saved yet');
    expect(await description(cell(grid, 'A-SUBSOIL', 'Quantidade'))).toBe('Entered, not saved yet');
    await page.getByText('2 unsaved changes').waitFor();
    // A look at the row in the modal, closed with Esc: the entry stays the person's to save.
    const modal = await modalFromTree(
      page,
      ['S-NORTH — North field', 'G-SOIL — Soil preparation'],
      'A-DISC — Disc ploughing',
    );
    const modalHours = modal.getByRole('textbox', { name: 'Horas', exact: true });
    expect(await description(modalHours)).toBe('Entered, not saved yet');
    // Typed again there, the same default: still the person's entry, as in the table.
    await modalHours.fill('8.0');
    expect(await description(modalHours)).toBe('Entered, not saved yet');
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Table', exact: true }).click();
    expect(await description(cell(grid, 'A-DISC', 'Horas'))).toBe('Entered, not saved yet');
    // Under a phone's cell, its one word.
    expect(
      await rowOf(grid, 'A-DISC')
        .locator('.ta-screen__table-cell')
        .filter({ has: page.getByRole('textbox', { name: 'Horas', exact: true }) })
        .locator('.ta-screen__table-mark')
        .textContent(),
    ).toBe('entered');
    await page.getByText('2 unsaved changes').waitFor();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect
      .poll(() => page.locator('.ta-screen__table-outcome').textContent())
      .toBe('Saved 2 activities.');
    // Each made its entry of every value its row showed (base null: no entry was read).
    const sent = requests.puts.at(-1)?.entries ?? [];
    expect(sent).toHaveLength(2);
    for (const entry of sent) expect(entry).toMatchObject({ row: false });
    expect(await savedRow('A-DISC')).toEqual([
      { METRICA1: '1.25', METRICA2: expect.any(Number), HORAS: '8.0' },
    ]);
    expect(await savedRow('A-SUBSOIL')).toEqual([
      expect.objectContaining({ METRICA1: Number(preset).toFixed(2), HORAS: '8.0' }),
    ]);
    expect(await description(cell(grid, 'A-DISC', 'Horas'))).toBe('Saved value');
    // An activity with an entry: its stored value typed again is no change.
    await cell(grid, 'A-DISC', 'Horas').click();
    await page.keyboard.type('8.0');
    await expect.poll(() => page.locator('.ta-screen__table-count').textContent()).toBe('');
  });
});
