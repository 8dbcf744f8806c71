import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildTreeInstallation, names, type TreeInstallation } from '../../bench/tree-installation.js';
import { createAssociationHandler } from '../../src/http/association-handler.js';
import { type GalleryServer, startGalleryServer } from '../../src/http/server.js';
import { HISTORY_TABLE_NAME } from '../../src/model/table-names.js';
import { createScratchDatabase, type ScratchDatabase } from '../../src/store/scratch.js';
import { LABELS_EN, MAX_OUTBOX_ENTRIES } from '../../web/association-screen.js';
import { seriousViolations } from '../support/axe.js';
import {
  description,
  holdRequests,
  loseSaveAnswers,
  openTable as openGrid,
  openPage,
  paste,
  useBrowser,
} from '../support/browser.js';
import { SERVER_URL } from '../support/database.js';
import { SCOPE_A } from '../tree/fixture.js';

/*
 * The table view's saves beyond the simple case (#29, #28), in real Chromium on a generated sheet of
 * 2,000 activities (10 regions, 100 sectors, 2 groups each, 10 activities per group; every tenth
 * activity saved): a save of more than 1,000 changed rows goes in two batches, a save made with the
 * network off goes to the outbox and is sent when it returns, and a batch whose answer was lost is
 * sent again from the outbox under its request id and applied once. Tests of the file share the
 * database: each works on its own rows, in the order written.
 */

const browser = useBrowser();
const L = LABELS_EN;
const fill = (template: string, params: Record<string, string | number>) =>
  template.replace(/\{(\w+)\}/g, (whole, name: string) => String(params[name] ?? whole));
/** `expect.poll` with room for a loaded two-core machine. */
const later = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000, interval: 100 });

let scratch: ScratchDatabase;
let tree: TreeInstallation;
let server: GalleryServer;
let cacheDir: string;
let context: BrowserContext | undefined;
let pageProblems: string[] = [];

beforeAll(async () => {
  scratch = await createScratchDatabase(SERVER_URL, 'web_table_batches');
  tree = await buildTreeInstallation(scratch, { groupsPerSector: 2 });
  cacheDir = await mkdtemp(join(tmpdir(), 'ta-table-batches-'));
  const handler = createAssociationHandler({
    db: scratch.db,
    context: async () => ({ scope: SCOPE_A, user: 1 }),
  });
  server = await startGalleryServer({ port: 0, cacheDir, mount: [{ path: '/associationtask', handler }] });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await scratch?.drop();
  if (cacheDir) await rm(cacheDir, { recursive: true, force: true });
});

afterEach(async () => {
  await context?.close();
  context = undefined;
  expect(pageProblems).toEqual([]);
});

async function newPage() {
  context = await browser().newContext({ viewport: { width: 1280, height: 800 }, locale: 'en' });
  const page = await openPage(context);
  page.setDefaultTimeout(20_000);
  pageProblems = [];
  page.on('pageerror', (error) => pageProblems.push(error.message));
  return page;
}

/** The PUT bodies sent to the association endpoint, in order. */
function watchPuts(page: Page) {
  const puts: { requestId: string; source: string; entries: { activity: number }[] }[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PUT' && new URL(request.url()).pathname === '/associationtask')
      puts.push(request.postDataJSON());
  });
  return puts;
}

async function openTable(page: Page) {
  const grid = await openGrid(page, `${server.url}/associationtask?taskSheet=${tree.sheet}`);
  expect(await grid.getAttribute('aria-rowcount')).toBe(String(tree.activities.length + 1));
  return grid;
}

/** The METRICA1 cell of the `n`th activity (from 1; the header row is row 1 of the grid). */
const metricOfRow = (grid: Locator, n: number) =>
  grid.locator(`[role="row"][aria-rowindex="${n + 1}"]`).getByRole('textbox', { name: 'METRICA1' });

/** The live METRICA1 values of the sheet's rows whose METRICA1 is in `values`. */
async function stored(values: readonly string[]) {
  const rows = await scratch.db.query<{ METRICA1: string }>(
    `SELECT METRICA1 FROM ${names.OPER_GRUPO_METRICA}
      WHERE FOLHA_TAREFA_SEQ_DB = ? AND DELETED = 0 AND METRICA1 IN (${values.map(() => '?').join(', ')})`,
    [tree.sheet, ...values],
  );
  return rows.map((row) => row.METRICA1).sort();
}

/** The history's rows of the METRICA1 changes to `values`, with their source. */
async function history(values: readonly string[]) {
  return scratch.db.query<{ NEW_VALUE: string; SOURCE: string }>(
    `SELECT NEW_VALUE, SOURCE FROM ${HISTORY_TABLE_NAME}
      WHERE FIELD = 'METRICA1' AND NEW_VALUE IN (${values.map(() => '?').join(', ')}) ORDER BY NEW_VALUE`,
    values,
  );
}

/**
 * With the sheet's second page held, pastes six values from row 998 (rows 998 to 1,003: three past
 * the rows read, so the paste waits for them). Returns the table's status line.
 */
async function pastePastRowsRead(page: Page, grid: Locator) {
  const status = page.locator('.ta-screen__table-count');
  await later(() => status.textContent()).toBe(
    fill(L.tableLoadingMore, { count: 1000, total: tree.activities.length }),
  );
  await metricOfRow(grid, 1).click();
  await page.keyboard.press('Control+End');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await paste(page, '1.11\n2.22\n3.33\n4.44\n5.55\n6.66\n');
  return status;
}

/** The sheet's table in a new page, its second page held on its way until `release`. */
async function openSecondPageHeld() {
  const page = await newPage();
  const { release } = await holdRequests(
    page,
    (url) => url.searchParams.get('part') === 'sheet' && url.searchParams.get('page') === '2',
    { pass: 'fallback' },
  );
  await page.goto(`${server.url}/associationtask?taskSheet=${tree.sheet}`);
  await page.getByRole('tree').waitFor();
  await page.getByRole('button', { name: 'Table', exact: true }).click();
  return { page, grid: page.getByRole('grid'), release };
}

describe('the table view’s saves', () => {
  it('sends a save of 1,001 changed rows as two batches, 1,000 and 1, all of it stored', async () => {
    const page = await newPage();
    const puts = watchPuts(page);
    const grid = await openTable(page);
    const values = Array.from({ length: 1001 }, (_, index) => `${index + 1}.01`);
    await grid.getByRole('textbox', { name: 'METRICA1' }).first().click();
    await paste(page, values.join('\n'));
    await page.getByText(fill(L.tableChanged, { count: 1001 })).waitFor();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText(fill(L.tableSaved, { count: 1001 })).waitFor();
    expect(puts.map((put) => put.entries.length)).toEqual([1000, 1]);
    expect(new Set(puts.map((put) => put.requestId)).size).toBe(2);
    expect(await stored(values)).toEqual([...values].sort());
    expect(await description(metricOfRow(grid, 1))).toBe('Saved value');
  });

  it('keeps a save made offline in the outbox, marked at its cells, and sends it once the network returns', async () => {
    const page = await newPage();
    const puts = watchPuts(page);
    const grid = await openTable(page);
    await grid.getByRole('textbox', { name: 'METRICA1' }).first().click();
    // The last two rows: past the first test's 1,001.
    await page.keyboard.press('Control+End');
    await page.keyboard.type('7.77');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.type('7.78');
    await context?.setOffline(true);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText(fill(L.tableQueued, { count: 2 })).waitFor();
    expect(puts).toEqual([]);
    expect(await stored(['7.77', '7.78'])).toEqual([]);
    const last = tree.activities.length;
    expect(await metricOfRow(grid, last - 1).inputValue()).toBe('7.78');
    expect(await description(metricOfRow(grid, last - 1))).toBe(L.sourcePending);
    expect(await description(metricOfRow(grid, last))).toBe(L.sourcePending);
    await page.getByText(fill(L.pendingCount, { count: 2 })).waitFor();

    await context?.setOffline(false);
    await later(() => stored(['7.77', '7.78'])).toEqual(['7.77', '7.78']);
    await later(() => description(metricOfRow(grid, last - 1))).toBe('Saved value');
    expect(await description(metricOfRow(grid, last))).toBe('Saved value');
    expect(puts).toHaveLength(1);
    expect(puts[0]?.source).toBe('offline');
    expect(await history(['7.77', '7.78'])).toEqual([
      { NEW_VALUE: '7.77', SOURCE: 'offline' },
      { NEW_VALUE: '7.78', SOURCE: 'offline' },
    ]);
  });

  it('sends a batch whose answer was lost again from the outbox, under its request id, applied once', async () => {
    const page = await newPage();
    const puts = watchPuts(page);
    // The first PUT reaches the server and is stored; its answer never reaches the page.
    const lost = await loseSaveAnswers(page.context());
    const grid = await openTable(page);
    await grid.getByRole('textbox', { name: 'METRICA1' }).first().click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.type('6.61');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.type('6.62');
    await page.getByRole('button', { name: 'Save changes' }).click();
    const last = tree.activities.length;
    await later(() => description(metricOfRow(grid, last - 3))).toBe('Saved value');
    expect(await description(metricOfRow(grid, last - 2))).toBe('Saved value');
    expect(lost.count).toBe(1);
    expect(puts).toHaveLength(2);
    // The same save, now from the outbox, which names whose entries it sends (`owner`).
    expect(puts[1]).toEqual({ ...puts[0], owner: expect.stringMatching(/^[\w-]{22}$/) });
    expect(puts[0]?.source).toBe('screen');
    expect(await stored(['6.61', '6.62'])).toEqual(['6.61', '6.62']);
    // One history row per change: the second send was answered with the first one's answer.
    expect(await history(['6.61', '6.62'])).toEqual([
      { NEW_VALUE: '6.61', SOURCE: 'screen' },
      { NEW_VALUE: '6.62', SOURCE: 'screen' },
    ]);
  });

  it('says a 600-row batch whose answer was lost, too large for the outbox, may be stored, and sends it again under its request id', async () => {
    const page = await newPage();
    const puts = watchPuts(page);
    // The first PUT reaches the server and is stored; its answer never reaches the page. Its 600
    // entries are more than the outbox holds (500), so it cannot wait there to go again.
    const lost = await loseSaveAnswers(page.context());
    const grid = await openTable(page);
    const values = Array.from({ length: 600 }, (_, index) => `${index + 1}.03`);
    await metricOfRow(grid, 1).click();
    await paste(page, values.join('\n'));
    await page.getByText(fill(L.tableChanged, { count: 600 })).waitFor();
    const save = page.getByRole('button', { name: 'Save changes' });
    await save.click();
    await later(() => lost.count).toBe(1);
    await later(() => save.isEnabled()).toBe(true);
    // The server stored every row; the page says they may be stored, never "not saved" nor that
    // the device holds its maximum of entries (it holds none).
    expect(await stored(values)).toEqual([...values].sort());
    const full = fill(L.outboxFull, { max: MAX_OUTBOX_ENTRIES });
    const alerts = (await page.getByRole('alert').allTextContents()).join(' | ');
    expect(alerts).not.toContain(full);
    expect(alerts).not.toContain('Not saved');
    expect(alerts).toContain(L.tableAnswerLost);
    const count = await page.evaluate(`(async () => {
      const { openOutbox } = await import('/associationtask?asset=association-screen/outbox.js');
      const outbox = await openOutbox({ doc: document });
      const all = await outbox.all();
      outbox.close();
      return all.length;
    })()`);
    expect(count).toBe(0);
    // The values stay in their cells, changed, for Save changes to send again.
    expect(await metricOfRow(grid, 1).inputValue()).toBe('1.03');
    expect(await description(metricOfRow(grid, 1))).toBe('Changed, not saved yet');
    await page.getByText(fill(L.tableChanged, { count: 600 })).waitFor();

    await save.click();
    await page.getByText(fill(L.tableSaved, { count: 600 })).waitFor();
    await later(() => description(metricOfRow(grid, 1))).toBe('Saved value');
    // The same request id: answered from the server's record, applied once.
    expect(puts).toHaveLength(2);
    expect(puts[1]).toEqual(puts[0]);
    expect(puts[0]?.entries).toHaveLength(600);
    expect(await history(values)).toHaveLength(600);
    const after = (await page.getByRole('alert').allTextContents()).join(' | ');
    expect(after).not.toContain(full);
    expect(after).not.toContain(L.tableAnswerLost);
  });

  it('says a batch whose answer was lost and the browser refused to keep may be stored, and sends it again under its request id', async () => {
    const page = await newPage();
    const puts = watchPuts(page);
    const lost = await loseSaveAnswers(page.context());
    const grid = await openTable(page);
    const values = ['7.71', '7.72'];
    await metricOfRow(grid, 1).click();
    await paste(page, values.join('\n'));
    await page.getByText(fill(L.tableChanged, { count: 2 })).waitFor();
    // The browser refuses the space: the outbox cannot keep the batch to send it again.
    await page.evaluate(`(() => {
      IDBObjectStore.prototype.add = () => {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      };
    })()`);
    const save = page.getByRole('button', { name: 'Save changes' });
    await save.click();
    await later(() => lost.count).toBe(1);
    await later(() => page.getByRole('alert').filter({ hasText: L.tableAnswerLost }).count()).toBe(1);
    expect((await page.getByRole('alert').allTextContents()).join(' | ')).not.toContain('Not saved');
    expect(await stored(values)).toEqual(values);
    expect(await description(metricOfRow(grid, 1))).toBe('Changed, not saved yet');
    await save.click();
    await page.getByText(fill(L.tableSaved, { count: 2 })).waitFor();
    expect(puts[1]).toEqual(puts[0]);
    expect(await history(values)).toHaveLength(2);
  });

  it('refuses a save the outbox cannot hold whole, says so, and keeps every change', async () => {
    const page = await newPage();
    const grid = await openTable(page);
    // 499 entries of someone else wait on this device (never sent by this session): one place left.
    // (A script string: vitest would rewrite an import() written in this file.)
    await page.evaluate(`(async () => {
      const { openOutbox } = await import('/associationtask?asset=association-screen/outbox.js');
      const outbox = await openOutbox({ doc: document });
      await outbox.add(Array.from({ length: ${MAX_OUTBOX_ENTRIES - 1} }, (_, index) => ({
        owner: 'someone-else',
        endpoint: new URL('/associationtask', location.href).href,
        taskSheet: 1,
        requestId: crypto.randomUUID(),
        enteredAt: new Date().toISOString(),
        entry: { activity: index + 1, group: null, values: { METRICA1: '1' }, base: { METRICA1: null } },
        label: 'Someone else ' + index,
        path: [],
      })));
      outbox.close();
    })()`);
    await context?.setOffline(true);
    const last = tree.activities.length;
    await metricOfRow(grid, 1).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.type('5.51');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.type('5.52');
    await page.getByRole('button', { name: 'Save changes' }).click();
    // Said as it is: not "holds its maximum" (it holds 499), but a save larger than the room left.
    const full = fill(L.outboxNoRoom, { count: 2, free: 1 });
    await page
      .getByRole('alert')
      .filter({ hasText: fill(L.saveError, { message: full }) })
      .waitFor();
    expect(await page.locator('body').textContent()).not.toContain(
      fill(L.outboxFull, { max: MAX_OUTBOX_ENTRIES }),
    );
    expect(await description(metricOfRow(grid, last - 4))).toBe('Changed, not saved yet');
    expect(await description(metricOfRow(grid, last - 5))).toBe('Changed, not saved yet');
    expect(await metricOfRow(grid, last - 5).inputValue()).toBe('5.52');
    await page.getByText(fill(L.tableChanged, { count: 2 })).waitFor();
    const count = await page.evaluate(`(async () => {
      const { openOutbox } = await import('/associationtask?asset=association-screen/outbox.js');
      const outbox = await openOutbox({ doc: document });
      const all = await outbox.all();
      outbox.close();
      return all.length;
    })()`);
    expect(count).toBe(MAX_OUTBOX_ENTRIES - 1);
    await context?.setOffline(false);
    expect(await stored(['5.51', '5.52'])).toEqual([]);
  });

  it('no longer says the outbox refused a save once a save is stored directly', async () => {
    const page = await newPage();
    const grid = await openTable(page);
    // 400 entries of someone else wait on this device: room for 100 more, not for 101.
    await page.evaluate(`(async () => {
      const { openOutbox } = await import('/associationtask?asset=association-screen/outbox.js');
      const outbox = await openOutbox({ doc: document });
      await outbox.add(Array.from({ length: 400 }, (_, index) => ({
        owner: 'someone-else',
        endpoint: new URL('/associationtask', location.href).href,
        taskSheet: 1,
        requestId: crypto.randomUUID(),
        enteredAt: new Date().toISOString(),
        entry: { activity: index + 1, group: null, values: { METRICA1: '1' }, base: { METRICA1: null } },
        label: 'Someone else ' + index,
        path: [],
      })));
      outbox.close();
    })()`);
    const values = Array.from({ length: 101 }, (_, index) => `${index + 1}.05`);
    await metricOfRow(grid, 1).click();
    await paste(page, values.join('\n'));
    await page.getByText(fill(L.tableChanged, { count: 101 })).waitFor();
    await context?.setOffline(true);
    await page.getByRole('button', { name: 'Save changes' }).click();
    const full = fill(L.outboxNoRoom, { count: 101, free: 100 });
    const warning = page.getByRole('region', { name: L.offlineRegion }).getByRole('alert');
    await later(() => warning.textContent()).toBe(full);
    await context?.setOffline(false);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText(fill(L.tableSaved, { count: 101 })).waitFor();
    expect(await stored(values)).toEqual([...values].sort());
    await later(() => warning.isHidden()).toBe(true);
    expect(await page.locator('body').textContent()).not.toContain(full);
  });

  it('keeps the focus and the edit under way in a cell when the sheet’s next page arrives', async () => {
    // The second page of the sheet is held on its way until the person is typing.
    const { page, grid, release } = await openSecondPageHeld();
    const first = metricOfRow(grid, 1);
    await first.click();
    await page.keyboard.type('12');
    // Its first 1,000 rows are there to be read and typed in: the grid is not said busy while the
    // rest is read (a screen reader may wait out a busy grid), the status beside Save says it.
    expect(await grid.getAttribute('aria-busy')).toBeNull();
    expect(await page.locator('.ta-screen__table-count').textContent()).toContain(
      fill(L.tableLoadingMore, { count: 1000, total: tree.activities.length }),
    );
    release();
    await later(() => grid.getAttribute('aria-rowcount')).toBe(String(tree.activities.length + 1));
    await page.keyboard.type('34');
    expect(await first.inputValue()).toBe('1234');
    expect(await first.evaluate((input) => input === document.activeElement)).toBe(true);
    await page.getByText(fill(L.tableChangedOne, {})).waitFor();
  });

  it('says the sheet is still loading beside the changes, and fills a paste past the rows read once they are', async () => {
    // The second page of the sheet (rows 1,001 to 2,000) is held on its way.
    const { page, grid, release } = await openSecondPageHeld();
    const status = page.locator('.ta-screen__table-count');
    const loading = fill(L.tableLoadingMore, { count: 1000, total: tree.activities.length });
    await later(() => status.textContent()).toBe(loading);
    // A change while the rest is read: counted beside the loading, not in its place.
    await metricOfRow(grid, 1).click();
    await page.keyboard.type('12');
    expect(await status.textContent()).toBe(`${loading} ${L.tableChangedOne}`);
    // Rows 998 to 1,003 of 2,000: six values copied from a spreadsheet, three past the rows read.
    await page.keyboard.press('Control+End');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await paste(page, '1.11\n2.22\n3.33\n4.44\n5.55\n6.66\n');
    expect(await status.textContent()).toBe(`${loading} ${L.tableChangedOne}`);
    release();
    await later(() => grid.getAttribute('aria-rowcount')).toBe(String(tree.activities.length + 1));
    // Every value in its row, none left as "past the end"; the focus back on the cell pasted into.
    await later(() => status.textContent()).toBe(fill(L.tableChanged, { count: 7 }));
    const values = ['1.11', '2.22', '3.33', '4.44', '5.55', '6.66'];
    for (const [i, value] of values.entries())
      expect(await metricOfRow(grid, 998 + i).inputValue()).toBe(value);
    expect(await metricOfRow(grid, 998).evaluate((input) => input === document.activeElement)).toBe(true);
  });

  // The paste waited for the sheet's next page, then filled its whole block over the 9.99 the
  // person typed after it in row 999, said only "Pasted 6 cells.". Found by review.
  it('keeps what the person typed, after a paste that waits for the rest of the sheet, in a cell of its block', async () => {
    const { page, grid, release } = await openSecondPageHeld();
    const status = await pastePastRowsRead(page, grid);
    // Nothing pasted yet; the person goes on: row 999 gets 9.99, typed after the paste.
    await metricOfRow(grid, 999).click();
    await page.keyboard.type('9.99');
    await page.keyboard.press('Tab');
    release();
    await later(() => grid.getAttribute('aria-rowcount')).toBe(String(tree.activities.length + 1));
    await later(() => metricOfRow(grid, 998).inputValue()).toBe('1.11');
    // What was typed last stays; the rest of the block is pasted.
    expect(await metricOfRow(grid, 999).inputValue()).toBe('9.99');
    const values = ['3.33', '4.44', '5.55', '6.66'];
    for (const [i, value] of values.entries())
      expect(await metricOfRow(grid, 1000 + i).inputValue()).toBe(value);
    await later(() => status.textContent()).toBe(fill(L.tableChanged, { count: 6 }));
  });

  // The cells take nothing while a save is out: a paste that waited for the sheet's next page,
  // which came during a save, left its whole block, said "(read-only or past the end)".
  it('fills a paste that waited for the rest of the sheet once a save sent meanwhile is over', async () => {
    const { page, grid, release } = await openSecondPageHeld();
    const status = await pastePastRowsRead(page, grid);
    // Meanwhile a change in row 995 is saved; its answer is held until the sheet's page is in.
    await metricOfRow(grid, 995).click();
    await page.keyboard.type('12');
    const save = await holdRequests(page, (url) => url.pathname === '/associationtask', {
      which: (request) => request.method() === 'PUT',
      pass: 'fallback',
    });
    const saved = page.waitForResponse((response) => response.request().method() === 'PUT');
    await page.getByRole('button', { name: 'Save changes', exact: true }).click();
    release();
    await later(() => grid.getAttribute('aria-rowcount')).toBe(String(tree.activities.length + 1));
    save.release();
    expect((await saved).status()).toBe(200);
    const values = ['1.11', '2.22', '3.33', '4.44', '5.55', '6.66'];
    for (const [i, value] of values.entries())
      await later(() => metricOfRow(grid, 998 + i).inputValue()).toBe(value);
    await later(() => status.textContent()).toBe(fill(L.tableChanged, { count: 6 }));
  });

  it('fills a paste past the rows read as far as the sheet could be read, when its next page cannot be', async () => {
    const page = await newPage();
    const asked: string[] = [];
    await page.route(
      (url) => url.searchParams.get('part') === 'sheet',
      async (route) => {
        const at = new URL(route.request().url()).searchParams.get('page') ?? '';
        asked.push(at);
        if (at === '2') await route.abort('connectionreset');
        else await route.fallback();
      },
    );
    await page.goto(`${server.url}/associationtask?taskSheet=${tree.sheet}`);
    await page.getByRole('tree').waitFor();
    await page.getByRole('button', { name: L.viewTable, exact: true }).click();
    const grid = page.getByRole('grid');
    await page.getByRole('button', { name: L.tableRetry, exact: true }).waitFor();
    await metricOfRow(grid, 1).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await paste(page, '7.11\n7.22\n7.33\n7.44\n');
    // The paste read on once from the failed page (as Copy from the previous sheet does), then
    // filled the rows there are.
    await later(() => metricOfRow(grid, 1000).inputValue()).toBe('7.33');
    expect(asked.filter((at) => at === '2')).toHaveLength(2);
    expect(await metricOfRow(grid, 998).inputValue()).toBe('7.11');
    expect(await metricOfRow(grid, 999).inputValue()).toBe('7.22');
    expect(await grid.getAttribute('aria-rowcount')).toBe('1001');
    await page.getByText(fill(L.tableChanged, { count: 3 })).waitFor();
  });

  it('keeps the rows drawn in the order of their aria-rowindex after scrolling back up, as a screen reader reads them', async () => {
    const page = await newPage();
    const grid = await openTable(page);
    // Down to row 500 with the wheel, then back up by twenty rows, as a person scrolls.
    await grid.hover();
    await page.mouse.wheel(0, 64 * 500);
    await later(() => grid.locator('[role="row"][aria-rowindex="500"]').count()).toBe(1);
    await page.mouse.wheel(0, -64 * 20);
    await later(() => grid.locator('[role="row"][aria-rowindex="480"]').count()).toBe(1);
    const order = await grid.evaluate((node) =>
      [...node.querySelectorAll('[role="row"]')].map((row) => Number(row.getAttribute('aria-rowindex'))),
    );
    // Each row's aria-rowindex greater than that of every row before it (ARIA's grid pattern).
    expect(order.length).toBeGreaterThan(20);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('reads on from a page of the sheet that failed, with Retry or when shown again, never afresh', async () => {
    const page = await newPage();
    const asked: string[] = [];
    let failing = true;
    await page.route(
      (url) => url.searchParams.get('part') === 'sheet',
      async (route) => {
        const at = new URL(route.request().url()).searchParams.get('page') ?? '';
        asked.push(at);
        if (failing && at === '2') await route.abort('connectionreset');
        else await route.fallback();
      },
    );
    await page.goto(`${server.url}/associationtask?taskSheet=${tree.sheet}`);
    await page.getByRole('tree').waitFor();
    await page.getByRole('button', { name: L.viewTable, exact: true }).click();
    const grid = page.getByRole('grid');
    const retry = page.getByRole('button', { name: L.tableRetry, exact: true });
    await retry.waitFor();
    await page.getByRole('alert').filter({ hasText: L.tableError }).waitFor();
    expect(await grid.getAttribute('aria-rowcount')).toBe('1001');
    expect(await seriousViolations(page)).toEqual([]);
    // Retry reads the failed page again (it fails again: said again, the rows read stay).
    await retry.click();
    await later(() => asked.filter((at) => at === '2').length).toBe(2);
    await retry.waitFor();
    expect(await grid.getAttribute('aria-rowcount')).toBe('1001');
    // The network is back: showing the table again reads on from the second page.
    failing = false;
    await page.getByRole('button', { name: L.viewTree, exact: true }).click();
    await page.getByRole('button', { name: L.viewTable, exact: true }).click();
    await later(() => grid.getAttribute('aria-rowcount')).toBe(String(tree.activities.length + 1));
    expect(await retry.isVisible()).toBe(false);
    expect(await page.getByRole('alert').filter({ hasText: L.tableError }).count()).toBe(0);
    expect(asked).toEqual(['1', '2', '2', '2']);
    await metricOfRow(grid, 1).click();
    await page.keyboard.press('Control+End');
    expect(await metricOfRow(grid, tree.activities.length).isVisible()).toBe(true);
  });
});
