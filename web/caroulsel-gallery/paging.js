// @ts-check
/**
 * The paging of the list: the pages after the first, each asked for when the end of the grid comes
 * near the viewport, one at a time, started again from the first page when a cursor goes stale.
 * The end being near is not enough when the grid grew above a view held in place (the browser's
 * scroll anchoring keeps the footer on screen as a page grows the grid): the end then stays in view
 * by itself, and each page would ask for the next one until the whole list was loaded. Such a page
 * waits for the visitor to scroll towards the end.
 */

import { isStaleCursor } from './list.js';

/** @typedef {import('./list.js').GalleryItem} GalleryItem */
/** @typedef {ReturnType<typeof loadMoreAtEnd>} Pager */

/** How far below the viewport the end of the grid may be when the next page is asked for. */
const MORE_MARGIN = '0px 0px 600px 0px';
/** How often one gallery starts its list again after stale cursors before it counts as failed. */
const MAX_RESTARTS = 2;
/** The keys that scroll a page down. */
const KEYS_DOWN = new Set(['PageDown', 'ArrowDown', 'End', ' ']);

/**
 * Calls `onward` when the visitor scrolls towards `sentinel` (the end of the grid): a scroll that
 * brought it up the screen, or, at the page's end where nothing scrolls any more, a wheel, a swipe
 * or a key down. A scroll of the browser's own that keeps it where it was (scroll anchoring, as the
 * grid grows above the view) is none. Returns what stops listening.
 *
 * @param {HTMLElement} sentinel
 * @param {() => void} onward
 */
function onScrollTowards(sentinel, onward) {
  const view = sentinel.ownerDocument.defaultView;
  if (view === null) return () => {};
  let top = sentinel.getBoundingClientRect().top;
  let touchY = 0;
  /** @type {Record<string, (event: any) => void>} */
  const listeners = {
    scroll: () => {
      const now = sentinel.getBoundingClientRect().top;
      const up = now < top - 1;
      top = now;
      if (up) onward();
    },
    wheel: (/** @type {WheelEvent} */ event) => {
      if (event.deltaY > 0) onward();
    },
    touchstart: (/** @type {TouchEvent} */ event) => {
      touchY = event.touches[0]?.clientY ?? 0;
    },
    touchmove: (/** @type {TouchEvent} */ event) => {
      // A finger moving up the screen scrolls the page down.
      if ((event.touches[0]?.clientY ?? touchY) < touchY - 10) onward();
    },
    keydown: (/** @type {KeyboardEvent} */ event) => {
      const target = /** @type {HTMLElement | null} */ (event.target);
      const typing =
        target !== null && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
      if (!typing && KEYS_DOWN.has(event.key)) onward();
    },
  };
  for (const [type, listener] of Object.entries(listeners))
    view.addEventListener(type, listener, { passive: true });
  return () => {
    for (const [type, listener] of Object.entries(listeners)) view.removeEventListener(type, listener);
  };
}

/**
 * Loads the pages after the first when `sentinel` (placed after the grid) comes near the viewport:
 * one request per page, never two at once. After each page the sentinel is observed anew, so a page
 * too short to push it out of view asks for the next one by itself; but a page that grew the grid
 * while the sentinel stayed where it was on screen (the view held on what follows) waits for the
 * visitor to scroll towards the end, as the first page does when `io.held` says so. `more` and
 * `seek` (the lightbox's browsing, a shared link) ask without waiting. A stale cursor starts again
 * from `io.restart` (the first page; the caller leaves out cards it already shows), at most
 * {@link MAX_RESTARTS} times. Another failure pauses the paging (logged) and hands `io.failed` a
 * retry, which asks for the same page again; what is shown stays. `io.ended` is told when the list
 * has ended. `seek` loads the following pages the same way, one after the other, until what it
 * looks for has come, the list ends or it has loaded `pages` of them (a shared link to a later
 * page).
 *
 * @param {HTMLElement} sentinel
 * @param {string} first the URL of the second page
 * @param {{
 *   fetchPage: (url: string, signal: AbortSignal, place: number) => Promise<{ items: GalleryItem[], next: string | null }>,
 *   append: (items: GalleryItem[]) => void,
 *   firstCount?: number,
 *   restart?: string,
 *   failed?: (retry: () => void) => void,
 *   ended?: () => void,
 *   held?: boolean,
 * }} io
 * @returns {{ stop(): void, hasMore(): boolean, paused(): boolean, more(): Promise<void>, seek(found: () => boolean, pages: number): Promise<boolean> }}
 */
export function loadMoreAtEnd(sentinel, first, io) {
  /** @type {string | null} */
  let next = first;
  /** The page being loaded: a second caller waits for it instead of asking again. @type {Promise<void> | undefined} */
  let loading;
  /** Restarts since the last page that came through a cursor: a list that keeps going stale fails. */
  let restarts = 0;
  /** After a failure, until the visitor retries: nothing asks for the page meanwhile. */
  let paused = false;
  /** How many items the pages so far gave, for naming items without an id by their place. */
  let place = io.firstCount ?? 0;
  const controller = new AbortController();
  /** Stops waiting for the visitor to scroll, while the sentinel waits for them. */
  let stopWaiting = () => {};
  const watch = () => {
    observer.unobserve(sentinel);
    observer.observe(sentinel);
  };
  /** Observes the sentinel again only once the visitor scrolls towards it. */
  const hold = () => {
    stopWaiting();
    observer.unobserve(sentinel);
    stopWaiting = onScrollTowards(sentinel, () => {
      stopWaiting();
      stopWaiting = () => {};
      if (next !== null && !paused) watch();
    });
  };
  /**
   * Watches the sentinel again after a page: at once, unless the grid grew while the sentinel kept
   * its place on screen, which a frame later shows (the browser's scroll anchoring has run by then).
   * @param {{ top: number, page: number }} before where the sentinel was, on screen and in the page
   */
  const watchAfter = (before) => {
    const view = sentinel.ownerDocument.defaultView;
    if (view === null) return watch();
    view.requestAnimationFrame(() => {
      if (next === null || controller.signal.aborted || paused) return;
      const { top } = sentinel.getBoundingClientRect();
      const grew = top + view.scrollY - before.page;
      const moved = top - before.top;
      if (grew > 1 && moved < grew / 2) hold();
      else watch();
    });
  };
  const stop = () => {
    next = null;
    stopWaiting();
    observer.disconnect();
    controller.abort();
    sentinel.remove();
  };
  /** @returns {Promise<void>} */
  const loadNext = () => {
    if (loading !== undefined || next === null || paused) return loading ?? Promise.resolve();
    const url = next;
    const restarting = url === io.restart;
    if (restarting) place = 0;
    loading = io.fetchPage(url, controller.signal, place).then(
      (page) => {
        loading = undefined;
        if (controller.signal.aborted) return;
        place += page.items.length;
        if (!restarting) restarts = 0;
        const { top } = sentinel.getBoundingClientRect();
        const before = { top, page: top + (sentinel.ownerDocument.defaultView?.scrollY ?? 0) };
        io.append(page.items);
        // A next page that names the page just loaded would be asked for forever: the list ends.
        next = page.next === url ? null : page.next;
        if (next === null) {
          stop();
          io.ended?.();
          return;
        }
        watchAfter(before);
      },
      (error) => {
        loading = undefined;
        if (controller.signal.aborted) return;
        console.error('caroulsel-gallery:', error);
        if (isStaleCursor(error) && io.restart !== undefined && restarts < MAX_RESTARTS) {
          restarts++;
          next = io.restart;
          watch();
          return;
        }
        if (io.failed === undefined) return stop();
        // Paused, not ended: the sentinel asks again only once the visitor says so; a cursor that
        // went stale is not asked for again, the list starts over.
        paused = true;
        observer.unobserve(sentinel);
        const stale = isStaleCursor(error);
        io.failed(() => {
          paused = false;
          if (next === null || controller.signal.aborted) return;
          if (stale && io.restart !== undefined) {
            restarts = 0;
            next = io.restart;
          }
          watch();
          void loadNext();
        });
      },
    );
    return loading;
  };
  const observer = new IntersectionObserver(
    (entries) => {
      if (entries.some((entry) => entry.isIntersecting)) void loadNext();
    },
    { rootMargin: MORE_MARGIN },
  );
  if (io.held) hold();
  else observer.observe(sentinel);
  return {
    stop,
    hasMore: () => next !== null,
    /** Whether a failure paused the paging until the visitor retries. */
    paused: () => paused,
    more: loadNext,
    async seek(found, pages) {
      for (let loaded = 0; !found() && next !== null && !paused && loaded < pages; loaded++) await loadNext();
      return found();
    },
  };
}
