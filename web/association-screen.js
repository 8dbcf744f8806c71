// @ts-check
/**
 * The association screen: a task sheet's activity tree and the metric-entry modal, as a
 * framework-free browser module that ships as-is (no build step).
 *
 * It talks to the association handler only: `?part=start` once (header, metric columns, first
 * level), `?part=children` once per branch opened, `?part=search` while searching, `?part=history`
 * when a person asks for an activity's changes, and a `PUT` per saved or removed activity (only the
 * fields the person changed, each with the value it was changed from: a save that would overwrite
 * someone else's change meanwhile is refused, and the modal shows that conflict at its field). The
 * tree follows the WAI-ARIA tree pattern (roving focus, arrows, Home/End, type-ahead), renders a long
 * branch in chunks as it is scrolled or walked, and the modal is the native `<dialog>` opened with
 * `showModal()` (focus trap, Esc, backdrop).
 *
 * This file is the entry: it re-exports the public surface of the modules in `association-screen/`
 * (one concern each, see docs/association-screen.md "The modules") and registers
 * `<association-screen>` when imported, its one side effect.
 *
 * @example
 *   import { mountAssociationScreen } from '/associationtask?asset=association-screen.js';
 *   const screen = mountAssociationScreen(document.querySelector('#screen'), {
 *     endpoint: '/associationtask',
 *     taskSheet: 42,
 *   });
 *   // later: screen.destroy();
 */

import { mountAssociationScreen } from './association-screen/screen.js';

export { LABELS_EN, LABELS_PT_BR, labelsFor } from './association-screen/labels.js';
export { MAX_KEEP_BYTES } from './association-screen/offline-cache.js';
export { MAX_OUTBOX_ENTRIES } from './association-screen/outbox.js';
export {
  DEFAULT_CHUNK_SIZE,
  DEFAULT_TIMEOUT_MS,
  mountAssociationScreen,
} from './association-screen/screen.js';
export { asStored, checkTyped, formatValue, headerText, sameValue } from './association-screen/values.js';

/** @typedef {import('./association-screen/labels.js').ScreenLabels} ScreenLabels */
/** @typedef {import('./association-screen/screen.js').ScreenOptions} ScreenOptions */
/** @typedef {import('./association-screen/screen.js').ScreenState} ScreenState */
/** @typedef {import('./association-screen/screen.js').ScreenController} ScreenController */
/** @typedef {import('./association-screen/api.js').ScreenNode} ScreenNode */
/** @typedef {import('./association-screen/api.js').ScreenStart} ScreenStart */
/** @typedef {import('./association-screen/api.js').MetricColumn} MetricColumn */
/** @typedef {import('./association-screen/api.js').MetricConflict} MetricConflict */
/** @typedef {import('./association-screen/api.js').MetricChange} MetricChange */
/** @typedef {import('./association-screen/api.js').SavedEntry} SavedEntry */
/** @typedef {import('./association-screen/api.js').LastChange} LastChange */

/**
 * Registers `<association-screen endpoint="/associationtask" task-sheet="42">`, which mounts the
 * screen when connected and destroys it when removed; `service-worker="<url>"` starts the screen's
 * service worker (the handler's own page names it). Safe to call twice.
 * @param {string} [name]
 */
export function defineAssociationScreen(name = 'association-screen') {
  if (typeof customElements === 'undefined' || customElements.get(name)) return;
  customElements.define(
    name,
    class extends HTMLElement {
      /** @type {ScreenController | undefined} */
      #screen;

      connectedCallback() {
        const taskSheet = this.getAttribute('task-sheet') ?? '';
        // Strict digits: `Number('')` is 0 and `Number(' 1e3 ')` is 1000, neither meant by markup.
        if (!/^[1-9]\d{0,15}$/.test(taskSheet)) {
          throw new RangeError(
            `<${name}>: task-sheet must be a task sheet SEQ_DB, got ${JSON.stringify(taskSheet)}`,
          );
        }
        const serviceWorker = this.getAttribute('service-worker');
        this.#screen = mountAssociationScreen(this, {
          endpoint: this.getAttribute('endpoint') || this.ownerDocument.location.pathname,
          taskSheet: Number(taskSheet),
          ...(serviceWorker ? { serviceWorker } : {}),
        });
      }

      disconnectedCallback() {
        this.#screen?.destroy();
        this.#screen = undefined;
      }
    },
  );
}

// The module's one side effect (package.json `sideEffects` lists this file): importing it defines the element.
defineAssociationScreen();
