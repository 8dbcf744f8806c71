// @ts-check
/**
 * The search field: asks the server (`part=search`) a moment after typing stops, or at once on
 * Enter; a newer search aborts the one on its way. Each match is a button that opens the tree down to
 * it; arrows move between the field and the matches.
 */

import { problemOf, RequestError } from './api.js';
import { BLOCK, button } from './dom.js';
import { fill } from './labels.js';

/** How long typing pauses before the search is sent. */
const SEARCH_DELAY_MS = 250;

/**
 * @param {import('./dom.js').ScreenContext} ctx
 * @param {import('./tree.js').Tree} tree
 */
export function createSearch(ctx, tree) {
  const { create, labels, timers } = ctx;
  const root = create('div', `${BLOCK}__search`);
  root.setAttribute('role', 'search');
  const label = create('label', `${BLOCK}__search-label`, labels.search);
  const input = create('input', `${BLOCK}__search-input`);
  input.type = 'search';
  input.id = `${ctx.uid}-search`;
  input.placeholder = labels.searchPlaceholder;
  input.autocomplete = 'off';
  input.spellcheck = false;
  label.htmlFor = input.id;
  const results = create('ul', `${BLOCK}__results`);
  results.setAttribute('aria-label', labels.searchResults);
  results.hidden = true;
  const note = create('p', `${BLOCK}__results-note`);
  note.hidden = true;
  root.append(label, input, note, results);
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  /** @type {AbortController | undefined} */
  let request;

  input.addEventListener('input', () => {
    timers.cancel(timer);
    timer = timers.later(() => void run(input.value), SEARCH_DELAY_MS);
  });
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      timers.cancel(timer);
      void run(input.value);
    } else if (event.key === 'Escape' && input.value !== '') {
      event.preventDefault();
      input.value = '';
      void run('');
    } else if (event.key === 'ArrowDown') {
      const first = results.querySelector('button');
      if (first) {
        event.preventDefault();
        first.focus();
      }
    }
  });
  results.addEventListener('keydown', (event) => {
    const buttons = [...results.querySelectorAll('button')];
    const at = buttons.indexOf(/** @type {HTMLButtonElement} */ (ctx.doc.activeElement));
    if (event.key === 'ArrowDown') buttons[at + 1]?.focus();
    else if (event.key === 'ArrowUp') (at <= 0 ? input : buttons[at - 1])?.focus();
    else return;
    event.preventDefault();
  });

  /** @param {string} text */
  async function run(text) {
    request?.abort();
    const q = text.trim();
    if (q === '') {
      results.replaceChildren();
      results.hidden = true;
      note.hidden = true;
      return;
    }
    const mine = new AbortController();
    request = mine;
    try {
      const data = await ctx.api.search(q, mine.signal);
      if (mine.signal.aborted || ctx.destroyed()) return;
      results.replaceChildren(...data.matches.flatMap((match) => resultItem(match.path)));
      results.hidden = data.matches.length === 0;
      note.hidden = !(data.matches.length === 0 || data.more);
      note.textContent = data.matches.length === 0 ? fill(labels.searchNone, { q }) : labels.searchMore;
      ctx.announce(
        data.matches.length === 0
          ? fill(labels.searchNone, { q })
          : fill(data.matches.length === 1 ? labels.searchCountOne : labels.searchCount, {
              count: data.matches.length,
            }),
      );
    } catch (error) {
      if (mine.signal.aborted || ctx.destroyed()) return;
      const said = problem(error);
      results.replaceChildren();
      results.hidden = true;
      note.hidden = false;
      note.textContent = said;
      ctx.announce(said);
    }
  }

  /**
   * What a failed search says: "try again" only where that may help (no answer, the server's own
   * failure). A refused text is refused again however often it is sent: the server's reason, in the
   * page's language (its own message is English).
   * @param {unknown} error
   */
  function problem(error) {
    if (!(error instanceof RequestError) || error.status === 0 || error.status >= 500) {
      // No answer with the device offline: trying again cannot help until the signal is back.
      const offline = ctx.doc.defaultView?.navigator.onLine === false;
      return offline && !(error instanceof RequestError && error.status >= 500)
        ? labels.searchOffline
        : labels.searchError;
    }
    if (error.status === 400 && error.path === 'q') return labels.searchRefused;
    return problemOf(error, labels, ctx.taskSheet);
  }

  /**
   * One match: its label, and the path to it. None for an empty path.
   * @param {readonly import('./api.js').PathStep[]} path
   */
  function resultItem(path) {
    const last = path.at(-1);
    if (!last) return [];
    const item = create('li', '');
    const choose = button(create, `${BLOCK}__result`, '');
    choose.append(create('span', `${BLOCK}__result-label`, last.label));
    const trail = path
      .slice(0, -1)
      .map((step) => step.label)
      .join(' › ');
    if (trail) choose.append(create('span', `${BLOCK}__result-path`, trail));
    // A branch on the way that fails to load says so itself (see loadChildren).
    choose.addEventListener('click', () => void tree.openPath(path).catch(() => undefined));
    item.append(choose);
    return [item];
  }

  return {
    root,
    /** Stops the search on its way (destroy()). */
    abort: () => request?.abort(),
  };
}
