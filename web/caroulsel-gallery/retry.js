// @ts-check
/**
 * Waiting out a busy server: a server preparing too many cold images answers 503 with a
 * Retry-After, for a thumbnail (an `<img>` error) or for a page of the list alike.
 */

/** A busy thumbnail or page is asked for again at most this many times before it counts as failed. */
export const BUSY_RETRIES = 20;
/** The longest Retry-After honoured, so a wrong header cannot park a card for good. */
const MAX_RETRY_AFTER_MS = 30_000;
/**
 * How often a thumbnail that failed for the network (offline, the connection dropped) is loaded again
 * when the browser says it is back online: a flaky connection gets a few, not endless, tries.
 */
export const NETWORK_RETRIES = 3;

/**
 * Loads a thumbnail again when the server was only busy, or the network gone. An `<img>` error does
 * not say why, so the server is asked (HEAD): a 503 (a bounded queue of cold thumbnails) is waited
 * out for its Retry-After, plus a little jitter so a page of busy cards does not come back all at
 * once, then the image is loaded again; a 2xx gets one more load (the queue drained meanwhile). A
 * HEAD that gets no answer at all (offline) calls `fail` now, so the card says so, and loads the
 * image again when the browser is back online, {@link NETWORK_RETRIES} times at most. Anything else
 * (a 404, a 403), a second 2xx or too many 503s calls `fail`.
 *
 * @param {HTMLImageElement} image
 * @param {string} src set again to load again (which also chooses from a srcset again)
 * @param {AbortSignal} signal
 * @param {() => void} fail
 */
export function retryWhenBusy(image, src, signal, fail) {
  let busyTries = 0;
  let retriedOk = false;
  let networkTries = 0;
  image.addEventListener('error', async () => {
    /** @type {Response | undefined} */
    let response;
    try {
      // The URL that failed: with a srcset, the candidate the browser chose rather than `src`.
      response = await fetch(image.currentSrc || src, { method: 'HEAD', cache: 'no-store', signal });
    } catch {
      response = undefined;
    }
    if (signal.aborted) return;
    const view = image.ownerDocument.defaultView;
    if (response === undefined && networkTries < NETWORK_RETRIES && view !== null) {
      // No answer: the network, not the image. Said at once; tried again once the browser is back
      // online (the event, not a timer: while offline, each try would fail the same way).
      networkTries += 1;
      fail();
      view.addEventListener(
        'online',
        () => {
          if (!signal.aborted) image.src = src;
        },
        { once: true, signal },
      );
    } else if (response?.status === 503 && busyTries < BUSY_RETRIES) {
      busyTries += 1;
      await waitRetryAfter(response, signal);
      if (!signal.aborted) image.src = src;
    } else if (response?.ok && !retriedOk) {
      retriedOk = true;
      image.src = src;
    } else {
      fail();
    }
  });
}

/**
 * Waits as a 503 `response` asks (its Retry-After), plus a little jitter so that the requests a busy
 * server turned away do not all come back at once; resolves at once when `signal` aborts (the
 * caller checks which).
 *
 * @param {Response} response
 * @param {AbortSignal} signal
 * @param {number} [maxMs] the longest wait the caller has time for
 * @returns {Promise<void>}
 */
export function waitRetryAfter(response, signal, maxMs = Number.POSITIVE_INFINITY) {
  const ms = Math.min(retryAfterMs(response.headers.get('retry-after')) + Math.random() * 250, maxMs);
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      // The signal lives as long as the gallery: a listener left on it for every wait would pile up.
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Retry-After in milliseconds: seconds or an HTTP date, 1 s when absent or unreadable, capped.
 *
 * @param {string | null} header
 */
export function retryAfterMs(header) {
  if (header === null) return 1000;
  const text = header.trim();
  // Seconds, or an IMF-fixdate (`Wed, 21 Oct 2015 07:28:00 GMT`); Date.parse alone would take `-1`.
  const ms = /^\d+$/.test(text)
    ? Number(text) * 1000
    : / GMT$/.test(text)
      ? Date.parse(text) - Date.now()
      : Number.NaN;
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS) : 1000;
}
