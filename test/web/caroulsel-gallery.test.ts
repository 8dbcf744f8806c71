import { readFile } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  description,
  FakeSite,
  galleryPage,
  json,
  nextFrames,
  ORIGIN,
  openPage,
  SAMPLE_IMAGES,
  SAMPLE_ITEMS,
  thumbPath,
  useBrowser,
  webFile,
} from '../support/browser.js';

const browser = useBrowser();
const DATA = '/caroulsel/data';
const CARD = '.caroulsel-gallery__card';
const SKELETON = '.caroulsel-gallery__skeleton';

/** The part of web/caroulsel-gallery.js these tests call inside the page. */
interface GalleryModule {
  mountGallery(element: unknown, options?: Record<string, unknown>): { destroy(): void };
}

let context: BrowserContext;
let page: Page;
let site: FakeSite;

beforeEach(async () => {
  context = await browser().newContext({ viewport: { width: 1024, height: 720 } });
  // Shorter than the test's own timeout, so a wait that fails says what it waited for.
  context.setDefaultTimeout(10_000);
  page = await openPage(context);
  site = new FakeSite();
  await site.attach(page);
});

afterEach(async () => {
  await context.close();
});

/** Opens the test page with these mount options and waits until the gallery is mounted, idle. */
async function open(options: Record<string, unknown> = {}): Promise<void> {
  site.serve('/', galleryPage(options));
  await page.goto(`${ORIGIN}/`);
  await page.waitForSelector('#gallery[data-state="idle"]', { state: 'attached' });
  await nextFrames(page);
}

async function scrollToGallery(): Promise<void> {
  await page.locator('#gallery').scrollIntoViewIfNeeded();
  await nextFrames(page);
}

async function waitForState(state: string): Promise<void> {
  await page.waitForSelector(`#gallery[data-state="${state}"]`, { state: 'attached' });
}

/** The skeleton count of every card, in order. */
function skeletons(): Promise<number[]> {
  return page.$$eval(
    CARD,
    (cards, selector) => cards.map((card) => card.querySelectorAll(selector).length),
    SKELETON,
  );
}

/** Waits until the grid is drawn and every card has settled (before the grid there are no skeletons either). */
async function waitForNoSkeleton(): Promise<void> {
  await page.waitForFunction(
    (selector) =>
      document.querySelector('.caroulsel-gallery[data-state="grid"]') !== null &&
      document.querySelectorAll(selector).length === 0,
    SKELETON,
  );
}

describe('Idle to Loading', () => {
  it('sends no request before the gallery is visible and exactly one after, whatever the scrolling', async () => {
    await open();
    expect(site.hits(DATA)).toBe(0);
    expect(await page.locator('#gallery').getAttribute('aria-busy')).toBe('false');

    const gate = site.hold(DATA);
    await scrollToGallery();
    await gate.arrived;
    // Leave and re-enter while the list is still pending, then scroll past to the very end.
    await page.evaluate(() => window.scrollTo(0, 0));
    await nextFrames(page);
    await scrollToGallery();
    gate.release();
    await waitForState('grid');
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await nextFrames(page);
    await scrollToGallery();

    expect(site.hits(DATA)).toBe(1);
  });

  it('sends one request when the gallery is only scrolled past quickly', async () => {
    await open();
    await page.evaluate(async () => {
      document.getElementById('gallery')?.scrollIntoView();
      // Two frames: the first is painted with the gallery in view, then it is gone again.
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      window.scrollTo(0, document.body.scrollHeight);
    });
    await waitForState('grid');
    expect(site.hits(DATA)).toBe(1);
  });

  it('shows a single centred loader with its text while the list is pending, and no grid', async () => {
    await open();
    const gate = site.hold(DATA);
    await scrollToGallery();
    await gate.arrived;
    await waitForState('loading');

    const loader = page.locator('.caroulsel-gallery__loader');
    expect(await loader.count()).toBe(1);
    expect(await loader.isVisible()).toBe(true);
    expect(await loader.getAttribute('role')).toBe('status');
    expect((await loader.textContent())?.trim()).toBe('Searching for images…');
    expect(await page.locator('#gallery').getAttribute('aria-busy')).toBe('true');
    expect(await page.locator('.caroulsel-gallery__grid').count()).toBe(0);
    const centred = await loader.evaluate((node) => {
      const style = getComputedStyle(node);
      return [style.alignItems, style.justifyContent];
    });
    expect(centred).toEqual(['center', 'center']);

    gate.release();
    await waitForState('grid');
    expect(await page.locator(CARD).count()).toBe(SAMPLE_ITEMS.length);
    expect(await loader.count()).toBe(0);
    expect(await page.locator('#gallery').getAttribute('aria-busy')).toBe('false');
  });

  it('never requests anything once destroyed before it was seen', async () => {
    await open();
    await page.evaluate(() => (window as unknown as { gallery: { destroy(): void } }).gallery.destroy());
    await scrollToGallery();
    expect(site.hits(DATA)).toBe(0);
    expect(await page.locator('#gallery').evaluate((node) => node.outerHTML)).toBe(
      '<div id="gallery"></div>',
    );
  });
});

describe('Grid', () => {
  it('accepts the list wrapped as { items } and draws one linked, titled card per item', async () => {
    site.serve(DATA, json({ items: SAMPLE_ITEMS, placeholder: 'ignored' }));
    await open();
    await scrollToGallery();
    await waitForState('grid');
    await waitForNoSkeleton();

    const cards = await page.$$eval(CARD, (links) =>
      links.map((link) => {
        const image = link.querySelector('img');
        return { href: link.getAttribute('href'), alt: image?.alt, src: image?.getAttribute('src') };
      }),
    );
    expect(cards).toEqual(
      SAMPLE_ITEMS.map((item) => ({
        href: `${ORIGIN}${item.fullUrl}`,
        alt: item.title,
        src: `${ORIGIN}${item.previewUrl}`,
      })),
    );
    for (const item of SAMPLE_ITEMS) expect(site.hits(item.previewUrl)).toBe(1);
  });

  it('keeps a held thumbnail’s skeleton on its own card only, until that image loads', async () => {
    const held = SAMPLE_ITEMS[2];
    if (held === undefined) throw new Error('the sample list has at least three items');
    const gate = site.hold(held.previewUrl);
    await open();
    await scrollToGallery();
    await gate.arrived;
    await page.waitForFunction((selector) => document.querySelectorAll(selector).length === 1, SKELETON);

    expect(await skeletons()).toEqual([0, 0, 1, 0, 0]);
    expect(await page.locator(CARD).nth(2).getAttribute('data-state')).toBe('pending');

    gate.release();
    await waitForNoSkeleton();
    expect(await page.locator(CARD).nth(2).getAttribute('data-state')).toBe('loaded');
  });

  it('reserves each card’s space from width and height, so nothing shifts as images arrive', async () => {
    const gates = SAMPLE_ITEMS.map((item) => site.hold(item.previewUrl));
    await open();
    await scrollToGallery();
    await Promise.all(gates.map((gate) => gate.arrived));
    const boxes = () =>
      page.$$eval(CARD, (cards) =>
        cards.map((card) => {
          const { x, y, width, height } = card.getBoundingClientRect();
          return { x, y, width, height };
        }),
      );
    const before = await boxes();

    for (const gate of gates) gate.release();
    await waitForNoSkeleton();
    expect(await boxes()).toEqual(before);
    const ratios = await page.$$eval('.caroulsel-gallery__media', (boxes) =>
      boxes.map((box) => box.getBoundingClientRect().width / box.getBoundingClientRect().height),
    );
    ratios.forEach((ratio, index) => {
      const image = SAMPLE_IMAGES[index];
      expect(ratio).toBeCloseTo((image?.width ?? 0) / (image?.height ?? 1), 1);
    });
  });

  it('counts an image the browser already has (complete at once) as loaded', async () => {
    await open();
    await scrollToGallery();
    await waitForNoSkeleton();
    // A second gallery on the same page gets every thumbnail from the memory cache. Its cards are
    // read in the microtask right after the grid is drawn: before any load event could be dispatched.
    const atGrid = await page.evaluate(
      () =>
        new Promise<{ states: (string | null)[]; skeletons: number }>((resolve) => {
          const { mountGallery } = (window as unknown as { galleryModule: GalleryModule }).galleryModule;
          const host = document.createElement('div');
          // Fixed in view, so it starts loading at once.
          host.style.cssText = 'position: fixed; inset: 0 auto auto 0; width: 40rem';
          new MutationObserver(() => {
            if (host.dataset.state !== 'grid') return;
            const cards = [...host.querySelectorAll('.caroulsel-gallery__card')];
            resolve({
              states: cards.map((card) => card.getAttribute('data-state')),
              skeletons: host.querySelectorAll('.caroulsel-gallery__skeleton').length,
            });
          }).observe(host, { attributes: true, attributeFilter: ['data-state'] });
          document.body.append(host);
          mountGallery(host, { fallbackDelayMs: 600_000 });
        }),
    );
    expect(atGrid).toEqual({ states: SAMPLE_ITEMS.map(() => 'loaded'), skeletons: 0 });
    for (const item of SAMPLE_ITEMS) expect(site.hits(item.previewUrl)).toBe(1);
  });
});

describe('Safety fallback', () => {
  it('removes a skeleton whose load event never comes after the default 8000 ms', async () => {
    const lost = SAMPLE_ITEMS[0];
    if (lost === undefined) throw new Error('the sample list is not empty');
    site.serve(lost.previewUrl, { never: true });
    await page.clock.install({ time: 0 });
    await open();
    // A paused clock: the fallback timer starts at a known instant and only moves when told to.
    await page.clock.pauseAt(60_000);
    await page.locator('#gallery').scrollIntoViewIfNeeded();
    await page.waitForFunction(
      (selector) => document.querySelectorAll(`${selector}[data-state="loaded"]`).length === 4,
      CARD,
    );

    await page.clock.runFor(7_999);
    expect((await skeletons())[0]).toBe(1);
    await page.clock.runFor(1);
    expect(await skeletons()).toEqual([0, 0, 0, 0, 0]);
    // The skeleton is gone, but the card does not claim an image it never got.
    expect(await page.locator(CARD).first().getAttribute('data-state')).toBe('fallback');
  });

  it('uses the fallback delay the page sets', async () => {
    for (const item of SAMPLE_ITEMS) site.serve(item.previewUrl, { never: true });
    await open({ fallbackDelayMs: 150 });
    await scrollToGallery();
    await waitForState('grid');
    await waitForNoSkeleton();
    expect(await page.locator(`${CARD}[data-state="fallback"]`).count()).toBe(SAMPLE_ITEMS.length);
  });
});

describe('Empty, failed and broken', () => {
  it('shows a friendly empty state for an empty list', async () => {
    site.serve(DATA, json([]));
    await open();
    await scrollToGallery();
    await waitForState('empty');
    expect((await page.locator('.caroulsel-gallery__message--empty').textContent())?.trim()).toBe(
      'No images to show yet.',
    );
    expect(await page.locator('.caroulsel-gallery__grid').count()).toBe(0);
    expect(await page.locator('#gallery').getAttribute('aria-busy')).toBe('false');
    // Said by the live region that stays on the page, as the loading before it was.
    expect(await page.locator('.caroulsel-gallery__status').textContent()).toBe('No images to show yet.');
  });

  it('speaks Brazilian Portuguese on a page whose language is Portuguese', async () => {
    site.serve(DATA, json([]));
    site.serve('/', galleryPage({}, 'pt-BR'));
    await page.goto(`${ORIGIN}/`);
    await page.waitForSelector('#gallery[data-state="idle"]', { state: 'attached' });
    await scrollToGallery();
    await waitForState('empty');
    expect((await page.locator('.caroulsel-gallery__message--empty').textContent())?.trim()).toBe(
      'Ainda não há imagens para mostrar.',
    );
    // The live region that stays on the page says it too.
    expect(await page.locator('.caroulsel-gallery__status').textContent()).toBe(
      'Ainda não há imagens para mostrar.',
    );
  });

  const failures = [
    ['a server error', json({ error: 'boom' }, 500)],
    ['a network failure', { abort: true }],
    ['a body that is not JSON', { contentType: 'application/json', body: '<html>oops' }],
    ['JSON that is not a list', json({ rows: [] })],
    ['an item without a previewUrl', json([{ title: 'x', fullUrl: '/a' }])],
    ['a javascript: fullUrl', json([{ title: 'x', previewUrl: '/t', fullUrl: 'javascript:alert(1)' }])],
  ] as const;

  it.each(failures)(
    'shows the error state with a retry after %s; one click is one request',
    async (_, failure) => {
      site.serveInTurn(DATA, failure, json(SAMPLE_ITEMS));
      await open();
      await scrollToGallery();
      await waitForState('error');
      const alert = page.locator('.caroulsel-gallery__message--error');
      expect(await alert.getAttribute('role')).toBe('alert');
      expect(await alert.textContent()).toContain('The images could not be loaded.');
      expect(await page.locator(CARD).count()).toBe(0);
      expect(site.hits(DATA)).toBe(1);

      await page.getByRole('button', { name: 'Try again' }).click();
      await waitForState('grid');
      expect(site.hits(DATA)).toBe(2);
      expect(await page.locator(CARD).count()).toBe(SAMPLE_ITEMS.length);
      // The button went with the error: focus followed into the gallery, onto its first card.
      expect(
        await page.evaluate(() =>
          document.activeElement?.matches(
            '.caroulsel-gallery__card:first-of-type, li:first-child > .caroulsel-gallery__card',
          ),
        ),
      ).toBe(true);
    },
  );

  it('says the list failed, with Try again, when it gets no answer in 15 s or the server stays busy for 45 s', async () => {
    await page.clock.install();
    // The list's answers the page has taken, counted as its fetch hands them on: the server counts a
    // request before the page has read the answer and set its wait, and the clock may only be moved
    // on after that (moved before, the wait is measured from past the deadline: no more tries).
    await page.addInitScript((list) => {
      const fetchFromNetwork = window.fetch;
      let taken = 0;
      Object.defineProperty(window, 'listAnswersTaken', { get: () => taken });
      window.fetch = (...request) =>
        fetchFromNetwork(...request).then((response) => {
          if (new URL(response.url).pathname === list) taken++;
          return response;
        });
    }, DATA);
    const answersTaken = () =>
      page.evaluate(() => (window as unknown as { listAnswersTaken: number }).listAnswersTaken);
    site.serve(DATA, { never: true });
    await open();
    await scrollToGallery();
    await waitForState('loading');
    // Asked for: its 15 s timer is set (before the request goes).
    await expect.poll(() => site.hits(DATA)).toBe(1);
    await page.clock.fastForward(14_000);
    expect(await page.locator('#gallery').getAttribute('data-state')).toBe('loading');
    // No answer in 15 s: the error and its Try again, where the loader stayed for good.
    await page.clock.fastForward(2_000);
    const retry = page.getByRole('alert').getByRole('button', { name: 'Try again' });
    await retry.waitFor();

    // A server busy for good, asking for 30 s each time: three tries, and the error within 45 s,
    // where it took twenty tries and ten minutes.
    site.serve(DATA, {
      status: 503,
      contentType: 'application/json',
      body: '{"error":{"code":"GALLERY_BUSY","message":"retry shortly"}}',
      headers: { 'Retry-After': '30' },
    });
    await retry.click();
    await page.waitForFunction(() => document.querySelector('.caroulsel-gallery__loader') !== null);
    await expect.poll(answersTaken).toBe(1);
    expect(site.hits(DATA)).toBe(2);
    await page.clock.fastForward(31_000);
    await expect.poll(answersTaken).toBe(2);
    expect(site.hits(DATA)).toBe(3);
    await page.clock.fastForward(15_000);
    // The last try has what is left of the deadline (a second) for its answer: taken or timed out.
    await expect.poll(() => site.hits(DATA)).toBe(4);
    await retry.waitFor();
    expect(await page.locator('#gallery').getAttribute('data-state')).toBe('error');
    await page.clock.fastForward(60_000);
    expect(site.hits(DATA)).toBe(4);
  });

  it('asks for the grid’s modules with the list, and shows the error state with a retry when they fail to load', async () => {
    const gridModule = '/assets/caroulsel-gallery/grid.js';
    site.serveInTurn(gridModule, { abort: true }, await webFile('caroulsel-gallery/grid.js'));
    await open();
    // Mounted and idle without them: they are not asked for before the gallery starts.
    expect(site.hits(gridModule)).toBe(0);
    await scrollToGallery();
    await waitForState('error');
    expect(site.hits(DATA)).toBe(1);
    expect(site.hits(gridModule)).toBe(1);

    await page.getByRole('button', { name: 'Try again' }).click();
    await waitForState('grid');
    expect(site.hits(gridModule)).toBe(2);
    expect(await page.locator(CARD).count()).toBe(SAMPLE_ITEMS.length);
  });

  it('shows a fallback in the card of a thumbnail that fails, skeleton gone, the others loaded', async () => {
    const broken = SAMPLE_ITEMS[1];
    if (broken === undefined) throw new Error('the sample list has at least two items');
    site.serve(broken.previewUrl, { contentType: 'image/png', body: Buffer.from('not a png at all') });
    await open();
    await scrollToGallery();
    await waitForNoSkeleton();
    const states = await page.$$eval(CARD, (cards) => cards.map((card) => card.getAttribute('data-state')));
    expect(states).toEqual(['loaded', 'failed', 'loaded', 'loaded', 'loaded']);
    const fallback = page.locator(CARD).nth(1).locator('.caroulsel-gallery__image-error');
    expect(await fallback.isVisible()).toBe(true);
    expect(await fallback.textContent()).toBe('Image unavailable');
  });

  it('loads again a thumbnail that failed while the network was down, once the connection returns', async () => {
    const lost = SAMPLE_ITEMS[1];
    const missing = SAMPLE_ITEMS[2];
    if (lost === undefined || missing === undefined) throw new Error('the sample list has three items');
    // The connection drops under one thumbnail (its GET and the HEAD asking why get no answer);
    // another is missing for good.
    site.serve(lost.previewUrl, { abort: true });
    site.serve(missing.previewUrl, { status: 404, contentType: 'text/plain', body: 'not found' });
    await open();
    await scrollToGallery();
    await waitForNoSkeleton();
    const card = page.getByRole('link', { name: lost.title });
    expect(await card.getAttribute('data-state')).toBe('failed');
    await card.getByText('Image unavailable').waitFor();

    // The network is back: the thumbnail comes, its error text goes; the missing one stays failed.
    const bytes = await readFile(new URL(`../../examples/images/${SAMPLE_IMAGES[1].file}`, import.meta.url));
    site.serve(lost.previewUrl, { contentType: 'image/png', body: bytes });
    await context.setOffline(true);
    await context.setOffline(false);
    await page.waitForFunction(
      (name) => document.querySelector(`a[aria-label="${name}"]`)?.getAttribute('data-state') === 'loaded',
      lost.title,
    );
    expect(await card.getByText('Image unavailable').count()).toBe(0);
    expect(await card.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(
      0,
    );
    expect(await page.getByRole('link', { name: missing.title }).getAttribute('data-state')).toBe('failed');
    expect(site.requests.filter((request) => request.endsWith(missing.previewUrl))).toEqual([
      `GET ${missing.previewUrl}`,
      `HEAD ${missing.previewUrl}`,
    ]);
  });

  it('says to a screen reader that a failed card’s image is unavailable', async () => {
    const broken = SAMPLE_ITEMS[1];
    if (broken === undefined) throw new Error('the sample list has at least two items');
    site.serve(broken.previewUrl, { status: 404, contentType: 'text/plain', body: 'not found' });
    await open();
    await scrollToGallery();
    await waitForNoSkeleton();
    const failed = page.getByRole('link', { name: broken.title, exact: true });
    expect(await failed.getAttribute('data-state')).toBe('failed');
    expect(await description(failed)).toBe('Image unavailable');
    expect(await description(page.getByRole('link', { name: SAMPLE_IMAGES[0].title, exact: true }))).toBe('');
  });

  it('shows titles as text, never as markup', async () => {
    const title = '<img src=x onerror="window.hacked=1">Sunset & <b>sea</b>';
    // No alt of its own: the title is the alt text too.
    site.serve(DATA, json([{ ...SAMPLE_ITEMS[0], title, alt: undefined }]));
    await open();
    await scrollToGallery();
    await waitForNoSkeleton();
    expect(await page.locator('.caroulsel-gallery__title').textContent()).toBe(title);
    expect(await page.locator(`${CARD} img`).count()).toBe(1);
    expect(await page.locator(`${CARD} img`).getAttribute('alt')).toBe(title);
    expect(await page.evaluate(() => 'hacked' in window)).toBe(false);
  });
});

describe('Accessibility', () => {
  it('lets the keyboard reach every card, each a link to its full image', async () => {
    await open();
    await scrollToGallery();
    await waitForNoSkeleton();
    const focused: string[] = [];
    for (const _ of SAMPLE_ITEMS) {
      await page.keyboard.press('Tab');
      focused.push(await page.evaluate(() => document.activeElement?.querySelector('img')?.alt ?? ''));
    }
    expect(focused).toEqual(SAMPLE_ITEMS.map((item) => item.title));
    for (const item of SAMPLE_ITEMS) {
      expect(await page.getByRole('link', { name: item.title, exact: true }).getAttribute('href')).toBe(
        `${ORIGIN}${item.fullUrl}`,
      );
    }
  });

  it('shimmers the skeletons, except when the user prefers reduced motion', async () => {
    const gates = SAMPLE_ITEMS.map((item) => site.hold(item.previewUrl));
    await open();
    await scrollToGallery();
    await Promise.all(gates.map((gate) => gate.arrived));
    const animation = () =>
      page
        .locator(SKELETON)
        .first()
        .evaluate((node) => getComputedStyle(node).animationName);

    expect(await animation()).toBe('caroulsel-gallery-shimmer');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect(await animation()).toBe('none');
    for (const gate of gates) gate.release();
  });

  it('works as the <caroulsel-gallery> custom element too', async () => {
    site.serve('/', {
      contentType: 'text/html',
      body: `<!doctype html><link rel="stylesheet" href="/assets/caroulsel-gallery.css">
<script type="module" src="/assets/caroulsel-gallery.js"></script>
<caroulsel-gallery fallback-delay-ms="100"></caroulsel-gallery>`,
    });
    site.serve(thumbPath('tok-logo'), { never: true });
    await page.goto(`${ORIGIN}/`);
    await page.waitForSelector('caroulsel-gallery[data-state="grid"]', { state: 'attached' });
    await waitForNoSkeleton();
    expect(await page.locator(CARD).count()).toBe(SAMPLE_ITEMS.length);
    expect(site.hits(DATA)).toBe(1);
  });
});

describe('What the live region says', () => {
  const cases = [
    ['en', SAMPLE_ITEMS, '5 images found'],
    ['en', SAMPLE_ITEMS.slice(0, 1), '1 image found'],
    ['pt-BR', SAMPLE_ITEMS, '5 imagens encontradas'],
    ['pt-BR', SAMPLE_ITEMS.slice(0, 1), '1 imagem encontrada'],
  ] as const;
  it.each(cases)(
    'says on a %s page how many images the list gave, before any has loaded: %#',
    async (lang, items, said) => {
      // No thumbnail ever comes: the images are found, none is loaded.
      for (const item of SAMPLE_ITEMS) site.serve(item.previewUrl, { never: true });
      site.serve(DATA, json(items));
      site.serve('/', galleryPage({}, lang));
      await page.goto(`${ORIGIN}/`);
      await page.waitForSelector('#gallery[data-state="idle"]', { state: 'attached' });
      await scrollToGallery();
      await waitForState('grid');
      expect(await page.locator(`${CARD}[data-state="loaded"]`).count()).toBe(0);
      expect(await page.locator('#gallery').getByRole('status').textContent()).toBe(said);
    },
  );
});

describe('Bad mount arguments', () => {
  const cases = [
    ['no element', null, {}, 'TypeError', 'the first argument must be an HTML element'],
    ['a negative delay', 'div', { fallbackDelayMs: -1 }, 'RangeError', 'fallbackDelayMs must be a number'],
    ['a delay that is text', 'div', { fallbackDelayMs: '100' }, 'RangeError', 'got 100'],
    ['a NaN delay', 'div', { fallbackDelayMs: Number.NaN }, 'RangeError', 'got NaN'],
    ['an empty dataUrl', 'div', { dataUrl: '' }, 'TypeError', 'dataUrl must be a non-empty URL string'],
    ['a rootMargin the browser rejects', 'div', { rootMargin: 'ten pixels' }, 'SyntaxError', 'rootMargin'],
    // A host's text under a name the gallery has not (or no longer: `loaded` is `found`) was dropped.
    ['a label it has not', 'div', { labels: { loaded: 'x' } }, 'TypeError', 'labels.loaded is not a label'],
    [
      'a label that is no text',
      'div',
      { labels: { empty: 5 } },
      'TypeError',
      'labels.empty must be a string',
    ],
  ] as const;

  it.each(cases)(
    'throws a clear error for %s and changes nothing',
    async (_, element, options, name, message) => {
      await open();
      const outcome = await page.evaluate(
        ({ element, options }) => {
          const { mountGallery } = (window as unknown as { galleryModule: GalleryModule }).galleryModule;
          const host = element === null ? null : document.createElement(element);
          if (host) document.body.prepend(host);
          try {
            mountGallery(host, options);
            return { thrown: null, message: '', untouched: false };
          } catch (error) {
            const { name, message } = error as Error;
            return { thrown: name, message, untouched: host === null || host.outerHTML === '<div></div>' };
          }
        },
        { element, options },
      );
      expect(outcome.thrown).toBe(name);
      expect(outcome.message).toContain(message);
      expect(outcome.untouched).toBe(true);
      await nextFrames(page);
      expect(site.hits(DATA)).toBe(0);
    },
  );
});

describe('More of the lifecycle', () => {
  it('shows the texts a page passes as labels', async () => {
    site.serve(DATA, json([]));
    await open({ labels: { empty: 'Todavía no hay imágenes.' } });
    await scrollToGallery();
    await waitForState('empty');
    expect(await page.locator('.caroulsel-gallery__message--empty').textContent()).toBe(
      'Todavía no hay imágenes.',
    );
  });

  it('draws nothing when destroyed while the list is pending', async () => {
    await open();
    const gate = site.hold(DATA);
    await scrollToGallery();
    await gate.arrived;
    await page.evaluate(() => (window as unknown as { gallery: { destroy(): void } }).gallery.destroy());
    gate.release();
    await nextFrames(page);
    expect(await page.locator('#gallery').evaluate((node) => node.outerHTML)).toBe(
      '<div id="gallery"></div>',
    );
    expect(site.hits(DATA)).toBe(1);
  });

  it('rejects a <caroulsel-gallery> whose fallback-delay-ms is not a number, and requests nothing', async () => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(`${error.name}: ${error.message}`));
    site.serve('/', {
      contentType: 'text/html',
      body: `<!doctype html><script type="module" src="/assets/caroulsel-gallery.js"></script>
<caroulsel-gallery fallback-delay-ms="soon"></caroulsel-gallery>`,
    });
    await page.goto(`${ORIGIN}/`);
    await page.waitForFunction(() => customElements.get('caroulsel-gallery') !== undefined);
    await nextFrames(page);
    expect(errors).toEqual([
      'RangeError: <caroulsel-gallery>: fallback-delay-ms must be a whole number of milliseconds, got "soon"',
    ]);
    expect(await page.locator('caroulsel-gallery').evaluate((node) => node.outerHTML)).toBe(
      '<caroulsel-gallery fallback-delay-ms="soon"></caroulsel-gallery>',
    );
    expect(site.hits(DATA)).toBe(0);
  });
});
