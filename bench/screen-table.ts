// The table view in Chromium (#29), on a sheet of 5,000 activities (bench:tree's builder with 5
// groups per sector, a third metric HORAS decimal(4,1) with a fixed default):
// - time from pressing "Table" to the first rows painted, to every page read, the rows that have
//   elements, and the time a jump of the scroll position takes to show its rows;
// - entering 30 activities x 3 metrics: key presses (clicks counted as presses) and requests through
//   the table (typed, and pasted as a block from a spreadsheet) against through the modal with
//   "Save and next".
// Run with `npm run bench:screen -- table` (the table's figures alone).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { startGalleryServer } from '../src/http/server.js';
import { TreeView } from '../src/model.js';
import { createScratchDatabase } from '../src/store/scratch.js';
import { createAssociationHandler } from '../src/tree.js';
import { CHROMIUM_PATH } from '../test/support/browser.js';
import { SERVER_URL } from '../test/support/database.js';
import { SCOPE_A } from '../test/tree/fixture.js';
import { loadLine, median, spread } from './report.js';
import { buildTreeInstallation, names, treeView } from './tree-installation.js';

const ENTERED = 30;
const SCROLL_JUMPS = 20;

/** The three values typed for the `index`th activity. */
const valuesOf = (index: number) => [`${index + 1}.5`, String((index % 9) + 1), '7.5'];

/** Other values for the same activities (the modal then types {@link valuesOf} again: all changed). */
const pastedValuesOf = (index: number) => [`${index + 1}.75`, String((index % 9) + 2), '6.5'];

/** Counts what a person does: every key press, every click. */
function counter(page: Page) {
  let presses = 0;
  return {
    presses: () => presses,
    async press(key: string) {
      presses++;
      await page.keyboard.press(key);
    },
    async type(text: string) {
      presses += text.length;
      await page.keyboard.type(text);
    },
    async click(selector: Parameters<Page['click']>[0]) {
      presses++;
      await page.click(selector);
    },
  };
}

function requestsOf(page: Page) {
  let gets = 0;
  let puts = 0;
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.searchParams.has('asset') || !url.searchParams.has('taskSheet')) return;
    if (request.method() === 'PUT') puts++;
    else if (url.searchParams.has('part')) gets++;
  });
  return { gets: () => gets, puts: () => puts };
}

const GRID_ROW = '[role="grid"] [role="rowgroup"] + [role="rowgroup"] [role="row"]';

async function openTable(page: Page, url: string, person: ReturnType<typeof counter>) {
  await page.goto(url);
  await page.getByRole('tree').waitFor();
  await person.click('button[aria-pressed]:nth-child(2)');
  await page.waitForSelector(GRID_ROW);
  await page.waitForFunction(() => !document.querySelector('[role="grid"]')?.hasAttribute('aria-busy'));
}

export async function tableFigures(): Promise<{ lines: string[]; figures: string }> {
  const scratch = await createScratchDatabase(SERVER_URL, 'bench_screen_table');
  const cacheDir = await mkdtemp(join(tmpdir(), 'ta-bench-table-'));
  let browser: Browser | undefined;
  try {
    const tree = await buildTreeInstallation(scratch, { groupsPerSector: 5 });
    await scratch.db.execute(`ALTER TABLE ${names.OPER_GRUPO_METRICA} ADD HORAS decimal(4,1) NULL`);
    const view = TreeView.parse({
      ...treeView,
      metrics: [...(treeView.metrics ?? []), { field: 'HORAS', default: { type: 'value', value: '8.0' } }],
    });
    await scratch.db.execute(`UPDATE sys_core_par_parametros SET CONTEUDO = ? WHERE NOME = 'TREE_VIEW'`, [
      JSON.stringify(view),
    ]);
    const handler = createAssociationHandler({
      db: scratch.db,
      context: async () => ({ scope: SCOPE_A, user: 1 }),
    });
    const server = await startGalleryServer({
      port: 0,
      cacheDir,
      mount: [{ path: '/associationtask', handler }],
    });
    const url = `${server.url}/associationtask?taskSheet=${tree.sheet}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: ['--headless', '--no-sandbox', '--disable-gpu'],
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en' });

    // Rendering 5,000 rows: first rows, every page, elements, scroll jumps.
    const firstRows: number[] = [];
    const allRows: number[] = [];
    let elements = 0;
    const jumps: number[] = [];
    for (let round = 0; round < 5; round++) {
      const page = await context.newPage();
      await page.goto(url);
      await page.getByRole('tree').waitFor();
      const [first, all] = await page.evaluate(async (selector) => {
        const start = performance.now();
        document.querySelectorAll<HTMLButtonElement>('button[aria-pressed]')[1]?.click();
        while (!document.querySelector(selector))
          await new Promise((resolve) => requestAnimationFrame(resolve));
        const first = performance.now() - start;
        while (document.querySelector('[role="grid"]')?.hasAttribute('aria-busy'))
          await new Promise((resolve) => requestAnimationFrame(resolve));
        return [first, performance.now() - start];
      }, GRID_ROW);
      firstRows.push(first);
      allRows.push(all);
      if (round === 0) {
        if (
          (await page.getByRole('grid').getAttribute('aria-rowcount')) !== String(tree.activities.length + 1)
        )
          throw new Error('the table does not hold every activity');
        jumps.push(
          ...(await page.evaluate(
            async ({ count }) => {
              const grid = document.querySelector('[role="grid"]') as HTMLElement;
              const times: number[] = [];
              for (let jump = 0; jump < count; jump++) {
                const target = Math.floor(((jump * 7919) % count) * (grid.scrollHeight / count));
                const start = performance.now();
                grid.scrollTop = target;
                await new Promise((resolve) => requestAnimationFrame(resolve));
                await new Promise((resolve) => requestAnimationFrame(resolve));
                const index = Math.floor(target / 64) + 2;
                if (!grid.querySelector(`[aria-rowindex="${index}"]`))
                  throw new Error(`row ${index} not shown`);
                times.push(performance.now() - start);
              }
              return times;
            },
            { count: SCROLL_JUMPS },
          )),
        );
        elements = await page.locator(GRID_ROW).count();
      }
      await page.close();
    }

    // Entering 30 activities x 3 metrics through the table, typed.
    const typedPage = await context.newPage();
    const typed = counter(typedPage);
    const typedRequests = requestsOf(typedPage);
    await openTable(typedPage, url, typed);
    await typed.click(`${GRID_ROW}[aria-rowindex="2"] input`);
    for (let index = 0; index < ENTERED; index++) {
      for (const value of valuesOf(index)) {
        await typed.type(value);
        await typed.press('Tab');
      }
    }
    await typed.click('button:has-text("Save changes")');
    await typedPage.getByText(`Saved ${ENTERED} activities.`).waitFor({ timeout: 60_000 });
    const typedLoads = typedRequests.gets();

    // The same rows, other values, pasted as one block copied from a spreadsheet.
    const pastedPage = await context.newPage();
    const pasted = counter(pastedPage);
    const pastedRequests = requestsOf(pastedPage);
    await openTable(pastedPage, url, pasted);
    await pasted.click(`${GRID_ROW}[aria-rowindex="2"] input`);
    const block = Array.from({ length: ENTERED }, (_, index) => pastedValuesOf(index).join('\t')).join('\n');
    await pastedPage.evaluate((text) => {
      const data = new DataTransfer();
      data.setData('text/plain', text);
      document.activeElement?.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
      );
    }, block);
    await pasted.click('button:has-text("Save changes")');
    await pastedPage.getByText(/^Saved \d+ activities\.$/).waitFor({ timeout: 60_000 });
    // Ctrl+V: one press, besides the clicks on Table, the first cell and Save changes.
    const pastedPresses = pasted.presses() + 1;

    // Through the modal: the tree to the first activity, then "Save and next" after each.
    const modalPage = await context.newPage();
    const modal = counter(modalPage);
    const modalRequests = requestsOf(modalPage);
    await modalPage.goto(url);
    await modalPage.getByRole('tree').waitFor();
    await modal.click('[role="treeitem"] > .ta-screen__row');
    const settled = () => modalPage.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
    await settled();
    for (const key of ['ArrowDown', 'ArrowRight', 'ArrowDown', 'ArrowRight', 'ArrowDown']) {
      await modal.press(key);
      await settled();
    }
    await modal.press('Enter');
    await modalPage.getByRole('dialog').waitFor();
    for (let index = 0; index < ENTERED; index++) {
      const title = await modalPage.locator('dialog[open] h2').textContent();
      const values = valuesOf(index);
      for (const [at, value] of values.entries()) {
        await modal.type(value);
        if (at < values.length - 1) await modal.press('Tab');
      }
      while ((await modalPage.evaluate(() => document.activeElement?.textContent)) !== 'Save and next')
        await modal.press('Tab');
      await modal.press('Enter');
      await modalPage.waitForFunction(
        (before) =>
          document.querySelector('dialog[open] h2')?.textContent !== before &&
          !document.querySelector('[aria-busy="true"]'),
        title,
        { timeout: 30_000 },
      );
    }
    await modal.press('Escape');

    const ratioTyped = typed.presses() / modal.presses();
    const ratioPasted = pastedPresses / modal.presses();
    await server.close();
    return {
      lines: [
        `${tree.summary.replace('installation:', 'table view on')}: "Table" to first rows painted ${spread(firstRows, 0)} ms, to all ${tree.activities.length.toLocaleString('en')} rows read (5 pages) ${spread(allRows, 0)} ms; ${elements} rows have elements; a scroll jump shows its rows in ${spread(jumps, 1)} ms (two frames); ${loadLine()}`,
        `entering ${ENTERED} activities x 3 metrics: table typed ${typed.presses()} presses, ${typedRequests.puts()} PUT (+${typedLoads} reads); table pasted ${pastedPresses} presses, ${pastedRequests.puts()} PUT; modal with Save and next ${modal.presses()} presses, ${modalRequests.puts()} PUTs (+${modalRequests.gets()} reads); ratio typed ${ratioTyped.toFixed(2)}, pasted ${ratioPasted.toFixed(3)}`,
      ],
      figures: `table_first_rows_ms=${median(firstRows).toFixed(0)} table_all_rows_ms=${median(allRows).toFixed(0)} table_elements=${elements} table_scroll_jump_ms=${median(jumps).toFixed(1)} entry_table_typed_presses=${typed.presses()} entry_table_pasted_presses=${pastedPresses} entry_modal_presses=${modal.presses()} entry_table_puts=${typedRequests.puts()} entry_modal_puts=${modalRequests.puts()}`,
    };
  } finally {
    await browser?.close();
    await scratch.drop();
    await rm(cacheDir, { recursive: true, force: true });
  }
}
