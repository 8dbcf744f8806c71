// @ts-check
/**
 * What the screen shows of being offline (#28): a notice that the page is offline and when its data
 * was read, the count of entries waiting to be sent and, apart, of those stopped for the person's
 * decision, their list (hidden until asked for; each with its values, when it was entered, its
 * state, and Discard, or Decide for a conflict), warnings about the outbox's bounds and the
 * browser's storage, and "Keep this sheet for offline use". Drawing only: offline.js decides.
 */

import { BLOCK, button, statusRegion } from './dom.js';
import { fill } from './labels.js';
import { formatValue, metricLabel } from './values.js';

/** @typedef {import('./outbox.js').OutboxRecord} OutboxRecord */

/**
 * @typedef {object} OfflineActions
 * @property {(record: OutboxRecord) => void} discard
 * @property {(record: OutboxRecord) => void} decide
 * @property {() => void} keep
 * @property {() => void} claim
 */

/**
 * @param {import('./dom.js').ScreenContext} ctx
 * @param {OfflineActions} actions
 */
export function createOfflineView(ctx, actions) {
  const { create, labels, say } = ctx;
  const root = create('section', `${BLOCK}__offline`);
  root.setAttribute('aria-label', labels.offlineRegion);
  // Said when it appears: a person whose network just went hears it.
  const notice = statusRegion(create, `${BLOCK}__offline-notice`);
  // Someone else signed in on this browser since the page was opened: it files as them now. Not a
  // live region: it is said where it is learnt (offline-owner.js), or by the save it refused in
  // that save's words, and stays here to be read.
  const owner = create('p', `${BLOCK}__owner-notice`);
  owner.hidden = true;
  const warning = create('p', `${BLOCK}__offline-warning`);
  warning.setAttribute('role', 'alert');
  warning.hidden = true;
  const summary = create('div', `${BLOCK}__outbox`);
  const count = statusRegion(create, `${BLOCK}__outbox-count`);
  const toggle = button(create, `${BLOCK}__button ${BLOCK}__button--small`, labels.pendingList);
  toggle.setAttribute('aria-expanded', 'false');
  const list = create('ul', `${BLOCK}__outbox-list`);
  list.id = `${ctx.uid}-outbox`;
  list.setAttribute('aria-label', labels.pendingList);
  toggle.setAttribute('aria-controls', list.id);
  list.hidden = true;
  // Entries typed on pages opened offline: sent once the person signed in says they are theirs.
  const claimRow = create('div', `${BLOCK}__claim`);
  const claimCount = statusRegion(create, `${BLOCK}__claim-count`);
  const claim = button(
    create,
    `${BLOCK}__button ${BLOCK}__button--small ${BLOCK}__button--primary`,
    labels.claim,
  );
  claim.addEventListener('click', () => actions.claim());
  claimRow.append(claimCount, claim);
  claimRow.hidden = true;
  summary.append(count, claimRow, toggle, list);
  const keepRow = create('div', `${BLOCK}__keep`);
  const keep = button(create, `${BLOCK}__button ${BLOCK}__button--small`, labels.keepSheet);
  const keepStatus = statusRegion(create, `${BLOCK}__keep-status`);
  keepRow.append(keep, keepStatus);
  root.append(notice, owner, warning, summary, keepRow);
  keep.addEventListener('click', () => actions.keep());
  toggle.addEventListener('click', () => {
    list.hidden = !list.hidden;
    toggle.setAttribute('aria-expanded', String(!list.hidden));
    toggle.textContent = list.hidden ? labels.pendingList : labels.pendingHide;
  });

  /** One waiting entry: its activity, values, when entered, state, and what the person can do. @param {OutboxRecord} record */
  function item(record) {
    const row = create('li', `${BLOCK}__outbox-item ${BLOCK}__outbox-item--${record.state}`);
    const what = create(
      'p',
      `${BLOCK}__outbox-label`,
      record.entry.remove ? `${record.label}: ${labels.entryRemove}` : record.label,
    );
    const values = create('p', `${BLOCK}__outbox-values`);
    values.textContent = Object.entries(record.entry.values ?? {})
      .map(([field, value]) => {
        const column = ctx.columns.find((one) => one.field === field);
        const shown =
          value === null ? labels.empty_value : column ? formatValue(value, column, ctx.lang) : String(value);
        return `${column ? metricLabel(column) : field}: ${shown}`;
      })
      .join(' · ');
    const when = create(
      'p',
      `${BLOCK}__outbox-when`,
      fill(labels.entryEntered, { at: say.when(record.enteredAt) }),
    );
    const state = create(
      'p',
      `${BLOCK}__outbox-state`,
      record.state === 'conflict'
        ? labels.entryConflict
        : record.state === 'refused'
          ? refusedText(record)
          : record.unconfirmed
            ? labels.entryUnconfirmed
            : labels.entryWaiting,
    );
    // Why a waiting entry still waits, where its last try got something: kept with the entry.
    const tried = record.state === 'pending' ? lastTryText(record.lastTry) : undefined;
    const tools = create('div', `${BLOCK}__outbox-tools`);
    if (record.state === 'conflict') {
      const decide = button(
        create,
        `${BLOCK}__button ${BLOCK}__button--small ${BLOCK}__button--primary`,
        labels.decide,
      );
      decide.setAttribute('aria-label', fill(labels.decideFor, { label: record.label }));
      decide.addEventListener('click', () => actions.decide(record));
      tools.append(decide);
    }
    const discard = button(create, `${BLOCK}__button ${BLOCK}__button--small`, labels.discard);
    discard.setAttribute('aria-label', fill(labels.discardFor, { label: record.label }));
    discard.addEventListener('click', () => ask(record, tools, discard));
    tools.append(discard);
    row.append(what, values, when, state);
    if (tried) row.append(create('p', `${BLOCK}__outbox-try`, tried));
    row.append(tools);
    return row;
  }

  /** Why an entry was refused: the refusals the page words itself, else the server's sentence. @param {OutboxRecord} record */
  function refusedText(record) {
    if (record.problemCode === 'BODY_TOO_LARGE') return labels.tooLarge;
    if (record.problemCode === 'CROSS_SITE_REQUEST') return labels.crossSite;
    return fill(labels.entryRefused, { message: record.problem ?? '' });
  }

  /** What a waiting entry's last try got, in the page's words. @param {OutboxRecord['lastTry']} got */
  function lastTryText(got) {
    if (got === undefined) return undefined;
    if (got.status === 0) return labels.lastTryNoAnswer;
    if (got.status === 200) return labels.lastTryNotHandler;
    return got.reason
      ? fill(labels.lastTry, { status: got.status, reason: got.reason })
      : fill(labels.lastTryStatus, { status: got.status });
  }

  /**
   * Discarding asks first, in place (never `window.confirm`): the question and its two answers,
   * "Keep it" focused.
   * @param {OutboxRecord} record @param {HTMLElement} tools @param {HTMLButtonElement} opener
   */
  function ask(record, tools, opener) {
    const question = create('div', `${BLOCK}__outbox-confirm`);
    question.setAttribute('role', 'group');
    const text = create('p', '', fill(labels.discardConfirm, { label: record.label }));
    text.id = `${ctx.uid}-discard-${record.seq}`;
    question.setAttribute('aria-labelledby', text.id);
    const yes = button(
      create,
      `${BLOCK}__button ${BLOCK}__button--small ${BLOCK}__button--danger`,
      labels.discardYes,
    );
    const no = button(create, `${BLOCK}__button ${BLOCK}__button--small`, labels.discardNo);
    yes.addEventListener('click', () => actions.discard(record));
    no.addEventListener('click', () => {
      question.remove();
      opener.hidden = false;
      opener.focus();
    });
    question.append(text, yes, no);
    opener.hidden = true;
    tools.append(question);
    no.focus();
  }

  return {
    root,
    /**
     * The notice: offline, or online again with data shown still from the browser's cache (`stale`),
     * each with when that data was read; or nothing.
     * @param {boolean} offline @param {boolean} stale @param {string | null} readAt
     */
    showOffline(offline, stale, readAt) {
      root.classList.toggle(`${BLOCK}__offline--on`, offline);
      const at = readAt ? say.when(readAt) : undefined;
      notice.textContent = offline
        ? at
          ? fill(labels.offlineNow, { at })
          : labels.offlineNoTime
        : stale
          ? at
            ? fill(labels.offlineStale, { at })
            : labels.offlineStaleNoTime
          : '';
      notice.hidden = notice.textContent === '';
    },
    /**
     * The entries of this sheet's person, how many of someone else wait, and the entries typed on
     * pages opened offline that the person may claim (listed too). Those stopped for a decision (a
     * conflict, a refusal) are counted apart from those waiting to be sent, and listed first: they
     * wait for the person, not for the network, and the list is hidden until asked for.
     * @param {readonly OutboxRecord[]} mine @param {number} others
     * @param {readonly OutboxRecord[]} [claimable]
     */
    render(mine, others, claimable = []) {
      claimRow.hidden = claimable.length === 0;
      claimCount.textContent =
        claimable.length === 0 ? '' : fill(labels.unconfirmedCount, { count: claimable.length });
      const stopped = mine.filter((record) => record.state !== 'pending');
      const waiting = mine.filter((record) => record.state === 'pending');
      const shown = [...stopped, ...waiting, ...claimable.filter((record) => !mine.includes(record))];
      const stoppedText =
        stopped.length === 0
          ? ''
          : stopped.length === 1
            ? labels.stoppedCountOne
            : fill(labels.stoppedCount, { count: stopped.length });
      const waitingText =
        waiting.length > 0
          ? waiting.length === 1
            ? labels.pendingCountOne
            : fill(labels.pendingCount, { count: waiting.length })
          : mine.length === 0 && others > 0
            ? others === 1
              ? labels.otherOwnerOne
              : fill(labels.otherOwner, { count: others })
            : '';
      const text = [stoppedText, waitingText].filter((part) => part !== '').join(' ');
      // Drawn only when it changes: the line is a live region, and the same words are no news.
      if (count.textContent !== text) {
        count.replaceChildren();
        if (stoppedText) count.append(create('span', `${BLOCK}__outbox-stopped`, stoppedText));
        if (stoppedText && waitingText) count.append(' ');
        if (waitingText) count.append(waitingText);
      }
      summary.hidden = text === '' && claimable.length === 0;
      toggle.hidden = shown.length === 0;
      list.replaceChildren(...shown.map(item));
      if (shown.length === 0) {
        list.hidden = true;
        toggle.setAttribute('aria-expanded', 'false');
        toggle.textContent = labels.pendingList;
      }
    },
    /** That someone else is signed in now than the page was opened as, and it files as them. @param {string} text */
    ownerChanged(text) {
      owner.textContent = text;
      owner.hidden = false;
    },
    /** A warning about the outbox or the browser's storage; undefined hides it. @param {string | undefined} text */
    warn(text) {
      warning.hidden = text === undefined;
      warning.textContent = text ?? '';
    },
    /** "Keep this sheet": busy while it reads, and what came of it. @param {boolean} busy @param {string} text */
    keeping(busy, text) {
      keep.disabled = busy;
      keepStatus.textContent = text;
    },
  };
}

/** @typedef {ReturnType<typeof createOfflineView>} OfflineView */
