// Takes the README's gallery screenshots (docs/images/gallery-*.png) in Debian's Chromium: the grid
// and the lightbox, on a 1280x800 desktop and a 375x812 phone.
//
//   npm run screenshots:gallery                              # serves the demo's images itself
//   npm run screenshots:gallery -- --url http://127.0.0.1:3000   # a running `npm start` demo
//   npm run screenshots:gallery -- --images ./my-photos          # another folder of images
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Page } from 'playwright-core';
import { startGalleryServer } from '../src/http/server.js';

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    images: { type: 'string' },
    out: { type: 'string', default: new URL('../docs/images/', import.meta.url).pathname },
  },
});

const SCREENS = [
  { name: 'desktop', viewport: { width: 1280, height: 800 }, phone: false },
  { name: 'phone', viewport: { width: 375, height: 812 }, phone: true },
] as const;

// A scratch cache, so the run neither reads nor fills the user's own.
const cacheDir = await mkdtemp(join(tmpdir(), 'gallery-screenshots-'));
const server =
  values.url === undefined
    ? await startGalleryServer({ port: 0, cacheDir, ...(values.images ? { imagesDir: values.images } : {}) })
    : undefined;
const base = values.url ?? server?.url ?? '';
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars'],
});

/** Waits until every card has settled and every thumbnail in view has been painted. */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      document.querySelector('.caroulsel-gallery[data-state="grid"]') !== null &&
      document.querySelectorAll('.caroulsel-gallery__skeleton').length === 0,
    undefined,
    { timeout: 60_000 },
  );
  await page.evaluate(() => Promise.all([...document.images].map((image) => image.decode().catch(() => {}))));
}

try {
  for (const screen of SCREENS) {
    const context = await browser.newContext({
      viewport: screen.viewport,
      isMobile: screen.phone,
      hasTouch: screen.phone,
      reducedMotion: 'reduce',
    });
    const page = await context.newPage();
    await page.goto(`${base}/#gallery-title`);
    await page.evaluate(() => document.getElementById('gallery-title')?.scrollIntoView());
    await settled(page);
    // From the gallery's heading to the end of its grid (the gallery reserves a screen's height).
    const box = await page.evaluate(() => {
      const heading = document.getElementById('gallery-title')?.getBoundingClientRect();
      const grid = document.querySelector('.caroulsel-gallery__grid')?.getBoundingClientRect();
      if (!heading || !grid) throw new Error('the page has no gallery heading or grid');
      const top = heading.top + window.scrollY - 16;
      return { top, bottom: grid.bottom + window.scrollY + 24 };
    });
    const height = Math.min(box.bottom - box.top, screen.phone ? 1400 : 800);
    const grid = join(values.out ?? '', `gallery-grid-${screen.name}.png`);
    await page.screenshot({
      path: grid,
      fullPage: true,
      clip: { x: 0, y: box.top, width: screen.viewport.width, height },
    });
    console.error(`wrote ${grid}`);

    // The third card: a photograph (the demo's images are in name order).
    await page.locator('.caroulsel-gallery__card').nth(2).click();
    await page.getByRole('dialog').waitFor();
    await page.waitForFunction(() => {
      const image = document.querySelector<HTMLImageElement>(
        '.pswp__item[aria-hidden="false"] img.pswp__img:not(.pswp__img--placeholder)',
      );
      return image?.complete === true && image.naturalWidth > 0;
    });
    const lightbox = join(values.out ?? '', `gallery-lightbox-${screen.name}.png`);
    await page.screenshot({ path: lightbox });
    console.error(`wrote ${lightbox}`);
    await context.close();
  }
} finally {
  await browser.close();
  await server?.close();
  await rm(cacheDir, { recursive: true, force: true });
}
