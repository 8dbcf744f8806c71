// @ts-check
/**
 * `mountAssociationScreen`: checks the options, builds the screen's parts (header, search, tree,
 * modal, live region) around one context, reads the start (`part=start`) and keeps the screen's
 * state; `destroy()` undoes all of it.
 */

import { createApi, problemOf, RequestError } from './api.js';
import { markCopiedValues } from './copy-value.js';
import { BLOCK, button, createTimers, elementFactory, speak, statusRegion } from './dom.js';
import { createDrafts } from './drafts.js';
import { fill, labelsFor } from './labels.js';
import { createModal } from './modal.js';
import { createOffline } from './offline.js';
import { registerServiceWorker } from './offline-cache.js';
import { createSearch } from './search.js';
import { createTree } from './tree.js';
import { attachTreeKeys } from './tree-keys.js';
import { createTreeMetrics } from './tree-metrics.js';
import { headerText, humanize } from './values.js';
import { createViews } from './view-switch.js';
import { createWording } from './wording.js';

/** @typedef {import('./labels.js').ScreenLabels} ScreenLabels */
/** @typedef {import('./api.js').ScreenStart} ScreenStart */

/**
 * @typedef {object} ScreenOptions
 * @property {string} endpoint the association handler's URL (where the host mounted it)
 * @property {number} taskSheet the task sheet's SEQ_DB
 * @property {Partial<ScreenLabels>} [labels] texts to replace (over the language's built-in ones)
 * @property {string} [lang] `en` or `pt-BR`; default the element's nearest `lang`, else the page's
 * @property {number} [chunkSize] children rendered at a time in a long branch; default 200
 * @property {number} [timeoutMs] longest wait for one request; default 20000
 * @property {boolean} [offline] keep saves made without network in the browser's outbox and send
 *   them when it returns, and answer reads from the browser's cache offline; default true
 * @property {string} [serviceWorker] the URL of the screen's service worker to start (the
 *   handler's own page gives `?asset=association-screen-sw.js`), so the page opens offline
 */

/** @typedef {'loading' | 'ready' | 'empty' | 'not-found' | 'error'} ScreenState */

/**
 * @typedef {object} ScreenController
 * @property {() => ScreenState} state the current state
 * @property {() => void} destroy aborts requests, closes the modal, stops observers and timers,
 *   and empties the element
 */

export const DEFAULT_CHUNK_SIZE = 200;
export const DEFAULT_TIMEOUT_MS = 20_000;

/** Numbers the screens of a page, so their elements' ids never collide. */
let instances = 0;

/**
 * Turns the element into the association screen of one task sheet.
 *
 * @param {HTMLElement} element the host element; its children are replaced
 * @param {ScreenOptions} options
 * @returns {ScreenController}
 */
export function mountAssociationScreen(element, options) {
  if (!(element instanceof HTMLElement)) {
    throw new TypeError(
      'mountAssociationScreen: the first argument must be an HTML element, such as a <div>',
    );
  }
  if (typeof options?.endpoint !== 'string' || options.endpoint === '') {
    throw new TypeError(
      `mountAssociationScreen: endpoint must be the association handler's URL, got ${JSON.stringify(options?.endpoint)}`,
    );
  }
  const taskSheet = options.taskSheet;
  if (!Number.isSafeInteger(taskSheet) || taskSheet <= 0) {
    throw new RangeError(
      `mountAssociationScreen: taskSheet must be a task sheet SEQ_DB (a positive whole number), got ${String(taskSheet)}`,
    );
  }
  const chunkSize = options.chunkSize ?? DEFAULT_CHUNK_SIZE;
  if (!Number.isSafeInteger(chunkSize) || chunkSize < 1) {
    throw new RangeError(
      `mountAssociationScreen: chunkSize must be a whole number >= 1, got ${String(chunkSize)}`,
    );
  }
  const doc = element.ownerDocument;
  const lang = options.lang ?? element.closest('[lang]')?.getAttribute('lang') ?? doc.documentElement.lang;
  /** @type {ScreenLabels} */
  const labels = { ...labelsFor(lang), ...options.labels };
  const win = doc.defaultView ?? window;

  /** @type {ScreenState} */
  let state = 'loading';
  /** Who the start read from the browser's cache says is signed in, until the server confirms it. */
  /** @type {number | undefined} */
  let cachedUser;
  let destroyed = false;
  /** Aborted by destroy(): every request listens to it. */
  const lifetime = new AbortController();
  const create = elementFactory(doc);
  /** @type {import('./dom.js').ScreenContext} */
  const ctx = {
    doc,
    element,
    labels,
    lang,
    uid: `ta-${++instances}`,
    taskSheet,
    chunkSize,
    reducedMotion: win.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false,
    api: createApi({
      endpoint: options.endpoint,
      baseURI: doc.baseURI,
      taskSheet,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      signal: lifetime.signal,
      networkError: labels.networkError,
      onCached: (readAt) => ctx.offline?.readFromCache(readAt),
      owner: () => {
        const who = ctx.offline?.owner();
        return who?.confirmed ? who.key : undefined;
      },
    }),
    say: createWording(labels, lang),
    create,
    timers: createTimers(() => !destroyed),
    // While the modal is open the rest of the page is inert, its live region too: the modal has its own.
    announce: (message) => speak(modal.dialog.open ? modal.status : status, message, ctx.timers),
    destroyed: () => destroyed,
    columns: [],
    offline: undefined,
    drafts: undefined,
  };

  // destroy() gives the element back as it was: without a class attribute if it had none.
  const hadClass = element.hasAttribute('class');
  element.classList.add(BLOCK);
  element.replaceChildren();

  // The parts that stay for the screen's lifetime: header, search, body (states or tree), modal, live region.
  const header = create('header', `${BLOCK}__header`);
  const body = create('div', `${BLOCK}__body`);
  const status = statusRegion(create, `${BLOCK}__status`);
  const tree = createTree(ctx);
  const treeMetrics = createTreeMetrics(ctx, tree);
  // The tree / table switch and the progress: told of the modal's saves through the tree's metrics,
  // and telling the modal of the table's (called once both exist).
  const views = createViews(ctx, {
    body,
    search: () => search.root,
    tree,
    treeMetrics,
    storedElsewhere: (answer) => modal.storedElsewhere(answer),
  });
  const watched = views.watch(treeMetrics);
  const modal = createModal(ctx, tree, watched);
  attachTreeKeys(ctx, tree, (node) => modal.open(node));
  const search = createSearch(ctx, tree);
  const offline =
    options.offline === false
      ? undefined
      : createOffline(ctx, { endpoint: options.endpoint, tree, treeMetrics: watched });
  ctx.offline = offline;
  offline?.setOpener(modal.decide);
  // What is typed (modal or table) is kept on the device with the outbox, under its owner.
  const drafts = offline
    ? createDrafts(ctx, {
        endpoint: options.endpoint,
        owner: () => offline.owner(),
        redraw: (key) => {
          for (const node of tree.tasksOf(key)) treeMetrics.redraw(node);
        },
        loaded: () => {
          modal.draftsLoaded();
          views.draftsLoaded();
        },
        // Said once: in the table where it is shown (its line is a live region), else aloud.
        onProblem: (text) => {
          views.draftProblem(text);
          if (views.view() !== 'table') modal.draftProblem(text);
        },
      })
    : undefined;
  ctx.drafts = drafts;
  // A batch of the outbox stored: the progress is read again. Someone else signed in on this browser
  // meanwhile: only their drafts are shown from now on, and the form open, the previous person's,
  // closes. A page opened offline whose owner the server then confirms takes the drafts it kept
  // unconfirmed as that person's.
  offline?.watch({
    sent: () => views.outboxStored(),
    changed: () => modal.outboxChanged(),
    // At once: what is typed from then on (before the new person's drafts are read) is theirs.
    owner: () => {
      // Someone else: their own changes are not "you" to this page, which does not know their id.
      ctx.say.setMe(undefined);
      cachedUser = undefined;
      modal.ownerChanged();
      views.ownerChanged();
    },
    reread: () => void drafts?.load(),
    // The person the browser's cache said is signed in, said so by the server: "you" again (their
    // own save sent once the signal came back was said to be "user 7").
    confirmed: () => {
      if (cachedUser !== undefined) ctx.say.setMe(cachedUser);
      void drafts?.load();
    },
  });
  element.append(
    header,
    ...(offline ? [offline.root] : []),
    views.root,
    search.root,
    body,
    views.tableRoot,
    status,
    modal.dialog,
  );
  markCopiedValues(element);
  if (options.serviceWorker && offline) void registerServiceWorker(win, options.serviceWorker);

  void start();

  /** @param {ScreenState} next */
  function setState(next) {
    state = next;
    element.dataset.state = next;
    element.setAttribute('aria-busy', String(next === 'loading'));
    // Searching needs a tree to open: the field shows only when there is one.
    search.root.hidden = next !== 'ready';
  }

  async function start() {
    setState('loading');
    header.replaceChildren();
    body.replaceChildren(spinnerBlock(labels.loading));
    try {
      const data = await ctx.api.start();
      if (destroyed) return;
      ctx.columns = data.metrics;
      offline?.setOwner(data.owner, !data.fromCache);
      // Only where the page follows who is signed in (the offline part asks again: page shown
      // again, before sending) and not from the browser's cache: else "you" could be someone else.
      ctx.say.setMe(offline !== undefined && !data.fromCache ? data.user : undefined);
      cachedUser = data.fromCache ? data.user : undefined;
      void drafts?.load();
      renderHeader(data);
      modal.setColumns(data.metrics);
      if (!tree.setRoots(data.nodes)) {
        setState('empty');
        body.replaceChildren(message(labels.empty, 'empty'));
        return;
      }
      body.replaceChildren(tree.list, tree.rootSentinel);
      tree.showRoots();
      setState('ready');
      views.ready();
    } catch (error) {
      if (destroyed) return;
      // The page keeps its heading (the task sheet) when what failed is its data.
      renderHeader(undefined);
      if (error instanceof RequestError && error.status === 404) {
        setState('not-found');
        body.replaceChildren(message(fill(labels.notFound, { id: taskSheet }), 'not-found'));
        return;
      }
      setState('error');
      const block = message(labels.error, 'error', problemOf(error, labels, taskSheet));
      const retry = button(create, `${BLOCK}__button ${BLOCK}__button--primary`, labels.retry);
      retry.addEventListener('click', () => void start());
      block.append(retry);
      body.replaceChildren(block);
      retry.focus();
    }
  }

  /** The title, and the task sheet's header columns once read. @param {ScreenStart | undefined} data */
  function renderHeader(data) {
    const eyebrow = create('p', `${BLOCK}__eyebrow`, labels.eyebrow);
    const title = create('h1', `${BLOCK}__title`, fill(labels.title, { id: taskSheet }));
    header.replaceChildren(eyebrow, title);
    if (data === undefined) return;
    const facts = create('dl', `${BLOCK}__facts`);
    for (const column of data.taskSheet.columns) {
      if (column.name === 'SEQ_DB') continue;
      const fact = create('div', `${BLOCK}__fact`);
      fact.append(
        create('dt', '', column.label ?? humanize(column.name)),
        create(
          'dd',
          '',
          column.value === null ? labels.empty_value : headerText(column.value, column.dataType, lang),
        ),
      );
      facts.append(fact);
    }
    if (facts.childElementCount > 0) header.append(facts);
  }

  /** @param {string} text */
  function spinnerBlock(text) {
    const block = create('div', `${BLOCK}__message ${BLOCK}__message--loading`);
    block.append(create('span', `${BLOCK}__spinner`), create('p', '', text));
    return block;
  }

  /** @param {string} text @param {string} kind @param {string} [detail] */
  function message(text, kind, detail) {
    const block = create('div', `${BLOCK}__message ${BLOCK}__message--${kind}`);
    block.append(create('p', `${BLOCK}__message-text`, text));
    if (detail) block.append(create('p', `${BLOCK}__message-detail`, detail));
    return block;
  }

  return {
    state: () => state,
    destroy() {
      if (destroyed) return;
      destroyed = true;
      lifetime.abort();
      search.abort();
      offline?.destroy();
      drafts?.destroy();
      modal.destroy();
      ctx.timers.clear();
      tree.destroy();
      views.destroy();
      if (modal.dialog.open) modal.dialog.close();
      element.replaceChildren();
      element.classList.remove(BLOCK);
      if (!hadClass) element.removeAttribute('class');
      delete element.dataset.state;
      element.removeAttribute('aria-busy');
    },
  };
}
