import { expect, it } from 'vitest';
import { DEMO_TABLES } from '../../src/demo/demo-install.js';
import { openActivity, openPage, useBrowser, usePageChecks } from '../support/browser.js';
import { liveMetrics, signIn, useBareActivity, useServedScreen } from '../support/demo.js';

/**
 * Text of several lines pasted into a one-line field of the modal (a varchar metric) is kept as
 * pasted: an `<input>` would join the lines unseen (Chromium puts a space for each break).
 */

const browser = useBrowser();
const pages = usePageChecks();
// The host keeps a short note in the third metric: a varchar column, one line as read.
const served = useServedScreen(9, (demo) =>
  demo.scratch.db.execute(`ALTER TABLE ${DEMO_TABLES.metrics} MODIFY HORAS varchar(60) NULL`),
);
const subsoil = useBareActivity(served, 'A-SUBSOIL', 'G-SOIL');

it('keeps the lines of a text pasted into a one-line field, and saves them as pasted', async () => {
  const context = pages.track(
    await browser().newContext({
      locale: 'en',
      viewport: { width: 1280, height: 800 },
      permissions: ['clipboard-read', 'clipboard-write'],
    }),
  );
  await signIn(context, served.origin(), 7);
  const page = await openPage(context);
  const dialog = await openActivity(
    page,
    served.sheetUrl(),
    ['S-NORTH — North field', 'G-SOIL — Soil preparation'],
    'A-SUBSOIL — Subsoiling',
  );
  const notes = dialog.getByRole('textbox', { name: 'Horas', exact: true });
  await expect.poll(() => notes.inputValue()).toBe('8.0');
  await notes.focus();
  await page.keyboard.press('ControlOrMeta+A');
  // As a spreadsheet or a notes app puts it on the clipboard: Windows line ends.
  await page.evaluate(() => navigator.clipboard.writeText('Solo úmido\r\nrefazer amanhã'));
  await page.keyboard.press('ControlOrMeta+V');
  await expect.poll(() => notes.inputValue()).toBe('Solo úmido\nrefazer amanhã');
  // The caret is after the pasted text: typing goes on from there.
  await page.keyboard.type('!');
  expect(await notes.inputValue()).toBe('Solo úmido\nrefazer amanhã!');
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
  expect(await liveMetrics(served.demo(), subsoil().activity)).toMatchObject([
    { HORAS: 'Solo úmido\nrefazer amanhã!' },
  ]);
});
