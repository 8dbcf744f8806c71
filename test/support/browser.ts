import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type APIResponse,
  type Browser,
  type BrowserContext,
  chromium,
  type Locator,
  type Page,
  type Request,
  type Route,
} from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { dependencyFileUrl, GALLERY_DEPENDENCY_FILES } from '../../src/http/package-files.js';
import { LABELS_EN, LABELS_PT_BR } from '../../web/association-screen.js';

/** Debian's Chromium (CI installs the `chromium` package); never a downloaded browser build. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

/** One browser for the calling test file, launched before its tests and closed after them. */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (browser === undefined) throw new Error('the browser exists only inside tests and hooks');
    return browser;
  };
}

/**
 * Chromium on a profile folder of its own (a persistent context: started again on the same folder,
 * it finds its storage), with the flags of `useBrowser`. The caller closes it.
 */
export function launchOnProfile(
  dir: string,
  options: Omit<
    NonNullable<Parameters<typeof chromium.launchPersistentContext>[1]>,
    'executablePath' | 'args'
  >,
): Promise<BrowserContext> {
  return chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    headless: true,
    ...options,
  });
}

/**
 * Reports what a page says that would be a bug: a script error (`tag` before it, to say whose page),
 * and anything its Content-Security-Policy refused.
 */
export function watchProblems(page: Page, report: (problem: string) => void, tag = ''): void {
  page.on('pageerror', (error) => report(`${tag}${error.message}`));
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) report(message.text());
  });
}

/**
 * A new page of `context`, in a window of its own. Headless Chromium draws the front tab of a window
 * sixty times a second and a tab behind it once a second, and each click of Playwright waits for two
 * frames of the element: every click on a page opened as a tab behind another took two seconds. Two
 * windows of one context still share what two tabs share (cookies, storage, the service worker).
 */
export async function openPage(context: BrowserContext): Promise<Page> {
  // Any open page of the context can ask for the window; one being closed (a close that runs its
  // beforeunload returns before the page is gone) cannot, so the next is asked.
  for (const anchor of context.pages()) {
    const session = await context.newCDPSession(anchor).catch(() => undefined);
    if (session === undefined) continue;
    try {
      const { targetInfo } = await session.send('Target.getTargetInfo');
      const [page] = await Promise.all([
        context.waitForEvent('page'),
        session.send('Target.createTarget', {
          url: 'about:blank',
          newWindow: true,
          ...(targetInfo.browserContextId === undefined
            ? {}
            : { browserContextId: targetInfo.browserContextId }),
        }),
      ]);
      return page;
    } catch (error) {
      if (!anchor.isClosed() && !/closed|No target/i.test(String(error))) throw error;
    } finally {
      await session.detach().catch(() => undefined);
    }
  }
  // No page yet: the context's first page has a window of its own.
  return context.newPage();
}

/** What the calling file's tests open in browsers: see {@link usePageChecks}. */
export interface PageChecks {
  /** Closes `context` after the test. */
  closeAfter(context: BrowserContext): BrowserContext;
  /**
   * Closes `context` after the test, and reports the problems ({@link watchProblems}) of each of its
   * pages, those open now and those it opens later (`tag` before each, to say whose page).
   */
  track(context: BrowserContext, tag?: string): BrowserContext;
  /** Reports a problem a test watched for itself (a page whose console may say more). */
  report(problem: string): void;
  /** A new profile folder for {@link launchOnProfile} (its name starting `prefix`), removed after the test. */
  profile(prefix: string): Promise<string>;
}

/**
 * After each test of the calling file, closes the browser contexts it opened and removes their profile
 * folders, then asserts that their pages reported no problem: no test passes over a script error or a
 * file the page's policy refused.
 */
export function usePageChecks(): PageChecks {
  const contexts: BrowserContext[] = [];
  const profiles: string[] = [];
  let problems: string[] = [];
  afterEach(async () => {
    // A test may have closed a context itself (a browser restarted on its profile).
    for (const context of contexts.splice(0)) await context.close().catch(() => undefined);
    for (const dir of profiles.splice(0)) await rm(dir, { recursive: true, force: true });
    const reported = problems;
    problems = [];
    expect(reported).toEqual([]);
  });
  const report = (problem: string) => {
    problems.push(problem);
  };
  const closeAfter = (context: BrowserContext) => {
    contexts.push(context);
    return context;
  };
  return {
    closeAfter,
    track(context, tag = '') {
      const watch = (page: Page) => watchProblems(page, report, tag);
      for (const page of context.pages()) watch(page);
      context.on('page', watch);
      return closeAfter(context);
    },
    report,
    async profile(prefix) {
      const dir = await mkdtemp(join(tmpdir(), prefix));
      profiles.push(dir);
      return dir;
    },
  };
}

/** An entry of a save as the association screen sends it: the fields the tests read. */
export interface SentEntry {
  readonly activity?: number;
  readonly group?: number;
  readonly values?: Record<string, unknown>;
  readonly base?: Record<string, unknown>;
  readonly row?: boolean;
  readonly remove?: boolean;
  readonly [field: string]: unknown;
}

/** A PUT's body as the association screen sends it. */
export interface SaveBody {
  readonly requestId: string;
  readonly source: string;
  readonly entries: ReadonlyArray<SentEntry>;
}

/** The bodies of the PUT requests `page` sends from now on, in order: what each save sent. */
export function putBodies(page: Page): SaveBody[] {
  const puts: SaveBody[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PUT') puts.push(request.postDataJSON() as SaveBody);
  });
  return puts;
}

/**
 * Opens the association screen at `url`, expands the branches `path` (by their names) and clicks the
 * activity `name`: resolves with its dialog's locator (the dialog may still be opening).
 */
export async function openActivity(
  page: Page,
  url: string,
  path: readonly string[],
  name: string,
): Promise<Locator> {
  await page.goto(url);
  await page.getByRole('tree').waitFor();
  for (const branch of path) {
    const item = page.getByRole('treeitem', { name: branch }).first();
    await item.locator(':scope > .ta-screen__row').click();
    await item.getByRole('group').first().waitFor();
  }
  await page.getByRole('treeitem', { name }).first().locator(':scope > .ta-screen__row').click();
  return page.getByRole('dialog', { name });
}

/**
 * Opens the association screen at `url` and switches it to its table view (the button `name`, by
 * the page's language); resolves with the grid once it is drawn and the whole sheet is read.
 */
export async function openTable(page: Page, url: string, name = 'Table'): Promise<Locator> {
  await page.goto(url);
  return showTable(page, name);
}

/**
 * Switches the association screen open in `page` (loaded, or loading) to its table view, as
 * {@link openTable} does after opening it: a page reloaded, or shown the tree meanwhile.
 */
export async function showTable(page: Page, name = 'Table'): Promise<Locator> {
  await page.getByRole('tree').waitFor();
  await page.getByRole('button', { name, exact: true }).click();
  const grid = page.getByRole('grid');
  await grid.waitFor();
  // The grid is busy until its first rows show; the status beside Save says the rest is read.
  await page.waitForFunction((reading) => {
    const grid = document.querySelector('[role="grid"]');
    const status = document.querySelector('.ta-screen__table-count')?.textContent ?? '';
    return (
      grid &&
      grid.getAttribute('aria-busy') !== 'true' &&
      !reading.some((words) => status.startsWith(words)) &&
      grid.querySelector('[role="rowgroup"] + [role="rowgroup"] [role="row"]') &&
      grid.querySelector('input')
    );
  }, SHEET_READING);
  return grid;
}

/** How the table's status starts while the sheet is read, in each language ("Loading the activities"). */
const SHEET_READING = [LABELS_EN, LABELS_PT_BR].map((labels) => labels.tableLoading.replace(/…$/, ''));

/** Pastes `text` into what has the focus, as a paste from a spreadsheet's copy. */
export async function paste(page: Page, text: string): Promise<void> {
  await page.evaluate((text) => {
    const data = new DataTransfer();
    data.setData('text/plain', text);
    document.activeElement?.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, text);
}

/** Cancel in the metric modal with typing in it asks first: answers "Discard", in `labels`' words. */
export async function discardTyped(page: Page, labels: typeof LABELS_EN = LABELS_EN): Promise<void> {
  await page
    .getByRole('alertdialog', { name: labels.cancelTitle })
    .getByRole('button', { name: labels.cancelDiscard, exact: true })
    .click();
}

/** Whether the element has the page's focus. */
export function focused(locator: Locator): Promise<boolean> {
  return locator.evaluate((node) => node === document.activeElement);
}

/** What an element's `aria-describedby` says, as a screen reader reads it after its name. */
export async function description(locator: Locator): Promise<string> {
  return locator.evaluate((node) =>
    (node.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' ')
      .trim(),
  );
}

/** The made-up origin the fake site answers for; nothing ever leaves the browser. */
export const ORIGIN = 'http://gallery.test';

const WEB_DIR = new URL('../../web/', import.meta.url);
const IMAGES_DIR = new URL('../../examples/images/', import.meta.url);

/**
 * A real sample image behind each media token, with its real size and the ThumbHash the backend
 * computes for it (src/gallery/placeholder.ts).
 */
export const SAMPLE_IMAGES = [
  {
    token: 'tok-hopper',
    file: 'grace_hopper.jpg',
    title: 'Grace Hopper',
    width: 512,
    height: 600,
    placeholder: 'lBcKJgZTqPh1dyeJeYeHaqdoDZTUYCk=',
  },
  {
    token: 'tok-emerald',
    file: 'emerald-16x9.png',
    title: 'Emerald',
    width: 1920,
    height: 1080,
    placeholder: 'TnYBBID+y5pUU3WriXf/MnwzoA==',
  },
  {
    token: 'tok-joy',
    file: 'joy-preview.jpg',
    title: 'Joy',
    width: 900,
    height: 506,
    placeholder: 'VecJBIAHd3eHh3eBeXj3h42P2A==',
  },
  {
    token: 'tok-logo',
    file: 'debian-logo-256.png',
    title: 'Debian logo',
    width: 256,
    height: 256,
    placeholder: 'PwiCBQABxlxvpDoThwAAAAAACQZvlHRlOQ==',
  },
  {
    token: 'tok-spacefun',
    file: 'spacefun-preview.jpg',
    title: 'Space fun',
    width: 900,
    height: 506,
    placeholder: 'UcYFFIIAWlqrh4ehh3jvU/1N1Q==',
  },
] as const;

/** The list `GET /caroulsel/data` answers with, shaped as the backend's contract says. */
export const SAMPLE_ITEMS = SAMPLE_IMAGES.map(({ token, title, width, height, placeholder }) => ({
  id: token,
  title,
  alt: title,
  previewUrl: thumbPath(token),
  fullUrl: `/caroulsel/media/${token}/full`,
  width,
  height,
  placeholder,
}));

/**
 * `count` list items over the sample images (they repeat), ids `item-<n>`, titles and alt texts
 * `Item <n>`, numbered from `from`: pages of a long list.
 */
export function numberedItems(count: number, from = 0) {
  return Array.from({ length: count }, (_, index) => {
    const sample = SAMPLE_ITEMS[(from + index) % SAMPLE_ITEMS.length] as (typeof SAMPLE_ITEMS)[number];
    const name = `Item ${from + index}`;
    return { ...sample, id: `item-${from + index}`, title: name, alt: name };
  });
}

export function thumbPath(token: string): string {
  return `/caroulsel/media/${token}/thumb`;
}

export type Reply =
  | { status?: number; contentType: string; body: string | Buffer; headers?: Record<string, string> }
  | { abort: true }
  /** Never answered: the request stays pending for good. */
  | { never: true };

/** A request held until the test releases it. */
export interface Gate {
  /** Resolves when the held request has reached the fake site. */
  readonly arrived: Promise<void>;
  release(): void;
}

/**
 * A whole site faked inside the browser with `page.route`: the page, the component's files from
 * web/, the gallery list and real thumbnails. Any answer can be replaced, held or dropped, and every
 * path's requests are counted.
 */
export class FakeSite {
  private readonly replies = new Map<string, Array<() => Reply | Promise<Reply>>>();
  private readonly gates = new Map<string, { gate: Gate; open: Promise<void>; arrive: () => void }>();
  private readonly counts = new Map<string, number>();
  /** Every request that reached the site, as method and path with query, in order. */
  readonly requests: string[] = [];

  /** The default answers: the gallery list and every sample image's thumbnail and full image. */
  constructor() {
    this.serve('/caroulsel/data', () => json(SAMPLE_ITEMS));
    for (const image of SAMPLE_IMAGES) {
      const reply = () => imageReply(image.file);
      this.serve(thumbPath(image.token), reply);
      this.serve(`/caroulsel/media/${image.token}/full`, reply);
    }
  }

  /** Answers `path` with `reply` from now on. */
  serve(path: string, reply: Reply | (() => Reply | Promise<Reply>)): this {
    this.replies.set(path, [typeof reply === 'function' ? reply : () => reply]);
    return this;
  }

  /** Answers `path` with each reply in turn, the last one for good. */
  serveInTurn(path: string, ...replies: Reply[]): this {
    this.replies.set(
      path,
      replies.map((reply) => () => reply),
    );
    return this;
  }

  /** Holds the next requests for `path` until the returned gate is released. */
  hold(path: string): Gate {
    let release = () => {};
    let arrive = () => {};
    const open = new Promise<void>((resolve) => (release = resolve));
    const arrived = new Promise<void>((resolve) => (arrive = resolve));
    const gate = { arrived, release };
    this.gates.set(path, { gate, open, arrive });
    return gate;
  }

  /** How many requests reached `path`. */
  hits(path: string): number {
    return this.counts.get(path) ?? 0;
  }

  async attach(page: Page): Promise<void> {
    await page.route(`${ORIGIN}/**`, (route) => this.answer(route));
  }

  private async answer(route: Route): Promise<void> {
    const url = new URL(route.request().url());
    const path = url.pathname;
    this.requests.push(`${route.request().method()} ${path}${url.search}`);
    this.counts.set(path, this.hits(path) + 1);
    const held = this.gates.get(path);
    if (held) {
      held.arrive();
      await held.open;
    }
    const reply = await this.replyFor(path);
    if ('never' in reply) return new Promise(() => {});
    if ('abort' in reply) return route.abort('connectionfailed');
    await route.fulfill({
      status: reply.status ?? 200,
      contentType: reply.contentType,
      body: reply.body,
      ...(reply.headers === undefined
        ? {}
        : { headers: { 'content-type': reply.contentType, ...reply.headers } }),
    });
  }

  private async replyFor(path: string): Promise<Reply> {
    const queue = this.replies.get(path);
    if (queue !== undefined && queue.length > 0) {
      const next = queue.length > 1 ? queue.shift() : queue[0];
      if (next) return next();
    }
    if (path.startsWith('/assets/')) return webFile(path.slice('/assets/'.length));
    return { status: 404, contentType: 'text/plain', body: 'not found' };
  }
}

export function json(value: unknown, status = 200): Reply {
  return { status, contentType: 'application/json', body: JSON.stringify(value) };
}

async function imageReply(file: string): Promise<Reply> {
  const body = await readFile(new URL(file, IMAGES_DIR));
  return { contentType: file.endsWith('.png') ? 'image/png' : 'image/jpeg', body };
}

const WEB_TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.html': 'text/html',
};

const WEB_NAME = /^(?:[A-Za-z0-9][\w.-]*\/)?[A-Za-z0-9][\w.-]*$/;

/**
 * A file of web/, as the backend serves it under /assets/ (and / for index.html), or one of the
 * dependency files the gallery handler serves next to it (PhotoSwipe, the ThumbHash decoder).
 */
export async function webFile(name: string): Promise<Reply> {
  const type = Object.entries(WEB_TYPES).find(([suffix]) => name.endsWith(suffix));
  // A file of web/ or of one folder in it (a component's modules), never a path out of it.
  if (type === undefined || !WEB_NAME.test(name)) return { status: 404, contentType: 'text/plain', body: '' };
  const dependency = GALLERY_DEPENDENCY_FILES.find((file) => file.name === name);
  const url = dependency === undefined ? new URL(name, WEB_DIR) : dependencyFileUrl(dependency);
  return { contentType: type[1], body: await readFile(url) };
}

/**
 * A test page with the gallery between two screens of filler, so it starts out of view and can be
 * scrolled past. `options` go to `mountGallery` as JSON; the controller is `window.gallery`,
 * the module `window.galleryModule`.
 */
export function galleryPage(options: Record<string, unknown> = {}, lang = 'en'): Reply {
  const body = `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><title>gallery test</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/assets/caroulsel-gallery.css"></head>
<body style="margin:0">
<div id="above" style="height:150vh"></div>
<div id="gallery"></div>
<div id="below" style="height:300vh"></div>
<script type="module">
import * as galleryModule from '/assets/caroulsel-gallery.js';
const { mountGallery } = galleryModule;
window.galleryModule = galleryModule;
window.gallery = mountGallery(document.getElementById('gallery'), ${JSON.stringify(options)});
</script></body></html>`;
  return { contentType: 'text/html', body };
}

/** Waits until the page has painted two more frames, so IntersectionObserver has had its say. */
export async function nextFrames(page: Page): Promise<void> {
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
}

/**
 * Once the origin's `hold-drafts` is set, holds each page's first opening of the drafts' database
 * until `window.releaseDrafts()` is called (a device slow to open its storage): the screen shows its
 * rows and forms before the drafts are read. Passed to `addInitScript`.
 */
export function holdDraftsOpening(): void {
  const open = IDBFactory.prototype.open;
  let held = true;
  try {
    held = localStorage.getItem('hold-drafts') !== 'yes';
  } catch {
    // A document without storage of its own (the new page's blank one): nothing to hold.
  }
  IDBFactory.prototype.open = function (this: IDBFactory, name: string, version?: number) {
    const request = open.call(this, name, version);
    if (name !== 'task-association-drafts' || held) return request;
    held = true;
    let handler: ((event: Event) => void) | null = null;
    const released = new Promise<void>((resolve) => {
      (window as unknown as { releaseDrafts: () => void }).releaseDrafts = resolve;
    });
    Object.defineProperty(request, 'onsuccess', {
      get: () => handler,
      set: (value: ((event: Event) => void) | null) => {
        handler = value;
      },
    });
    request.addEventListener('success', (event) => {
      void released.then(() => handler?.call(request, event));
    });
    return request;
  } as typeof IDBFactory.prototype.open;
}

/** Whether leaving the page now would ask first (what the page's beforeunload handlers say). */
export function asksBeforeLeaving(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const event = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(event);
    return event.defaultPrevented;
  });
}

/**
 * Holds every write and read of the drafts behind a read-write transaction of the test's own on
 * their store (IndexedDB runs a store's transactions in order), kept alive from `page` (this page,
 * or another tab of the browser) until `release` is called: a device slow to write. `held` reads the
 * drafts inside that transaction (what the device holds while everyone else waits), as
 * {@link draftsOnDevice} shows them.
 */
export async function holdDraftWrites(
  page: Page,
): Promise<{ release: () => Promise<void>; held: () => Promise<Array<{ texts: Record<string, string> }>> }> {
  type Held = Array<{ texts: Record<string, string> }>;
  type HoldWindow = { releaseDraftWrites: () => void; readHeldDrafts: () => Promise<Held> };
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const opening = indexedDB.open('task-association-drafts');
        opening.onerror = () => reject(opening.error);
        opening.onsuccess = () => {
          const db = opening.result;
          const store = db.transaction('drafts', 'readwrite').objectStore('drafts');
          let held = true;
          /** A read asked from outside: made at the transaction's next turn (only then is it active). */
          let wanted: ((drafts: Held) => void) | undefined;
          const hold = window as unknown as HoldWindow;
          hold.releaseDraftWrites = () => {
            held = false;
          };
          hold.readHeldDrafts = () =>
            new Promise<Held>((done) => {
              wanted = done;
            });
          // A transaction lives while it has requests: one asked after another until released.
          const again = () => {
            const request = store.count();
            request.onsuccess = () => {
              const reader = wanted;
              wanted = undefined;
              if (reader) {
                const all = store.getAll();
                all.onsuccess = () =>
                  reader(
                    all.result.map((draft: { fields: Record<string, { text: string }> }) => ({
                      texts: Object.fromEntries(
                        Object.entries(draft.fields).map(([name, typed]) => [name, typed.text]),
                      ),
                    })),
                  );
              }
              if (held) again();
              else db.close();
            };
          };
          again();
          resolve();
        };
      }),
  );
  return {
    release: () => page.evaluate(() => (window as unknown as HoldWindow).releaseDraftWrites()),
    held: () => page.evaluate(() => (window as unknown as HoldWindow).readHeldDrafts()),
  };
}

/** Waits until what was typed is kept on the device (the screen's drafts): leaving the page no longer asks. */
export async function keptOnDevice(page: Page): Promise<void> {
  await expect.poll(() => asksBeforeLeaving(page), { timeout: 15_000, interval: 100 }).toBe(false);
}

/** How many entries the page's outbox keeps on the device to send once the signal is back. */
export function outboxEntries(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const opening = indexedDB.open('task-association-outbox');
        opening.onerror = () => reject(opening.error);
        opening.onsuccess = () => {
          const db = opening.result;
          if (!db.objectStoreNames.contains('entries')) {
            db.close();
            resolve(0);
            return;
          }
          const counting = db.transaction('entries').objectStore('entries').count();
          counting.onsuccess = () => {
            db.close();
            resolve(counting.result);
          };
          counting.onerror = () => reject(counting.error);
        };
      }),
  );
}

/**
 * The writes of drafts kept in `localStorage` until IndexedDB has them (drafts-typed.js): each
 * page's latest write of each draft, as its fields' texts.
 */
export function typedKept(page: Page): Promise<Array<Record<string, string>>> {
  return page.evaluate(() => {
    const writes: Array<Record<string, string>> = [];
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i) ?? '';
      if (!key.startsWith('task-association-drafts-typed:')) continue;
      const pages = JSON.parse(localStorage.getItem(key) ?? '{}') as Record<
        string,
        { draft: { fields: Record<string, { text: string }> } }
      >;
      for (const record of Object.values(pages))
        writes.push(
          Object.fromEntries(Object.entries(record.draft.fields).map(([name, typed]) => [name, typed.text])),
        );
    }
    return writes;
  });
}

/** Each draft on the device: its owner key, whether unconfirmed, and its fields' texts. */
export function draftsOnDevice(page: Page) {
  return page.evaluate(
    () =>
      new Promise<Array<{ owner: string; unconfirmed?: boolean; texts: Record<string, string> }>>(
        (resolve, reject) => {
          const opening = indexedDB.open('task-association-drafts');
          opening.onerror = () => reject(opening.error);
          opening.onsuccess = () => {
            const db = opening.result;
            const reading = db.transaction('drafts').objectStore('drafts').getAll();
            reading.onsuccess = () => {
              db.close();
              resolve(
                reading.result.map((draft) => ({
                  owner: draft.owner,
                  ...(draft.unconfirmed ? { unconfirmed: true } : {}),
                  texts: Object.fromEntries(
                    Object.entries(draft.fields as Record<string, { text: string }>).map(([name, typed]) => [
                      name,
                      typed.text,
                    ]),
                  ),
                })),
              );
            };
            reading.onerror = () => reject(reading.error);
          };
        },
      ),
  );
}

/** Saves whose answer is lost: see {@link loseSaveAnswers}. */
export interface LostAnswers {
  /** How many saves' answers were lost so far. */
  readonly count: number;
  /** The next save reaches the server and is stored; `meanwhile` runs on the server's side; then its answer is lost. */
  lose(meanwhile?: () => Promise<void>): void;
}

/**
 * A network that loses saves' answers: a `PUT /associationtask` through `target`, once armed with
 * `lose()`, is stored by the server and its connection then reset, so the page never learns it was
 * stored (the retry under the same request id is what the tests then watch). Armed for the first
 * save unless `armed` is false.
 */
export async function loseSaveAnswers(target: BrowserContext | Page, armed = true): Promise<LostAnswers> {
  let next: (() => Promise<void>) | undefined = armed ? async () => {} : undefined;
  let count = 0;
  await target.route(
    (url) => url.pathname === '/associationtask',
    async (route) => {
      const meanwhile = next;
      if (route.request().method() !== 'PUT' || meanwhile === undefined) return route.fallback();
      next = undefined;
      count++;
      await route.fetch();
      await meanwhile();
      await route.abort('connectionreset');
    },
  );
  return {
    get count() {
      return count;
    },
    lose(meanwhile = async () => {}) {
      next = meanwhile;
    },
  };
}

/** Requests held on their way: see {@link holdRequests}. */
export interface HeldRequests {
  /** Settles, with the request, once the first request taken is held (with `answers`, its answer). */
  readonly arrived: Promise<Request>;
  /** How many requests were taken so far, held or not (with `answers`, once the server answered each). */
  readonly count: number;
  /** Lets the held requests go on; those taken later go on at once. */
  release(): void;
}

/** Which requests {@link holdRequests} holds, and how they go on. */
export interface HoldOptions {
  /** Which of the requests the URL matches are taken (every one, unless given); the others pass on. */
  readonly which?: (request: Request) => boolean;
  /** How many of the requests taken are held, the first ones (every one, unless given): the rest go on at once. */
  readonly first?: number;
  /**
   * Holds the server's answer on its way back instead of the request: the server answers at once,
   * the page learns it only at release (a slow network, not a slow server).
   */
  readonly answers?: boolean;
  /**
   * How requests go on to the server: those not taken, and those taken once released.
   * `'continue'` (the default) goes straight to the network; `'fallback'` to the routes registered
   * before this one first (a test's other routes on the same requests still see them).
   */
  readonly pass?: 'continue' | 'fallback';
  /** Answers a request taken once it is released, instead of `pass` (given the server's answer, with `answers`). */
  readonly reply?: (route: Route, response: APIResponse | undefined) => Promise<void>;
}

/**
 * A slow network: the requests through `target` whose URL `url` matches (as `route` takes it) and
 * that `which` takes are held on their way until `release()`, so that a test can act, or change the
 * database, while they are out. Routed on the context, it holds the requests of a service worker too.
 */
export async function holdRequests(
  target: BrowserContext | Page,
  url: Parameters<Page['route']>[0],
  {
    which = () => true,
    first = Number.POSITIVE_INFINITY,
    answers = false,
    pass = 'continue',
    reply,
  }: HoldOptions = {},
): Promise<HeldRequests> {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let arrive: (request: Request) => void = () => {};
  const arrived = new Promise<Request>((resolve) => {
    arrive = resolve;
  });
  const onward = (route: Route) => (pass === 'continue' ? route.continue() : route.fallback());
  // Counted as asked, so that `first` holds the first requests sent, not the first answered.
  let taken = 0;
  let count = 0;
  await target.route(url, async (route) => {
    if (!which(route.request())) return onward(route);
    const holds = taken++ < first;
    const response = answers ? await route.fetch() : undefined;
    count++;
    arrive(route.request());
    if (holds) await held;
    if (reply !== undefined) return reply(route, response);
    return response === undefined ? onward(route) : route.fulfill({ response });
  });
  return {
    arrived,
    get count() {
      return count;
    },
    release: () => release(),
  };
}

/**
 * A slow network for the reads of a sheet's rows (`part=sheet`): the server answers each at once,
 * and the first `first` of them (every one, unless given) reach the page only at `release()`.
 * `arrived` settles once the server has answered the first read.
 */
export function holdSheetReads(page: Page, first = Number.POSITIVE_INFINITY): Promise<HeldRequests> {
  return holdRequests(page, /part=sheet/, { answers: true, first });
}

/**
 * Records every text the screen's live region takes from now on (a later announcement replaces an
 * earlier one in the element); read them with {@link saidSoFar}.
 */
export async function recordSaid(page: Page): Promise<void> {
  await page.evaluate(() => {
    const said: string[] = [];
    Object.assign(window, { said });
    const region = document.querySelector('.ta-screen__status');
    if (!region) throw new Error('no live region');
    new MutationObserver(() => {
      const text = region.textContent ?? '';
      if (text !== '') said.push(text);
    }).observe(region, { childList: true, characterData: true, subtree: true });
  });
}

/** What the live region said since {@link recordSaid}, in order. */
export function saidSoFar(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { said: string[] }).said);
}
