import type { BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { DEMO_TABLES } from '../../src/demo/demo-install.js';
import type { Demo } from '../../src/demo/start-demo.js';
import { useBrowser, watchProblems } from '../support/browser.js';
import { type listen, seqOfCode, serveScreen, startTestDemo } from '../support/demo.js';

/**
 * Text of several lines pasted into a one-line field of the modal (a varchar metric) is kept as
 * pasted: an `<input>` would join the lines unseen (Chromium puts a space for each break).
 */

const browser = useBrowser();
const METRICS = DEMO_TABLES.metrics;

let demo: Demo;
let server: Awaited<ReturnType<typeof listen>> | undefined;
let context: BrowserContext | undefined;
let problems: string[] = [];
let activity = 0;

beforeAll(async () => {
  demo = await startTestDemo();
  // The host keeps a short note in the third metric: a varchar column, one line as read.
  await demo.scratch.db.execute(`ALTER TABLE ${METRICS} MODIFY HORAS varchar(60) NULL`);
  server = await serveScreen(demo, 9);
  activity = await seqOfCode(demo, demo.names.OPER, 'A-SUBSOIL');
});

afterAll(async () => {
  await server?.close();
  await demo?.close();
});

beforeEach(async () => {
  await demo.scratch.db.execute(`DELETE FROM ${METRICS} WHERE OPER_SEQ_DB = ?`, [activity]);
});

afterEach(async () => {
  await context?.close();
  context = undefined;
  expect(problems).toEqual([]);
  problems = [];
});

it('keeps the lines of a text pasted into a one-line field, and saves them as pasted', async () => {
  context = await browser().newContext({
    locale: 'en',
    viewport: { width: 1280, height: 800 },
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  await context.addCookies([{ name: 'user', value: '7', url: server?.origin ?? '' }]);
  const page = await context.newPage();
  watchProblems(page, (problem) => problems.push(problem));
  await page.goto(`${server?.origin}/associationtask?taskSheet=${demo.sample.taskSheet}`);
  await page.getByRole('tree').waitFor();
  for (const name of ['S-NORTH — North field', 'G-SOIL — Soil preparation']) {
    const item = page.getByRole('treeitem', { name }).first();
    await item.locator(':scope > .ta-screen__row').click();
    await item.getByRole('group').first().waitFor();
  }
  const label = 'A-SUBSOIL — Subsoiling';
  await page.getByRole('treeitem', { name: label }).first().locator(':scope > .ta-screen__row').click();
  const dialog = page.getByRole('dialog', { name: label });
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
  expect(
    await demo.scratch.db.query(`SELECT HORAS FROM ${METRICS} WHERE OPER_SEQ_DB = ? AND DELETED = 0`, [
      activity,
    ]),
  ).toEqual([{ HORAS: 'Solo úmido\nrefazer amanhã!' }]);
});
