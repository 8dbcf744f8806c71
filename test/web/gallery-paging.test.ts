import { readFile } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe.js';
import {
  FakeSite,
  galleryPage,
  json,
  nextFrames,
  numberedItems,
  ORIGIN,
  openPage,
  SAMPLE_IMAGES,
  thumbPath,
  useBrowser,
  webFile,
} from '../support/browser.js';

const browser = useBrowser();
const DATA = '/caroulsel/data';
const CARD = '.caroulsel-gallery__card';

let context: BrowserContext;
let page: Page;
let site: FakeSite;

beforeEach(async () => {
  context = await browser().newContext({ viewport: { width: 1024, height: 720 } });
  context.setDefaultTimeout(15_000);
  page = await openPage(context);
  site = new FakeSite();
  await site.attach(page);
});

afterEach(async () => {
  await context.close();
});

async function openAndShowGrid(): Promise<void> {
  site.serve('/', galleryPage());
  await page.goto(`${ORIGIN}/`);
  await page.waitForSelector('#gallery[data-state="idle"]', { state: 'attached' });
  await page.locator('#gallery').scrollIntoViewIfNeeded();
  await page.waitForSelector('#gallery[data-state="grid"]', { state: 'attached' });
  await nextFrames(page);
}

const dataRequests = () => site.requests.filter((request) => request.startsWith(`GET ${DATA}`));

describe('paging', () => {
  it('asks for the next page once the end of the grid is reached, exactly one request per page', async () => {
    site.serveInTurn(
      DATA,
      json({ items: numberedItems(40), next: `${DATA}?cursor=second` }),
      json({ items: numberedItems(40, 40), next: `${DATA}?limit=40&cursor=third` }),
      json({ items: numberedItems(7, 80), next: null }),
    );
    await openAndShowGrid();
    // The first screen of a tall grid does not reach its end: nothing more is asked yet.
    expect(dataRequests()).toEqual([`GET ${DATA}`]);
    expect(await page.locator(CARD).count()).toBe(40);

    await page.locator('.caroulsel-gallery__more').scrollIntoViewIfNeeded();
    await page.waitForFunction((card) => document.querySelectorAll(card).length === 80, CARD);
    await nextFrames(page);
    expect(dataRequests()).toEqual([`GET ${DATA}`, `GET ${DATA}?cursor=second`]);

    // Scrolling up and down again, and to the very end twice: one request for the last page.
    await page.evaluate(() => window.scrollTo(0, 0));
    await nextFrames(page);
    await page.locator('.caroulsel-gallery__more').scrollIntoViewIfNeeded();
    await page.waitForFunction((card) => document.querySelectorAll(card).length === 87, CARD);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await nextFrames(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await nextFrames(page);
    expect(dataRequests()).toEqual([
      `GET ${DATA}`,
      `GET ${DATA}?cursor=second`,
      `GET ${DATA}?limit=40&cursor=third`,
    ]);
    expect(await page.locator('.caroulsel-gallery__more').count()).toBe(0);
    const titles = await page.$$eval(CARD, (cards) => cards.map((card) => card.getAttribute('aria-label')));
    expect(titles).toEqual(Array.from({ length: 87 }, (_, i) => `Item ${i}`));
  });

  it('asks for the next page by itself when a short page leaves the end in view', async () => {
    site.serveInTurn(
      DATA,
      json({ items: numberedItems(2), next: `${DATA}?cursor=second` }),
      json({ items: [], next: `${DATA}?cursor=third` }),
      json({ items: numberedItems(3, 2), next: null }),
    );
    await openAndShowGrid();
    await page.waitForFunction((card) => document.querySelectorAll(card).length === 5, CARD);
    await nextFrames(page);
    expect(dataRequests()).toHaveLength(3);
  });

  it('refuses a next page on another origin: the error state, and nothing asked there', async () => {
    site.serve(
      DATA,
      json({ items: numberedItems(3), next: 'http://elsewhere.test/caroulsel/data?cursor=x' }),
    );
    site.serve('/', galleryPage());
    await page.goto(`${ORIGIN}/`);
    await page.locator('#gallery').scrollIntoViewIfNeeded();
    await page.waitForSelector('#gallery[data-state="error"]', { state: 'attached' });
    expect(site.requests.filter((request) => request.includes('elsewhere'))).toEqual([]);
  });

  it('keeps what is shown when a later page fails, and asks for it again only when the visitor says so', async () => {
    site.serveInTurn(
      DATA,
      json({ items: numberedItems(2), next: `${DATA}?cursor=second` }),
      json({ error: { code: 'GALLERY_UPSTREAM' } }, 502),
      json({ items: numberedItems(3, 2), next: null }),
    );
    await openAndShowGrid();
    const alert = page.getByRole('alert');
    await alert.getByText('More images could not be loaded.').waitFor();
    expect(await page.locator(CARD).count()).toBe(2);
    expect(await page.locator('#gallery').getAttribute('data-state')).toBe('grid');
    // The end of the grid is still in view: nothing is asked again until the visitor retries.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await nextFrames(page);
    expect(dataRequests()).toHaveLength(2);
    expect(await seriousViolations(page)).toEqual([]);
    await alert.getByRole('button', { name: 'Try again' }).click();
    await page.waitForFunction((card) => document.querySelectorAll(card).length === 5, CARD);
    expect(dataRequests()).toEqual([`GET ${DATA}`, `GET ${DATA}?cursor=second`, `GET ${DATA}?cursor=second`]);
    expect(await page.getByRole('alert').count()).toBe(0);
    // The button went with its box: focus stays in the grid, on the card shown last before the retry.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Item 1');
  });

  it('starts again from the first page when a cursor went stale, showing each item once', async () => {
    site.serveInTurn(
      DATA,
      json({ items: numberedItems(2), next: `${DATA}?cursor=second` }),
      json({ error: { code: 'CURSOR_STALE', message: 'cursor: the list changed' } }, 400),
      json({ items: numberedItems(3), next: `${DATA}?cursor=again` }),
      json({ items: numberedItems(2, 3), next: null }),
    );
    await openAndShowGrid();
    await page.waitForFunction((card) => document.querySelectorAll(card).length === 5, CARD);
    await nextFrames(page);
    expect(dataRequests()).toEqual([
      `GET ${DATA}`,
      `GET ${DATA}?cursor=second`,
      `GET ${DATA}`,
      `GET ${DATA}?cursor=again`,
    ]);
    const titles = await page.$$eval(CARD, (cards) => cards.map((card) => card.getAttribute('aria-label')));
    expect(titles).toEqual(['Item 0', 'Item 1', 'Item 2', 'Item 3', 'Item 4']);
    expect(await page.getByRole('alert').count()).toBe(0);
  });

  it('starts again after a stale cursor as often as pages come through between them', async () => {
    const stale = json({ error: { code: 'CURSOR_STALE', message: 'cursor: the list changed' } }, 400);
    site.serveInTurn(
      DATA,
      json({ items: numberedItems(2), next: `${DATA}?cursor=a` }),
      stale,
      json({ items: numberedItems(2), next: `${DATA}?cursor=b` }),
      json({ items: numberedItems(2, 2), next: `${DATA}?cursor=c` }),
      stale,
      json({ items: numberedItems(2), next: `${DATA}?cursor=d` }),
      stale,
      json({ items: numberedItems(2), next: `${DATA}?cursor=e` }),
      json({ items: numberedItems(2, 4), next: null }),
    );
    await openAndShowGrid();
    await page.waitForFunction((card) => document.querySelectorAll(card).length === 6, CARD);
    // Two restarts in a row after page 2 came through: allowed, as the count starts over with it.
    await page.waitForFunction(() => document.querySelector('.caroulsel-gallery__more') === null);
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(dataRequests()).toHaveLength(9);
  });

  it('names items without an id apart from real ids, so neither hides the other', async () => {
    const [withId, withoutId] = numberedItems(2);
    site.serve(
      DATA,
      json({
        items: [
          { ...withId, id: '1' },
          { ...withoutId, id: undefined },
        ],
        next: null,
      }),
    );
    await openAndShowGrid();
    expect(await page.locator(CARD).count()).toBe(2);
  });

  it('shows an item a later page repeats once', async () => {
    site.serveInTurn(
      DATA,
      json({ items: numberedItems(3), next: `${DATA}?cursor=second` }),
      json({ items: numberedItems(2, 2), next: null }),
    );
    await openAndShowGrid();
    await page.waitForFunction(() => document.querySelector('.caroulsel-gallery__more') === null);
    const titles = await page.$$eval(CARD, (cards) => cards.map((card) => card.getAttribute('aria-label')));
    expect(titles).toEqual(['Item 0', 'Item 1', 'Item 2', 'Item 3']);
  });

  it('shows the empty state when every page of the list came without an item it can show', async () => {
    site.serveInTurn(
      DATA,
      json({ items: [], next: `${DATA}?cursor=second` }),
      json({ items: [], next: null }),
    );
    site.serve('/', galleryPage());
    await page.goto(`${ORIGIN}/`);
    await page.locator('#gallery').scrollIntoViewIfNeeded();
    await page.waitForSelector('#gallery[data-state="empty"]', { state: 'attached' });
    await page.locator('.caroulsel-gallery__message--empty').getByText('No images to show yet.').waitFor();
    expect(dataRequests()).toHaveLength(2);
  });
});

describe('busy thumbnails', () => {
  const busy = (retryAfter: string) => ({
    status: 503,
    contentType: 'application/json',
    body: '{"error":{"code":"GALLERY_BUSY","message":"retry shortly"}}',
    headers: { 'Retry-After': retryAfter },
  });

  it('asks for a page answered 503 again after its Retry-After, first and later pages alike', async () => {
    site.serveInTurn(
      DATA,
      busy('0'),
      json({ items: numberedItems(40), next: `${DATA}?cursor=second` }),
      busy('1'),
      json({ items: numberedItems(7, 40), next: null }),
    );
    await openAndShowGrid();
    expect(await page.locator(CARD).count()).toBe(40);
    await page.locator('.caroulsel-gallery__more').scrollIntoViewIfNeeded();
    await page.waitForFunction((card) => document.querySelectorAll(card).length === 47, CARD);
    expect(dataRequests()).toEqual([
      `GET ${DATA}`,
      `GET ${DATA}`,
      `GET ${DATA}?cursor=second`,
      `GET ${DATA}?cursor=second`,
    ]);
    expect(await page.locator('#gallery').getAttribute('data-state')).toBe('grid');
  });

  it('loads a thumbnail answered 503 again after its Retry-After, until it shows', async () => {
    const image = SAMPLE_IMAGES[0];
    const target = thumbPath(image.token);
    const bytes = await readFile(new URL(`../../examples/images/${image.file}`, import.meta.url));
    // The image's GET, then the component's HEAD, then the GET again: busy twice, then served.
    site.serveInTurn(target, busy('1'), busy('0'), { contentType: 'image/jpeg', body: bytes });
    await openAndShowGrid();
    const card = page.getByRole('link', { name: image.title });
    await page.waitForFunction(
      (name) => document.querySelector(`a[aria-label="${name}"]`)?.getAttribute('data-state') === 'loaded',
      image.title,
    );
    expect(await card.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(image.width);
    expect(await card.locator('.caroulsel-gallery__image-error').count()).toBe(0);
    expect(site.requests.filter((request) => request.endsWith(target))).toEqual([
      `GET ${target}`,
      `HEAD ${target}`,
      `GET ${target}`,
    ]);
  });

  it('shows the fallback for a thumbnail that is missing (404), asking only once more', async () => {
    const image = SAMPLE_IMAGES[1];
    const target = thumbPath(image.token);
    site.serve(target, { status: 404, contentType: 'application/json', body: '{}' });
    await openAndShowGrid();
    await page.waitForFunction(
      (name) => document.querySelector(`a[aria-label="${name}"]`)?.getAttribute('data-state') === 'failed',
      image.title,
    );
    expect(site.requests.filter((request) => request.endsWith(target))).toEqual([
      `GET ${target}`,
      `HEAD ${target}`,
    ]);
  });
});

describe('what the component accepts from the server', () => {
  it('seeks at most the pages it is given, and ends on a page that names itself as next', async () => {
    site.serve('/', galleryPage());
    await page.goto(`${ORIGIN}/`);
    await page.waitForSelector('#gallery[data-state="idle"]', { state: 'attached' });
    const results = await page.evaluate(async () => {
      type Page = { items: unknown[]; next: string | null };
      type Pager = { stop(): void; seek(found: () => boolean, pages: number): Promise<boolean> };
      const { loadMoreAtEnd } = (
        window as unknown as {
          galleryModule: {
            loadMoreAtEnd: (
              sentinel: HTMLElement,
              first: string,
              io: { fetchPage: (url: string) => Promise<Page>; append: (items: unknown[]) => void },
            ) => Pager;
          };
        }
      ).galleryModule;
      // Pages of nothing, each naming a next page (`endless`) or itself (`stuck`); the sentinel is
      // at the end of the page, far below the viewport, so only the seek asks for pages.
      const run = async (nextOf: (url: string) => string) => {
        const asked: string[] = [];
        const sentinel = document.createElement('div');
        document.body.append(sentinel);
        const pager = loadMoreAtEnd(sentinel, '/list?page=1', {
          fetchPage: async (url) => {
            asked.push(url);
            return { items: [], next: nextOf(url) };
          },
          append: () => undefined,
        });
        const found = await pager.seek(() => false, 20);
        pager.stop();
        return { found, asked: asked.length };
      };
      return {
        endless: await run((url) => `${url}0`),
        stuck: await run((url) => url),
      };
    });
    expect(results).toEqual({ endless: { found: false, asked: 20 }, stuck: { found: false, asked: 1 } });
  });

  it('reads next and Retry-After strictly', async () => {
    site.serve('/', galleryPage());
    await page.goto(`${ORIGIN}/`);
    await page.waitForSelector('#gallery[data-state="idle"]', { state: 'attached' });
    const results = await page.evaluate(() => {
      const module = (window as unknown as { galleryModule: Record<string, (...args: unknown[]) => unknown> })
        .galleryModule;
      const next = (body: unknown) => {
        try {
          return module.parseNext?.(body, 'http://gallery.test/');
        } catch (error) {
          return `throws: ${(error as Error).message}`;
        }
      };
      return {
        next: [
          next({ items: [], next: '/caroulsel/data?cursor=a.b' }),
          next({ items: [] }),
          next({ items: [], next: null }),
          next([]),
          next({ items: [], next: '' }),
          next({ items: [], next: 5 }),
          next({ items: [], next: 'javascript:alert(1)' }),
          next({ items: [], next: '//elsewhere.test/x' }),
        ],
        retryAfter: ['3', '0', '', 'abc', '-1', '1.5', '99999', null].map((value) =>
          module.retryAfterMs?.(value),
        ),
      };
    });
    expect(results.next).toEqual([
      'http://gallery.test/caroulsel/data?cursor=a.b',
      null,
      null,
      null,
      'throws: the gallery list’s next is not a URL',
      'throws: the gallery list’s next is not a URL',
      'throws: the gallery list’s next is on another origin',
      'throws: the gallery list’s next is on another origin',
    ]);
    expect(results.retryAfter).toEqual([3000, 0, 1000, 1000, 1000, 1000, 30000, 1000]);
  });
});

describe('a list on another origin', () => {
  it('resolves the relative URLs of its items and its next page against the list, not the page', async () => {
    const DATA_ORIGIN = 'http://data.test';
    const listed: string[] = [];
    // The list's server: CORS for the page, its media under its own origin.
    await page.route(`${DATA_ORIGIN}/**`, async (route) => {
      const url = new URL(route.request().url());
      listed.push(`${url.pathname}${url.search}`);
      const cors = { 'access-control-allow-origin': ORIGIN };
      if (url.pathname === DATA) {
        const body =
          url.search === ''
            ? { items: numberedItems(2), next: `${DATA}?cursor=second` }
            : { items: numberedItems(2, 2), next: null };
        return route.fulfill({ contentType: 'application/json', headers: cors, body: JSON.stringify(body) });
      }
      const image = SAMPLE_IMAGES.find((sample) => url.pathname.includes(`/${sample.token}/`));
      if (image === undefined) return route.fulfill({ status: 404, body: '' });
      return route.fulfill({
        contentType: image.file.endsWith('.png') ? 'image/png' : 'image/jpeg',
        body: await readFile(new URL(`../../examples/images/${image.file}`, import.meta.url)),
      });
    });
    site.serve('/', galleryPage({ dataUrl: `${DATA_ORIGIN}${DATA}` }));
    await page.goto(`${ORIGIN}/`);
    await page.locator('#gallery').scrollIntoViewIfNeeded();
    await page.waitForFunction((card) => document.querySelectorAll(card).length === 4, CARD);
    const links = await page.$$eval(CARD, (cards) => cards.map((card) => (card as HTMLAnchorElement).href));
    expect(links.every((href) => href.startsWith(`${DATA_ORIGIN}/caroulsel/media/`))).toBe(true);
    await page.waitForFunction(() =>
      [...document.querySelectorAll('.caroulsel-gallery__card img')].every((image) =>
        (image as HTMLImageElement).currentSrc.startsWith('http://data.test/'),
      ),
    );
    expect(listed).toContain(`${DATA}?cursor=second`);
    expect(site.requests.filter((request) => request.includes('/caroulsel/'))).toEqual([]);
  });
});

describe('a visitor who reached the end while the list loaded', () => {
  const screens = [
    ['a 1280x800 desktop', { width: 1280, height: 800 }, false],
    ['a 375x812 phone', { width: 375, height: 812 }, true],
  ] as const;

  /** The demo's home page on `viewport`, its list 400 items in pages of 48, the first held by `gate`. */
  async function homePage(viewport: { width: number; height: number }, phone: boolean) {
    await context.close();
    context = await browser().newContext({ viewport, hasTouch: phone, isMobile: phone });
    context.setDefaultTimeout(15_000);
    page = await openPage(context);
    site = new FakeSite();
    site.serve('/', () => webFile('index.html'));
    let asked = 0;
    site.serve(DATA, () => {
      const index = asked++;
      return json({
        items: numberedItems(48, index * 48),
        next: index < 8 ? `${DATA}?cursor=${index + 1}` : null,
      });
    });
    await site.attach(page);
    const gate = site.hold(DATA);
    await page.goto(`${ORIGIN}/`);
    return gate;
  }

  const place = () =>
    page.evaluate(() => ({
      gallery: Math.round(document.getElementById('gallery')?.getBoundingClientRect().top ?? 0),
      footer: Math.round(document.querySelector('footer')?.getBoundingClientRect().top ?? 0),
      cards: document.querySelectorAll('.caroulsel-gallery__card').length,
    }));

  /** Waits long enough for a page asked by itself to have been asked (the list answers at once). */
  const aWhile = () => page.waitForTimeout(1500);

  for (const [screen, viewport, phone] of screens) {
    it(`asks for no later page until the visitor scrolls, the footer kept in view, on ${screen}`, async () => {
      const gate = await homePage(viewport, phone);
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await gate.arrived;
      await page.waitForSelector('#gallery[data-state="loading"]', { state: 'attached' });
      await nextFrames(page);
      const before = await place();
      gate.release();
      await page.getByRole('link', { name: 'Item 47' }).waitFor({ state: 'attached' });
      await aWhile();
      // The footer the visitor was looking at stays, and the grid's end in view asks for nothing.
      expect(Math.abs((await place()).footer - before.footer)).toBeLessThanOrEqual(1);
      expect(dataRequests()).toEqual([`GET ${DATA}`]);

      // The visitor goes on down: a wheel at the page's end, where nothing scrolls any more, or a
      // scroll up a little and back to the end. One page each time, nothing by itself in between.
      const goOnDown = async () => {
        if (phone) {
          await page.evaluate(() => window.scrollBy(0, -300));
          await nextFrames(page);
          await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        } else {
          await page.mouse.move(viewport.width / 2, viewport.height / 2);
          await page.mouse.wheel(0, 200);
        }
      };
      await goOnDown();
      await page.getByRole('link', { name: 'Item 95' }).waitFor({ state: 'attached' });
      await aWhile();
      expect(dataRequests()).toEqual([`GET ${DATA}`, `GET ${DATA}?cursor=1`]);
      await goOnDown();
      await page.getByRole('link', { name: 'Item 143' }).waitFor({ state: 'attached' });
      await aWhile();
      expect(dataRequests()).toHaveLength(3);
    });

    it(`keeps the gallery's top where it was when the grid arrives, asking for nothing more, on ${screen}`, async () => {
      const gate = await homePage(viewport, phone);
      await page.evaluate(() =>
        window.scrollTo(
          0,
          (document.getElementById('gallery')?.getBoundingClientRect().top ?? 0) + window.scrollY,
        ),
      );
      await gate.arrived;
      await page.waitForSelector('#gallery[data-state="loading"]', { state: 'attached' });
      await nextFrames(page);
      expect((await place()).gallery).toBe(0);
      gate.release();
      await page.getByRole('link', { name: 'Item 47' }).waitFor({ state: 'attached' });
      await aWhile();
      // The first cards are where the loader was: the visitor sees the grid's start, not its end.
      expect((await place()).gallery).toBe(0);
      expect(await page.getByRole('link', { name: 'Item 0' }).isVisible()).toBe(true);
      expect(dataRequests()).toEqual([`GET ${DATA}`]);
    });
  }
});
