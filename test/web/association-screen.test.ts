import { mkdir } from 'node:fs/promises';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_TABLES } from '../../src/demo/demo-install.js';
import { seriousViolations } from '../support/axe.js';
import {
  description,
  discardTyped,
  focused,
  holdRequests,
  openPage,
  useBrowser,
  watchProblems,
} from '../support/browser.js';
import { useTestDemo } from '../support/demo.js';

const browser = useBrowser();
const OUTPUT_DIR = new URL('../../test-output/', import.meta.url);
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const METRICS = DEMO_TABLES.metrics;

const demo = useTestDemo();
let context: BrowserContext | undefined;

afterEach(async () => {
  await context?.close();
  context = undefined;
  expect(pageProblems).toEqual([]);
});

/** Everything the page reported that would be a bug: script errors, and anything its CSP refused. */
let pageProblems: string[] = [];

/** A page in a fresh context, under the page's own Content-Security-Policy. */
async function newPage(options: { viewport?: { width: number; height: number }; locale?: string } = {}) {
  context = await browser().newContext({
    viewport: options.viewport ?? DESKTOP,
    ...(options.locale === undefined ? {} : { locale: options.locale }),
  });
  const page = await openPage(context);
  pageProblems = [];
  watchProblems(page, (problem) => pageProblems.push(problem));
  return page;
}

/** Requests the page made to the association endpoint, by `part` (`page` for the page itself, `put` for saves). */
function countRequests(page: Page) {
  const counts = new Map<string, number>();
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname !== '/associationtask' || url.searchParams.has('asset')) return;
    const part = request.method() === 'PUT' ? 'put' : (url.searchParams.get('part') ?? 'page');
    counts.set(part, (counts.get(part) ?? 0) + 1);
  });
  return (part: string) => counts.get(part) ?? 0;
}

async function openScreen(page: Page, taskSheet = demo().sample.taskSheet) {
  await page.goto(`${demo().url}/associationtask?taskSheet=${taskSheet}`);
  await page.getByRole('tree').waitFor();
}

async function expectAccessible(page: Page) {
  expect(await seriousViolations(page)).toEqual([]);
}

/** The text of a tree item's own row (its label and, for an activity, its values), without its children. */
const rowText = (item: Locator) => item.locator(':scope > .ta-screen__row').textContent();

async function expand(page: Page, name: string) {
  const item = page.getByRole('treeitem', { name }).first();
  await item.locator(':scope > .ta-screen__row').click();
  await page.waitForFunction(
    (label) =>
      [...document.querySelectorAll('[role="treeitem"][aria-expanded="true"]')].some(
        (node) =>
          node.querySelector('.ta-screen__label')?.textContent === label && !node.hasAttribute('aria-busy'),
      ),
    name,
  );
}

async function openActivity(page: Page, name: string) {
  await page.getByRole('treeitem', { name }).first().locator(':scope > .ta-screen__row').click();
  const dialog = page.getByRole('dialog', { name });
  await dialog.waitFor();
  return dialog;
}

async function savedRows(operCode: string) {
  return demo().scratch.db.query(
    `SELECT m.EMPRESA, m.FILIAL, m.LOCAL, m.INS_USUARIO_SEQ_DB, m.UPD_USUARIO_SEQ_DB, m.METRICA1, m.METRICA2, m.HORAS, m.RO
       FROM ${METRICS} m JOIN ${demo().names.OPER} o ON o.SEQ_DB = m.OPER_SEQ_DB
      WHERE o.CODIGO = ? AND m.FOLHA_TAREFA_SEQ_DB = ? AND m.DELETED = 0`,
    [operCode, demo().sample.taskSheet],
  );
}

describe('the association screen, on the demo', () => {
  it('opens through the task sheet link of the home page (built from the installed link field) and passes axe', async () => {
    const page = await newPage();
    const requests = countRequests(page);
    await page.goto(`${demo().url}/`);
    const link = page.getByRole('link', { name: new RegExp(`Task sheet ${demo().sample.taskSheet}\\b`) });
    await link.waitFor();
    expect(await page.getByRole('link', { name: /Task sheet \d+/ }).count()).toBe(
      demo().sample.taskSheets.length,
    );
    expect(await link.getAttribute('href')).toBe(`/associationtask?taskSheet=${demo().sample.taskSheet}`);
    await link.click();
    await page.getByRole('tree', { name: 'Activities' }).waitFor();
    expect(page.url()).toBe(`${demo().url}/associationtask?taskSheet=${demo().sample.taskSheet}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
      `Task sheet ${demo().sample.taskSheet}`,
    );
    expect(await page.getByRole('term').allTextContents()).toEqual([
      'Data',
      'Talhão',
      'Pessoas',
      'Área (ha)',
    ]);
    expect(await page.getByRole('definition').allTextContents()).toEqual([
      '2026-11-20',
      'T-07',
      '6',
      '12.50',
    ]);
    // Each root by its label (beside it, once the progress is read, its count: "2 of 4").
    expect(
      await page
        .getByRole('treeitem')
        .locator(':scope > .ta-screen__row > .ta-screen__label')
        .allTextContents(),
    ).toEqual(['S-NORTH — North field', 'S-SOUTH — South field']);
    expect(requests('page')).toBe(1);
    expect(requests('start')).toBe(1);
    await expectAccessible(page);
  });

  it('loads each branch once, with one request per expand, and closes it without asking again', async () => {
    const page = await newPage();
    const requests = countRequests(page);
    await openScreen(page);
    await expand(page, 'S-NORTH — North field');
    expect(requests('children')).toBe(1);
    await expand(page, 'G-PLANT — Planting');
    expect(requests('children')).toBe(2);
    const north = page.getByRole('treeitem', { name: 'S-NORTH — North field' });
    await north.locator(':scope > .ta-screen__row').click();
    expect(await north.getAttribute('aria-expanded')).toBe('false');
    await expand(page, 'S-NORTH — North field');
    expect(requests('children')).toBe(2);
    expect(
      await page
        .getByRole('treeitem', { name: 'G-PLANT — Planting' })
        .getByRole('treeitem')
        .evaluateAll((items) => items.map((item) => item.querySelector('.ta-screen__label')?.textContent)),
    ).toEqual(['A-FERT — Fertilising', 'A-SEED — Seeding']);
    await expectAccessible(page);
  });

  it('presets every default kind and a saved value in the modal, each saying where it came from', async () => {
    const page = await newPage();
    await openScreen(page);
    await expand(page, 'S-NORTH — North field');
    await expand(page, 'G-SOIL — Soil preparation');
    const dialog = await openActivity(page, 'A-DISC — Disc ploughing');
    // showModal(): a modal dialog (aria-modal implied), focus kept inside, Esc closes.
    expect(await dialog.evaluate((node) => (node as HTMLDialogElement).open && node.matches(':modal'))).toBe(
      true,
    );
    const field = (name: string) => dialog.getByRole('textbox', { name, exact: true });
    expect(await field('Quantidade').inputValue()).toBe('1.25');
    expect(await description(field('Quantidade'))).toBe('Default: from the activity');
    expect(await field('Pessoas').inputValue()).toBe('6');
    expect(await description(field('Pessoas'))).toBe('Default: from the task sheet');
    expect(await field('Horas').inputValue()).toBe('8.0');
    expect(await description(field('Horas'))).toBe('Default: fixed value');
    await expectAccessible(page);
    await page.keyboard.press('Escape');

    await expand(page, 'G-PLANT — Planting');
    const seeding = await openActivity(page, 'A-SEED — Seeding');
    expect(await seeding.getByRole('textbox', { name: 'Quantidade' }).inputValue()).toBe('3.50');
    expect(await description(seeding.getByRole('textbox', { name: 'Quantidade' }))).toBe('Saved value');
    // A-SEED's row holds no Horas: saved empty, not the fixed default (#25: a default presets only a
    // key without a row).
    expect(await seeding.getByRole('textbox', { name: 'Horas' }).inputValue()).toBe('');
    expect(await description(seeding.getByRole('textbox', { name: 'Horas' }))).toBe('Saved empty');
    // Typed over, a field no longer says its value is saved, as a table cell does; typed back to
    // what it was preset with, it says so again.
    const quantity = seeding.getByRole('textbox', { name: 'Quantidade' });
    await quantity.fill('4');
    expect(await description(quantity)).toBe('Changed, not saved yet');
    await quantity.fill('3.5');
    expect(await description(quantity)).toBe('Saved value');
    await seeding.getByRole('textbox', { name: 'Horas' }).fill('2');
    expect(await description(seeding.getByRole('textbox', { name: 'Horas' }))).toBe('Changed, not saved yet');
  });

  it('saves an edit with the host’s scope and user, shows it in the tree and returns focus to the activity', async () => {
    const page = await newPage();
    const requests = countRequests(page);
    await openScreen(page);
    await expand(page, 'S-NORTH — North field');
    await expand(page, 'G-SOIL — Soil preparation');
    const dialog = await openActivity(page, 'A-SUBSOIL — Subsoiling');
    await dialog.getByRole('textbox', { name: 'Quantidade' }).fill('2.75');
    await dialog.getByRole('textbox', { name: 'Pessoas' }).fill('3');
    await dialog.getByRole('textbox', { name: 'Horas' }).fill('7.5');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(requests('put')).toBe(1);
    const item = page.getByRole('treeitem', { name: 'A-SUBSOIL — Subsoiling' });
    expect(await focused(item)).toBe(true);
    expect(await rowText(item)).toBe('A-SUBSOIL — SubsoilingQuantidade2.75savedPessoas3savedHoras7.5saved');
    expect(await savedRows('A-SUBSOIL')).toEqual([
      {
        EMPRESA: 1,
        FILIAL: 1,
        LOCAL: 1,
        INS_USUARIO_SEQ_DB: demo().install.actingUser,
        UPD_USUARIO_SEQ_DB: null,
        METRICA1: '2.75',
        METRICA2: 3,
        HORAS: '7.5',
        RO: 0,
      },
    ]);
  });

  it('checks values in the browser by the column types, and shows a server error at its field', async () => {
    const page = await newPage();
    await openScreen(page);
    await expand(page, 'S-SOUTH — South field');
    await expand(page, 'G-CARE — Crop care');
    const dialog = await openActivity(page, 'A-SPRAY — Spraying');
    const quantity = dialog.getByRole('textbox', { name: 'Quantidade' });
    const people = dialog.getByRole('textbox', { name: 'Pessoas' });
    await quantity.fill('1.234');
    await people.fill('2.5');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    expect(await quantity.getAttribute('aria-invalid')).toBe('true');
    expect(await description(quantity)).toBe('Use at most 2 decimal places. Changed, not saved yet');
    expect(await description(people)).toBe('Enter a whole number. Changed, not saved yet');
    expect(await focused(quantity)).toBe(true);
    await expectAccessible(page);
    expect(await savedRows('A-SPRAY')).toEqual([]);

    // The column narrows after the screen read its type: only the server knows, and says so at the field.
    await demo().scratch.db.execute(`ALTER TABLE ${METRICS} MODIFY HORAS decimal(3,1) NULL`);
    try {
      await quantity.fill('1.20');
      await people.fill('2');
      await dialog.getByRole('textbox', { name: 'Horas' }).fill('123.5');
      await dialog.getByRole('button', { name: 'Save', exact: true }).click();
      await page.waitForFunction(
        () => document.querySelector('[aria-invalid="true"]')?.getAttribute('name') === 'HORAS',
      );
      const hours = dialog.getByRole('textbox', { name: 'Horas' });
      expect(await description(hours)).toMatch(
        /^entry 0: HORAS value "123\.5" has more than 2 digits before the point/,
      );
      expect(await hours.inputValue()).toBe('123.5');
      expect(await quantity.inputValue()).toBe('1.20');
      expect(await dialog.isVisible()).toBe(true);
      expect(await savedRows('A-SPRAY')).toEqual([]);
    } finally {
      await demo().scratch.db.execute(`ALTER TABLE ${METRICS} MODIFY HORAS decimal(4,1) NULL`);
    }
  });

  it('shows a read-only row read-only before anyone tries to save it', async () => {
    const page = await newPage();
    await openScreen(page);
    await expand(page, 'S-NORTH — North field');
    await expand(page, 'G-PLANT — Planting');
    const item = page.getByRole('treeitem', { name: 'A-FERT — Fertilising' });
    expect(await rowText(item)).toContain('Read-only');
    const dialog = await openActivity(page, 'A-FERT — Fertilising');
    expect(await dialog.getByText('cannot be changed here').isVisible()).toBe(true);
    for (const name of ['Quantidade', 'Pessoas', 'Horas']) {
      expect(await dialog.getByRole('textbox', { name }).getAttribute('readonly')).toBe('');
    }
    expect(await dialog.getByRole('button', { name: 'Save' }).count()).toBe(0);
    expect(await focused(dialog.getByRole('button', { name: 'Close' }))).toBe(true);
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Close' }).click();
    expect(await focused(item)).toBe(true);
  });

  it('Esc and Cancel save nothing and give focus back to the activity; Esc keeps what was typed, Cancel discards it', async () => {
    const page = await newPage();
    const requests = countRequests(page);
    await openScreen(page);
    await expand(page, 'S-SOUTH — South field');
    await expand(page, 'G-CARE — Crop care');
    const item = page.getByRole('treeitem', { name: 'A-WEED — Weeding' });
    const before = await rowText(item);
    let dialog = await openActivity(page, 'A-WEED — Weeding');
    await dialog.getByRole('textbox', { name: 'Quantidade' }).fill('9.99');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await focused(item)).toBe(true);
    // Esc is no decision: what was typed is a draft, shown when the activity opens again.
    dialog = await openActivity(page, 'A-WEED — Weeding');
    expect(await dialog.getByRole('textbox', { name: 'Quantidade' }).inputValue()).toBe('9.99');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await discardTyped(page);
    expect(await focused(item)).toBe(true);
    dialog = await openActivity(page, 'A-WEED — Weeding');
    expect(await dialog.getByRole('textbox', { name: 'Quantidade' }).inputValue()).toBe('0.40');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await focused(item)).toBe(true);
    expect(await rowText(item)).toBe(before);
    expect(requests('put')).toBe(0);
    expect(await savedRows('A-WEED')).toEqual([]);
  });

  it('can be used with the keyboard alone: tree pattern keys, type-ahead, the modal and "Save and next"', async () => {
    const page = await newPage();
    await openScreen(page);
    const active = () =>
      page.evaluate(
        () =>
          document.activeElement?.querySelector('.ta-screen__label')?.textContent ??
          document.activeElement?.getAttribute('name') ??
          document.activeElement?.textContent,
      );
    await page.getByRole('searchbox', { name: 'Search activities' }).focus();
    await page.keyboard.press('Tab');
    expect(await active()).toBe('S-NORTH — North field');
    await page.keyboard.press('End');
    expect(await active()).toBe('S-SOUTH — South field');
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight'); // opens S-NORTH
    await page.waitForSelector('[role="treeitem"][aria-expanded="true"]:not([aria-busy])');
    await page.keyboard.press('ArrowRight'); // to its first child
    expect(await active()).toBe('G-PLANT — Planting');
    await page.keyboard.press('ArrowDown');
    expect(await active()).toBe('G-SOIL — Soil preparation');
    await page.keyboard.press('Enter'); // opens G-SOIL
    await page.waitForFunction(
      () =>
        document.querySelectorAll('[aria-expanded="true"]').length === 2 &&
        !document.querySelector('[aria-busy="true"]'),
    );
    await page.keyboard.press('ArrowDown');
    expect(await active()).toBe('A-DISC — Disc ploughing');
    await page.keyboard.press('ArrowLeft'); // to the parent
    expect(await active()).toBe('G-SOIL — Soil preparation');
    await page.keyboard.press('ArrowUp');
    expect(await active()).toBe('G-PLANT — Planting');
    await page.keyboard.press('s'); // type-ahead: the next label starting with "s"
    expect(await active()).toBe('S-SOUTH — South field');
    await page.keyboard.press('ArrowUp');
    expect(await active()).toBe('A-SUBSOIL — Subsoiling');
    await page.keyboard.press('ArrowUp');
    expect(await active()).toBe('A-DISC — Disc ploughing');

    await page.keyboard.press(' '); // opens the modal
    const disc = page.getByRole('dialog', { name: 'A-DISC — Disc ploughing' });
    await disc.waitFor();
    expect(await active()).toBe('METRICA1');
    await page.keyboard.type('4.5');
    // Pessoas, Horas, History, Cancel, Save and next (no Remove entry: A-DISC has no saved entry).
    for (let i = 0; i < 5; i++) await page.keyboard.press('Tab');
    expect(await active()).toBe('Save and next');
    await page.keyboard.press('Enter');
    const next = page.getByRole('dialog', { name: 'A-SUBSOIL — Subsoiling' });
    await next.waitFor();
    // Said inside the dialog: the page's own live region is inert while the modal is open.
    await next
      .getByRole('status')
      .getByText('Saved A-DISC — Disc ploughing. Now: A-SUBSOIL — Subsoiling.')
      .waitFor();
    // And seen: the only sign a sighted person gets that A-DISC was saved (the tree is dimmed).
    expect(await next.getByRole('status').isVisible()).toBe(true);
    expect(
      await next.getByRole('status').evaluate((node) => node.getBoundingClientRect().height),
    ).toBeGreaterThan(5);
    expect(await savedRows('A-DISC')).toMatchObject([{ METRICA1: '4.50', METRICA2: 6, HORAS: '8.0' }]);
    await page.keyboard.press('Escape');
    await next.waitFor({ state: 'hidden' });
    // The dialog hides at once, and the browser first gives focus back to where it was when the
    // dialog opened (A-DISC); the screen moves it to the activity last edited on the dialog's close
    // event, a task later. Waited for, not read at once: on a loaded machine that task comes late.
    await page.waitForFunction(
      (label) => document.activeElement?.querySelector('.ta-screen__label')?.textContent === label,
      'A-SUBSOIL — Subsoiling',
      { timeout: 10_000 },
    );
    expect(await active()).toBe('A-SUBSOIL — Subsoiling');
    await expectAccessible(page);
  });

  it('searches every level on the server and opens the tree down to a match three levels deep', async () => {
    const page = await newPage();
    const requests = countRequests(page);
    await openScreen(page);
    await page.getByRole('searchbox', { name: 'Search activities' }).fill('weed');
    const results = page.getByRole('list', { name: 'Search results' });
    const match = results.getByRole('button', { name: /A-WEED — Weeding/ });
    await match.waitFor();
    expect(await match.textContent()).toBe('A-WEED — WeedingS-SOUTH — South field › G-CARE — Crop care');
    await expectAccessible(page);
    await match.click();
    const item = page.getByRole('treeitem', { name: 'A-WEED — Weeding' });
    await page.waitForFunction(() => document.activeElement?.textContent?.startsWith('A-WEED'));
    expect(await focused(item)).toBe(true);
    expect(await item.getAttribute('aria-level')).toBe('3');
    expect(requests('children')).toBe(2);
    await page.getByRole('searchbox', { name: 'Search activities' }).fill('zzz-nothing');
    await page.getByText('Nothing matches “zzz-nothing”.').first().waitFor();
  });

  it('speaks Brazilian Portuguese when the page is pt-BR', async () => {
    const page = await newPage({ locale: 'pt-BR' });
    await openScreen(page);
    expect(await page.locator('html').getAttribute('lang')).toBe('pt-BR');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
      `Folha de tarefa ${demo().sample.taskSheet}`,
    );
    await page.getByRole('tree', { name: 'Atividades' }).waitFor();
    await page.getByRole('searchbox', { name: 'Buscar atividades' }).waitFor();
    await expand(page, 'S-NORTH — North field');
    await expand(page, 'G-PLANT — Planting');
    const dialog = await openActivity(page, 'A-SEED — Seeding');
    expect(await dialog.getByRole('textbox', { name: 'Quantidade' }).inputValue()).toBe('3,50');
    expect(await description(dialog.getByRole('textbox', { name: 'Quantidade' }))).toBe('Valor salvo');
    expect(await description(dialog.getByRole('textbox', { name: 'Horas' }))).toBe('Salvo vazio');
    for (const name of ['Salvar', 'Salvar e próxima', 'Cancelar']) {
      await dialog.getByRole('button', { name, exact: true }).waitFor();
    }
    await dialog.getByRole('textbox', { name: 'Pessoas' }).fill('x');
    await dialog.getByRole('button', { name: 'Salvar', exact: true }).click();
    expect(await description(dialog.getByRole('textbox', { name: 'Pessoas' }))).toBe(
      'Digite um número inteiro. Alterado, ainda não salvo',
    );
    await expectAccessible(page);
    // A fixed default, said in Portuguese, on an activity without a saved entry (A-SPRAY: the only
    // saves of it before this test were refused).
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await expand(page, 'S-SOUTH — South field');
    await expand(page, 'G-CARE — Crop care');
    const spraying = await openActivity(page, 'A-SPRAY — Spraying');
    expect(await description(spraying.getByRole('textbox', { name: 'Horas' }))).toBe('Padrão: valor fixo');
    expect(await spraying.getByText('Nada salvo ainda.').isVisible()).toBe(true);
  });
});

describe('embedded in a host page', () => {
  it('mounts with the host’s texts and language, and destroy() leaves the element as it found it', async () => {
    const page = await newPage();
    // The host's own page (faked in the browser); the module, the stylesheet and the data come
    // from the real handler.
    await page.route(`${demo().url}/host-page`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><html lang="en"><head><title>Host page</title>
<link rel="stylesheet" href="/associationtask?asset=association-screen.css"></head>
<body><main><div id="screen" lang="pt-BR"></div></main>
<script type="module">
import { mountAssociationScreen } from '/associationtask?asset=association-screen.js';
window.screenController = mountAssociationScreen(document.getElementById('screen'), {
  endpoint: '/associationtask',
  taskSheet: ${demo().sample.taskSheet},
  labels: { search: 'Procurar no plano', save: 'Gravar' },
});
</script></body></html>`,
      }),
    );
    await page.goto(`${demo().url}/host-page`);
    await page.getByRole('tree', { name: 'Atividades' }).waitFor();
    await page.getByRole('searchbox', { name: 'Procurar no plano' }).waitFor();
    expect(
      await page.evaluate(() =>
        (window as unknown as { screenController: { state(): string } }).screenController.state(),
      ),
    ).toBe('ready');
    await expand(page, 'S-NORTH — North field');
    await expand(page, 'G-PLANT — Planting');
    const dialog = await openActivity(page, 'A-SEED — Seeding');
    await dialog.getByRole('button', { name: 'Gravar' }).waitFor();
    await page.evaluate(() =>
      (window as unknown as { screenController: { destroy(): void } }).screenController.destroy(),
    );
    expect(
      await page.locator('#screen').evaluate((node) => ({
        children: node.childElementCount,
        classes: node.className,
        attributes: node.getAttributeNames(),
      })),
    ).toEqual({ children: 0, classes: '', attributes: ['id', 'lang'] });
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  it('refuses a bad mount clearly, changing nothing', async () => {
    const page = await newPage();
    await page.goto(`${demo().url}/associationtask?taskSheet=${demo().sample.taskSheet}`);
    await page.getByRole('tree').waitFor();
    // A string, run as written: the test runner would rewrite a dynamic import() in a function.
    const problems = await page.evaluate(`(async () => {
      const { mountAssociationScreen } = await import('/associationtask?asset=association-screen.js');
      const element = document.createElement('div');
      const attempts = [
        [null, { endpoint: '/associationtask', taskSheet: 1 }],
        [element, { endpoint: '', taskSheet: 1 }],
        [element, { endpoint: '/associationtask', taskSheet: 0 }],
        [element, { endpoint: '/associationtask', taskSheet: 1, chunkSize: 0 }],
      ];
      return attempts.map((args) => {
        try {
          mountAssociationScreen(...args);
          return 'mounted';
        } catch (error) {
          return error.name + ': ' + error.message;
        }
      }).concat(String(element.childElementCount));
    })()`);
    expect(problems).toEqual([
      'TypeError: mountAssociationScreen: the first argument must be an HTML element, such as a <div>',
      'TypeError: mountAssociationScreen: endpoint must be the association handler\'s URL, got ""',
      'RangeError: mountAssociationScreen: taskSheet must be a task sheet SEQ_DB (a positive whole number), got 0',
      'RangeError: mountAssociationScreen: chunkSize must be a whole number >= 1, got 0',
      '0',
    ]);
  });
});

describe('writes from another site', () => {
  it('a page of another site cannot save metrics with the user’s session: nothing is written', async () => {
    const page = await newPage();
    // Another site: "localhost" and "127.0.0.1" are different sites to the browser.
    const otherSite = demo().url.replace('127.0.0.1', 'localhost');
    await page.route(`${otherSite}/evil`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: '<!doctype html><title>Elsewhere</title><p>elsewhere</p>',
      }),
    );
    await page.goto(`${otherSite}/evil`);
    const [oper] = await demo().scratch.db.query<{ SEQ_DB: number }>(
      `SELECT SEQ_DB FROM ${demo().names.OPER} WHERE CODIGO = 'A-SPRAY'`,
    );
    const [group] = await demo().scratch.db.query<{ SEQ_DB: number }>(
      `SELECT SEQ_DB FROM ${demo().names.OPER_GRUPO} WHERE CODIGO = 'G-CARE'`,
    );
    const entries = [{ activity: oper?.SEQ_DB, group: group?.SEQ_DB, values: { METRICA1: '9.99' } }];
    const outcomes = await page.evaluate(
      async ({ target, body }) => {
        const attempt = async (init: RequestInit) => {
          try {
            const response = await fetch(target, { credentials: 'include', ...init });
            return `answered ${response.status}`;
          } catch (error) {
            return (error as Error).name;
          }
        };
        return [
          await attempt({ method: 'PUT', headers: { 'content-type': 'application/json' }, body }),
          await attempt({ method: 'PUT', headers: { 'content-type': 'text/plain' }, body }),
        ];
      },
      {
        target: `${demo().url}/associationtask?taskSheet=${demo().sample.taskSheet}`,
        body: JSON.stringify({ entries }),
      },
    );
    // A PUT is never a simple request: the browser asks first, the handler grants no CORS, and the
    // PUT is never sent (were it sent, Sec-Fetch-Site cross-site would be refused: see the handler's tests).
    expect(outcomes).toEqual(['TypeError', 'TypeError']);
    expect(await savedRows('A-SPRAY')).toEqual([]);
    pageProblems = pageProblems.filter((problem) => !/CORS|Failed to fetch|net::ERR_FAILED/.test(problem));
  });
});

// The screen's own requests are routed on the context, not the page: once the screen's service worker
// (#28) controls the page, its requests go out through the worker, which a page's route never sees.
describe('the screen’s states', () => {
  it('shows loading, then a 404 for an unknown task sheet, each accessible', async () => {
    const page = await newPage();
    const { release } = await holdRequests(page.context(), /part=start/);
    await page.goto(`${demo().url}/associationtask?taskSheet=999999`);
    await page.getByText('Loading the task sheet…').waitFor();
    expect(await page.locator('association-screen').getAttribute('aria-busy')).toBe('true');
    await expectAccessible(page);
    release();
    await page.getByText('Task sheet 999999 was not found.', { exact: false }).waitFor();
    expect(await page.locator('association-screen').getAttribute('data-state')).toBe('not-found');
    // Nothing to search in: the search field shows only with a tree.
    expect(await page.getByRole('searchbox').count()).toBe(0);
    await expectAccessible(page);
  });

  it('shows a network error with a retry that recovers', async () => {
    const page = await newPage();
    let failures = 1;
    await page
      .context()
      .route(/part=start/, (route) => (failures-- > 0 ? route.abort('connectionfailed') : route.continue()));
    await page.goto(`${demo().url}/associationtask?taskSheet=${demo().sample.taskSheet}`);
    const retry = page.getByRole('button', { name: 'Try again' });
    await retry.waitFor();
    expect(await page.getByText('The task sheet could not be loaded.').isVisible()).toBe(true);
    expect(await focused(retry)).toBe(true);
    // The page keeps its landmark and its heading when its data fails.
    expect(await page.getByRole('main').count()).toBe(1);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain(
      String(demo().sample.taskSheet),
    );
    await expectAccessible(page);
    await retry.click();
    await page.getByRole('tree').waitFor();
  });

  // Since #28 a save that gets no answer is not lost: the outbox keeps it and sends it when it can.
  it('keeps a save that got no answer on the device and delivers it, the page saying nothing failed', async () => {
    const page = await newPage();
    await openScreen(page);
    await expand(page, 'S-SOUTH — South field');
    await expand(page, 'G-CARE — Crop care');
    // The first PUT gets no answer; later ones (the outbox's retries) go through.
    let unanswered = 1;
    await page.context().route(/associationtask\?taskSheet=\d+$/, (route) => {
      if (route.request().method() !== 'PUT' || unanswered === 0) return route.continue();
      unanswered--;
      return route.abort('connectionfailed');
    });
    const dialog = await openActivity(page, 'A-WEED — Weeding');
    await dialog.getByRole('textbox', { name: 'Quantidade' }).fill('5.55');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expectAccessible(page);
    // Sent again by the outbox (the page's retry or the worker's Background Sync), once.
    await expect.poll(async () => (await savedRows('A-WEED')).length).toBe(1);
    expect(unanswered).toBe(0);
  });

  // Found walking through the demo: the hint showed twice and pushed Salvar below the screen.
  it('on a phone, says a refused value once and keeps the buttons in sight', async () => {
    const page = await newPage({ viewport: { width: 375, height: 600 }, locale: 'pt-BR' });
    await openScreen(page);
    await expand(page, 'S-SOUTH — South field');
    await expand(page, 'G-CARE — Crop care');
    const dialog = await openActivity(page, 'A-WEED — Weeding');
    await dialog.getByRole('textbox', { name: 'Quantidade' }).fill('1.5');
    await dialog.getByRole('textbox', { name: 'Pessoas' }).fill('1.5');
    await dialog.getByRole('button', { name: 'Salvar', exact: true }).click();
    // Said at each field, and once aloud; the spoken summary takes no room.
    expect(await dialog.getByText('Use vírgula nos decimais', { exact: false }).first().isVisible()).toBe(
      true,
    );
    const alert = dialog.getByRole('alert');
    expect(await alert.textContent()).toContain('Confira Quantidade');
    expect(await alert.evaluate((node) => node.getBoundingClientRect().height)).toBeLessThanOrEqual(1);
    const save = dialog.getByRole('button', { name: 'Salvar', exact: true });
    const box = await save.boundingBox();
    expect(box).not.toBeNull();
    expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(600);
    await expectAccessible(page);
  });

  // Found walking through the demo: a broken link showed the JSON error a program gets.
  it('answers a person who follows a broken link with a page in their language', async () => {
    const pt = await newPage({ locale: 'pt-BR' });
    const broken = await pt.goto(`${demo().url}/associationtask?taskSheet=abc`);
    expect(broken?.status()).toBe(400);
    expect(await pt.getByRole('heading', { level: 1 }).textContent()).toBe('Link inválido');
    expect(await pt.getByRole('main').textContent()).toContain('?taskSheet=');
    await expectAccessible(pt);
    const en = await newPage();
    expect((await en.goto(`${demo().url}/associationtask`))?.status()).toBe(400);
    expect(await en.getByRole('heading', { level: 1 }).textContent()).toBe('Invalid link');
    // A program still gets the JSON error.
    const answer = await fetch(`${demo().url}/associationtask?taskSheet=abc`, {
      headers: { accept: 'application/json' },
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ error: { code: 'INVALID_REQUEST', path: 'taskSheet' } });
  });

  it('says a server failure in the page language, not in the server words', async () => {
    const page = await newPage({ locale: 'pt-BR' });
    await openScreen(page);
    await expand(page, 'S-SOUTH — South field');
    await expand(page, 'G-CARE — Crop care');
    await page.context().route(/associationtask\?taskSheet=\d+$/, (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill({
            status: 500,
            contentType: 'application/json',
            body: JSON.stringify({
              error: { code: 'INTERNAL_ERROR', message: 'the request failed on the server' },
            }),
          })
        : route.continue(),
    );
    const dialog = await openActivity(page, 'A-WEED — Weeding');
    await dialog.getByRole('textbox', { name: 'Quantidade' }).fill('7,77');
    await dialog.getByRole('button', { name: 'Salvar', exact: true }).click();
    const alert = dialog.getByRole('alert');
    await alert.getByText('Algo falhou no servidor', { exact: false }).waitFor();
    expect(await alert.textContent()).not.toContain('the request failed');
  });

  it('shows an empty tree as such', async () => {
    const { db } = demo().scratch;
    await db.execute(`UPDATE ${DEMO_TABLES.sector} SET ATIVO = 0`);
    try {
      const page = await newPage();
      await page.goto(`${demo().url}/associationtask?taskSheet=${demo().sample.taskSheet}`);
      await page.getByText('This task sheet has no activities yet.').waitFor();
      expect(await page.getByRole('tree').count()).toBe(0);
      await expectAccessible(page);
    } finally {
      await db.execute(`UPDATE ${DEMO_TABLES.sector} SET ATIVO = 1`);
    }
  });

  it('renders a branch of a thousand activities in chunks, and the keyboard reaches its end', async () => {
    const { db } = demo().scratch;
    const [care] = await db.query<{ SEQ_DB: number }>(
      `SELECT SEQ_DB FROM ${demo().names.OPER_GRUPO} WHERE CODIGO = 'G-CARE'`,
    );
    const [last] = await db.query<{ id: number }>(`SELECT MAX(ID) AS id FROM ${demo().names.OPER}`);
    const first = Number(last?.id) + 1;
    const values = Array.from({ length: 1000 }, (_, index) => [
      1,
      1,
      1,
      first + index,
      1,
      `B-${String(index).padStart(4, '0')}`,
      `Bulk activity ${index}`,
      '1.00',
    ]);
    await db.execute(
      `INSERT INTO ${demo().names.OPER} (EMPRESA, FILIAL, LOCAL, ID, INS_USUARIO_SEQ_DB, CODIGO, DESCRICAO, INDICE) VALUES ${values.map(() => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
      values.flat(),
    );
    const [link] = await db.query<{ id: number }>(
      `SELECT MAX(ID) AS id FROM ${demo().names.OPER_OPER_GRUPO}`,
    );
    await db.execute(
      `INSERT INTO ${demo().names.OPER_OPER_GRUPO} (EMPRESA, FILIAL, LOCAL, ID, INS_USUARIO_SEQ_DB, OPER_GRUPO_SEQ_DB, OPER_SEQ_DB)
       SELECT 1, 1, 1, ? + ID - ?, 1, ?, SEQ_DB FROM ${demo().names.OPER} WHERE CODIGO LIKE 'B-%'`,
      [Number(link?.id) + 1, first, care?.SEQ_DB],
    );
    try {
      const page = await newPage();
      const requests = countRequests(page);
      await openScreen(page);
      await expand(page, 'S-SOUTH — South field');
      await expand(page, 'G-CARE — Crop care');
      expect(requests('children')).toBe(2);
      const rendered = () => page.getByRole('treeitem', { name: /^B-\d{4}/ }).count();
      // The first chunk: the group's two own activities sort first, then 198 of the thousand.
      expect(await rendered()).toBe(198);
      const firstBulk = page.getByRole('treeitem', { name: 'B-0000 — Bulk activity 0' });
      expect(await firstBulk.getAttribute('aria-setsize')).toBe('1002');
      // The keyboard walks past the last rendered child: the next chunk is rendered on the way.
      await page.getByRole('treeitem', { name: 'B-0197 — Bulk activity 197' }).focus();
      await page.keyboard.press('ArrowDown');
      const active = () =>
        page.evaluate(() => document.activeElement?.querySelector('.ta-screen__label')?.textContent);
      expect(await active()).toBe('B-0198 — Bulk activity 198');
      expect(await rendered()).toBe(398);
      // Scrolling renders the rest as it comes into view. The loop counts labels, a cheap look: naming
      // a thousand tree items by role on every step costs seconds on a loaded machine.
      const renderedLabels = () =>
        page.evaluate(
          () =>
            [...document.querySelectorAll('.ta-screen__label')].filter((label) =>
              /^B-\d{4}/.test(label.textContent ?? ''),
            ).length,
        );
      for (let step = 0; step < 50 && (await renderedLabels()) < 1000; step++) {
        await page.mouse.wheel(0, 4000);
        await page.waitForTimeout(50);
      }
      expect(await rendered()).toBe(1000);
      // End goes to the last item of the tree, wherever it is.
      await page.keyboard.press('End');
      expect(await active()).toBe('G-PLANT — Planting');
      expect(requests('children')).toBe(2);
    } finally {
      // Taken out again: later tests walk G-CARE ("Save and next" enters closed branches since #29).
      await db.execute(
        `DELETE FROM ${demo().names.OPER_OPER_GRUPO} WHERE OPER_SEQ_DB IN (SELECT SEQ_DB FROM ${demo().names.OPER} WHERE CODIGO LIKE 'B-%')`,
      );
      await db.execute(`DELETE FROM ${demo().names.OPER} WHERE CODIGO LIKE 'B-%'`);
    }
    // A thousand rows inserted, then a thousand tree items rendered and named: genuinely heavy work
    // on a machine shared with other test runs.
  }, 120_000);
});

describe('what a person types, and what they do while a save is on its way', () => {
  it('reads pt-BR thousands and decimal comma, and refuses a lone point rather than guess', async () => {
    const page = await newPage({ locale: 'pt-BR' });
    await openScreen(page);
    await expand(page, 'S-SOUTH — South field');
    await expand(page, 'G-CARE — Crop care');
    const dialog = await openActivity(page, 'A-SPRAY — Spraying');
    const quantity = dialog.getByRole('textbox', { name: 'Quantidade' });
    // "1.500" is fifteen hundred in pt-BR, and one and a half to a person used to the point: it was
    // saved as 1.50.
    await quantity.fill('1.500');
    await dialog.getByRole('button', { name: 'Salvar', exact: true }).click();
    expect(await description(quantity)).toMatch(/^Use vírgula nos decimais \(1,5\)/);
    expect(await savedRows('A-SPRAY')).toEqual([]);
    await quantity.fill('1.500,25');
    await dialog.getByRole('button', { name: 'Salvar', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await savedRows('A-SPRAY')).toMatchObject([{ METRICA1: '1500.25' }]);
    const item = page.getByRole('treeitem', { name: 'A-SPRAY — Spraying' });
    expect(await rowText(item)).toContain('1500,25');
  });

  it('keeps the modal open on Esc while a save is on its way, so its answer lands on its own activity', async () => {
    const page = await newPage();
    await openScreen(page);
    await expand(page, 'S-SOUTH — South field');
    await expand(page, 'G-CARE — Crop care');
    const { release } = await holdRequests(page.context(), /associationtask\?taskSheet=\d+$/, {
      which: (request) => request.method() === 'PUT',
    });
    const dialog = await openActivity(page, 'A-WEED — Weeding');
    await dialog.getByRole('textbox', { name: 'Quantidade' }).fill('7.5');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.getByRole('button', { name: 'Saving…' }).waitFor();
    await page.keyboard.press('Escape');
    expect(await dialog.isVisible()).toBe(true);
    expect(await dialog.getByRole('button', { name: 'Cancel' }).isDisabled()).toBe(true);
    // What would be typed now is not in the save on its way: the fields take no typing meanwhile.
    const hours = dialog.getByRole('textbox', { name: 'Horas', exact: true });
    expect(await hours.isEditable()).toBe(false);
    await hours.press('9');
    expect(await hours.inputValue()).not.toContain('9');
    release();
    await dialog.waitFor({ state: 'hidden' });
    expect(await savedRows('A-WEED')).toMatchObject([{ METRICA1: '7.50' }]);
    expect(await rowText(page.getByRole('treeitem', { name: 'A-WEED — Weeding' }))).toContain('7.5');
  });

  it('"Save and next" closes nothing opened after its save, while it reads the next branch', async () => {
    const page = await newPage();
    await openScreen(page);
    await expand(page, 'S-NORTH — North field');
    await expand(page, 'G-SOIL — Soil preparation');
    let holding = false;
    const { arrived: reading, release } = await holdRequests(
      page.context(),
      (url) => url.pathname === '/associationtask' && url.searchParams.get('part') === 'children',
      { which: () => holding },
    );
    // A read the page gave up on (its bound) fails: the dialog must close without that.
    const givenUp: string[] = [];
    page.on('requestfailed', (request) => {
      if (new URL(request.url()).searchParams.get('part') === 'children') givenUp.push(request.url());
    });
    const subsoil = await openActivity(page, 'A-SUBSOIL — Subsoiling');
    await subsoil.getByRole('textbox', { name: 'Quantidade' }).fill('3');
    holding = true;
    await subsoil.getByRole('button', { name: 'Save and next' }).click();
    // Saved; the next activity is in a closed branch, whose read is held. The person moves on: Esc
    // closes the dialog while the read is still held (the save is stored; only the walk waits).
    await reading;
    await subsoil.getByRole('button', { name: 'Save and next' }).waitFor();
    await page.keyboard.press('Escape');
    await subsoil.waitFor({ state: 'hidden' });
    expect(givenUp).toEqual([]);
    const disc = await openActivity(page, 'A-DISC — Disc ploughing');
    await disc.getByRole('textbox', { name: 'Pessoas' }).fill('7');
    holding = false;
    release();
    // The save's end is said once its walk is over: by then it has closed what it was going to.
    await page.getByText('Saved A-SUBSOIL — Subsoiling.').waitFor({ state: 'attached' });
    expect(await disc.isVisible()).toBe(true);
    expect(await disc.getByRole('textbox', { name: 'Pessoas' }).inputValue()).toBe('7');
  });

  it('never sends nor checks a field the person left alone, whatever form it is stored in', async () => {
    const page = await newPage();
    // Two more metrics, as a host's table may hold them: a text saved as '' (legacy NOT NULL DEFAULT
    // ''), a double stored in exponent form. The server's answers gain them; nothing else changes.
    const extra = [
      {
        field: 'OBS',
        label: 'Obs',
        dataType: 'varchar',
        unsigned: false,
        nullable: false,
        precision: null,
        scale: null,
        maxLength: 40,
      },
      {
        field: 'DUPLA',
        label: 'Dupla',
        dataType: 'double',
        unsigned: false,
        nullable: true,
        precision: null,
        scale: null,
        maxLength: null,
      },
    ];
    await page.context().route(
      (url) =>
        url.pathname === '/associationtask' &&
        ['start', 'children'].includes(url.searchParams.get('part') ?? ''),
      async (route) => {
        const answer = await route.fetch();
        const body = await answer.json();
        if (Array.isArray(body.metrics)) body.metrics.push(...extra);
        for (const node of body.nodes ?? []) {
          if (node.kind === 'task' && node.metrics)
            Object.assign(node.metrics, {
              OBS: { value: '', source: 'saved' },
              DUPLA: { value: 1.234e-7, source: 'saved' },
            });
        }
        await route.fulfill({ response: answer, json: body });
      },
    );
    const puts: Record<string, unknown>[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PUT') puts.push(request.postDataJSON());
    });
    await openScreen(page);
    await expand(page, 'S-SOUTH — South field');
    await expand(page, 'G-CARE — Crop care');
    const dialog = await openActivity(page, 'A-WEED — Weeding');
    expect(await dialog.getByRole('textbox', { name: 'Obs', exact: true }).inputValue()).toBe('');
    await dialog.getByRole('textbox', { name: 'Quantidade' }).fill('6.25');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(puts).toHaveLength(1);
    expect(puts[0]).toMatchObject({ entries: [{ values: { METRICA1: '6.25' } }] });
    const [entry] = (puts[0]?.entries ?? []) as { values: Record<string, unknown> }[];
    expect(Object.keys(entry?.values ?? {})).toEqual(['METRICA1']);
    expect(await savedRows('A-WEED')).toMatchObject([{ METRICA1: '6.25' }]);
  });

  it('says in Portuguese what the server refused: a value at its field, an activity that left the tree', async () => {
    const page = await newPage({ locale: 'pt-BR' });
    await openScreen(page);
    await expand(page, 'S-NORTH — North field');
    await expand(page, 'G-SOIL — Soil preparation');
    const dialog = await openActivity(page, 'A-DISC — Disc ploughing');
    const hours = dialog.getByRole('textbox', { name: 'Horas' });
    const save = dialog.getByRole('button', { name: 'Salvar', exact: true });
    // The column narrows after the screen read its type: only the server knows.
    await demo().scratch.db.execute(`ALTER TABLE ${METRICS} MODIFY HORAS decimal(3,1) NULL`);
    try {
      await hours.fill('123,5');
      await save.click();
      await page.waitForFunction(
        () => document.querySelector('[aria-invalid="true"]')?.getAttribute('name') === 'HORAS',
      );
      expect(await description(hours)).toMatch(/^O servidor recusou este valor \(a coluna pode ter mudado\)/);
    } finally {
      await demo().scratch.db.execute(`ALTER TABLE ${METRICS} MODIFY HORAS decimal(4,1) NULL`);
    }
    // The activity's link is deleted after the page read the tree: the save is refused, NOT_IN_TREE.
    const unlink = (deleted: number) =>
      demo().scratch.db.execute(
        `UPDATE ${demo().names.OPER_OPER_GRUPO} l JOIN ${demo().names.OPER} o ON o.SEQ_DB = l.OPER_SEQ_DB SET l.DELETED = ? WHERE o.CODIGO = 'A-DISC'`,
        [deleted],
      );
    await unlink(1);
    try {
      await hours.fill('2,5');
      await save.click();
      const alert = dialog.getByRole('alert');
      await alert.getByText('Não salvo').waitFor();
      expect(await alert.textContent()).toBe(
        'Não salvo: Isto não está mais na árvore. Recarregue a página. Seus valores foram mantidos.',
      );
    } finally {
      await unlink(0);
    }
    await expectAccessible(page);
  });

  it('keeps a value cleared and saved empty, in the tree and after a reload (#25)', async () => {
    const page = await newPage();
    await openScreen(page);
    await expand(page, 'S-SOUTH — South field');
    await expand(page, 'G-CARE — Crop care');
    const item = page.getByRole('treeitem', { name: 'A-WEED — Weeding' });
    const dialog = await openActivity(page, 'A-WEED — Weeding');
    await dialog.getByRole('textbox', { name: 'Horas' }).fill('9.5');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await rowText(item)).toContain('Horas9.5saved');
    await openActivity(page, 'A-WEED — Weeding');
    await dialog.getByRole('textbox', { name: 'Horas' }).fill('');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await savedRows('A-WEED')).toMatchObject([{ HORAS: null }]);
    // Saved empty is a saved value: the default does not come back, in the tree or after a reload.
    expect(await rowText(item)).toContain('Horas—saved');
    await openScreen(page);
    await expand(page, 'S-SOUTH — South field');
    await expand(page, 'G-CARE — Crop care');
    expect(await rowText(page.getByRole('treeitem', { name: 'A-WEED — Weeding' }))).toContain('Horas—saved');
    const again = await openActivity(page, 'A-WEED — Weeding');
    expect(await again.getByRole('textbox', { name: 'Horas' }).inputValue()).toBe('');
    expect(await description(again.getByRole('textbox', { name: 'Horas' }))).toBe('Saved empty');
  });

  it('keeps a later save when the re-read after an earlier remove answers after it', async () => {
    const page = await newPage();
    await openScreen(page);
    await expand(page, 'S-SOUTH — South field');
    await expand(page, 'G-CARE — Crop care');
    const item = page.getByRole('treeitem', { name: 'A-WEED — Weeding' });
    const save = async (hours: string) => {
      const dialog = await openActivity(page, 'A-WEED — Weeding');
      await dialog.getByRole('textbox', { name: 'Horas' }).fill(hours);
      await dialog.getByRole('button', { name: 'Save', exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });
    };
    await save('9.5');
    // The re-read a remove asks for is answered by the server at once (the defaults are back)
    // but handed to the page only once the next save has landed: a slow network's order.
    let reads = 0;
    const stale = await holdRequests(page.context(), /part=children/, {
      which: () => reads++ === 0, // the first read only: the later ones go on at once
      answers: true,
    });
    const dialog = await openActivity(page, 'A-WEED — Weeding');
    await dialog.getByRole('button', { name: 'Remove entry' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    const held = await stale.arrived;
    await save('7');
    expect(await rowText(item)).toContain('Horas7.0saved');
    const finished = page.waitForEvent('requestfinished', (request) => request === held);
    stale.release();
    await finished;
    // The page handles the answer in a few tasks after it arrives: let them run.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 200)));
    expect(await rowText(item)).toContain('Horas7.0saved');
    expect(await savedRows('A-WEED')).toMatchObject([{ HORAS: '7.0' }]);
  });

  it('after a remove, saves nothing until what applies now is read: no field left alone is stored empty', async () => {
    const page = await newPage();
    await openScreen(page);
    await expand(page, 'S-SOUTH — South field');
    await expand(page, 'G-CARE — Crop care');
    let dialog = await openActivity(page, 'A-WEED — Weeding');
    await dialog.getByRole('textbox', { name: 'Horas' }).fill('9.5');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    // The signal goes while the entry is removed: the read of what applies now (the defaults) fails.
    let failing = true;
    await page
      .context()
      .route(/part=children/, (route) => (failing ? route.abort('internetdisconnected') : route.continue()));
    dialog = await openActivity(page, 'A-WEED — Weeding');
    await dialog.getByRole('button', { name: 'Remove entry' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    const puts: unknown[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PUT') puts.push(request.postDataJSON());
    });
    dialog = await openActivity(page, 'A-WEED — Weeding');
    await expect
      .poll(() => dialog.getByRole('alert').textContent())
      .toContain('What applies to this activity now (its entry was removed) could not be read');
    const quantity = dialog.getByRole('textbox', { name: 'Quantidade' });
    expect(await quantity.getAttribute('readonly')).not.toBeNull();
    expect(await dialog.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
    await quantity.press('Enter');
    expect(puts).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // With signal again, opening it reads what applies now, then takes a value.
    failing = false;
    dialog = await openActivity(page, 'A-WEED — Weeding');
    await expect.poll(() => dialog.getByRole('textbox', { name: 'Horas' }).inputValue()).toBe('8.0');
    await quantity.fill('5');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await savedRows('A-WEED')).toMatchObject([{ METRICA1: '5.00', HORAS: '8.0' }]);
    expect((await savedRows('A-WEED'))[0]?.METRICA2).not.toBeNull();
  });

  // Found walking through the demo: A-SEED hangs under G-PLANT, which hangs under both sectors.
  it('shows a save on every copy of the activity, as stored, and "Save and next" passes read-only ones', async () => {
    const page = await newPage();
    // Shorter than the test's timeout: a wait that fails says which.
    page.setDefaultTimeout(12_000);
    await openScreen(page);
    await expand(page, 'S-NORTH — North field');
    await expand(page, 'S-SOUTH — South field');
    const plants = page.getByRole('treeitem', { name: 'G-PLANT — Planting' });
    await plants.nth(0).locator(':scope > .ta-screen__row').click();
    await plants.nth(1).locator(':scope > .ta-screen__row').click();
    await page.waitForFunction(
      () => document.querySelectorAll('[role="treeitem"][aria-expanded="true"]:not([aria-busy])').length >= 4,
    );
    const seeds = page.getByRole('treeitem', { name: 'A-SEED — Seeding' });
    expect(await seeds.count()).toBe(2);
    await seeds.nth(0).locator(':scope > .ta-screen__row').click();
    const dialog = page.getByRole('dialog', { name: 'A-SEED — Seeding' });
    await dialog.getByRole('textbox', { name: 'Horas' }).fill('6');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    // Both copies show the stored value, with its column's decimal place (decimal(4,1)).
    for (const index of [0, 1]) expect(await rowText(seeds.nth(index))).toContain('Horas6.0saved');
    // The copy not used starts from that save: opened, it shows 6.0, not the old value.
    await seeds.nth(1).locator(':scope > .ta-screen__row').click();
    expect(await dialog.getByRole('textbox', { name: 'Horas' }).inputValue()).toBe('6.0');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await savedRows('A-SEED')).toMatchObject([{ HORAS: '6.0' }]);

    // In the tree: North's G-SOIL ends with A-SUBSOIL, then South's G-CARE (closed: "Save and next"
    // opens it, #29), then South's G-PLANT starts with A-FERT, read-only: "Save and next" goes on to
    // the next one that is not, South's A-SEED.
    await expand(page, 'G-SOIL — Soil preparation');
    const subsoiling = await openActivity(page, 'A-SUBSOIL — Subsoiling');
    await subsoiling.getByRole('textbox', { name: 'Horas' }).fill('1');
    await subsoiling.getByRole('button', { name: 'Save and next' }).click();
    for (const next of ['A-SPRAY — Spraying', 'A-WEED — Weeding']) {
      const shown = page.getByRole('dialog', { name: next });
      await shown.waitFor();
      await shown.getByRole('button', { name: 'Save and next' }).click();
    }
    await page.getByRole('dialog', { name: 'A-SEED — Seeding' }).waitFor();
    expect(await page.getByRole('dialog', { name: 'A-FERT — Fertilising' }).count()).toBe(0);
    await expectAccessible(page);
  });

  it('says a refused value aloud when Enter is pressed in the field that keeps the focus', async () => {
    const page = await newPage();
    await openScreen(page);
    await expand(page, 'S-NORTH — North field');
    await expand(page, 'G-SOIL — Soil preparation');
    const dialog = await openActivity(page, 'A-SUBSOIL — Subsoiling');
    const quantity = dialog.getByRole('textbox', { name: 'Quantidade' });
    expect(await focused(quantity)).toBe(true);
    await page.keyboard.type('abc');
    await page.keyboard.press('Enter');
    expect(await dialog.getByRole('alert').textContent()).toBe(
      'Check Quantidade: Enter a number, such as 12.50.',
    );
    expect(await focused(quantity)).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  });

  it('says one search result in the singular, and a branch that fails on the way to a result says so', async () => {
    const page = await newPage();
    await openScreen(page);
    await page.getByRole('searchbox', { name: 'Search activities' }).fill('weed');
    const match = page.getByRole('list', { name: 'Search results' }).getByRole('button', { name: /A-WEED/ });
    await match.waitFor();
    await page.getByRole('status').getByText('1 match', { exact: true }).waitFor();
    // The branch on the way to the match fails: its error is shown, and nothing is left unhandled
    // (afterEach fails the test on any page error).
    await page.context().route(/part=children/, (route) => route.abort('connectionfailed'));
    await match.click();
    const failed = page.getByText('Could not load this branch: open it again to retry.').first();
    await failed.waitFor();
    // Opened again once the network is back, it loads, and the failure no longer stands beside it.
    await page.context().unroute(/part=children/);
    const sector = page.getByRole('treeitem', { name: 'S-SOUTH — South field' }).first();
    await sector.locator(':scope > .ta-screen__row').click();
    await sector.getByRole('group').first().waitFor();
    expect(await sector.locator(':scope > .ta-screen__row > .ta-screen__branch-error').count()).toBe(0);
  });

  // Found by review: "The search failed. Try again." with no signal, where trying again cannot help.
  it('says a search needs a connection when the device is offline', async () => {
    const page = await newPage({ locale: 'pt-BR' });
    await openScreen(page);
    await page.context().setOffline(true);
    await page.getByRole('searchbox', { name: 'Buscar atividades' }).fill('capina');
    await page.getByText('A busca precisa de conexão: tente de novo quando houver sinal.').first().waitFor();
    await page.context().setOffline(false);
  });

  // Found by review: the Save button pressed was disabled with the focus on it, which fell to the
  // page for the whole save: a screen reader left the dialog.
  it('keeps the focus in the dialog, on its title, while a save pressed by its button is on its way', async () => {
    const page = await newPage();
    await openScreen(page);
    await expand(page, 'S-SOUTH — South field');
    await expand(page, 'G-CARE — Crop care');
    const dialog = await openActivity(page, 'A-SPRAY — Spraying');
    await dialog.getByRole('textbox', { name: 'Pessoas' }).fill('2');
    const saves = await holdRequests(page, /associationtask/, {
      which: (request) => request.method() === 'PUT',
    });
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await saves.arrived;
    expect(await focused(dialog.getByRole('heading', { name: 'A-SPRAY — Spraying' }))).toBe(true);
    saves.release();
    await dialog.waitFor({ state: 'hidden' });
    expect(await focused(page.getByRole('treeitem', { name: 'A-SPRAY — Spraying' }).first())).toBe(true);
  });

  // Found by review: on a short phone the bar of Save, Save and next and Cancel (sticky at the
  // dialog's bottom) covered the field Tab moved to, and History's changes opened under it.
  it('keeps the focused field and the history clear of the dialog’s buttons on a short phone', async () => {
    const page = await newPage({ viewport: { width: 360, height: 640 }, locale: 'pt-BR' });
    await openScreen(page);
    await expand(page, 'S-NORTH — North field');
    await expand(page, 'G-SOIL — Soil preparation');
    const dialog = await openActivity(page, 'A-SUBSOIL — Subsoiling');
    const bar = dialog.locator('.ta-screen__actions');
    const clear = async (what: Locator) => {
      const [box, under] = [await what.boundingBox(), await bar.boundingBox()];
      return (box?.y ?? 0) + (box?.height ?? 0) <= (under?.y ?? 0);
    };
    await dialog.getByRole('textbox', { name: 'Pessoas', exact: true }).focus();
    await page.keyboard.press('Tab');
    const hours = dialog
      .locator('.ta-screen__field')
      .filter({ has: page.getByRole('textbox', { name: 'Horas' }) });
    await expect.poll(() => clear(hours)).toBe(true);
    await dialog.getByRole('button', { name: 'Histórico' }).click();
    const changes = dialog.getByRole('region', { name: 'Alterações' });
    await changes.waitFor();
    await expect.poll(() => clear(changes.getByRole('heading'))).toBe(true);
  });

  // Found by review: on a 360 px phone the offline button's label, kept on one line, made the page
  // wider than the screen (WCAG's reflow: nothing to pan sideways at 320 CSS pixels).
  it('fits a 320 px wide screen in Portuguese without scrolling sideways', async () => {
    const page = await newPage({ viewport: { width: 320, height: 640 }, locale: 'pt-BR' });
    await openScreen(page);
    await page.getByRole('button', { name: 'Guardar esta folha para uso sem conexão' }).waitFor();
    await expand(page, 'S-NORTH — North field');
    await expand(page, 'G-SOIL — Soil preparation');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  });

  it('draws a visible focus outline in forced-colors mode', async () => {
    const page = await newPage();
    await page.emulateMedia({ forcedColors: 'active' });
    await openScreen(page);
    await page.getByRole('searchbox', { name: 'Search activities' }).focus();
    await page.keyboard.press('Tab');
    const outline = await page.evaluate(() => {
      const row = document.activeElement?.querySelector('.ta-screen__row');
      return row ? getComputedStyle(row).outlineStyle : 'no focused row';
    });
    expect(outline).toBe('solid');
  });

  it('keeps a type-ahead word whole while it is typed at a steady pace', async () => {
    const page = await newPage();
    await openScreen(page);
    await expand(page, 'S-NORTH — North field');
    // Its children drawn before the page's clock is frozen: a frame still to come would never come.
    await page.getByRole('treeitem', { name: 'G-SOIL — Soil preparation' }).waitFor();
    const north = page.getByRole('treeitem', { name: 'S-NORTH — North field' });
    await north.focus();
    // The page's clock, moved by hand: 400 ms between keys, within the 600 ms a word may pause.
    // Installed, it still runs with the real time until paused: on a loaded machine the real time
    // between two key presses passed the 600 ms, and the test failed in two full runs out of four.
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 60_000);
    await page.keyboard.press('g');
    await page.clock.runFor(400);
    await page.keyboard.press('-');
    await page.clock.runFor(400);
    await page.keyboard.press('s');
    // The first key's timer used to end the word at 600 ms: "s" alone then went to S-SOUTH.
    expect(await focused(page.getByRole('treeitem', { name: 'G-SOIL — Soil preparation' }))).toBe(true);
    await page.clock.runFor(700);
    await page.keyboard.press('s');
    expect(await focused(page.getByRole('treeitem', { name: 'S-SOUTH — South field' }))).toBe(true);
  });
});

describe('screenshots for a person to look at (test-output/)', () => {
  it.each([
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const)('the loaded screen and the modal at %s width', async (name, viewport) => {
    await mkdir(OUTPUT_DIR, { recursive: true });
    const page = await newPage({ viewport });
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await openScreen(page);
    await expand(page, 'S-NORTH — North field');
    await expand(page, 'G-PLANT — Planting');
    await expand(page, 'G-SOIL — Soil preparation');
    await page.screenshot({
      path: new URL(`association-screen-${name}.png`, OUTPUT_DIR).pathname,
      fullPage: true,
    });
    await openActivity(page, 'A-SEED — Seeding');
    await page.screenshot({ path: new URL(`association-modal-${name}.png`, OUTPUT_DIR).pathname });
  });
});
