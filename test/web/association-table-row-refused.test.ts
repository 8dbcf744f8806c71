import { randomUUID } from 'node:crypto';
import type { BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { DEMO_TABLES } from '../../src/demo/demo-install.js';
import type { Demo } from '../../src/demo/start-demo.js';
import { description, openPage, openTable, useBrowser, watchProblems } from '../support/browser.js';
import { type listen, seqOfCode, serveScreen, startTestDemo, wipeEntries } from '../support/demo.js';

/**
 * A supervisor types values on several rows of the table; meanwhile one of those activities can no
 * longer be changed (an administrator unlinks it from the sheet's tree, an operator sets RO=1 or
 * ATIVO=0 on its metric row). The server refuses the whole batch for that one row (NOT_IN_TREE,
 * READ_ONLY_ROW, INACTIVE_ROW, at the path `entries.<n>`): the table names the row and marks its cells in words (never "reload the page"),
 * keeps what the person typed there without sending it again, reads the row again, and the next
 * Save saves the other rows.
 */

const browser = useBrowser();
const METRICS = DEMO_TABLES.metrics;
const CODES = ['A-SUBSOIL', 'A-WEED', 'A-DISC'];

let demo: Demo;
let server: Awaited<ReturnType<typeof listen>> | undefined;
let context: BrowserContext | undefined;
let problems: string[] = [];

interface PutBody {
  readonly entries: ReadonlyArray<{ activity: number; values?: Record<string, unknown> }>;
}

beforeAll(async () => {
  demo = await startTestDemo();
  server = await serveScreen(demo, 9);
});

afterAll(async () => {
  await server?.close();
  await demo?.close();
});

beforeEach(async () => {
  await wipeEntries(demo, CODES);
});

afterEach(async () => {
  await context?.close();
  context = undefined;
  expect(problems).toEqual([]);
  problems = [];
});

/** Someone else (user 9) saves Disc ploughing's Pessoas 1 through the HTTP API: its metric row. */
async function discSaved() {
  const answer = await fetch(`${server?.origin}/associationtask?taskSheet=${demo.sample.taskSheet}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', accept: 'application/json', cookie: 'user=9' },
    body: JSON.stringify({
      requestId: randomUUID(),
      source: 'api',
      entries: [
        {
          activity: await seqOfCode(demo, demo.names.OPER, 'A-DISC'),
          group: await seqOfCode(demo, demo.names.OPER_GRUPO, 'G-SOIL'),
          values: { METRICA2: 1 },
        },
      ],
    }),
  });
  expect(answer.status, await answer.clone().text()).toBe(200);
}

/** Sets a flag of Disc ploughing's metric row on the sheet (RO, ATIVO). */
const flagDisc = (column: 'RO' | 'ATIVO', value: number) =>
  demo.scratch.db.execute(
    `UPDATE ${METRICS} m JOIN ${demo.names.OPER} o ON o.SEQ_DB = m.OPER_SEQ_DB SET m.${column} = ?
      WHERE o.CODIGO = 'A-DISC' AND m.FOLHA_TAREFA_SEQ_DB = ?`,
    [value, demo.sample.taskSheet],
  );

/** Unlinks Disc ploughing from its group (DELETED on its link row), or links it again. */
const unlinkDisc = (deleted: number) =>
  demo.scratch.db.execute(
    `UPDATE ${demo.names.OPER_OPER_GRUPO} l JOIN ${demo.names.OPER} o ON o.SEQ_DB = l.OPER_SEQ_DB
      SET l.DELETED = ? WHERE o.CODIGO = 'A-DISC'`,
    [deleted],
  );

/** Pessoas as stored on the sheet, by activity code (live rows). */
async function people() {
  const rows = await demo.scratch.db.query<{ CODIGO: string; METRICA2: number | null }>(
    `SELECT o.CODIGO, m.METRICA2 FROM ${METRICS} m JOIN ${demo.names.OPER} o ON o.SEQ_DB = m.OPER_SEQ_DB
      WHERE o.CODIGO IN ('A-SUBSOIL', 'A-WEED', 'A-DISC') AND m.FOLHA_TAREFA_SEQ_DB = ? AND m.DELETED = 0
      ORDER BY o.CODIGO`,
    [demo.sample.taskSheet],
  );
  return Object.fromEntries(rows.map((row) => [row.CODIGO, row.METRICA2]));
}

const DISC_EN = 'A-DISC — Disc ploughing';
const CASES = [
  {
    meanwhile: 'unlinked from the sheet’s tree',
    locale: 'en',
    code: 'NOT_IN_TREE',
    change: () => unlinkDisc(1),
    undo: () => unlinkDisc(0),
    cellSays: 'Not saved: this activity is no longer in this sheet’s tree. This value is not sent.',
    alert: `Not saved: ${DISC_EN} can no longer be changed here: its marked cells are not sent. Press Save changes again to save the other changes. Your values are kept.`,
    lock: undefined,
  },
  {
    meanwhile: 'made read-only (RO=1)',
    locale: 'pt-BR',
    code: 'READ_ONLY_ROW',
    change: () => flagDisc('RO', 1),
    undo: () => flagDisc('RO', 0),
    cellSays:
      'Não salvo: estas métricas passaram a ser somente leitura enquanto isso. Este valor não é enviado.',
    alert: `Não salvo: ${DISC_EN} não pode mais ser alterada aqui: suas células marcadas não são enviadas. Pressione Salvar alterações de novo para salvar as outras alterações. Seus valores foram mantidos.`,
    lock: 'Somente leitura',
  },
  {
    meanwhile: 'made inactive (ATIVO=0)',
    locale: 'en',
    code: 'INACTIVE_ROW',
    change: () => flagDisc('ATIVO', 0),
    undo: () => flagDisc('ATIVO', 1),
    cellSays: 'Not saved: these metrics were made inactive meanwhile. This value is not sent.',
    alert: `Not saved: ${DISC_EN} can no longer be changed here: its marked cells are not sent. Press Save changes again to save the other changes. Your values are kept.`,
    lock: 'Read-only',
  },
] as const;

it.each(CASES)(
  'a row $meanwhile between typing and Save is marked and left out, and the next Save saves the other rows',
  async (kind) => {
    await discSaved();
    const en = kind.locale === 'en';
    context = await browser().newContext({ locale: kind.locale, viewport: { width: 1280, height: 800 } });
    await context.addCookies([{ name: 'user', value: '7', url: server?.origin ?? '' }]);
    const page = await openPage(context);
    watchProblems(page, (problem) => problems.push(problem));
    const puts: PutBody[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PUT') puts.push(request.postDataJSON());
    });
    // The host's page is in English; the handler's own follows the browser's language.
    const url = en
      ? `${server?.origin}/host`
      : `${server?.origin}/associationtask?taskSheet=${demo.sample.taskSheet}`;
    const grid = await openTable(page, url, en ? 'Table' : 'Tabela');
    const row = (code: string) =>
      grid.getByRole('row').filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${code}`) }) });
    const cell = (code: string) => row(code).getByRole('textbox', { name: 'Pessoas', exact: true });
    await cell('A-SUBSOIL').fill('4');
    await cell('A-WEED').fill('3');
    await cell('A-DISC').fill('2');
    await kind.change();
    try {
      const save = page.getByRole('button', { name: en ? 'Save changes' : 'Salvar alterações', exact: true });
      const refused = page.waitForResponse((answer) => answer.request().method() === 'PUT');
      await save.click();
      // Refused whole, for the one row (by its entry, not at a field).
      expect((await (await refused).json()).error).toMatchObject({
        code: kind.code,
        path: expect.stringMatching(/^entries\.\d+$/),
      });

      // The row is named, its cell marked in words, the focus on it; nothing says "reload".
      await expect.poll(() => page.getByRole('alert').textContent()).toBe(kind.alert);
      const disc = cell('A-DISC');
      await expect.poll(() => disc.getAttribute('aria-invalid')).toBe('true');
      expect(await description(disc)).toBe(kind.cellSays);
      await expect.poll(() => disc.evaluate((input) => input === document.activeElement)).toBe(true);
      // Read again: read-only now (or, unlinked, still shown as it was), the typed 2 kept, not editable.
      await expect.poll(() => save.isEnabled()).toBe(true);
      if (kind.lock)
        await expect.poll(() => row('A-DISC').getByText(kind.lock, { exact: true }).count()).toBe(1);
      expect(await disc.inputValue()).toBe('2');
      expect(await disc.getAttribute('readonly')).not.toBeNull();
      await page.getByText(en ? '2 unsaved changes' : '2 alterações não salvas').waitFor();

      // The next Save sends the other rows only, and they are stored.
      const second = page.waitForResponse((answer) => answer.request().method() === 'PUT');
      await save.click();
      expect((await second).status()).toBe(200);
      expect(puts).toHaveLength(2);
      expect(puts[1]?.entries.map((entry) => entry.values?.METRICA2)).toEqual([4, 3]);
      expect(await people()).toEqual({ 'A-DISC': 1, 'A-SUBSOIL': 4, 'A-WEED': 3 });
      await expect.poll(() => page.getByRole('alert').isHidden()).toBe(true);
      // What was typed on the refused row is still shown there, marked, and never sent.
      expect(await disc.inputValue()).toBe('2');
      expect(await description(disc)).toBe(kind.cellSays);
      expect(await page.getByText(/unsaved change|alteraç(ão|ões) não salva/).count()).toBe(0);
    } finally {
      await kind.undo();
    }
  },
  60_000,
);

it('shows all activities again for a row refused while "Only activities without values" hides it, and focuses its cell', async () => {
  await discSaved();
  context = await browser().newContext({ locale: 'en', viewport: { width: 1280, height: 800 } });
  await context.addCookies([{ name: 'user', value: '7', url: server?.origin ?? '' }]);
  const page = await openPage(context);
  watchProblems(page, (problem) => problems.push(problem));
  const grid = await openTable(page, `${server?.origin}/host`);
  const row = (code: string) =>
    grid.getByRole('row').filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${code}`) }) });
  const cell = (code: string) => row(code).getByRole('textbox', { name: 'Pessoas', exact: true });
  // A-DISC has values saved: typed in, then hidden by the filter, to go on with the empty ones.
  await cell('A-DISC').fill('2');
  const filter = page.getByRole('checkbox', { name: 'Only activities without values' });
  await filter.check();
  expect(await row('A-DISC').count()).toBe(0);
  await cell('A-SUBSOIL').fill('4');
  await flagDisc('RO', 1);
  try {
    await page.getByRole('button', { name: 'Save changes', exact: true }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe(
        `Not saved: ${DISC_EN} can no longer be changed here: its marked cells are not sent. Press Save changes again to save the other changes. Your values are kept. “Only activities without values” is off now: it hid what is marked.`,
      );
    expect(await filter.isChecked()).toBe(false);
    const disc = cell('A-DISC');
    await expect.poll(() => disc.evaluate((input) => input === document.activeElement)).toBe(true);
    expect(await disc.getAttribute('aria-invalid')).toBe('true');
  } finally {
    await flagDisc('RO', 0);
  }
}, 60_000);
