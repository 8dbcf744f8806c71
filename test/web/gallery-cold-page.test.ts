import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type GalleryServer, startGalleryServer } from '../../src/http/server.js';
import { galleryPage, openPage, useBrowser } from '../support/browser.js';

const browser = useBrowser();
const COUNT = 100;
let dir: string;
let server: GalleryServer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gallery-cold-page-'));
  const images = join(dir, 'images');
  await mkdir(images);
  // A hundred different photos' worth of work: distinct contents, so each thumbnail is generated.
  for (let i = 0; i < COUNT; i++) {
    const jpeg = await sharp({
      create: {
        width: 640,
        height: 480,
        channels: 3,
        background: { r: (i * 37) % 256, g: (i * 91) % 256, b: 255 - i },
      },
    })
      .jpeg()
      .toBuffer();
    await writeFile(join(images, `photo-${String(i).padStart(3, '0')}.jpg`), jpeg);
  }
  // One generation at a time and one waiting: the browser's parallel requests overflow the queue.
  server = await startGalleryServer({
    port: 0,
    imagesDir: images,
    cacheDir: join(dir, 'cache'),
    limits: { concurrency: 1, queueSize: 1 },
    logger: { warn: () => {} },
  });
});

/**
 * Opens the test page on the real server's own origin (its module and styles come from the server)
 * and waits for the gallery's first page to be drawn.
 */
async function openGallery(page: Page, options: Parameters<typeof galleryPage>[0]): Promise<void> {
  await page.route(`${server.url}/`, (route) => {
    const reply = galleryPage(options);
    return route.fulfill({ status: 200, contentType: 'text/html', body: 'body' in reply ? reply.body : '' });
  });
  await page.goto(`${server.url}/`);
  await page.locator('#gallery').scrollIntoViewIfNeeded();
  await page.waitForSelector('#gallery[data-state="grid"]', { state: 'attached' });
}

afterAll(async () => {
  await server?.close();
  // The gallery writes its media index into the cache after answering (not awaited by a request):
  // a write may still land while the folder is removed, so the removal tries again.
  await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
});

it('shows every thumbnail of a cold page of 100, though the server answers many of them 503 first', async () => {
  // Tall enough that every card is in view: what is measured is the retry, not lazy loading.
  const context = await browser().newContext({ viewport: { width: 1280, height: 16_000 } });
  context.setDefaultTimeout(120_000);
  try {
    const page = await openPage(context);
    const statuses: number[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/thumb')) statuses.push(response.status());
    });
    await openGallery(page, { dataUrl: `/caroulsel/data?limit=${COUNT}`, fallbackDelayMs: 600_000 });
    expect(await page.locator('.caroulsel-gallery__card').count()).toBe(COUNT);
    await page.waitForFunction(
      (count) =>
        [...document.querySelectorAll('.caroulsel-gallery__image')].filter(
          (image) => image instanceof HTMLImageElement && image.complete && image.naturalWidth > 0,
        ).length === count,
      COUNT,
    );
    expect(await page.locator('.caroulsel-gallery__image-error').count()).toBe(0);
    // The retry was needed: some thumbnails were first refused as busy.
    expect(statuses.filter((status) => status === 503).length).toBeGreaterThan(0);
  } finally {
    await context.close();
  }
  // A hundred generations one at a time on a shared 2-core machine: room, not a threshold.
}, 180_000);

it('pages through the real handler as the end of the grid is reached, one request per page', async () => {
  const context = await browser().newContext({ viewport: { width: 1024, height: 720 } });
  context.setDefaultTimeout(60_000);
  try {
    const page = await openPage(context);
    const lists: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/caroulsel/data')) lists.push(new URL(request.url()).search);
    });
    await openGallery(page, { dataUrl: '/caroulsel/data?limit=40' });
    const cards = page.locator('.caroulsel-gallery__card');
    expect(await cards.count()).toBe(40);
    for (const expected of [80, 100]) {
      await page.locator('.caroulsel-gallery__more').scrollIntoViewIfNeeded();
      await page.waitForFunction(
        (count) => document.querySelectorAll('.caroulsel-gallery__card').length === count,
        expected,
      );
    }
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    expect(await page.locator('.caroulsel-gallery__more').count()).toBe(0);
    const names = await cards.evaluateAll((links) => links.map((link) => link.getAttribute('aria-label')));
    expect(names).toEqual(Array.from({ length: COUNT }, (_, i) => `photo-${String(i).padStart(3, '0')}`));
    expect(lists).toHaveLength(3);
    expect(lists[0]).toBe('?limit=40');
    expect(lists.slice(1).every((search) => /^\?limit=40&cursor=[A-Za-z0-9_.-]+$/.test(search))).toBe(true);
  } finally {
    await context.close();
  }
});
