// @ts-check
/**
 * Keeps what the person is at in the modal clear of its actions bar, which stays over the dialog's
 * bottom edge however long the form grows (sticky). The browser scrolls a focused field into the
 * dialog's view knowing nothing of the bar: on a phone's short screen, or with large text, the field
 * and the line under it (where its value came from, its problem) were left under it, and History's
 * changes opened there, out of sight.
 */

import { BLOCK } from './dom.js';

/** Room left between what is shown and the bar, in CSS pixels. */
const MARGIN = 8;

/**
 * @param {HTMLElement} dialog the dialog, which scrolls @param {HTMLElement} bar its actions
 * @param {import('./dom.js').Timers} timers
 */
export function createModalSight(dialog, bar, timers) {
  /**
   * Scrolls the dialog until `element` ends above the bar, its top never scrolled out of view.
   * @param {Element} element
   */
  function reveal(element) {
    const box = element.getBoundingClientRect();
    const under = box.bottom + MARGIN - bar.getBoundingClientRect().top;
    const room = box.top - dialog.getBoundingClientRect().top;
    if (under > 0 && room > 0) dialog.scrollBy({ top: Math.min(under, room) });
  }

  dialog.addEventListener('focusin', (event) => {
    const target = event.target;
    if (!(target instanceof Element) || bar.contains(target)) return;
    const field = target.closest(`.${BLOCK}__field`) ?? target;
    // After the browser's own scroll to the focused element, which this one corrects.
    timers.later(() => reveal(field), 0);
  });

  return { reveal };
}
