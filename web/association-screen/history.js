// @ts-check
/**
 * The modal's history: the changes of the activity's metrics, newest first, read when asked for
 * (`part=history`, one request each time the section is opened): the field, old → new, when, who,
 * what and from where.
 */

import { problemOf } from './api.js';
import { BLOCK, button } from './dom.js';
import { fill } from './labels.js';
import { formatValue, humanize, metricLabel } from './values.js';

/** @typedef {import('./api.js').MetricChange} MetricChange */

/** The server answers at most this many changes: a full page says only the latest are shown. */
const HISTORY_PAGE = 100;

/**
 * @param {import('./dom.js').ScreenContext} ctx
 * @param {() => import('./tree.js').TreeNode | undefined} activity the activity the modal shows
 * @param {(section: HTMLElement) => void} shown the section was opened, or its changes drawn (the
 *   modal brings it into sight)
 */
export function createHistory(ctx, activity, shown) {
  const { create, labels } = ctx;
  const toggle = button(create, `${BLOCK}__button ${BLOCK}__button--quiet`, labels.history);
  const section = create('section', `${BLOCK}__history`);
  section.id = `${ctx.uid}-history`;
  section.hidden = true;
  const title = create('h3', `${BLOCK}__history-title`, labels.historyTitle);
  title.id = `${ctx.uid}-history-title`;
  section.setAttribute('aria-labelledby', title.id);
  const state = create('p', `${BLOCK}__history-state`);
  const list = create('ol', `${BLOCK}__changes`);
  section.append(title, state, list);
  toggle.setAttribute('aria-expanded', 'false');
  toggle.setAttribute('aria-controls', section.id);
  /** Counts history reads: a slow one never lands on a later opening. */
  let reads = 0;

  toggle.addEventListener('click', () => {
    // Shown with a failure, it is asked again (the failure says "press History to try again").
    if (section.hidden || section.dataset.failed === 'true') void show();
    else {
      section.hidden = true;
      toggle.setAttribute('aria-expanded', 'false');
    }
  });

  /** Reads and shows the activity's changes, newest first. */
  async function show() {
    const node = activity();
    if (!node) return;
    section.hidden = false;
    toggle.setAttribute('aria-expanded', 'true');
    shown(section);
    list.replaceChildren();
    state.hidden = false;
    state.textContent = labels.historyLoading;
    section.setAttribute('aria-busy', 'true');
    delete section.dataset.failed;
    const read = ++reads;
    try {
      // A one-level tree keys its rows without a group: the server is asked without one.
      const data = await ctx.api.history(node.data.id, node.data.group);
      if (ctx.destroyed() || read !== reads) return;
      for (const change of data.changes) list.append(changeItem(change));
      state.textContent =
        data.changes.length === 0
          ? labels.historyEmpty
          : data.changes.length >= HISTORY_PAGE
            ? fill(labels.historyMore, { count: data.changes.length })
            : '';
      state.hidden = state.textContent === '';
      // Brought into sight only while the person is still at it, not from a field they went back to.
      const at = ctx.doc.activeElement;
      if (at === toggle || section.contains(at)) shown(section);
    } catch (error) {
      if (ctx.destroyed() || read !== reads) return;
      state.textContent = `${labels.historyError} ${problemOf(error, labels, ctx.taskSheet)}`;
      section.dataset.failed = 'true';
    } finally {
      if (read === reads) section.removeAttribute('aria-busy');
    }
  }

  /** One line of the history: the field, old → new; when, who, what, from where. @param {MetricChange} change */
  function changeItem(change) {
    const column = ctx.columns.find((found) => found.field === change.field);
    const item = create('li', `${BLOCK}__change`);
    const what = create('p', `${BLOCK}__change-what`);
    /** @param {string | null} value */
    const value = (value) =>
      value === null
        ? labels.empty_value
        : column === undefined
          ? value
          : formatValue(value, column, ctx.lang);
    what.append(
      create(
        'span',
        `${BLOCK}__change-field`,
        column === undefined ? humanize(change.field) : metricLabel(column),
      ),
      ' ',
      create('span', `${BLOCK}__change-values`, `${value(change.oldValue)} → ${value(change.newValue)}`),
    );
    const meta = create('p', `${BLOCK}__change-meta`);
    const time = create('time', '', ctx.say.when(change.at));
    time.dateTime = change.at;
    const action = {
      insert: labels.actionInsert,
      update: labels.actionUpdate,
      clear: labels.actionClear,
      remove: labels.actionRemove,
    }[change.action];
    // The sources a save names (the server's SaveSource), in the page's language; a row another
    // program wrote into the history with a word of its own keeps that word.
    const via =
      {
        screen: labels.viaScreen,
        api: labels.viaApi,
        offline: labels.viaOffline,
        copy: labels.viaCopy,
      }[change.source] ?? fill(labels.viaOther, { source: change.source });
    meta.append(time, ` · ${ctx.say.user(change.user)} · ${action ?? String(change.action)} · ${via}`);
    item.append(what, meta);
    return item;
  }

  return {
    /** The button that shows and hides the changes, and the section they are listed in. */
    toggle,
    section,
    /** Closes the section for a new opening of the modal: a read still on its way lands nowhere. */
    reset() {
      section.hidden = true;
      toggle.setAttribute('aria-expanded', 'false');
      list.replaceChildren();
      reads++;
      section.removeAttribute('aria-busy');
      delete section.dataset.failed;
    },
  };
}
