// @ts-check
/**
 * The focused cell's problem in full, above the grid. Under a cell its sentence is cut to one line,
 * and on a phone to one word ("check", "conflict"), shown whole only on hover: a person on a phone
 * could not read why a value was refused, or what a conflict met. While they are in a cell with a
 * problem (a value to check, a conflict, an entry stopped in the outbox), this line says it whole.
 * Screen readers hear the sentence as the cell's description already: the line is for the eyes.
 * Its room stays while any cell drawn has a problem, empty in a cell without one: the grid below it
 * does not jump up and down a line at each cell the person moves through.
 */

import { BLOCK } from './dom.js';

/** The kinds of cell (table-rows.js) whose sentence asks something of the person. */
const PROBLEMS = ['error', 'conflict', 'stopped'];
const ANY_PROBLEM = PROBLEMS.map((kind) => `.${BLOCK}__table-cell--${kind}`).join(', ');

/**
 * @param {import('./dom.js').ScreenContext} ctx
 * @param {HTMLElement} grid
 * @returns {HTMLElement} the line, for the table to put above the grid
 */
export function attachFocusNote(ctx, grid) {
  const line = ctx.create('p', `${BLOCK}__table-focus-note`);
  line.setAttribute('aria-hidden', 'true');
  line.hidden = true;

  /** @param {EventTarget | null} target the control focused, if any */
  function show(target) {
    const box =
      target instanceof Element && grid.contains(target) ? target.closest(`.${BLOCK}__table-cell`) : null;
    const problem = PROBLEMS.some((kind) => box?.classList.contains(`${BLOCK}__table-cell--${kind}`));
    const said = box?.querySelector(`.${BLOCK}__table-source`)?.textContent ?? '';
    const shown = problem && said !== '' && target instanceof Element;
    line.hidden = !shown && grid.querySelector(ANY_PROBLEM) === null;
    line.textContent = shown ? `${target.getAttribute('aria-label')}: ${said}` : '';
  }

  grid.addEventListener('focusin', (event) => show(event.target));
  grid.addEventListener('focusout', (event) => show(/** @type {FocusEvent} */ (event).relatedTarget));
  // After the cell is drawn anew for what was typed (the table's own listener runs first).
  grid.addEventListener('input', (event) => show(event.target));
  return line;
}
