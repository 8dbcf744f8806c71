// @ts-check
/**
 * One request to the association handler made outside a page's api (api.js): by the outbox's
 * senders (sync.js), which run in the service worker too, and by the offline copy's reads again
 * (offline-cache.js `keepAnswer`). Bounded, with the session's cookie, the answer read as JSON.
 * Its own module because both sides use it and neither may import the other (offline-cache.js is
 * below api.js, which sync.js stands on).
 */

/** The longest wait for one answer: as long as the page's own reads wait (screen.js). */
const REQUEST_TIMEOUT_MS = 20_000;

/** The server could not be reached or failed: try again later. `status` 0 for no answer. */
export class RetryLater extends Error {
  /** @param {number} status @param {string} message */
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/**
 * One answer of the handler, as JSON (or null) with its status and reason phrase (`statusText`:
 * empty over HTTP/2, which has none); no answer is a RetryLater.
 * @param {typeof fetch} send @param {string | URL} url @param {RequestInit} [init]
 * @param {number} [timeoutMs]
 * @returns {Promise<{ status: number, reason: string, body: any }>}
 */
export async function ask(send, url, init = {}, timeoutMs = REQUEST_TIMEOUT_MS) {
  /** @type {Response} */
  let response;
  try {
    response = await send(url, {
      ...init,
      credentials: 'same-origin',
      headers: { accept: 'application/json', ...(init.headers ?? {}) },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw new RetryLater(0, error instanceof Error ? error.message : String(error));
  }
  /** @type {any} */
  let body = null;
  try {
    body = await response.json();
  } catch {
    // A proxy's page: the status says enough.
  }
  return { status: response.status, reason: response.statusText, body };
}
