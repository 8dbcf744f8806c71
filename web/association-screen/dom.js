// @ts-check
/**
 * What every part of the association screen shares: the element factory, timers that die with the
 * screen, the focus of a tree item, and the context each part is built with.
 */

/** The block of every class name (`ta-screen__tree`, ...): the stylesheet's public surface. */
export const BLOCK = 'ta-screen';

/**
 * Makes an element of the screen. `text` is set as text, never parsed as HTML: labels come from data.
 * @typedef {<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string) => HTMLElementTagNameMap[K]} Create
 */

/**
 * What the screen's parts are built with: one per mounted screen.
 * @typedef {object} ScreenContext
 * @property {Document} doc
 * @property {HTMLElement} element the host element
 * @property {import('./labels.js').ScreenLabels} labels
 * @property {string} lang
 * @property {string} uid prefix of the ids of this screen's elements (two screens on a page)
 * @property {number} taskSheet
 * @property {number} chunkSize children rendered at a time in a long branch
 * @property {boolean} reducedMotion
 * @property {import('./api.js').ScreenApi} api
 * @property {import('./wording.js').Wording} say
 * @property {Create} create
 * @property {Timers} timers
 * @property {(message: string) => void} announce says a message in the live region of what is open
 * @property {() => boolean} destroyed
 * @property {readonly import('./api.js').MetricColumn[]} columns the metric columns, once the start is read
 * @property {import('./offline.js').Offline | undefined} offline the outbox and offline notices, once made
 * @property {import('./drafts.js').Drafts | undefined} drafts what was typed (modal or table) and not sent,
 *   kept on the device (with the outbox: none when `offline` is false)
 */

/** @param {Document} doc @returns {Create} */
export function elementFactory(doc) {
  return (tag, className, text) => {
    const node = doc.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  };
}

/**
 * @typedef {object} Timers
 * @property {(callback: () => void, ms: number) => ReturnType<typeof setTimeout>} later runs
 *   `callback` after `ms` unless the screen is destroyed first
 * @property {(timer: ReturnType<typeof setTimeout> | undefined) => void} cancel
 * @property {() => void} clear cancels them all (destroy())
 */

/**
 * The screen's timers, every one of them cleared by destroy().
 * @param {() => boolean} alive
 * @returns {Timers}
 */
export function createTimers(alive) {
  /** @type {Set<ReturnType<typeof setTimeout>>} */
  const pending = new Set();
  return {
    later(callback, ms) {
      const timer = setTimeout(() => {
        pending.delete(timer);
        if (alive()) callback();
      }, ms);
      pending.add(timer);
      return timer;
    },
    cancel(timer) {
      if (timer === undefined) return;
      clearTimeout(timer);
      pending.delete(timer);
    },
    clear() {
      for (const timer of pending) clearTimeout(timer);
      pending.clear();
    },
  };
}

/**
 * Says `message` in a live region. Emptied first, so the same message twice is announced twice.
 * @param {HTMLElement} region
 * @param {string} message
 * @param {Timers} timers
 */
export function speak(region, message, timers) {
  region.textContent = '';
  timers.later(() => (region.textContent = message), 30);
}

/**
 * An element with the role of a live status region.
 * @param {Create} create
 * @param {string} className
 */
export function statusRegion(create, className) {
  const region = create('p', className);
  region.setAttribute('role', 'status');
  region.setAttribute('aria-live', 'polite');
  return region;
}

/**
 * A button that submits nothing (`type="button"`).
 * @param {Create} create
 * @param {string} className
 * @param {string} text
 */
export function button(create, className, text) {
  const made = create('button', className, text);
  made.type = 'button';
  return made;
}
