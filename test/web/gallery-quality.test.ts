import type { BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe.js';
import {
  FakeSite,
  nextFrames,
  ORIGIN,
  openPage,
  SAMPLE_IMAGES,
  SAMPLE_ITEMS,
  useBrowser,
  webFile,
} from '../support/browser.js';

const browser = useBrowser();
const CARD = '.caroulsel-gallery__card';

let context: BrowserContext;
let page: Page;
let site: FakeSite;

afterEach(async () => {
  await context.close();
});

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 812 };

/** The demo's home page (web/index.html) on a fake site, in a window of `viewport`. */
async function homePage(viewport: { width: number; height: number }, phone = false): Promise<void> {
  context = await browser().newContext({ viewport, hasTouch: phone, isMobile: phone });
  context.setDefaultTimeout(10_000);
  page = await openPage(context);
  site = new FakeSite();
  site.serve('/', () => webFile('index.html'));
  await site.attach(page);
}

/** Sums every layout shift not caused by input, from the page's first paint on. */
async function measureLayoutShift(): Promise<void> {
  await page.addInitScript(() => {
    const win = window as unknown as { layoutShift: number };
    win.layoutShift = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) {
        if (!entry.hadRecentInput) win.layoutShift += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

async function waitForSettledGrid(): Promise<void> {
  await page.waitForFunction(
    () =>
      document.querySelector('.caroulsel-gallery[data-state="grid"]') !== null &&
      document.querySelectorAll('.caroulsel-gallery__skeleton').length === 0,
  );
  await nextFrames(page);
}

describe('No layout shift while the gallery loads', () => {
  const screens = [
    ['a 1280x800 desktop', DESKTOP, false],
    ['a 375x812 phone', PHONE, true],
  ] as const;
  // Jumped to after the page has loaded, as the header's "Gallery" link does (without the click,
  // which would excuse the shift), and opened at that link's address.
  // Scrolled to the page's end: the footer is in view while the list loads, and must stay there.
  const arrivals = [
    ['jumped to', '/'],
    ['opened at #gallery-title', '/#gallery-title'],
    ['scrolled to the page end', '/#end'],
    // The component's own compensation, for browsers without scroll anchoring (Safari).
    ['scrolled to the page end, without scroll anchoring', '/#end-unanchored'],
  ] as const;
  for (const [screen, viewport, phone] of screens) {
    for (const [arrival, path] of arrivals) {
      it(`stays at most 0.02 on ${screen}, the gallery ${arrival}`, async () => {
        await homePage(viewport, phone);
        await measureLayoutShift();
        const gate = site.hold('/caroulsel/data');
        await page.goto(`${ORIGIN}${path}`);
        if (path === '/')
          await page.evaluate(() => document.getElementById('gallery-title')?.scrollIntoView());
        if (path === '/#end-unanchored')
          await page.addStyleTag({ content: 'html, body, main, footer { overflow-anchor: none; }' });
        if (path.startsWith('/#end'))
          await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        await gate.arrived;
        await page.waitForSelector('#gallery[data-state="loading"]', { state: 'attached' });
        await nextFrames(page);
        const footer = () =>
          page.evaluate(() => Math.round(document.querySelector('footer')?.getBoundingClientRect().top ?? 0));
        const footerBefore = await footer();
        gate.release();
        await waitForSettledGrid();
        // At the page's end the footer was in view: it stays exactly where it was.
        if (path.startsWith('/#end')) expect(await footer()).toBe(footerBefore);
        const shift = await page.evaluate(() => (window as unknown as { layoutShift: number }).layoutShift);
        console.log(`layout shift on ${screen}, gallery ${arrival}: ${shift.toFixed(4)}`);
        expect(shift).toBeLessThanOrEqual(0.02);
      });
    }
  }
});

/** The mean of the placeholder canvas's pixels, or null when the card has none. */
function placeholderColour(index: number): Promise<number[] | null> {
  return page.evaluate((index) => {
    const canvas = document.querySelectorAll('.caroulsel-gallery__card')[index]?.querySelector('canvas');
    if (!canvas) return null;
    const { data } = canvas.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height) ?? { data: [] };
    const sums = [0, 0, 0, 0];
    for (let i = 0; i < data.length; i += 1) sums[i % 4] = (sums[i % 4] ?? 0) + (data[i] ?? 0);
    return sums.map((sum) => Math.round(sum / (data.length / 4)));
  }, index);
}

describe('Placeholders', () => {
  it('shows the image’s ThumbHash colours before its thumbnail arrives', async () => {
    await homePage(DESKTOP);
    const held = SAMPLE_ITEMS[1];
    if (held === undefined) throw new Error('two items');
    site.serve(held.previewUrl, { never: true });
    await page.goto(`${ORIGIN}/#gallery-title`);
    await page.waitForSelector(`${CARD}[data-state="loaded"]`);
    expect(await page.locator(CARD).nth(1).getAttribute('data-state')).toBe('pending');

    // While nothing of it has loaded, the card already shows about the image's own mean colour.
    const drawn = (await placeholderColour(1)) ?? [];
    const stats = await sharp(
      new URL(`../../examples/images/${SAMPLE_IMAGES[1].file}`, import.meta.url).pathname,
    ).stats();
    const mean = stats.channels.slice(0, 3).map((channel) => channel.mean);
    expect(drawn[3]).toBe(255);
    mean.forEach((value, channel) => {
      expect(Math.abs((drawn[channel] ?? 0) - value)).toBeLessThan(40);
    });
    // Every card has one, each its own image's colours.
    const all = await Promise.all(SAMPLE_ITEMS.map((_, index) => placeholderColour(index)));
    expect(all.every((colour) => colour !== null)).toBe(true);
    expect(new Set(all.map(String)).size).toBe(SAMPLE_ITEMS.length);
    // Under a see-through skeleton: the colours are what shows.
    const skeleton = await page
      .locator(CARD)
      .nth(1)
      .locator('.caroulsel-gallery__skeleton')
      .evaluate((node) => getComputedStyle(node).backgroundColor);
    expect(skeleton).toBe('rgba(0, 0, 0, 0)');
  });

  it('never holds the grid or its thumbnails back for the ThumbHash decoder', async () => {
    await homePage(DESKTOP);
    const held = SAMPLE_ITEMS[1];
    if (held === undefined) throw new Error('two items');
    site.serve(held.previewUrl, { never: true });
    const decoder = site.hold('/assets/thumbhash.js');
    await page.goto(`${ORIGIN}/#gallery-title`);
    await decoder.arrived;
    // The list is in and the thumbnails load while the decoder is still on its way.
    await page.waitForSelector(`${CARD}[data-state="loaded"]`);
    expect(await page.locator(`${CARD} canvas`).count()).toBe(0);
    expect(site.hits(held.previewUrl)).toBe(1);

    // Once it arrives, the card still waiting shows its image's colours under its skeleton.
    decoder.release();
    await page.locator(CARD).nth(1).locator('canvas').waitFor();
    expect((await placeholderColour(1))?.[3]).toBe(255);
    expect(await page.locator(CARD).nth(1).getAttribute('data-state')).toBe('pending');
  });

  it('keeps the placeholder when the fallback fires, and the card says "fallback", not "loaded"', async () => {
    context = await browser().newContext({ viewport: DESKTOP });
    page = await openPage(context);
    site = new FakeSite();
    const held = SAMPLE_ITEMS[0];
    if (held === undefined) throw new Error('one item');
    site.serve(held.previewUrl, { never: true });
    site.serve('/', {
      contentType: 'text/html',
      body: `<!doctype html><link rel="stylesheet" href="/assets/caroulsel-gallery.css">
<script type="module" src="/assets/caroulsel-gallery.js"></script>
<caroulsel-gallery fallback-delay-ms="50"></caroulsel-gallery>`,
    });
    await site.attach(page);
    await page.goto(`${ORIGIN}/`);
    await page.waitForSelector(`${CARD}[data-state="fallback"]`);
    expect(await page.locator(`${CARD} .caroulsel-gallery__skeleton`).count()).toBe(0);
    expect(await page.locator(CARD).first().locator('canvas').isVisible()).toBe(true);
    expect((await placeholderColour(0))?.[3]).toBe(255);
  });
});

describe('Robust and accessible', () => {
  it('leaves out one item with a bad URL, with a warning naming it, and shows the others', async () => {
    await homePage(DESKTOP);
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    const bad = { ...SAMPLE_ITEMS[0], id: 'bad', title: 'Bad', fullUrl: 'javascript:alert(1)' };
    const foreign = { ...SAMPLE_ITEMS[0], id: 'ftp', title: 'Ftp', previewUrl: 'ftp://example.test/a.jpg' };
    site.serve('/caroulsel/data', {
      contentType: 'application/json',
      body: JSON.stringify({ items: [bad, ...SAMPLE_ITEMS, foreign], next: null }),
    });
    await page.goto(`${ORIGIN}/#gallery-title`);
    await waitForSettledGrid();
    expect(await page.locator(CARD).count()).toBe(SAMPLE_ITEMS.length);
    expect(await page.getByRole('link', { name: 'Bad' }).count()).toBe(0);
    expect(warnings).toEqual([
      'caroulsel-gallery: gallery item 0 left out: its fullUrl "javascript:alert(1)" is not an http(s) URL',
      `caroulsel-gallery: gallery item ${SAMPLE_ITEMS.length + 1} left out: its previewUrl "ftp://example.test/a.jpg" is not an http(s) URL`,
    ]);
  });

  it('lets thumbnails below the fold wait until the visitor scrolls near them', async () => {
    await homePage(PHONE, true);
    // Twelve screens of cards: the last ones are far below what the browser fetches ahead.
    const many = Array.from({ length: 60 }, (_, index) => {
      const sample = SAMPLE_ITEMS[index % SAMPLE_ITEMS.length];
      if (sample === undefined) throw new Error('samples');
      return {
        ...sample,
        id: `copy-${index}`,
        title: `Copy ${index}`,
        alt: `Copy ${index}`,
        previewUrl: `${sample.previewUrl}?copy=${index}`,
      };
    });
    site.serve('/caroulsel/data', {
      contentType: 'application/json',
      body: JSON.stringify({ items: many, next: null }),
    });
    const requested = new Set<string>();
    page.on('request', (request) => {
      if (request.url().includes('?copy='))
        requested.add(new URL(request.url()).searchParams.get('copy') ?? '');
    });
    await page.goto(`${ORIGIN}/#gallery-title`);
    await page.waitForSelector(`${CARD}[data-state="loaded"]`);
    await nextFrames(page);
    // The cards on screen are fetched at once and first; those far below wait, and come after.
    const first = page.locator(`${CARD} img`).first();
    expect([await first.getAttribute('loading'), await first.getAttribute('fetchpriority')]).toEqual([
      'eager',
      'high',
    ]);
    const last = page.locator(`${CARD} img`).last();
    expect([await last.getAttribute('loading'), await last.getAttribute('fetchpriority')]).toEqual([
      'lazy',
      'low',
    ]);
    expect(requested.has('0')).toBe(true);
    expect(requested.has('59')).toBe(false);

    await page.getByRole('link', { name: 'Copy 59', exact: true }).scrollIntoViewIfNeeded();
    await page.waitForSelector(`${CARD}[aria-label="Copy 59"][data-state="loaded"]`);
    expect(requested.has('59')).toBe(true);
  });

  it('fetches before the first thumbnail only the page, its styles, the modules it imports, the decoder and the list', async () => {
    await homePage(PHONE, true);
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    let firstThumbnail = -1;
    page.on('requestfinished', (request) => {
      if (firstThumbnail < 0 && new URL(request.url()).pathname.startsWith('/caroulsel/media/'))
        firstThumbnail = requested.length;
    });
    await page.goto(`${ORIGIN}/#gallery-title`);
    await waitForSettledGrid();
    const before = requested.slice(0, firstThumbnail).filter((path) => !path.startsWith('/caroulsel/media/'));
    expect(new Set(before)).toEqual(
      new Set([
        '/',
        '/assets/caroulsel-gallery.css',
        '/assets/caroulsel-gallery.js',
        ...[
          'cards',
          'dom',
          'grid',
          'lightbox-loader',
          'list',
          'mount',
          'paging',
          'placeholders',
          'retry',
          'sources',
          'texts',
        ].map((name) => `/assets/caroulsel-gallery/${name}.js`),
        '/assets/thumbhash.js',
        '/caroulsel/data',
        // The demo page's own list of task sheets (not the gallery's).
        '/demo/task-sheets',
      ]),
    );
    // The lightbox (its adapter, its history and PhotoSwipe) waits until a card is pointed at.
    expect(requested.filter((path) => /lightbox\.js|history\.js|photoswipe/.test(path))).toEqual([]);
    await page.locator(CARD).first().hover();
    await expect
      .poll(() => requested.filter((path) => /lightbox\.js|history\.js|photoswipe/.test(path)).sort())
      .toEqual([
        '/assets/caroulsel-gallery/history.js',
        '/assets/caroulsel-gallery/lightbox.js',
        '/assets/photoswipe.css',
        '/assets/photoswipe.esm.min.js',
      ]);
  });

  it('announces the loaded grid politely, and an alt text of its own goes to the image', async () => {
    await homePage(DESKTOP);
    const [first, ...rest] = SAMPLE_ITEMS;
    if (first === undefined) throw new Error('one item');
    const described = { ...first, alt: 'A woman in uniform, smiling' };
    site.serve('/caroulsel/data', {
      contentType: 'application/json',
      body: JSON.stringify({ items: [described, ...rest], next: null }),
    });
    await page.goto(`${ORIGIN}/#gallery-title`);
    await waitForSettledGrid();
    const status = page.locator('#gallery').getByRole('status');
    expect(await status.textContent()).toBe(`${SAMPLE_ITEMS.length} images found`);
    expect(await status.getAttribute('role')).toBe('status');
    expect(await page.getByRole('img', { name: 'A woman in uniform, smiling' }).count()).toBe(1);
    // The link says both: what the image shows, then its title.
    expect(await page.getByRole('link', { name: `A woman in uniform, smiling ${first.title}` }).count()).toBe(
      1,
    );
  });

  for (const [screen, viewport, phone] of [
    ['desktop', DESKTOP, false],
    ['phone', PHONE, true],
  ] as const) {
    it(`has no serious axe violation on the ${screen} home page, grid and lightbox, and no favicon request`, async () => {
      await homePage(viewport, phone);
      await page.goto(`${ORIGIN}/#gallery-title`);
      await waitForSettledGrid();
      expect(await seriousViolations(page)).toEqual([]);

      const first = SAMPLE_ITEMS[0];
      if (first === undefined) throw new Error('one item');
      await page.getByRole('link', { name: first.title, exact: true }).click();
      await page.getByRole('dialog', { name: 'Image viewer' }).waitFor();
      await page.waitForSelector('.pswp__img:not(.pswp__img--placeholder)');
      expect(await seriousViolations(page)).toEqual([]);
      expect(site.hits('/favicon.ico')).toBe(0);
    });
  }

  it('lines the phone column’s cards up to one straight right edge', async () => {
    await homePage(PHONE, true);
    await page.goto(`${ORIGIN}/#gallery-title`);
    await waitForSettledGrid();
    const edges = await page.$$eval(CARD, (cards) =>
      cards.map((card) => Math.round(card.getBoundingClientRect().right)),
    );
    const gallery = await page
      .locator('#gallery')
      .evaluate((node) => Math.round(node.getBoundingClientRect().right));
    expect(edges).toEqual(SAMPLE_ITEMS.map(() => gallery));
  });
});
