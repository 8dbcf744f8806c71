import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  FakeSite,
  galleryPage,
  json,
  nextFrames,
  numberedItems,
  ORIGIN,
  openPage,
  SAMPLE_ITEMS,
  useBrowser,
} from '../support/browser.js';

const browser = useBrowser();
const CARD = '.caroulsel-gallery__card';

let context: BrowserContext;
let page: Page;
let site: FakeSite;

afterEach(async () => {
  await context.close();
});

/** A page with the gallery below the fold; `touch` is a 375x812 phone with a touch screen. */
async function start(
  options: { touch?: boolean; mount?: Record<string, unknown>; motion?: boolean } = {},
): Promise<void> {
  context = await browser().newContext({
    viewport: options.touch ? { width: 375, height: 812 } : { width: 1280, height: 800 },
    hasTouch: options.touch ?? false,
    isMobile: options.touch ?? false,
    // No opening or closing animation (unless asked): each step's outcome is there as soon as the
    // step is done.
    reducedMotion: options.motion ? 'no-preference' : 'reduce',
  });
  context.setDefaultTimeout(10_000);
  page = await openPage(context);
  site = new FakeSite();
  site.serve('/', galleryPage(options.mount ?? {}));
  await site.attach(page);
}

async function openGrid(path = '/'): Promise<void> {
  await page.goto(`${ORIGIN}${path}`);
  await page.waitForSelector('#gallery[data-state]', { state: 'attached' });
  await page.locator('#gallery').scrollIntoViewIfNeeded();
  await page.waitForSelector('#gallery[data-state="grid"]', { state: 'attached' });
  await nextFrames(page);
}

const dialog = () => page.getByRole('dialog', { name: 'Image viewer' });
const caption = () => page.locator('.pswp__caroulsel-caption');
const counter = () => page.locator('.pswp__counter');
const card = (title: string) => page.getByRole('link', { name: title, exact: true });
const hash = () => page.evaluate(() => window.location.hash);

/** The accessible name of the focused element's card, or where focus is if not on a card. */
function focusedCard(): Promise<string> {
  return page.evaluate(() => {
    const active = document.activeElement;
    if (active?.matches('.caroulsel-gallery__card')) return active.getAttribute('aria-label') ?? '';
    if (active?.closest('.pswp')) return 'inside the lightbox';
    return active?.tagName ?? 'nothing';
  });
}

async function waitForSlide(title: string, position: string): Promise<void> {
  await dialog().waitFor();
  await page.waitForFunction(
    ([title, position]) =>
      document.querySelector('.pswp__caroulsel-caption')?.textContent === title &&
      document.querySelector('.pswp__counter')?.textContent?.replace(/\s/g, '') === position,
    [title, position],
  );
}

describe('The lightbox', () => {
  it('opens a clicked card over the page with its title and counter, and preloads the next image', async () => {
    await start();
    await openGrid();
    const [first, second] = SAMPLE_ITEMS;
    if (first === undefined || second === undefined) throw new Error('two sample items at least');
    await card(first.title).click();
    await waitForSlide(first.title, `1/${SAMPLE_ITEMS.length}`);

    expect(await dialog().getAttribute('aria-modal')).toBe('true');
    expect(await caption().textContent()).toBe(first.title);
    expect((await counter().textContent())?.replace(/\s/g, '')).toBe(`1/${SAMPLE_ITEMS.length}`);
    // The page stays: the lightbox is over it, and the URL names the image.
    expect(page.url()).toBe(`${ORIGIN}/#photo=${first.id}`);
    expect(
      await page
        .locator('.pswp__item[aria-hidden="false"] img.pswp__img:not(.pswp__img--placeholder)')
        .getAttribute('alt'),
    ).toBe(first.alt);
    expect(site.hits(first.fullUrl)).toBe(1);
    // The next image is already fetched while the first is looked at.
    await expect.poll(() => site.hits(second.fullUrl)).toBe(1);
  });

  it('goes next and back with the arrow keys and the buttons, closes on Esc, and gives focus back', async () => {
    await start();
    await openGrid();
    const [first, second, third] = SAMPLE_ITEMS;
    if (first === undefined || second === undefined || third === undefined) throw new Error('three items');
    await card(first.title).focus();
    await page.keyboard.press('Enter');
    await waitForSlide(first.title, '1/5');
    expect(await focusedCard()).toBe('inside the lightbox');

    await page.keyboard.press('ArrowRight');
    await waitForSlide(second.title, '2/5');
    expect(await hash()).toBe(`#photo=${second.id}`);
    await page.getByRole('button', { name: 'Next image' }).click();
    await waitForSlide(third.title, '3/5');
    await page.getByRole('button', { name: 'Previous image' }).click();
    await waitForSlide(second.title, '2/5');
    await page.keyboard.press('ArrowLeft');
    await waitForSlide(first.title, '1/5');
    await page.keyboard.press('ArrowRight');
    await waitForSlide(second.title, '2/5');

    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
    // Back on the card of the image last shown, and the URL no longer names an image.
    expect(await focusedCard()).toBe(second.title);
    await page.waitForURL(`${ORIGIN}/`);
  });

  it('keeps focus inside while open, and the close button returns it to the card', async () => {
    await start();
    await openGrid();
    const item = SAMPLE_ITEMS[2];
    if (item === undefined) throw new Error('three items');
    await card(item.title).focus();
    await page.keyboard.press('Enter');
    await waitForSlide(item.title, '3/5');
    // Round the dialog's controls more than once, both ways: focus never leaves it.
    const places: string[] = [];
    for (const key of ['Tab', 'Shift+Tab']) {
      for (let step = 0; step < 12; step += 1) {
        await page.keyboard.press(key);
        places.push(await focusedCard());
      }
    }
    expect(new Set(places)).toEqual(new Set(['inside the lightbox']));

    await page.getByRole('button', { name: 'Close' }).click();
    await dialog().waitFor({ state: 'detached' });
    expect(await focusedCard()).toBe(item.title);
  });

  it('closes on Back, and a shared URL opens the image it names, Back then staying on the page', async () => {
    await start();
    await openGrid();
    const item = SAMPLE_ITEMS[1];
    if (item === undefined) throw new Error('two items');
    await card(item.title).click();
    await waitForSlide(item.title, '2/5');
    await page.goBack();
    await dialog().waitFor({ state: 'detached' });
    expect(page.url()).toBe(`${ORIGIN}/`);
    expect(await focusedCard()).toBe(item.title);

    // Someone opens the link: the gallery loads at once (it is below the fold) and shows the image.
    const shared = SAMPLE_ITEMS[3];
    if (shared === undefined) throw new Error('four items');
    await page.goto(`${ORIGIN}/?shared#photo=${shared.id}`);
    await waitForSlide(shared.title, '4/5');
    expect(page.url()).toBe(`${ORIGIN}/?shared#photo=${shared.id}`);
    await page.goBack();
    await dialog().waitFor({ state: 'detached' });
    expect(page.url()).toBe(`${ORIGIN}/?shared`);
    expect(await page.locator(CARD).count()).toBe(SAMPLE_ITEMS.length);
  });

  it('opens a shared link to an item of a later page, loading the pages before it one request at a time', async () => {
    await start();
    const data = '/caroulsel/data';
    const pages = () =>
      site.serveInTurn(
        data,
        json({ items: numberedItems(2, 0), next: `${data}?cursor=second` }),
        json({ items: numberedItems(2, 2), next: `${data}?cursor=third` }),
        json({ items: numberedItems(2, 4), next: null }),
      );
    const dataRequests = () => site.requests.filter((request) => request.startsWith(`GET ${data}`));

    pages();
    await page.goto(`${ORIGIN}/#photo=item-4`);
    await waitForSlide('Item 4', '5/6');
    expect(dataRequests()).toEqual([`GET ${data}`, `GET ${data}?cursor=second`, `GET ${data}?cursor=third`]);

    // An id no page has: every page is looked at once, and the grid stays without a lightbox.
    site.requests.length = 0;
    pages();
    await page.goto(`${ORIGIN}/?again#photo=item-99`);
    await page.waitForFunction((card) => document.querySelectorAll(card).length === 6, CARD);
    await nextFrames(page);
    expect(await dialog().count()).toBe(0);
    expect(await page.locator('#gallery').getAttribute('data-state')).toBe('grid');
    expect(dataRequests()).toHaveLength(3);
    // The URL stops naming it, so no later Back or Forward looks for it again.
    await page.waitForFunction(() => window.location.hash === '');
    expect(page.url()).toBe(`${ORIGIN}/?again`);
  });

  it('keeps a shared link to a later item in the URL when a page on the way fails', async () => {
    await start();
    const data = '/caroulsel/data';
    site.serveInTurn(
      data,
      json({ items: numberedItems(2, 0), next: `${data}?cursor=second` }),
      json({ error: { code: 'GALLERY_UPSTREAM' } }, 502),
      json({ items: numberedItems(2, 2), next: null }),
    );
    await page.goto(`${ORIGIN}/#photo=item-3`);
    await page.getByText('More images could not be loaded.').waitFor();
    expect(await hash()).toBe('#photo=item-3');
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.waitForFunction((selector) => document.querySelectorAll(selector).length === 4, CARD);
    expect(await hash()).toBe('#photo=item-3');
  });

  it('goes on into pages not loaded yet instead of wrapping around, one request per page', async () => {
    await start();
    const data = '/caroulsel/data';
    site.serveInTurn(
      data,
      json({ items: numberedItems(80, 0), next: `${data}?cursor=second` }),
      json({ items: numberedItems(3, 80), next: null }),
    );
    await openGrid();
    // A first page long enough that its end is far below the screen; the second page is held, so
    // the lightbox is at the last loaded image while that page is on its way.
    const gate = site.hold(data);
    // The card is brought into view first, and the click waits for the page that brings near to be
    // asked for: in one CI run the click raced that request's start and no lightbox opened.
    await card('Item 78').scrollIntoViewIfNeeded();
    await gate.arrived;
    await nextFrames(page);
    await card('Item 78').click();
    await waitForSlide('Item 78', '79/80');
    await page.keyboard.press('ArrowRight');
    await waitForSlide('Item 79', '80/80');
    await page.keyboard.press('ArrowRight');
    await nextFrames(page);
    // It used to wrap to the first image, with nothing after the eightieth to be reached.
    await waitForSlide('Item 79', '80/80');
    gate.release();
    await waitForSlide('Item 79', '80/83');
    await page.keyboard.press('ArrowRight');
    await waitForSlide('Item 80', '81/83');
    expect(site.requests.filter((request) => request.startsWith(`GET ${data}`))).toEqual([
      `GET ${data}`,
      `GET ${data}?cursor=second`,
    ]);
  });

  it('says inside the lightbox when a later page fails, with a Try again that brings it', async () => {
    await start();
    const data = '/caroulsel/data';
    site.serveInTurn(
      data,
      json({ items: numberedItems(80, 0), next: `${data}?cursor=second` }),
      json({ error: { code: 'GALLERY_UPSTREAM' } }, 502),
      json({ items: numberedItems(3, 80), next: null }),
    );
    await openGrid();
    // The second page is asked for as the end of the grid comes near, and fails once the lightbox
    // is open at the last image loaded.
    const gate = site.hold(data);
    await card('Item 79').scrollIntoViewIfNeeded();
    await gate.arrived;
    await nextFrames(page);
    await card('Item 79').click();
    await waitForSlide('Item 79', '80/80');
    gate.release();
    // Said where the visitor is, not in the grid's alert behind the modal: 80 / 80 is not the end.
    const alert = dialog().getByRole('alert');
    await alert.getByText('More images could not be loaded.').waitFor();
    await alert.getByRole('button', { name: 'Try again' }).click();
    await waitForSlide('Item 79', '80/83');
    expect(await dialog().getByRole('alert').count()).toBe(0);
    expect(await page.locator('.caroulsel-gallery__more-error').count()).toBe(0);
    await page.keyboard.press('ArrowRight');
    await waitForSlide('Item 80', '81/83');
    expect(site.requests.filter((request) => request.startsWith(`GET ${data}`))).toEqual([
      `GET ${data}`,
      `GET ${data}?cursor=second`,
      `GET ${data}?cursor=second`,
    ]);
  });

  it('describes its parts to a screen reader in the page’s language', async () => {
    for (const [lang, name, described] of [
      ['en', 'Image viewer', ['carousel', 'slide', 'slide', 'slide']],
      ['pt-BR', 'Visualizador de imagens', ['carrossel', 'imagem', 'imagem', 'imagem']],
    ] as const) {
      await start();
      site.serve('/', galleryPage({}, lang));
      await openGrid();
      await card('Emerald').click();
      const viewer = page.getByRole('dialog', { name });
      await viewer.waitFor();
      const roles = await viewer.evaluate((root) =>
        [...root.querySelectorAll('[aria-roledescription]')].map((part) =>
          part.getAttribute('aria-roledescription'),
        ),
      );
      expect(roles).toEqual(described);
      await context.close();
    }
  });

  it('does not open when Back comes while its code is still loading', async () => {
    await start();
    const gate = site.hold('/assets/photoswipe.esm.min.js');
    await openGrid('/#before');
    await page.evaluate(() => history.pushState(null, '', '/'));
    const [first, second] = SAMPLE_ITEMS;
    if (first === undefined || second === undefined) throw new Error('two sample items at least');
    await card(first.title).click();
    await gate.arrived;
    await page.goBack();
    expect(await hash()).toBe('#before');
    // Another card clicked while the code still loads: the first opening is dropped, this one counts.
    await card(second.title).click();
    gate.release();
    await waitForSlide(second.title, `2/${SAMPLE_ITEMS.length}`);
    await nextFrames(page);
    expect(await dialog().count()).toBe(1);
    expect(await hash()).toBe(`#photo=${encodeURIComponent(second.id)}`);
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
    // Back leaves the second opening's entry: the page is where it was before both clicks.
    await page.waitForFunction(() => window.location.hash === '#before');
  });

  it('closes on Esc and on Back during its opening animation, and opens again on Forward during its fade', async () => {
    await start({ motion: true });
    await openGrid();
    const [first, second] = SAMPLE_ITEMS;
    if (first === undefined || second === undefined) throw new Error('two sample items at least');
    // Esc during the opening (PhotoSwipe hears keys only after it): closed once the opening ends.
    // Its code is then loaded, so the next opening starts at once.
    await card(first.title).click();
    await waitForSlide(first.title, `1/${SAMPLE_ITEMS.length}`);
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
    await page.waitForFunction(() => window.location.hash === '');
    await card(first.title).click();
    await page.waitForFunction(() => window.location.hash.startsWith('#photo='));
    // Back within the opening's fade (a third of a second), which PhotoSwipe's close ignores.
    await page.goBack();
    await dialog().waitFor({ state: 'detached' });
    expect(await hash()).toBe('');
    await card(second.title).click();
    await waitForSlide(second.title, `2/${SAMPLE_ITEMS.length}`);
    await page.locator('.pswp:focus-within, .pswp:focus').waitFor();
    // Back, then Forward while the image fades out: the URL names it again, so it is open again.
    await page.goBack();
    await page.goForward();
    await waitForSlide(second.title, `2/${SAMPLE_ITEMS.length}`);
    await page.locator('.pswp:focus-within, .pswp:focus').waitFor();
    expect(await hash()).toBe(`#photo=${encodeURIComponent(second.id)}`);
  });

  it('follows a swipe on a touch screen to the next image', async () => {
    await start({ touch: true });
    await openGrid();
    const [first, second] = SAMPLE_ITEMS;
    if (first === undefined || second === undefined) throw new Error('two items');
    await card(first.title).tap();
    await waitForSlide(first.title, '1/5');
    // PhotoSwipe shows its slides (aria-hidden false) once opening is over and gestures count.
    await page.waitForSelector('.pswp__item[aria-hidden="false"] img.pswp__img:not(.pswp__img--placeholder)');

    // A real finger's path, through the debugging protocol: down at the right, across, up at the left.
    const cdp = await context.newCDPSession(page);
    const y = 400;
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: 320, y }] });
    // PhotoSwipe moves the slides on animation frames: each step is drawn before the next, and the
    // finger lifts once the whole drag is, so a slow machine cannot skip part of it.
    for (let x = 300; x >= 30; x -= 30) {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y }] });
      await nextFrames(page);
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await waitForSlide(second.title, '2/5');
    expect(await hash()).toBe(`#photo=${second.id}`);
  });

  it('zooms in on a double tap and on a pinch, on a touch screen', async () => {
    await start({ touch: true });
    await openGrid();
    // 1920x1080 on a 375 px screen: there is room to zoom.
    const wide = SAMPLE_ITEMS[1];
    if (wide === undefined) throw new Error('two items');
    await card(wide.title).tap();
    await waitForSlide(wide.title, '2/5');
    await page.waitForSelector('.pswp__item[aria-hidden="false"] img.pswp__img:not(.pswp__img--placeholder)');
    const zoomedIn = () =>
      page.locator('.pswp').evaluate((root) => root.classList.contains('pswp--zoomed-in'));
    expect(await zoomedIn()).toBe(false);

    const cdp = await context.newCDPSession(page);
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', touchPoints: { x: number; y: number }[]) =>
      cdp.send('Input.dispatchTouchEvent', { type, touchPoints });
    // Both taps sent at once (the protocol keeps their order): a double tap, however slow the machine.
    const doubleTap = () =>
      Promise.all([
        touch('touchStart', [{ x: 187, y: 406 }]),
        touch('touchEnd', []),
        touch('touchStart', [{ x: 187, y: 406 }]),
        touch('touchEnd', []),
      ]);
    await doubleTap();
    await page.waitForFunction(() => document.querySelector('.pswp')?.classList.contains('pswp--zoomed-in'));
    // A double tap again zooms back out; then two fingers spread apart zoom in.
    await doubleTap();
    await page.waitForFunction(() => !document.querySelector('.pswp')?.classList.contains('pswp--zoomed-in'));
    await touch('touchStart', [
      { x: 170, y: 406 },
      { x: 204, y: 406 },
    ]);
    for (let spread = 30; spread <= 150; spread += 15) {
      await touch('touchMove', [
        { x: 187 - spread, y: 406 },
        { x: 187 + spread, y: 406 },
      ]);
    }
    await nextFrames(page);
    await touch('touchEnd', []);
    await page.waitForFunction(() => document.querySelector('.pswp')?.classList.contains('pswp--zoomed-in'));
  });

  it('leaves a modified click to the link, and opens the full image the plain way without the lightbox', async () => {
    await start({ mount: { lightbox: false } });
    await openGrid();
    const item = SAMPLE_ITEMS[0];
    if (item === undefined) throw new Error('one item');
    // Without JavaScript's lightbox the card is what it is in the markup: a link to the full image.
    expect(await card(item.title).getAttribute('href')).toBe(`${ORIGIN}${item.fullUrl}`);
    await card(item.title).click();
    await page.waitForURL(`${ORIGIN}${item.fullUrl}`);
    expect(site.hits('/assets/photoswipe.esm.min.js')).toBe(0);
  });

  it('falls back to the full image when the lightbox code cannot be loaded', async () => {
    await start();
    site.serve('/assets/photoswipe.esm.min.js', { abort: true });
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await openGrid();
    const item = SAMPLE_ITEMS[4];
    if (item === undefined) throw new Error('five items');
    await card(item.title).click();
    await page.waitForURL(`${ORIGIN}${item.fullUrl}`);
    expect(errors.some((text) => text.includes('the lightbox did not load'))).toBe(true);
  });
});
