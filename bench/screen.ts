// The association screen on bench:tree's 110,110-node installation, plus one group of 1,000
// activities (a long branch to expand), served by the association handler on a local HTTP server and
// driven by Debian's Chromium:
// - bytes transferred before the first level is painted (page, module, stylesheet, first data), and
//   the size of the whole-tree JSON the screen does not download;
// - requests per expand, time to the first painted level and to a painted 1,000-child branch;
// - server time of one expand (the whole handler, as a host mounts it) against the hand-written
//   query of the same children with their saved metrics, measured alternately in the same run.
// - the search on the 110k-node tree and the table view's reads on a 5,000-activity sheet
//   (screen-server.ts).
// - the table view (screen-table.ts): rendering a 5,000-activity sheet, and entering 30 activities
//   x 3 metrics through the table against through the modal (key presses, requests).
// Run with `npm run bench:screen` (`npm run bench:screen -- server` for the server's figures alone,
// without Chromium; `-- table` for the table view's alone); the last line is the figures.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium } from 'playwright-core';
import { startGalleryServer } from '../src/http/server.js';
import { createScratchDatabase } from '../src/store/scratch.js';
import { createAssociationHandler } from '../src/tree.js';
import { CHROMIUM_PATH } from '../test/support/browser.js';
import { SERVER_URL } from '../test/support/database.js';
import { insertRows, SCOPE_A } from '../test/tree/fixture.js';
import { loadLine, median, spread, timed } from './report.js';
import { searchFigures, sheetFigures } from './screen-server.js';
import { tableFigures } from './screen-table.js';
import { buildTreeInstallation, live, names } from './tree-installation.js';

const LONG_BRANCH = 1000;
const ROUNDS = 30;
const PAGE_ROUNDS = 5;
/** `-- server`: the server's figures alone, no browser (on a machine where others use Chromium). */
const SERVER_ONLY = process.argv.slice(2).includes('server');

// `-- table`: the table view's figures alone (screen-table.ts), on a sheet of their own.
if (process.argv.slice(2).includes('table')) {
  const table = await tableFigures();
  for (const line of table.lines) console.log(line);
  console.log(table.figures);
  process.exit(0);
}

const scratch = await createScratchDatabase(SERVER_URL, 'bench_screen');
const cacheDir = await mkdtemp(join(tmpdir(), 'ta-bench-screen-'));
try {
  const { db } = scratch;
  const tree = await buildTreeInstallation(scratch, { groupsPerSector: 100 });
  console.log(tree.summary);
  // The long branch: one more group under the first sector, with 1,000 activities of its own.
  const [longGroup] = await insertRows(db, names.OPER_GRUPO, [{ ...live, CODIGO: 'G-LONG' }]);
  const longActivities = await insertRows(
    db,
    names.OPER,
    Array.from({ length: LONG_BRANCH }, (_, index) => ({
      ...live,
      CODIGO: `L${index}`,
      DESCRICAO: `long ${index}`,
      INDICE: '1.00',
    })),
  );
  await insertRows(db, 'app_setor_n_oper_grupo', [
    { ...live, SETOR_SEQ_DB: tree.sectors[0], OPER_GRUPO_SEQ_DB: longGroup },
  ]);
  await insertRows(
    db,
    names.OPER_OPER_GRUPO,
    longActivities.map((id) => ({ ...live, OPER_GRUPO_SEQ_DB: longGroup, OPER_SEQ_DB: id })),
  );
  const nodes = tree.nodes + 1 + LONG_BRANCH;
  console.log(
    `plus one group of ${LONG_BRANCH} activities under the first sector: ${nodes.toLocaleString('en')} nodes`,
  );

  const handler = createAssociationHandler({ db, context: async () => ({ scope: SCOPE_A, user: 1 }) });
  const server = await startGalleryServer({
    port: 0,
    cacheDir,
    mount: [{ path: '/associationtask', handler }],
  });
  const screenUrl = `${server.url}/associationtask?taskSheet=${tree.sheet}`;
  const base = `${server.url}/associationtask`;
  const search = await searchFigures(scratch, tree, handler, base, nodes);
  const sheetScratch = await createScratchDatabase(SERVER_URL, 'bench_screen_sheet');
  const sheet = await sheetFigures(
    sheetScratch,
    (sheetDb) =>
      createAssociationHandler({ db: sheetDb, context: async () => ({ scope: SCOPE_A, user: 1 }) }),
    base,
  ).finally(() => sheetScratch.drop());
  for (const line of [...search.lines, ...sheet.lines]) console.log(line);
  if (SERVER_ONLY) {
    console.log(`${search.figures} ${sheet.figures}`);
    await server.close();
  }
  const browser = SERVER_ONLY
    ? undefined
    : await chromium.launch({
        executablePath: CHROMIUM_PATH,
        args: ['--headless', '--no-sandbox', '--disable-gpu'],
      });
  if (browser !== undefined) {
    try {
      // What the screen does not download: the whole tree as JSON (today's API, still served).
      const whole = await fetch(screenUrl, { headers: { accept: 'application/json' } });
      const wholeBytes = (await whole.arrayBuffer()).byteLength;

      const firstLevel: number[] = [];
      const expandTimes: number[] = [];
      let bytesBeforeFirstLevel = 0;
      let requestsPerExpand = 0;
      let renderedAfterExpand = 0;
      for (let round = 0; round < PAGE_ROUNDS; round++) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        const page = await context.newPage();
        let bytes = 0;
        let childRequests = 0;
        page.on('requestfinished', async (request) => {
          const sizes = await request.sizes().catch(() => undefined);
          if (sizes) bytes += sizes.responseBodySize + sizes.responseHeadersSize;
        });
        page.on('request', (request) => {
          if (request.url().includes('part=children')) childRequests++;
        });
        await page.goto(screenUrl);
        await page.waitForSelector('[role="treeitem"]');
        // Painted: the frame after the first level's elements exist; timed from navigation start.
        firstLevel.push(
          await page.evaluate(
            () => new Promise<number>((r) => requestAnimationFrame(() => r(performance.now()))),
          ),
        );
        await page.waitForLoadState('networkidle');
        if (round === 0) bytesBeforeFirstLevel = bytes;

        const open = async (label: string) => {
          const before = childRequests;
          const item = page.getByRole('treeitem', { name: label, exact: true });
          await item.locator(':scope > .ta-screen__row').click();
          await page.waitForFunction(
            (name) =>
              [...document.querySelectorAll('[role="treeitem"][aria-expanded="true"]')].some(
                (node) =>
                  node.querySelector('.ta-screen__label')?.textContent === name &&
                  !node.hasAttribute('aria-busy'),
              ),
            label,
          );
          return childRequests - before;
        };
        const perExpand = [await open('R0'), await open('S0')];
        // The long branch, timed in the page: from the click to the frame after its children exist.
        const beforeLong = childRequests;
        const expandMs = await page.evaluate(async () => {
          const label = [...document.querySelectorAll('.ta-screen__label')].find(
            (node) => node.textContent === 'G-LONG',
          );
          const item = label?.closest('[role="treeitem"]');
          const row = label?.parentElement;
          if (!item || !row) throw new Error('the long branch is not on screen');
          const start = performance.now();
          row.dispatchEvent(new MouseEvent('click', { bubbles: true }));
          // A loop, not a named helper: the page runs this code as written, without tsx's helpers.
          while (!item.querySelector('[role="group"] [role="treeitem"]')) {
            await new Promise((resolve) => setTimeout(resolve, 1));
          }
          return new Promise<number>((resolve) =>
            requestAnimationFrame(() => resolve(performance.now() - start)),
          );
        });
        expandTimes.push(expandMs);
        await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
        perExpand.push(childRequests - beforeLong);
        requestsPerExpand = Math.max(requestsPerExpand, ...perExpand);
        renderedAfterExpand = await page.evaluate(
          () =>
            [...document.querySelectorAll('.ta-screen__label')].filter((node) =>
              node.textContent?.startsWith('L'),
            ).length,
        );
        await context.close();
      }

      // Server time of one expand: the handler as mounted, against the hand-written query.
      const expandUrl = `${server.url}/associationtask?taskSheet=${tree.sheet}&part=children&level=3&node=${longGroup}`;
      const scope = [SCOPE_A.EMPRESA, SCOPE_A.FILIAL, SCOPE_A.LOCAL];
      const liveSql = (alias: string) =>
        `${alias}.EMPRESA = ? AND ${alias}.FILIAL = ? AND ${alias}.LOCAL = ? AND IFNULL(${alias}.DELETED, 0) = 0 AND IFNULL(${alias}.ATIVO, 1) = 1`;
      const handWritten = `SELECT c.*, m.METRICA1 AS saved1, m.METRICA2 AS saved2, m.RO AS savedRo
        FROM ${names.OPER_OPER_GRUPO} a JOIN ${names.OPER} c ON c.SEQ_DB = a.OPER_SEQ_DB
        LEFT JOIN ${names.OPER_GRUPO_METRICA} m ON m.OPER_SEQ_DB = c.SEQ_DB AND m.OPER_GRUPO_SEQ_DB = a.OPER_GRUPO_SEQ_DB
          AND m.FOLHA_TAREFA_SEQ_DB = ? AND m.EMPRESA = ? AND m.FILIAL = ? AND m.LOCAL = ? AND IFNULL(m.DELETED, 0) = 0
       WHERE a.OPER_GRUPO_SEQ_DB = ? AND ${liveSql('a')} AND ${liveSql('c')}`;
      // The answer's bytes are read, not parsed: the floor's rows are not turned into anything either.
      const ours = async () => {
        const response = await handler(new Request(expandUrl));
        return response.text();
      };
      const checked = JSON.parse(await ours()) as { nodes: unknown[] };
      if (checked.nodes.length !== LONG_BRANCH) {
        throw new Error(`expected ${LONG_BRANCH} children, got ${checked.nodes.length}`);
      }
      const floor = async () => {
        const [rows] = await db.pool.query(handWritten, [
          tree.sheet,
          ...scope,
          longGroup,
          ...scope,
          ...scope,
        ]);
        if ((rows as unknown[]).length !== LONG_BRANCH)
          throw new Error('the hand-written query missed children');
      };
      await ours();
      await floor();
      const oursTimes: number[] = [];
      const floorTimes: number[] = [];
      const ratios: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        oursTimes.push(await timed(ours));
        floorTimes.push(await timed(floor));
        ratios.push((oursTimes.at(-1) ?? 0) / (floorTimes.at(-1) ?? 1));
      }
      const expandBytes = (await (await fetch(expandUrl)).arrayBuffer()).byteLength;

      const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
      console.log(
        `first level: ${kb(bytesBeforeFirstLevel)} transferred (page, module, stylesheet, start data); the whole tree as JSON is ${(wholeBytes / 1024 / 1024).toFixed(1)} MB`,
      );
      console.log(
        `in Chromium, median of ${PAGE_ROUNDS} page loads: first level painted ${median(firstLevel).toFixed(0)} ms after navigation start (${firstLevel.map((t) => t.toFixed(0)).join(', ')}); the ${LONG_BRANCH}-child branch painted ${median(expandTimes).toFixed(0)} ms after its click (${expandTimes.map((t) => t.toFixed(0)).join(', ')}), ${renderedAfterExpand} of its children rendered in the first chunk, ${requestsPerExpand} request per expand`,
      );
      console.log(
        `server, one expand of ${LONG_BRANCH} children (${kb(expandBytes)} of JSON), ${ROUNDS} alternating rounds: handler ${spread(oursTimes)} ms (parameters, task sheet, children, saved metrics, JSON) vs hand-written join ${spread(floorTimes)} ms (rows only); ratio per round ${spread(ratios)}; ${loadLine()}`,
      );
      console.log(
        `bytes_before_first_level=${bytesBeforeFirstLevel} whole_tree_json_bytes=${wholeBytes} requests_per_expand=${requestsPerExpand} first_level_ms=${median(firstLevel).toFixed(0)} expand_1000_ms=${median(expandTimes).toFixed(0)} server_expand_ms=${median(oursTimes).toFixed(2)} hand_written_ms=${median(floorTimes).toFixed(2)} ratio=${(median(oursTimes) / median(floorTimes)).toFixed(2)} ${search.figures} ${sheet.figures}`,
      );
    } finally {
      await browser.close();
      await server.close();
    }
  }
} finally {
  await scratch.drop();
  await rm(cacheDir, { recursive: true, force: true });
}
