// @ts-check
/**
 * The activity tree (WAI-ARIA tree pattern): its nodes and their elements, branches read once when
 * first opened, long branches rendered in chunks as they are scrolled or walked, the roving focus,
 * and the walk from one visible item to the next (beyond them, in tree-walk.js). Keys and clicks are in tree-keys.js, the metric
 * values beside each activity in tree-metrics.js.
 */

import { problemOf } from './api.js';
import { BLOCK } from './dom.js';
import { keyOf } from './entry-key.js';
import { fill } from './labels.js';
import { renderChips } from './tree-metrics.js';
import { createTreeWalk } from './tree-walk.js';

/** @typedef {import('./dom.js').ScreenContext} ScreenContext */
/** @typedef {import('./api.js').ScreenNode} ScreenNode */

/**
 * One node of the tree as the screen holds it.
 * @typedef {object} TreeNode
 * @property {ScreenNode} data
 * @property {TreeNode | null} parent
 * @property {string} key unique along its path: the same activity under two groups is two nodes
 * @property {TreeNode[] | undefined} children undefined until loaded
 * @property {Promise<void> | undefined} loading
 * @property {boolean} expanded
 * @property {HTMLLIElement} item
 * @property {HTMLUListElement | undefined} group
 * @property {number} rendered how many children have their element
 * @property {number} [saves] how many saves of this activity answered, so a slower read never undoes a later one
 */

/**
 * @param {ScreenContext} ctx
 */
export function createTree(ctx) {
  const { create, labels } = ctx;
  /** @type {TreeNode[]} */
  let roots = [];
  let rootsRendered = 0;
  /** The progress's count of a branch, once read. */
  /** @type {((level: number, id: number) => { filled: number, activities: number } | undefined) | undefined} */
  let counts;
  /** @type {Map<HTMLElement, TreeNode>} */
  const nodeOf = new Map();
  /**
   * The activities built so far by their metric row's key (entry-key.js), each under every node its
   * group hangs from: a save's answer, a draft or an outbox entry finds its nodes at once, at a cost
   * that grows with the keys asked, not with the branches read.
   * @type {Map<string, TreeNode[]>}
   */
  const tasks = new Map();
  /** @type {IntersectionObserver | undefined} */
  const moreObserver =
    typeof IntersectionObserver === 'function'
      ? new IntersectionObserver(
          (entries) => {
            for (const entry of entries) {
              if (!entry.isIntersecting) continue;
              const target = /** @type {HTMLElement} */ (entry.target);
              const owner = target.dataset.owner === 'root' ? null : findByKey(target.dataset.owner ?? '');
              renderMore(owner ?? null);
            }
          },
          { rootMargin: '400px' },
        )
      : undefined;
  const list = create('ul', `${BLOCK}__tree`);
  list.setAttribute('role', 'tree');
  list.setAttribute('aria-label', labels.tree);
  const rootSentinel = moreSentinel('root');

  /** A marker after a long branch's rendered children: its coming into view renders the next chunk. @param {string} owner */
  function moreSentinel(owner) {
    const sentinel = create('div', `${BLOCK}__more`);
    sentinel.dataset.owner = owner;
    sentinel.setAttribute('aria-hidden', 'true');
    return sentinel;
  }

  /** @param {ScreenNode} data @param {TreeNode | null} parent @returns {TreeNode} */
  function makeNode(data, parent) {
    const key = `${parent ? `${parent.key}/` : ''}${data.level}:${data.id}`;
    const item = create('li', `${BLOCK}__item`);
    /** @type {TreeNode} */
    const node = {
      data,
      parent,
      key,
      children: undefined,
      loading: undefined,
      expanded: false,
      item,
      group: undefined,
      rendered: 0,
    };
    item.setAttribute('role', 'treeitem');
    item.tabIndex = -1;
    item.dataset.key = key;
    item.setAttribute('aria-level', String(depthOf(node)));
    const row = create('div', `${BLOCK}__row`);
    const twisty = create('span', `${BLOCK}__twisty`);
    twisty.setAttribute('aria-hidden', 'true');
    // Named from its row's text (the label, and an activity's values): browsers leave the nested
    // group out of a tree item's name, so a branch is named by its label alone.
    const label = create('span', `${BLOCK}__label`, data.label);
    row.append(twisty, label);
    if (data.kind === 'branch') {
      // "2 of 4": how many activities below have values, once the progress is read. It describes
      // the branch rather than naming it (hidden from the name, referenced as its description).
      const count = create('span', `${BLOCK}__branch-count`);
      count.id = `${ctx.uid}-count-${key.replaceAll(/[^\w-]/g, '_')}`;
      count.setAttribute('aria-hidden', 'true');
      item.setAttribute('aria-describedby', count.id);
      row.append(count);
      paintCount(node, count);
      item.classList.add(`${BLOCK}__item--branch`);
      if (data.hasChildren) item.setAttribute('aria-expanded', 'false');
      else item.classList.add(`${BLOCK}__item--leaf`);
    } else {
      item.classList.add(`${BLOCK}__item--task`);
      item.setAttribute('aria-haspopup', 'dialog');
      const details = create('span', `${BLOCK}__metrics`);
      row.append(details);
      renderChips(ctx, node, details);
    }
    item.append(row);
    nodeOf.set(item, node);
    if (data.kind === 'task') {
      const key = keyOf({ activity: data.id, group: data.group });
      tasks.set(key, [...(tasks.get(key) ?? []), node]);
    }
    return node;
  }

  /**
   * A branch's count from the last progress read: "2 of 4", hidden where unknown.
   * @param {TreeNode} node @param {Element | null} count
   */
  function paintCount(node, count) {
    if (!(count instanceof HTMLElement)) return;
    const known = counts?.(node.data.level, node.data.id);
    count.hidden = known === undefined;
    count.textContent =
      known === undefined
        ? ''
        : fill(ctx.labels.progressShort, { filled: known.filled, total: known.activities });
  }

  /** @param {TreeNode} node */
  function depthOf(node) {
    let depth = 1;
    for (let up = node.parent; up; up = up.parent) depth++;
    return depth;
  }

  /** The children of `owner` (null: the roots). @param {TreeNode | null} owner */
  function childrenOf(owner) {
    return owner === null ? roots : (owner.children ?? []);
  }

  /** How many of `owner`'s children have their element. @param {TreeNode | null} owner */
  function renderedOf(owner) {
    return owner === null ? rootsRendered : owner.rendered;
  }

  /**
   * Renders the next chunk of `owner`'s children (null: the roots): a branch of thousands never
   * builds thousands of elements at once. Called when the chunk's end comes into view, or when the
   * keyboard walks past the last rendered child. False when there was nothing left to render.
   * @param {TreeNode | null} owner
   */
  function renderMore(owner) {
    const children = childrenOf(owner);
    const container = owner === null ? list : owner.group;
    if (container === undefined) return false;
    const from = renderedOf(owner);
    if (from >= children.length) return false;
    const to = Math.min(children.length, from + ctx.chunkSize);
    const fragment = ctx.doc.createDocumentFragment();
    for (let index = from; index < to; index++) {
      const child = /** @type {TreeNode} */ (children[index]);
      child.item.setAttribute('aria-setsize', String(children.length));
      child.item.setAttribute('aria-posinset', String(index + 1));
      fragment.append(child.item);
    }
    container.append(fragment);
    if (owner === null) rootsRendered = to;
    else owner.rendered = to;
    const sentinel = owner === null ? rootSentinel : owner.item.querySelector(`:scope > .${BLOCK}__more`);
    if (sentinel instanceof HTMLElement) {
      moreObserver?.unobserve(sentinel);
      if (to < children.length) moreObserver?.observe(sentinel);
      else sentinel.remove();
    }
    return true;
  }

  /** @param {string} key */
  function findByKey(key) {
    const item = ctx.element.querySelector(`[data-key="${CSS.escape(key)}"]`);
    return item instanceof HTMLElement ? nodeOf.get(item) : undefined;
  }

  /**
   * Opens a branch, loading its children on the first time (one request, shared by every caller).
   * @param {TreeNode} node
   */
  async function expand(node) {
    if (node.data.kind !== 'branch' || !node.data.hasChildren) return;
    node.expanded = true;
    node.item.setAttribute('aria-expanded', 'true');
    if (node.group) {
      node.group.hidden = false;
      return;
    }
    if (!node.loading) node.loading = loadChildren(node);
    await node.loading;
  }

  /** @param {TreeNode} node */
  async function loadChildren(node) {
    // A failure said before is over once the branch is asked again.
    for (const stale of node.item.querySelectorAll(`:scope > .${BLOCK}__row > .${BLOCK}__branch-error`))
      stale.remove();
    node.item.setAttribute('aria-busy', 'true');
    const pending = create('span', `${BLOCK}__pending`, labels.branchLoading);
    node.item.querySelector(`.${BLOCK}__row`)?.append(pending);
    try {
      const data = await ctx.api.children(node.data);
      const children = data.nodes.map((child) => makeNode(child, node));
      node.children = children;
      const group = create('ul', `${BLOCK}__group`);
      group.setAttribute('role', 'group');
      node.group = group;
      node.item.append(group);
      if (children.length > ctx.chunkSize) node.item.append(moreSentinel(node.key));
      renderMore(node);
      group.hidden = !node.expanded;
      if (children.length === 0) {
        node.item.removeAttribute('aria-expanded');
        node.item.classList.add(`${BLOCK}__item--leaf`);
      }
    } catch (error) {
      node.loading = undefined;
      node.expanded = false;
      node.item.setAttribute('aria-expanded', 'false');
      if (ctx.destroyed()) return;
      ctx.announce(`${labels.branchError} ${problemOf(error, labels, ctx.taskSheet)}`);
      const failed = create('span', `${BLOCK}__branch-error`, labels.branchError);
      node.item.querySelector(`.${BLOCK}__row`)?.append(failed);
      ctx.timers.later(() => failed.remove(), 6000);
      throw error;
    } finally {
      pending.remove();
      node.item.removeAttribute('aria-busy');
    }
  }

  /** @param {TreeNode} node */
  function collapse(node) {
    if (!node.expanded) return;
    node.expanded = false;
    node.item.setAttribute('aria-expanded', 'false');
    if (node.group) node.group.hidden = true;
  }

  /** Opens a branch, or closes it when open; a failed read says so itself (see loadChildren). @param {TreeNode} node */
  function toggle(node) {
    if (node.expanded) collapse(node);
    else void expand(node).catch(() => undefined);
  }

  /** The tree items a person can reach now: rendered, and not inside a closed branch, in order. */
  function visibleItems() {
    /** @type {HTMLElement[]} */
    const items = [];
    for (const item of list.querySelectorAll('[role="treeitem"]')) {
      if (item instanceof HTMLElement && !item.closest('[role="group"][hidden]')) items.push(item);
    }
    return items;
  }

  /** Gives `node` the roving tab stop and the focus. @param {TreeNode} node @param {{ scroll?: boolean }} [how] */
  function focusNode(node, how = {}) {
    for (const item of list.querySelectorAll('[role="treeitem"][tabindex="0"]')) {
      if (item instanceof HTMLElement) item.tabIndex = -1;
    }
    node.item.tabIndex = 0;
    node.item.focus({ preventScroll: true });
    if (how.scroll !== false) {
      node.item.scrollIntoView({ block: 'nearest', behavior: ctx.reducedMotion ? 'auto' : 'smooth' });
    }
  }

  /** The node of the focused item, or of the item with the roving tab stop. */
  function currentNode() {
    const active = ctx.doc.activeElement;
    if (active instanceof HTMLElement && nodeOf.has(active)) return nodeOf.get(active);
    const stop = list.querySelector('[role="treeitem"][tabindex="0"]');
    return stop instanceof HTMLElement ? nodeOf.get(stop) : undefined;
  }

  /**
   * The visible item after `node`. When that item belongs to a long branch whose next chunk is not
   * rendered yet (the walk reached the last rendered child), the chunk is rendered first.
   * @param {TreeNode} node
   */
  function nextVisible(node) {
    if (!(node.expanded && node.children && node.children.length > 0)) {
      for (let current = /** @type {TreeNode | null} */ (node); current; current = current.parent) {
        const owner = current.parent;
        const siblings = childrenOf(owner);
        const index = siblings.indexOf(current);
        if (index < siblings.length - 1) {
          if (index + 1 >= renderedOf(owner)) renderMore(owner);
          break;
        }
      }
    }
    const items = visibleItems();
    const next = items[items.indexOf(node.item) + 1];
    return next ? nodeOf.get(next) : undefined;
  }

  /** The last node a person can reach: the last root, then the last child of each open branch, rendered. */
  function lastVisible() {
    /** @type {TreeNode | null} */
    let owner = null;
    for (;;) {
      while (renderMore(owner)) {}
      const last = childrenOf(owner).at(-1);
      if (!last || !(last.expanded && last.children && last.children.length > 0)) return last ?? owner;
      owner = last;
    }
  }

  /** The next activity after `node` among the items a person can reach now. @param {TreeNode} node */
  function nextTask(node) {
    // A read-only activity has nothing to enter: the chain goes on past it.
    for (let next = nextVisible(node); next; next = nextVisible(next)) {
      if (next.data.kind === 'task' && next.data.editable !== false) return next;
    }
    return undefined;
  }

  const walk = createTreeWalk({ expand, childrenOf, renderedOf, renderMore, focusNode });

  return {
    /** The tree's element (`role="tree"`), and the marker after its rendered roots. */
    list,
    rootSentinel,
    /**
     * Takes the first level; false when it has no node. @param {readonly ScreenNode[]} nodes
     */
    setRoots(nodes) {
      roots = nodes.map((node) => makeNode(node, null));
      rootsRendered = 0;
      return roots.length > 0;
    },
    /** Shows the first chunk of the roots, the first holding the tab stop: once `list` and `rootSentinel` are in the page. */
    showRoots() {
      list.replaceChildren();
      renderMore(null);
      const first = roots[0];
      if (first) first.item.tabIndex = 0;
    },
    /** @param {Element | null | undefined} item @returns {TreeNode | undefined} */
    nodeOf: (item) => (item instanceof HTMLElement ? nodeOf.get(item) : undefined),
    /** Every node built so far. */
    nodes: () => nodeOf.values(),
    /**
     * The nodes built so far that show an activity's metric row (one per node its group hangs from).
     * @param {{ activity: number, group?: number | null | undefined }} key
     * @returns {readonly TreeNode[]}
     */
    tasksOf: (key) => tasks.get(keyOf(key)) ?? [],
    /**
     * How many activities below each branch have values (the progress): shown beside each branch,
     * now and as branches are read.
     * @param {(level: number, id: number) => { filled: number, activities: number } | undefined} countOf
     */
    setCounts(countOf) {
      counts = countOf;
      for (const node of nodeOf.values()) {
        if (node.data.kind === 'branch')
          paintCount(node, node.item.querySelector(`:scope > .${BLOCK}__row > .${BLOCK}__branch-count`));
      }
    },
    expand,
    collapse,
    toggle,
    visibleItems,
    focusNode,
    currentNode,
    nextVisible,
    lastVisible,
    nextTask,
    nextTaskInSheet: walk.nextTaskInSheet,
    openPath: walk.openPath,
    destroy() {
      moreObserver?.disconnect();
      nodeOf.clear();
      tasks.clear();
    },
  };
}

/** @typedef {ReturnType<typeof createTree>} Tree */
