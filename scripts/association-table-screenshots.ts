// Takes the screen guide's table-view screenshots (docs/images/association-table*.png) in Debian's
// Chromium, on the demo (started on a scratch database of $DATABASE_URL's server, dropped after): the
// table with a typed change and a copied row, on a 1280x800 desktop and a 390x844 phone.
//
//   npm run screenshots:table
import { parseArgs } from 'node:util';
import { chromium, type Page } from 'playwright-core';
import { runCli } from '../src/cli/main.js';
import { startDemo } from '../src/demo/start-demo.js';
import { captureIo } from '../test/support/cli.js';
import { SERVER_URL } from '../test/support/database.js';

const { values } = parseArgs({
  options: {
    out: { type: 'string', default: new URL('../docs/images/', import.meta.url).pathname },
  },
});

const io = captureIo();
const demo = await startDemo({
  serverUrl: SERVER_URL,
  port: 0,
  say: () => {},
  runInstaller: async (args) => ({ code: await runCli(args, io), stdout: '' }),
});
if (demo === undefined) throw new Error(`the demo did not start:\n${io.err()}`);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars'],
});

/**
 * The second sheet's table, a row copied from the first sheet and one value typed; the progress by
 * group opened on the desktop (on a phone it stays closed, as a person first sees it).
 */
async function prepare(page: Page, groups: boolean) {
  await page.goto(`${demo?.url}/associationtask?taskSheet=${demo?.sample.taskSheets[1]}`);
  await page.getByRole('tree').waitFor();
  await page.getByRole('button', { name: 'Table', exact: true }).click();
  await page.waitForFunction(() => !document.querySelector('[role="grid"]')?.hasAttribute('aria-busy'));
  await page.getByRole('button', { name: 'Copy from the previous sheet' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Copy', exact: true }).click();
  await page.getByRole('dialog').waitFor({ state: 'hidden' });
  const disc = page
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: /^A-DISC/ }) })
    .getByRole('textbox', { name: 'Quantidade' });
  await disc.click();
  await page.keyboard.type('2.75');
  await page.keyboard.press('Tab');
  if (groups) await page.getByText('Progress by group').click();
}

try {
  for (const [name, viewport] of [
    ['association-table.png', { width: 1280, height: 800 }],
    ['association-table-phone.png', { width: 390, height: 844 }],
  ] as const) {
    const context = await browser.newContext({ viewport, locale: 'en', reducedMotion: 'reduce' });
    const page = await context.newPage();
    await prepare(page, viewport.width > 600);
    await page.screenshot({ path: `${values.out}${name}`, fullPage: true });
    await context.close();
    console.log(`wrote ${values.out}${name}`);
  }
} finally {
  await browser.close();
  await demo.close();
}
