import { chromium } from 'playwright-core';
import { runCli } from '../src/cli/main.js';
import { startDemo } from '../src/demo/start-demo.js';
import { captureIo } from '../test/support/cli.js';
import { SERVER_URL } from '../test/support/database.js';

const io = captureIo();
const demo = await startDemo({
  serverUrl: SERVER_URL,
  port: 0,
  say: () => {},
  runInstaller: async (args) => ({ code: await runCli(args, io), stdout: '' }),
});
if (demo === undefined) throw new Error(io.err());
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
try {
  const context = await browser.newContext({
    viewport: { width: 360, height: 640 },
    locale: 'pt-BR',
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 2,
  });
  const page = await context.newPage();
  await page.goto(`${demo.url}/associationtask?taskSheet=${demo.sample.taskSheets[0]}`);
  await page.getByRole('tree').waitFor();
  await page.getByRole('searchbox').fill('disc');
  await page.waitForTimeout(1500);
  await page.screenshot({ path: '/tmp/look-search.png' });
  await page
    .getByRole('button', { name: /A-DISC/ })
    .first()
    .click();
  await page.waitForTimeout(800);
  await page.screenshot({ path: '/tmp/look-revealed.png' });
  await page
    .getByRole('treeitem', { name: /A-DISC/ })
    .first()
    .click();
  await page.getByRole('dialog').waitFor();
  await page.waitForTimeout(500);
  await page.screenshot({ path: '/tmp/look-modal.png' });
  const field = page.getByRole('dialog').getByRole('textbox').first();
  await field.fill('');
  await page.keyboard.type('abc');
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /^Salvar$/ })
    .click();
  await page.waitForTimeout(800);
  await page.screenshot({ path: '/tmp/look-modal-error.png' });
  await context.close();
} finally {
  await browser.close();
  await demo.close();
}
