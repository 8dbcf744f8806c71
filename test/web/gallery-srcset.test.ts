import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryCache } from '../../src/gallery/cache/memory-cache.js';
import { createGalleryHandler } from '../../src/http/gallery-handler.js';
import { SAMPLE_DIR } from '../gallery/support/images.js';
import { ORIGIN, openPage, useBrowser } from '../support/browser.js';

const browser = useBrowser();

// The real handler over the bundled images: the browser picks among the renditions it really lists.
const IMAGES = [
  ['Grace Hopper', 'grace_hopper.jpg'], // 512x600: thumb 273w, w320, w512 (its own width)
  ['Emerald', 'emerald-16x9.png'], // 1920x1080: thumb 320w, w640, w960, w1280
  ['Joy', 'joy-preview.jpg'], // 900x506: thumb 320w, w640, w900 (its own width)
  ['Debian logo', 'debian-logo-256.png'], // 256x256: thumb 256w alone
] as const;
const handler = createGalleryHandler({
  source: async () => IMAGES.map(([title, file]) => ({ id: file, title, image: `${SAMPLE_DIR}${file}` })),
  secrets: ['srcset-test-secret-0123456789'],
  cache: createMemoryCache(),
});

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>srcset test</title>
<link rel="stylesheet" href="/assets/caroulsel-gallery.css"></head>
<body style="margin:0"><main><div id="above"></div><div id="gallery"></div></main>
<script type="module">
import { mountGallery } from '/assets/caroulsel-gallery.js';
mountGallery(document.getElementById('gallery'));
</script></body></html>`;

const contexts: { close(): Promise<void> }[] = [];

/** The part of web/caroulsel-gallery.js the list test calls inside the page. */
interface GalleryModule {
  parseItems(body: unknown, base: string): { srcset?: string }[];
}
afterAll(async () => {
  for (const context of contexts) await context.close();
});

interface Picked {
  title: string;
  /** The rendition the browser chose, from its URL: `thumb`, `w640`... */
  variant: string;
  /** The candidates the srcset offered, by width. */
  offered: Record<string, number>;
  /** Device pixels the card's image box covers, over the chosen rendition's pixel width. */
  stretch: number;
  /** The img's `loading` and `sizes` as the component set them. */
  loading: string;
  sizes: string;
}

/**
 * Opens the gallery at this screen and reports, card by card, which rendition the browser chose.
 * `way` says how the images load: `near`, the gallery at the page's top (its images load at once,
 * `sizes` their laid-out width); `lazy`, the gallery three screens down (loaded as it is scrolled
 * to, `sizes="auto, …"`); `lazy-without-auto` plays a browser without `sizes="auto"` (Firefox,
 * Safari): the component's media queries after `auto` decide alone.
 */
async function picked(
  viewport: { width: number; height: number },
  deviceScaleFactor: number,
  way: 'near' | 'lazy' | 'lazy-without-auto' = 'near',
) {
  const withoutAuto = way === 'lazy-without-auto';
  const context = await browser().newContext({ viewport, deviceScaleFactor, isMobile: viewport.width < 500 });
  contexts.push(context);
  const page: Page = await openPage(context);
  if (withoutAuto) {
    await page.addInitScript(() => {
      const own = Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, 'sizes');
      Object.defineProperty(HTMLImageElement.prototype, 'sizes', {
        get() {
          return own?.get?.call(this);
        },
        set(value: string) {
          own?.set?.call(this, value.replace(/^auto,\s*/, ''));
        },
      });
    });
  }
  await page.route(`${ORIGIN}/**`, async (route) => {
    const request = route.request();
    if (new URL(request.url()).pathname === '/') {
      // Three screens down, listed at once (a wide root margin): its cards wait to be scrolled to.
      const spaced =
        way === 'near'
          ? PAGE
          : PAGE.replace('<div id="above">', '<div id="above" style="height:300vh">').replace(
              "mountGallery(document.getElementById('gallery'));",
              "mountGallery(document.getElementById('gallery'), { rootMargin: '5000px' });",
            );
      return route.fulfill({ contentType: 'text/html', body: spaced });
    }
    const answer = await handler(new Request(request.url(), { headers: await request.allHeaders() }));
    return route.fulfill({
      status: answer.status,
      headers: Object.fromEntries(answer.headers),
      body: Buffer.from(await answer.arrayBuffer()),
    });
  });
  await page.goto(`${ORIGIN}/`);
  const images = page.getByRole('list', { name: 'Image gallery' }).getByRole('img');
  await expect.poll(() => images.count()).toBe(IMAGES.length);
  const result: Picked[] = [];
  for (const [title] of IMAGES) {
    const image = page.getByRole('img', { name: title });
    // Scrolled into view first, so an image loaded lazily is chosen and loaded too.
    await image.scrollIntoViewIfNeeded();
    await image.evaluate((node: HTMLImageElement) =>
      node.complete && node.naturalWidth > 0
        ? undefined
        : new Promise((resolve) => node.addEventListener('load', resolve, { once: true })),
    );
    result.push(
      await image.evaluate((node: HTMLImageElement, name) => {
        const offered: Record<string, number> = {};
        for (const candidate of node.srcset.split(', ')) {
          const [url = '', width = ''] = candidate.split(' ');
          offered[url.slice(url.lastIndexOf('/') + 1)] = Number.parseInt(width, 10);
        }
        const variant = node.currentSrc.slice(node.currentSrc.lastIndexOf('/') + 1);
        const box = node.getBoundingClientRect().width * window.devicePixelRatio;
        return {
          title: name,
          variant,
          offered,
          stretch: box / (offered[variant] ?? Number.NaN),
          loading: node.loading,
          sizes: node.getAttribute('sizes') ?? '',
        };
      }, title),
    );
  }
  return result;
}

/** The widest rendition a card offers: when it is chosen, the source itself is the limit. */
const widest = (card: Picked) => Object.entries(card.offered).sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'none';

describe('responsive thumbnails in Chromium', () => {
  const screens = [
    ['a 375x812 phone', { width: 375, height: 812 }],
    ['a 1280x800 desktop', { width: 1280, height: 800 }],
  ] as const;
  for (const way of ['near', 'lazy', 'lazy-without-auto'] as const) {
    for (const [screen, viewport] of screens) {
      for (const dpr of [1, 2, 3]) {
        const how = {
          near: ', on screen',
          lazy: ', loaded lazily',
          'lazy-without-auto': ', lazily without sizes="auto"',
        }[way];
        it(`on ${screen} at DPR ${dpr}${how}, no image is stretched past 1.25x where its source is large enough`, async () => {
          const cards = await picked(viewport, dpr, way);
          console.log(
            `${screen} DPR ${dpr}${how}: ${cards.map((card) => `${card.title} ${card.variant} x${card.stretch.toFixed(2)}`).join(', ')}`,
          );
          for (const card of cards) {
            // On screen: loaded at once, sized by its laid-out width; further down: lazy, `auto` first.
            if (way === 'near')
              expect([card.loading, card.sizes]).toEqual(['eager', expect.stringMatching(/^\d+px$/)]);
            else
              expect([card.loading, card.sizes]).toEqual([
                'lazy',
                expect.stringMatching(way === 'lazy' ? /^auto, \(max-width: / : /^\(max-width: /),
              ]);
            // The widest file offered is the source's own limit (or the host's widest step).
            if (card.variant !== widest(card)) expect(card.stretch, card.title).toBeLessThanOrEqual(1.25);
          }
          // On a phone at DPR 3, the 512 px portrait is offered whole: it stopped at 320 (x3.07).
          if (viewport.width < 500 && dpr === 3) {
            expect(cards.find((card) => card.title === 'Grace Hopper')?.variant).toBe('w512');
          }
        });
      }
    }
  }

  it('at DPR 1 on a desktop, still picks the small renditions the cards need', async () => {
    const cards = await picked({ width: 1280, height: 800 }, 1);
    expect(cards.find((card) => card.title === 'Debian logo')?.variant).toBe('thumb');
    expect(cards.find((card) => card.title === 'Grace Hopper')?.variant).toMatch(/^(thumb|w320)$/);
  });
});

describe('the srcset of the list, as the component reads it', () => {
  it('makes its URLs absolute and refuses one that is not http(s) or has no width', async () => {
    const context = await browser().newContext();
    contexts.push(context);
    const page = await openPage(context);
    await page.route(`${ORIGIN}/**`, async (route) => {
      const path = new URL(route.request().url()).pathname;
      if (path === '/') {
        const body = `<!doctype html><title>module</title><script type="module">
import * as galleryModule from '/assets/caroulsel-gallery.js';
window.galleryModule = galleryModule;
</script>`;
        return route.fulfill({ contentType: 'text/html', body });
      }
      const answer = await handler(new Request(route.request().url()));
      return route.fulfill({
        status: answer.status,
        headers: Object.fromEntries(answer.headers),
        body: Buffer.from(await answer.arrayBuffer()),
      });
    });
    await page.goto(`${ORIGIN}/`);
    await page.waitForFunction(() => 'galleryModule' in window);
    const outcomes = await page.evaluate((origin) => {
      const { parseItems } = (window as unknown as { galleryModule: GalleryModule }).galleryModule;
      const item = { title: 't', previewUrl: '/m/thumb', fullUrl: '/m/full' };
      return [
        '/m/thumb 320w, /m/w640 640w',
        'javascript:alert(1) 320w',
        '/m/thumb',
        '/m/thumb 2x',
        undefined,
      ].map((srcset) => {
        try {
          return parseItems({ items: [{ ...item, srcset }] }, `${origin}/`)[0]?.srcset ?? 'none';
        } catch (error) {
          return `refused: ${(error as Error).message}`;
        }
      });
    }, ORIGIN);
    expect(outcomes).toEqual([
      `${ORIGIN}/m/thumb 320w, ${ORIGIN}/m/w640 640w`,
      // The only item left out: the list has nothing to show, so it is refused with the reason.
      'refused: no gallery item can be shown (gallery item 0 left out: its srcset candidate 0 "javascript:alert(1)" is not an http(s) URL)',
      'refused: no gallery item can be shown (gallery item 0 left out: its srcset: candidate 0 is not "URL <width>w")',
      'refused: no gallery item can be shown (gallery item 0 left out: its srcset: candidate 0 is not "URL <width>w")',
      'none',
    ]);
  });
});
