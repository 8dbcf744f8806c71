import { expect, it } from 'vitest';
import { openActivity, openTable, useBrowser, usePageChecks } from '../support/browser.js';
import {
  liveMetrics,
  saveAsProgram,
  signedInPage,
  useBareActivity,
  useServedScreen,
} from '../support/demo.js';

/**
 * A person fills an activity that has no entry yet; meanwhile another program makes its entry. The
 * save is refused for the conflict, and the next Save stores what the form (or the row) shows: a
 * value the person typed over a default that met no conflict is not dropped because the activity
 * now has an entry.
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

/** Another program makes the activity's entry: Quantidade 31, nothing else. */
async function madeMeanwhile(values: Record<string, unknown> = { METRICA1: '31.00' }) {
  await saveAsProgram(served.demo(), served.origin(), 9, [{ ...subsoil(), values }]);
}

/**
 * The table's row of the activity, its Quantidade typed 32 while another program makes its entry
 * (`values`): the Save is refused for the conflict.
 */
async function refusedInTable(values?: Record<string, unknown>) {
  const { page, puts } = await open();
  const grid = await openTable(page, served.sheetUrl(), 'Tabela');
  const row = grid.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /^A-SUBSOIL/ }) });
  const hours = row.getByRole('textbox', { name: 'Horas', exact: true });
  await expect.poll(() => hours.inputValue()).toBe('8,0');
  await row.getByRole('textbox', { name: 'Quantidade', exact: true }).fill('32');
  await madeMeanwhile(values);
  const save = page.getByRole('button', { name: 'Salvar alterações', exact: true });
  const refused = page.waitForResponse((response) => response.request().method() === 'PUT');
  await save.click();
  expect((await refused).status()).toBe(409);
  return { page, puts, row, hours, save };
}

const stored = () => liveMetrics(served.demo(), subsoil().activity);

it('saves the hours typed over a default in the modal after a conflict on an activity that had no entry', async () => {
  const { page, puts } = await open();
  const dialog = await openActivity(
    page,
    served.sheetUrl(),
    ['S-NORTH — North field', 'G-SOIL — Soil preparation'],
    'A-SUBSOIL — Subsoiling',
  );
  const hours = dialog.getByRole('textbox', { name: 'Horas', exact: true });
  await expect.poll(() => hours.inputValue()).toBe('8,0');
  await dialog.getByRole('textbox', { name: 'Quantidade', exact: true }).fill('32');
  await hours.fill('8');
  await madeMeanwhile();
  await dialog.getByRole('button', { name: 'Salvar', exact: true }).click();
  // Every field the new entry holds otherwise is a conflict, read from no row as the save was: the 32
  // and the 8 typed, and the default Pessoas against the entry's empty one.
  await dialog.getByRole('button', { name: 'Manter o meu em Quantidade' }).click();
  await dialog.getByRole('button', { name: 'Manter o meu em Horas' }).click();
  await dialog.getByRole('button', { name: 'Usar o salvo em Pessoas' }).click();
  // The form shows what the next Save stores: the 8 typed, and Pessoas as stored now (empty).
  expect(await hours.inputValue()).toBe('8');
  expect(await dialog.getByRole('textbox', { name: 'Pessoas', exact: true }).inputValue()).toBe('');
  await dialog.getByRole('button', { name: 'Salvar', exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
  const { activity, group } = subsoil();
  expect(puts[1]?.entries[0]).toEqual({
    activity,
    group,
    values: { METRICA1: '32', HORAS: '8' },
    base: { METRICA1: '31.00', HORAS: null },
    row: true,
  });
  expect(await stored()).toEqual([{ METRICA1: '32.00', METRICA2: null, HORAS: '8.0' }]);
});

it('saves every value a table row shows after a conflict on an activity that had no entry', async () => {
  const { puts, row, hours, save, page } = await refusedInTable();
  await expect
    .poll(() => row.getByRole('textbox', { name: 'Quantidade', exact: true }).getAttribute('aria-invalid'))
    .toBe('true');
  // The row still shows the default hours and workers: Save again stores them with the 32 kept.
  expect(await hours.inputValue()).toBe('8,0');
  const saved = page.waitForResponse((response) => response.request().method() === 'PUT');
  await save.click();
  expect((await saved).status()).toBe(200);
  expect(puts[1]?.entries[0]?.values).toEqual({ METRICA1: '32', METRICA2: 6, HORAS: '8.0' });
  expect(puts[1]?.entries[0]?.base).toEqual({ METRICA1: '31.00', METRICA2: null, HORAS: null });
  // Read without a row, sent again against the row the conflict said is there.
  expect([puts[0]?.entries[0]?.row, puts[1]?.entries[0]?.row]).toEqual([false, true]);
  expect(await stored()).toEqual([{ METRICA1: '32.00', METRICA2: 6, HORAS: '8.0' }]);
  await expect.poll(() => hours.inputValue()).toBe('8,0');
});

it('Escape on a value a table row kept after that conflict takes what is stored and leaves it out of the next save', async () => {
  const { puts, hours, save, page } = await refusedInTable();
  // The default hours were refused too (the new entry holds none); Escape there takes what is
  // stored: the cell shows no hours and the next save leaves them alone.
  await hours.focus();
  await page.keyboard.press('Escape');
  await expect.poll(() => hours.inputValue()).toBe('');
  const saved = page.waitForResponse((response) => response.request().method() === 'PUT');
  await save.click();
  expect((await saved).status()).toBe(200);
  expect(puts[1]?.entries[0]?.values).toEqual({ METRICA1: '32', METRICA2: 6 });
  expect(puts[1]?.entries[0]?.base).toEqual({ METRICA1: '31.00', METRICA2: null });
  expect(await stored()).toEqual([{ METRICA1: '32.00', METRICA2: 6, HORAS: null }]);
  await expect.poll(() => hours.inputValue()).toBe('');
});

it('shows as stored, not to be sent again, a value the entry made meanwhile holds as the row sent it', async () => {
  // The other program's entry holds the same 8.0 hours the row shows and sends.
  const { puts, hours, save, page } = await refusedInTable({ METRICA1: '31.00', HORAS: '8.0' });
  // Escape on the hours stays on the 8,0 stored; typed over, they are sent from that base.
  await hours.focus();
  await page.keyboard.press('Escape');
  await expect.poll(() => hours.inputValue()).toBe('8,0');
  await hours.fill('9');
  const saved = page.waitForResponse((response) => response.request().method() === 'PUT');
  await save.click();
  expect((await saved).status()).toBe(200);
  expect(puts[1]?.entries[0]?.values).toEqual({ METRICA1: '32', METRICA2: 6, HORAS: '9' });
  expect(puts[1]?.entries[0]?.base).toEqual({ METRICA1: '31.00', METRICA2: null, HORAS: '8.0' });
  expect(await stored()).toEqual([{ METRICA1: '32.00', METRICA2: 6, HORAS: '9.0' }]);
});
