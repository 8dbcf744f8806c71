// The home page as a visitor on a slow phone sees it: Chromium at 375x812, DPR 3, on Lighthouse's
// mobile profile (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up, the CPU 4 times slower), an
// empty browser cache, opened at its gallery (`/#gallery-title`) on a server whose media cache is
// warm. Measured: the time from navigation to the first thumbnail's last byte, and the bytes on the
// wire (headers and bodies, after compression) of everything that finished before it.
// `node --import tsx bench/gallery-phone.ts [URL]` alone, or through `npm run bench:gallery`.
import { chromium } from 'playwright-core';

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SLOW_PHONE = {
  latencyMs: 150,
  downloadBytesPerSecond: (1.6 * 1024 * 1024) / 8,
  uploadBytesPerSecond: (750 * 1024) / 8,
  cpuSlowdown: Number(process.env.PHONE_CPU ?? 4),
};

export interface PhoneVisit {
  /** Navigation start to the first thumbnail's responseEnd, in ms. */
  readonly firstThumbnailMs: number;
  /** Bytes transferred by the requests that ended before the first thumbnail (itself included). */
  readonly bytesBefore: number;
  /** Those requests, in order of their end: path and bytes. */
  readonly before: readonly {
    readonly path: string;
    readonly bytes: number;
    readonly startMs: number;
    readonly endMs: number;
  }[];
  /** Thumbnails and widths requested by the time the grid settled, of `cards` cards. */
  readonly imagesRequested: number;
  readonly cards: number;
}

/** One visit of `url` (a `serve`-like server's home page) on the slow phone. */
export async function slowPhoneVisit(url: string): Promise<PhoneVisit> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
  try {
    const context = await browser.newContext({
      viewport: { width: 375, height: 812 },
      deviceScaleFactor: 3,
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: SLOW_PHONE.latencyMs,
      downloadThroughput: SLOW_PHONE.downloadBytesPerSecond,
      uploadThroughput: SLOW_PHONE.uploadBytesPerSecond,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: SLOW_PHONE.cpuSlowdown });
    // Bytes on the wire per request, from the network layer (resource timing hides cross-type sizes).
    const wire = new Map<string, { path: string; bytes: number; start: number; end: number }>();
    const paths = new Map<string, { path: string; start: number }>();
    cdp.on('Network.requestWillBeSent', (event) =>
      paths.set(event.requestId, { path: new URL(event.request.url).pathname, start: event.timestamp }),
    );
    let thumbnailArrived: () => void = () => {};
    const firstThumbnail = new Promise<void>((resolve) => {
      thumbnailArrived = resolve;
    });
    cdp.on('Network.loadingFinished', (event) => {
      const path = paths.get(event.requestId)?.path ?? '?';
      wire.set(event.requestId, {
        path,
        start: paths.get(event.requestId)?.start ?? 0,
        bytes: event.encodedDataLength,
        end: event.timestamp,
      });
      if (path.startsWith('/caroulsel/media/')) thumbnailArrived();
    });
    // Nothing of Playwright's runs in the page until the first thumbnail is in: its selector waits
    // inject and compile a script on the page's main thread (60 ms and more at 4x CPU), which a
    // visitor's phone does not run, right when the gallery starts.
    await page.goto(`${url}/#gallery-title`, { waitUntil: 'commit' });
    const stalled = setTimeout(() => thumbnailArrived(), 60_000);
    await firstThumbnail;
    clearTimeout(stalled);
    await page.waitForSelector('.caroulsel-gallery__card[data-state="loaded"]', { timeout: 60_000 });
    await page.waitForFunction(
      () => document.querySelectorAll('.caroulsel-gallery__skeleton').length === 0,
      undefined,
      { timeout: 60_000 },
    );
    const firstThumbnailMs = await page.evaluate(() => {
      const media = performance
        .getEntriesByType('resource')
        .filter((entry) => entry.name.includes('/caroulsel/media/')) as PerformanceResourceTiming[];
      return Math.min(...media.map((entry) => entry.responseEnd));
    });
    const cards = await page.locator('.caroulsel-gallery__card').count();
    const finished = [...wire.values()].sort((a, b) => a.end - b.end);
    const firstMedia = finished.find((entry) => entry.path.startsWith('/caroulsel/media/'));
    const before = finished.filter((entry) => firstMedia !== undefined && entry.end <= firstMedia.end);
    await context.close();
    return {
      firstThumbnailMs,
      bytesBefore: before.reduce((sum, entry) => sum + entry.bytes, 0),
      before: before.map(({ path, bytes, start, end }) => ({
        path,
        bytes,
        startMs: (start - (finished[0]?.start ?? 0)) * 1000,
        endMs: (end - (finished[0]?.start ?? 0)) * 1000,
      })),
      imagesRequested: finished.filter((entry) => entry.path.startsWith('/caroulsel/media/')).length,
      cards,
    };
  } finally {
    await browser.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { startGalleryServer } = await import('../src/http/server.js');
  const { mkdtemp, rm } = await import('node:fs/promises');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const target = process.argv[2];
  const cacheDir = target === undefined ? await mkdtemp(join(tmpdir(), 'phone-bench-')) : undefined;
  const server =
    cacheDir === undefined
      ? undefined
      : await startGalleryServer({ port: 0, cacheDir, secrets: ['phone-bench-secret-0123'] });
  const base = target ?? server?.url ?? '';
  try {
    await slowPhoneVisit(base); // warms the server's media cache
    const visits = [];
    for (let round = 0; round < 3; round += 1) visits.push(await slowPhoneVisit(base));
    for (const visit of visits) {
      console.log(
        `first thumbnail ${visit.firstThumbnailMs.toFixed(0)} ms, ${visit.bytesBefore} bytes before it, ${visit.imagesRequested} images for ${visit.cards} cards`,
      );
    }
    for (const entry of visits.at(-1)?.before ?? [])
      console.log(
        `  ${entry.path} ${entry.bytes} bytes, ${entry.startMs.toFixed(0)}-${entry.endMs.toFixed(0)} ms`,
      );
  } finally {
    await server?.close();
    if (cacheDir !== undefined) await rm(cacheDir, { recursive: true, force: true });
  }
}
