import { expect, it } from 'vitest';
import { LABELS_PT_BR } from '../../web/association-screen.js';
import { description, holdRequests, openTable, useBrowser, usePageChecks } from '../support/browser.js';
import {
  liveMetrics,
  saveAsProgram,
  signedInPage,
  useBareActivity,
  useServedScreen,
} from '../support/demo.js';

/**
 * A person changes a cell of a row in the table; meanwhile another program removes the row's entry.
 * The save is refused for the conflict, and the row's other cells show what applies now (the
 * defaults, read again), not the removed entry's values: one Save (keep mine) stores the typed value
 * with the defaults, and nothing of the removed entry comes back.
 */

const browser = useBrowser();
const pages = usePageChecks();
const served = useServedScreen(9);

const subsoil = useBareActivity(served, 'A-SUBSOIL', 'G-SOIL');

/** The screen in pt-BR, in a context of its own where person 7 is signed in. */
async function open() {
  const context = await browser().newContext({ locale: 'pt-BR', viewport: { width: 1280, height: 800 } });
  return signedInPage(pages.track(context), served.origin(), 7);
}

/** Another program (user 9) saves an entry of the activity through the HTTP API. */
async function meanwhile(body: unknown) {
  await saveAsProgram(served.demo(), served.origin(), 9, [body]);
}

/**
 * The activity's entry saved with Quantidade 31, Pessoas 5 and Horas 7, then the screen's table: its
 * row of the activity, once it shows the entry.
 */
async function tableOfEntry() {
  await meanwhile({ ...subsoil(), values: { METRICA1: '31.00', METRICA2: 5, HORAS: '7.0' } });
  const { page, puts } = await open();
  const grid = await openTable(page, served.sheetUrl(), 'Tabela');
  const row = grid.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /^A-SUBSOIL/ }) });
  const quantity = row.getByRole('textbox', { name: 'Quantidade', exact: true });
  const hours = row.getByRole('textbox', { name: 'Horas', exact: true });
  await expect.poll(() => hours.inputValue()).toBe('7,0');
  return { page, puts, row, quantity, hours };
}

const stored = () => liveMetrics(served.demo(), subsoil().activity);

it('after a conflict says the entry was removed, the row shows the defaults and one Save stores them with the typed value', async () => {
  const { page, puts, row, quantity, hours } = await tableOfEntry();
  const people = row.getByRole('textbox', { name: 'Pessoas', exact: true });
  expect(await people.inputValue()).toBe('5');
  await quantity.fill('32');
  await meanwhile({ ...subsoil(), remove: true });

  const save = page.getByRole('button', { name: 'Salvar alterações', exact: true });
  const first = page.waitForResponse((answer) => answer.request().method() === 'PUT');
  await save.click();
  expect((await first).status()).toBe(409);
  expect(puts[0]?.entries[0]).toMatchObject({ values: { METRICA1: '32' }, row: true });
  expect(await page.getByRole('alert').textContent()).toMatch(
    /^Não salvo: 1 célula foi alterada enquanto isso \(marcada\)/,
  );

  // The cells that met no conflict show the defaults (the demo's for A-SUBSOIL), read again; the
  // typed value stays, its conflict shown.
  await expect.poll(() => people.inputValue()).toBe('6');
  await expect.poll(() => hours.inputValue()).toBe('8,0');
  expect(await quantity.inputValue()).toBe('32');
  expect(await quantity.getAttribute('aria-invalid')).toBe('true');
  // Its conflict says what applies now, the entry gone: the default, as the modal's says it.
  await expect
    .poll(() => description(quantity))
    .toContain(LABELS_PT_BR.conflictRemoved.replace('{value}', '0,80'));
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
  const { page, puts, quantity, hours } = await tableOfEntry();
  await quantity.fill('32');
  await meanwhile({ ...subsoil(), remove: true });
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
  const { page, puts, row, quantity } = await tableOfEntry();
  const people = row.getByRole('textbox', { name: 'Pessoas', exact: true });
  expect(await people.inputValue()).toBe('5');
  await quantity.fill('32');
  await meanwhile({ ...subsoil(), remove: true });

  // The row's reading again is held on its way (a slow network) until the test lets it go.
  const reads = await holdRequests(page, (url) => url.searchParams.get('part') === 'sheet');
  const save = page.getByRole('button', { name: 'Salvar alterações', exact: true });
  const refused = page.waitForResponse((answer) => answer.request().method() === 'PUT');
  await save.click();
  expect((await refused).status()).toBe(409);
  await expect.poll(() => reads.count).toBe(1);
  // Meanwhile the row still shows the removed entry's Pessoas 5: Save cannot send it, nor a cell take a key.
  const busy = page.getByRole('button', { name: 'Salvando…', exact: true });
  await expect.poll(() => busy.isDisabled()).toBe(true);
  expect(await people.inputValue()).toBe('5');
  expect(await people.getAttribute('readonly')).not.toBeNull();
  reads.release();
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

it('after a conflict says the entry was removed and its row cannot be read again, Save sends nothing of the removed entry until the row is read', async () => {
  const { page, puts, row, quantity } = await tableOfEntry();
  const people = row.getByRole('textbox', { name: 'Pessoas', exact: true });
  await quantity.fill('32');
  await meanwhile({ ...subsoil(), remove: true });

  // No answer to any read of the sheet's rows (the signal gone for reads).
  const readsOfRows = (url: URL) => url.searchParams.get('part') === 'sheet';
  await page.route(readsOfRows, (route) => route.abort('internetdisconnected'));
  const save = page.getByRole('button', { name: 'Salvar alterações', exact: true });
  const refused = page.waitForResponse((answer) => answer.request().method() === 'PUT');
  await save.click();
  expect((await refused).status()).toBe(409);
  await expect.poll(() => save.isEnabled()).toBe(true);
  // The row still shows the removed entry's Pessoas 5: Save leaves the row out, and says why.
  expect(await people.inputValue()).toBe('5');
  await save.click();
  await expect
    .poll(() => page.getByRole('alert').textContent())
    .toMatch(/^Uma atividade não enviada: o que vale para ela agora ainda não é conhecido/);
  expect(await quantity.getAttribute('aria-invalid')).toBe('true');
  expect(puts).toHaveLength(1);
  expect(await stored()).toEqual([]);

  // Read again once connected: the defaults, and one Save stores them with the typed value.
  await page.unroute(readsOfRows);
  const second = page.waitForResponse((answer) => answer.request().method() === 'PUT');
  await save.click();
  expect((await second).status()).toBe(200);
  expect(await people.inputValue()).toBe('6');
  expect(puts[1]?.entries[0]).toMatchObject({
    values: { METRICA1: '32', METRICA2: 6, HORAS: '8.0' },
    row: false,
  });
  expect(await stored()).toEqual([{ METRICA1: '32.00', METRICA2: 6, HORAS: '8.0' }]);
});

it('a row read at Save that meets a value stored meanwhile is left out of that Save, the value shown, never written over unseen', async () => {
  const { page, puts, quantity } = await tableOfEntry();
  await quantity.fill('32');
  await meanwhile({ ...subsoil(), remove: true });
  const readsOfRows = (url: URL) => url.searchParams.get('part') === 'sheet';
  await page.route(readsOfRows, (route) => route.abort('internetdisconnected'));
  const save = page.getByRole('button', { name: 'Salvar alterações', exact: true });
  const refused = page.waitForResponse((answer) => answer.request().method() === 'PUT');
  await save.click();
  expect((await refused).status()).toBe(409);
  await expect.poll(() => save.isEnabled()).toBe(true);

  // Someone enters the activity anew (Quantidade 40) while the row could not be read.
  await meanwhile({ ...subsoil(), values: { METRICA1: '40.00' } });
  await page.unroute(readsOfRows);
  await save.click();
  // The Save read the row first: 40,00 is shown at the cell, and nothing was sent over it.
  await expect
    .poll(() => page.getByRole('alert').textContent())
    .toMatch(/^Não salvo: 1 célula foi alterada enquanto isso \(marcada\)/);
  expect(await quantity.inputValue()).toBe('32');
  expect(await description(quantity)).toContain('40,00');
  expect(puts).toHaveLength(1);
  expect(await stored()).toMatchObject([{ METRICA1: '40.00' }]);

  // Kept knowingly: the next Save sends 32 over the 40 it showed.
  const second = page.waitForResponse((answer) => answer.request().method() === 'PUT');
  await save.click();
  expect((await second).status()).toBe(200);
  expect(puts[1]?.entries[0]).toMatchObject({ values: { METRICA1: '32' }, base: { METRICA1: '40.00' } });
  expect(await stored()).toMatchObject([{ METRICA1: '32.00' }]);
});
