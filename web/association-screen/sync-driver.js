// @ts-check
/**
 * The page's driver of the outbox's sending (#28): now, on the `online` event, again after a
 * failure with backoff, and Background Sync registered where the browser has it. Its own module
 * because it needs a window: `replayOutbox` (sync.js) has no DOM, as the service worker runs it.
 */

import { RetryLater } from './ask.js';
import { alone, replayOutbox, SYNC_TAG } from './sync.js';

/** @typedef {import('./outbox.js').Outbox} Outbox */
/** @typedef {import('./outbox.js').OutboxRecord} OutboxRecord */
/** @typedef {import('./api.js').SaveResult} SaveResult */

/** Longest wait between two tries. */
const MAX_BACKOFF_MS = 60_000;

/**
 * Sends the outbox of one screen when it can: now, on the `online` event, and again after a
 * failure with backoff (1 s, 2 s, 4 s, ... up to a minute). Background Sync is registered too where
 * the page has a service worker, so the browser sends it even after the page is closed.
 * @param {{ outbox: Outbox, endpoint: string, taskSheet: number, win: Window,
 *   onSent: (records: OutboxRecord[], answer: SaveResult, gone: number[]) => void,
 *   onUnsent: (records: OutboxRecord[], maybe: boolean) => void,
 *   onDone: (records: OutboxRecord[]) => void,
 *   onSettled: (outcome: { owner: string, sent: number, stopped: number } | RetryLater) => void }} options
 */
export function createSync(options) {
  const { win } = options;
  let backoff = 0;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  /** @type {Promise<void> | undefined} */
  let running;
  let again = false;
  let stopped = false;

  async function run() {
    try {
      const outcome = await alone(() =>
        replayOutbox(options.outbox, {
          endpoint: options.endpoint,
          taskSheet: options.taskSheet,
          onSent: options.onSent,
          onUnsent: options.onUnsent,
          onDone: options.onDone,
        }),
      );
      backoff = 0;
      options.onSettled(outcome);
    } catch (error) {
      // A failure of the device's storage (an OutboxError) is tried again as a lost answer is:
      // rethrown, nothing would send the entries until the next save or `online` event, unsaid.
      const later =
        error instanceof RetryLater
          ? error
          : new RetryLater(0, error instanceof Error ? error.message : String(error));
      options.onSettled(later);
      if (stopped) return;
      backoff = Math.min(backoff === 0 ? 1000 : backoff * 2, MAX_BACKOFF_MS);
      clearTimeout(timer);
      timer = setTimeout(kick, backoff);
    }
  }

  /** Sends now (or right after the send under way). */
  function kick() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    clearTimeout(timer);
    running = run().finally(() => {
      running = undefined;
      if (again && !stopped) {
        again = false;
        kick();
      }
    });
  }

  const online = () => {
    backoff = 0;
    kick();
  };
  win.addEventListener('online', online);

  return {
    kick,
    /** Asks the browser to send the outbox when it is online again, even with the page closed. */
    async registerBackground() {
      try {
        const registration = await win.navigator.serviceWorker?.getRegistration(options.endpoint);
        // @ts-expect-error Background Sync is not in TypeScript's DOM types (Chromium only).
        await registration?.sync?.register(SYNC_TAG);
      } catch {
        // No service worker, or no permission: the online event and the retries still send it.
      }
    },
    /** Whether a send is under way (tests and the bench wait for it). */
    busy: () => running !== undefined,
    destroy() {
      stopped = true;
      clearTimeout(timer);
      win.removeEventListener('online', online);
    },
  };
}

/** @typedef {ReturnType<typeof createSync>} Sync */
