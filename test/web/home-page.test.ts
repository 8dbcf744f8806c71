import { mkdir, stat } from 'node:fs/promises';
import type { BrowserContext } from 'playwright-core';
import { expect, it } from 'vitest';
import {
  FakeSite,
  nextFrames,
  ORIGIN,
  openPage,
  SAMPLE_ITEMS,
  useBrowser,
  webFile,
} from '../support/browser.js';

const browser = useBrowser();
const OUTPUT_DIR = new URL('../../test-output/', import.meta.url);

/** The home page (`web/index.html`) opened in `context`, on a fake site serving the gallery. */
async function homePage(context: BrowserContext) {
  const page = await openPage(context);
  const site = new FakeSite();
  site.serve('/', await webFile('index.html'));
  await site.attach(page);
  await page.goto(`${ORIGIN}/`);
  return { page, site };
}

it('the home page starts with the gallery below the fold, loads it on scroll, and looks right', async () => {
  const context = await browser().newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const { page, site } = await homePage(context);
    await page.waitForSelector('#gallery[data-state="idle"]', { state: 'attached' });
    await nextFrames(page);
    const belowTheFold = await page
      .locator('#gallery')
      .evaluate((node) => node.getBoundingClientRect().top >= window.innerHeight);
    expect(belowTheFold).toBe(true);
    expect(site.hits('/caroulsel/data')).toBe(0);

    await page.locator('#gallery-title').scrollIntoViewIfNeeded();
    await page.waitForSelector('#gallery[data-state="grid"]', { state: 'attached' });
    await page.waitForFunction(() => document.querySelectorAll('.caroulsel-gallery__skeleton').length === 0);
    expect(site.hits('/caroulsel/data')).toBe(1);
    expect(await page.locator('.caroulsel-gallery__card').count()).toBe(SAMPLE_ITEMS.length);

    // For a person to look at: the loaded gallery as a visitor sees it (test-output/ is git-ignored).
    await mkdir(OUTPUT_DIR, { recursive: true });
    const file = new URL('gallery.png', OUTPUT_DIR);
    await page.locator('.gallery-section').screenshot({ path: file.pathname, animations: 'disabled' });
    expect((await stat(file)).size).toBeGreaterThan(10_000);
  } finally {
    await context.close();
  }
});

// Found by review: with large text on a phone the page was 560 px wide (the header's links and the
// sections' 16rem columns), so the lightbox's Close and its caption were off the screen.
it('the home page fits a phone with text at 200%, nothing to scroll sideways', async () => {
  const context = await browser().newContext({ viewport: { width: 375, height: 812 }, isMobile: true });
  try {
    const { page } = await homePage(context);
    await page.addStyleTag({ content: 'html { font-size: 200% !important; }' });
    await nextFrames(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  } finally {
    await context.close();
  }
});
