import type { Page, Request } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEMO_TABLES } from '../../src/demo/demo-install.js';
import type { Demo } from '../../src/demo/start-demo.js';
import { HISTORY_TABLE_NAME, HOST_SYSTEM_TABLES } from '../../src/model/table-names.js';
import { LABELS_EN } from '../../web/association-screen.js';
import { launchOnProfile, openPage, usePageChecks } from '../support/browser.js';
import { saveByCodes, signIn, useServedScreen } from '../support/demo.js';

/**
 * Saves larger than one request may carry (#28, #29), in Debian's Chromium: the demo's metric
 * table gains two TEXT metrics (notes of up to 65,535 bytes each, as the handler takes them), and
 * five activities get long notes. Kept offline and sent when the network returns, or saved from the
 * table, they go in batches under the handler's 1 MB body limit (it refuses a larger body whole,
 * 413 `BODY_TOO_LARGE`); a proxy before the handler with a lower limit has each refused batch sent
 * again in halves, and an entry too large alone stops, saying so, the others stored.
 */

const METRICS = DEMO_TABLES.metrics;
const ALICE = 7;
const SEEDER = 9;
/** Each test opens a browser on a profile of its own and types long notes into five activities. */
const LONG = 120_000;
/** A note's length: two of them, and the two they replace, make an entry of about 240 KB. */
const NOTE = 60_000;

/** The demo's metric table with two TEXT metrics more, Nota 1 and Nota 2, in its TREE_VIEW. */
async function addNotes(demo: Demo) {
  const { db } = demo.scratch;
  await db.execute(`ALTER TABLE ${METRICS} ADD COLUMN NOTA1 TEXT NULL, ADD COLUMN NOTA2 TEXT NULL`);
  const [row] = await db.query<{ SEQ_DB: number; CONTEUDO: string }>(
    `SELECT SEQ_DB, CONTEUDO FROM ${HOST_SYSTEM_TABLES.PARAMETERS} WHERE NOME = 'TREE_VIEW'`,
  );
  if (row === undefined) throw new Error('the demo has no TREE_VIEW');
  const treeView = JSON.parse(row.CONTEUDO) as { metrics: object[] };
  treeView.metrics.push({ field: 'NOTA1', label: 'Nota 1' }, { field: 'NOTA2', label: 'Nota 2' });
  await db.execute(`UPDATE ${HOST_SYSTEM_TABLES.PARAMETERS} SET CONTEUDO = ? WHERE SEQ_DB = ?`, [
    JSON.stringify(treeView),
    row.SEQ_DB,
  ]);
}

const served = useServedScreen(SEEDER, addNotes);
const pages = usePageChecks();

/** The five activities that take saves (Fertilising's row is read-only), with their tree paths. */
const ACTIVITIES = [
  {
    code: 'A-DISC',
    group: 'G-SOIL',
    label: 'A-DISC — Disc ploughing',
    path: ['S-NORTH — North field', 'G-SOIL — Soil preparation'],
  },
  {
    code: 'A-SUBSOIL',
    group: 'G-SOIL',
    label: 'A-SUBSOIL — Subsoiling',
    path: ['S-NORTH — North field', 'G-SOIL — Soil preparation'],
  },
  {
    code: 'A-SEED',
    group: 'G-PLANT',
    label: 'A-SEED — Seeding',
    path: ['S-NORTH — North field', 'G-PLANT — Planting'],
  },
  {
    code: 'A-SPRAY',
    group: 'G-CARE',
    label: 'A-SPRAY — Spraying',
    path: ['S-SOUTH — South field', 'G-CARE — Crop care'],
  },
  {
    code: 'A-WEED',
    group: 'G-CARE',
    label: 'A-WEED — Weeding',
    path: ['S-SOUTH — South field', 'G-CARE — Crop care'],
  },
] as const;

beforeEach(async () => {
  const codes = ACTIVITIES.map((activity) => activity.code);
  const list = codes.map(() => '?').join(', ');
  await served
    .demo()
    .scratch.db.execute(
      `UPDATE ${METRICS} m JOIN ${served.demo().names.OPER} o ON o.SEQ_DB = m.OPER_SEQ_DB SET m.NOTA1 = NULL, m.NOTA2 = NULL WHERE o.CODIGO IN (${list})`,
      codes,
    );
  await served
    .demo()
    .scratch.db.execute(
      `DELETE h FROM ${HISTORY_TABLE_NAME} h JOIN ${served.demo().names.OPER} o ON o.SEQ_DB = h.OPER_SEQ_DB WHERE o.CODIGO IN (${list}) AND h.FIELD IN ('NOTA1', 'NOTA2')`,
      codes,
    );
});

/** Someone else saves notes of `letters` on each activity given (the bases a later save sends). */
async function seedNotes(activities: readonly (typeof ACTIVITIES)[number][], letters: [string, string]) {
  for (const activity of activities) {
    await saveByCodes(served, SEEDER, activity.code, activity.group, {
      NOTA1: letters[0].repeat(NOTE),
      NOTA2: letters[1].repeat(NOTE),
    });
  }
}

/** Each activity's notes as stored: their first letter and length. */
async function storedNotes() {
  const codes = ACTIVITIES.map((activity) => activity.code);
  const rows = await served
    .demo()
    .scratch.db.query<{ CODIGO: string; NOTA1: string | null; NOTA2: string | null }>(
      `SELECT o.CODIGO, m.NOTA1, m.NOTA2 FROM ${METRICS} m JOIN ${served.demo().names.OPER} o ON o.SEQ_DB = m.OPER_SEQ_DB
      WHERE o.CODIGO IN (${codes.map(() => '?').join(', ')}) AND m.FOLHA_TAREFA_SEQ_DB = ? AND m.DELETED = 0
      ORDER BY o.CODIGO`,
      [...codes, served.demo().sample.taskSheet],
    );
  const short = (note: string | null) => (note === null ? null : `${note[0]}×${note.length}`);
  return Object.fromEntries(rows.map((row) => [row.CODIGO, [short(row.NOTA1), short(row.NOTA2)]]));
}

/** `expect.poll` with room for a loaded two-core machine. */
const later = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 30_000, interval: 200 });

const L = LABELS_EN;
const fill = (template: string, params: Record<string, string | number>) =>
  template.replace(/\{(\w+)\}/g, (whole, name: string) => String(params[name] ?? whole));
const region = (page: Page) => page.getByRole('region', { name: L.offlineRegion });

/** Alice on the host's page, every branch the activities are in open; the PUT bodies' sizes it sends. */
async function openSheet() {
  const dir = await pages.profile('ta-offline-large-');
  const context = pages.track(
    await launchOnProfile(dir, { locale: 'en', viewport: { width: 1280, height: 800 } }),
  );
  await signIn(context, served.origin(), ALICE);
  const page = context.pages()[0] ?? (await openPage(context));
  /** Each PUT's body: its size in bytes and how many entries it carried. */
  const puts: { bytes: number; entries: number }[] = [];
  page.on('request', (request: Request) => {
    if (request.method() !== 'PUT') return;
    const body = request.postDataBuffer();
    const parsed = request.postDataJSON() as { entries: unknown[] };
    puts.push({ bytes: body?.byteLength ?? 0, entries: parsed.entries.length });
  });
  await page.goto(`${served.origin()}/host`);
  await page.getByRole('tree').waitFor();
  for (const branch of new Set(ACTIVITIES.flatMap((activity) => activity.path))) {
    const item = page.getByRole('treeitem', { name: branch }).first();
    if ((await item.getAttribute('aria-expanded')) !== 'true')
      await item.locator(':scope > .ta-screen__row').click();
    await item.getByRole('group').first().waitFor();
  }
  return { context, page, puts };
}

/** Types notes of `letters` (the first, or both) into an activity's modal and saves. */
async function enterNotes(page: Page, label: string, letters: string[]) {
  await page.getByRole('treeitem', { name: label }).first().locator(':scope > .ta-screen__row').click();
  const dialog = page.getByRole('dialog', { name: label });
  for (const [index, letter] of letters.entries())
    await dialog.getByRole('textbox', { name: `Nota ${index + 1}`, exact: true }).fill(letter.repeat(NOTE));
  await dialog.getByRole('button', { name: L.save, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}

describe('entries kept offline, larger together than one request takes', () => {
  it(
    'are sent in batches under the handler’s body limit, every one stored',
    async () => {
      // Each entry carries two 60 KB notes and the two it replaces: five of them make 1.2 MB.
      await seedNotes(ACTIVITIES, ['a', 'b']);
      const { context, page, puts } = await openSheet();
      await context.setOffline(true);
      for (const activity of ACTIVITIES) await enterNotes(page, activity.label, ['c', 'd']);
      await later(() =>
        region(page)
          .getByText(fill(L.pendingCount, { count: 5 }))
          .count(),
      ).toBe(1);
      await context.setOffline(false);
      const stored = Object.fromEntries(
        ACTIVITIES.map((activity) => [activity.code, [`c×${NOTE}`, `d×${NOTE}`]]),
      );
      await later(storedNotes).toEqual(stored);
      await later(() =>
        region(page)
          .getByText(fill(L.pendingCount, { count: 5 }))
          .count(),
      ).toBe(0);
      expect(puts.length).toBeGreaterThan(1);
      for (const put of puts) expect(put.bytes).toBeLessThanOrEqual(1_000_000);
      expect(puts.reduce((sum, put) => sum + put.entries, 0)).toBe(ACTIVITIES.length);
    },
    LONG,
  );

  it(
    'are sent again in halves behind a proxy with a lower limit; one too large alone stops, saying so',
    async () => {
      // Subsoiling's entry carries two notes and the two it replaces (240 KB); the others one note
      // each, with nothing to replace (60 KB). The proxy takes at most 200 KB.
      const [big, ...small] = [ACTIVITIES[1], ACTIVITIES[0], ...ACTIVITIES.slice(2)];
      await seedNotes([big], ['a', 'b']);
      const { context, page } = await openSheet();
      await page.route(
        (url) => url.pathname === '/associationtask',
        (route) =>
          route.request().method() === 'PUT' && (route.request().postDataBuffer()?.byteLength ?? 0) > 200_000
            ? route.fulfill({
                status: 413,
                contentType: 'text/html',
                body: '<h1>413 Request Entity Too Large</h1>',
              })
            : route.fallback(),
      );
      await context.setOffline(true);
      await enterNotes(page, big.label, ['c', 'd']);
      for (const activity of small) await enterNotes(page, activity.label, ['e']);
      await context.setOffline(false);
      await later(storedNotes).toEqual({
        ...Object.fromEntries(small.map((activity) => [activity.code, [`e×${NOTE}`, null]])),
        [big.code]: [`a×${NOTE}`, `b×${NOTE}`],
      });
      await region(page).getByRole('button', { name: L.pendingList }).click();
      const items = region(page).getByRole('listitem');
      await later(() => items.count()).toBe(1);
      expect(await items.first().textContent()).toContain(big.label);
      expect(await items.first().textContent()).toContain(L.tooLarge);
    },
    LONG,
  );
});

describe('a table save larger than one request takes', () => {
  it(
    'goes in batches under the handler’s body limit, every row saved',
    async () => {
      await seedNotes(ACTIVITIES, ['a', 'b']);
      const { page, puts } = await openSheet();
      await page.getByRole('button', { name: L.viewTable, exact: true }).click();
      const grid = page.getByRole('grid');
      await grid.waitFor();
      for (const activity of ACTIVITIES) {
        const row = grid
          .getByRole('row')
          .filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${activity.code}`) }) })
          .first();
        await row.getByRole('textbox', { name: 'Nota 1', exact: true }).fill('c'.repeat(NOTE));
        await row.getByRole('textbox', { name: 'Nota 2', exact: true }).fill('d'.repeat(NOTE));
      }
      await page.getByRole('button', { name: L.tableSave, exact: true }).click();
      await page.getByText(fill(L.tableSaved, { count: ACTIVITIES.length })).waitFor();
      expect(await storedNotes()).toEqual(
        Object.fromEntries(ACTIVITIES.map((activity) => [activity.code, [`c×${NOTE}`, `d×${NOTE}`]])),
      );
      expect(puts.length).toBeGreaterThan(1);
      for (const put of puts) expect(put.bytes).toBeLessThanOrEqual(1_000_000);
    },
    LONG,
  );
});
